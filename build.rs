//! Records the git commit of the build in MICROAGG_GIT_COMMIT (for reproducible run records).
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

fn main() {
    let commit = git(&["rev-parse", "HEAD"]).unwrap_or_else(|| "unknown".into());
    println!("cargo:rustc-env=MICROAGG_GIT_COMMIT={commit}");
    // Outside a git checkout nothing is watched but this script.
    println!("cargo:rerun-if-changed=build.rs");
    for file in watched() {
        println!("cargo:rerun-if-changed={}", file.display());
    }
}
