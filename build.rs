//! Records the git commit of the build in MICROAGG_GIT_COMMIT (for reproducible run records),
//! and links the C++ runtime into the command-line program statically ([`static_libstdcxx`]).
//!
//! The script re-runs (and so the library is rebuilt) only when the checkout's commit can
//! have changed: the checkout's HEAD file, the loose ref HEAD points to, and packed-refs.
//! Watching the whole refs/heads directory, as before, rebuilt the library after every
//! commit on any branch of any worktree. `git rev-parse --git-path` finds these files in a
//! linked worktree too, where `.git` is a file (HEAD is the worktree's own, the refs are the
//! common directory's): the old relative `.git/HEAD` did not exist there, and a missing
//! file made cargo re-run the script, and rebuild the library, on every build.

use std::path::{Path, PathBuf};
use std::process::Command;

/// Trimmed stdout of `git ARGS` run in the package directory, when git succeeds.
fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_string())
}

/// The files whose change can change `git rev-parse HEAD`. A path that does not exist is
/// left out (cargo would re-run the script on every build); a symbolic ref whose loose file
/// does not exist yet (packed only) is watched through its directory, where git writes it.
fn watched() -> Vec<PathBuf> {
    let path = |name: &str| git(&["rev-parse", "--git-path", name]).map(PathBuf::from);
    let mut files = Vec::new();
    files.extend(path("HEAD"));
    if let Some(target) = git(&["symbolic-ref", "-q", "HEAD"]).and_then(|r| path(&r)) {
        if target.exists() {
            files.push(target);
        } else {
            files.extend(target.parent().map(Path::to_path_buf));
        }
    }
    files.extend(path("packed-refs"));
    files.retain(|f| f.exists());
    files
}

/// HiGHS is C++, so the `microagg` program needs libstdc++. Loading the shared library is a
/// fixed cost of every run before `main` (the loader's symbol lookups and relocations for
/// it, its own start-up), a large share of a small run such as `--version` or MDAV on a
/// CASC file; linked from libstdc++.a most of it goes (`LD_DEBUG=statistics` shows the
/// symbol relocations fall from about 2100 to about 400). rustc passes `-lstdc++` itself,
/// after any argument a build script can add, so the archive is offered through a folder
/// holding only `libstdc++.a`, searched before the compiler's own folders (ld takes the
/// first folder holding either form). Binaries only: tests, examples and the Python module
/// keep the shared library. Where the compiler has no libstdc++.a, or the target is not
/// Linux with glibc, nothing changes.
fn static_libstdcxx() {
    let target = |key: &str| std::env::var(key).unwrap_or_default();
    if target("CARGO_CFG_TARGET_OS") != "linux" || target("CARGO_CFG_TARGET_ENV") != "gnu" {
        return;
    }
    println!("cargo:rerun-if-env-changed=CXX");
    let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
    let archive = Command::new(cxx)
        .arg("-print-file-name=libstdc++.a")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    // Without the archive the compiler prints the bare name back.
    let Some(archive) = archive.filter(|a| a.is_absolute() && a.is_file()) else {
        return;
    };
    let Some(out) = std::env::var_os("OUT_DIR") else {
        return;
    };
    let dir = PathBuf::from(out).join("static-libstdcxx");
    if std::fs::create_dir_all(&dir).is_ok()
        && std::fs::copy(&archive, dir.join("libstdc++.a")).is_ok()
    {
        println!("cargo:rustc-link-arg-bins=-L{}", dir.display());
    }
}

fn main() {
    static_libstdcxx();
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=MICROAGG_GIT_COMMIT={commit}");
    // Outside a git checkout nothing is watched but this script.
    println!("cargo:rerun-if-changed=build.rs");
    for file in watched() {
        println!("cargo:rerun-if-changed={}", file.display());
    }
}
