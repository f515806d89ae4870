//! `--threads` reaches every parallel step: they all go through `parallel::install`, the
//! one entry point, which runs them on a pool of the requested size.
//!
//! Two checks. (1) A lint over `src/`: every rayon parallel construct (`par_iter`,
//! `par_chunks_mut`, `rayon::join`, ...) sits inside the parentheses of an `install(` call,
//! so a new site cannot forget the entry point. (2) At run time, in this test binary's own
//! process: with `set_threads(Some(3))`, each parallel site (distance passes of the scan and
//! of both filtered scans, ball buckets, kd-tree build and neighbour lists, block repair,
//! split units, record linkage) is driven above its parallel threshold; each must pass
//! through `install` on a pool of 3 threads (2 is this machine's default), and rayon's global
//! pool must never have been built (a site that bypassed the entry point would build it).

mod common;
use microagg::geometry::pool::{self, PARALLEL_MIN};
use microagg::geometry::spatial::Backend;
use microagg::init::lineage::engine::{self, Rules, Scope};
use microagg::method::StopRule;
use microagg::parallel::{self, install_record};
use std::path::Path;

/// Rayon calls that start parallel work.
const PARALLEL_CALLS: [&str; 13] = [
    "par_iter(",
    "par_iter_mut(",
    "into_par_iter(",
    "par_chunks",
    "par_bridge(",
    "par_sort",
    "par_extend(",
    "par_windows(",
    "par_split",
    "rayon::join(",
    "rayon::scope(",
    "rayon::spawn(",
    "rayon::broadcast(",
];

/// The source with comments and string literals blanked (same length, newlines kept), so
/// that parentheses and names are only the code's.
fn code_only(src: &str) -> Vec<u8> {
    let b = src.as_bytes();
    let mut out = b.to_vec();
    let mut i = 0;
    while i < b.len() {
        if b[i..].starts_with(b"//") {
            while i < b.len() && b[i] != b'\n' {
                out[i] = b' ';
                i += 1;
            }
        } else if b[i..].starts_with(b"/*") {
            while i < b.len() && !b[i..].starts_with(b"*/") {
                if b[i] != b'\n' {
                    out[i] = b' ';
                }
                i += 1;
            }
        } else if b[i] == b'"' {
            i += 1;
            while i < b.len() && b[i] != b'"' {
                if b[i] == b'\\' {
                    out[i] = b' ';
                    i += 1;
                }
                if b[i] != b'\n' {
                    out[i] = b' ';
                }
                i += 1;
            }
            i += 1;
        } else if b[i] == b'\'' && i + 2 < b.len() && (b[i + 2] == b'\'' || b[i + 1] == b'\\') {
            // A char literal such as '(' (lifetimes have no closing quote right after).
            let end = b[i + 1..].iter().position(|&c| c == b'\'').unwrap() + i + 1;
            out[i..=end].iter_mut().for_each(|c| *c = b' ');
            i = end + 1;
        } else {
            i += 1;
        }
    }
    out
}

/// True when position `at` lies inside the parentheses of a call of `install`.
fn inside_install(code: &[u8], at: usize) -> bool {
    let mut depth = 0usize;
    for p in (0..at).rev() {
        match code[p] {
            b')' => depth += 1,
            b'(' if depth > 0 => depth -= 1,
            b'(' => {
                let before = &code[..p];
                let name_start = before
                    .iter()
                    .rposition(|c| !(c.is_ascii_alphanumeric() || *c == b'_'))
                    .map_or(0, |s| s + 1);
                if &before[name_start..] == b"install" {
                    return true;
                }
            }
            _ => {}
        }
    }
    false
}

/// Every parallel call in the library sits inside `install(...)`. Test modules are
/// exempt (they build their own pools to compare thread counts).
#[test]
fn every_parallel_call_is_inside_the_pool_entry_point() {
    let mut files = Vec::new();
    common::rust_sources(
        &Path::new(env!("CARGO_MANIFEST_DIR")).join("src"),
        &mut files,
    );
    files.sort();
    let (mut found, mut outside) = (0, Vec::new());
    for file in &files {
        if file.file_name().is_some_and(|f| f == "tests.rs") {
            continue;
        }
        let src = std::fs::read_to_string(file).unwrap();
        // Unit tests at the end of a file (`#[cfg(test)] mod tests { ... }`) are exempt.
        let lib = src.split("#[cfg(test)]\nmod tests {").next().unwrap();
        let code = code_only(lib);
        let text = String::from_utf8(code.clone()).unwrap();
        for call in PARALLEL_CALLS {
            for (at, _) in text.match_indices(call) {
                // Whole names only (`par_iter(` is also the tail of `into_par_iter(`).
                let prev = code[..at].last().copied().unwrap_or(b' ');
                if prev.is_ascii_alphanumeric() || prev == b'_' {
                    continue;
                }
                found += 1;
                if !inside_install(&code, at) {
                    let line = text[..at].matches('\n').count() + 1;
                    outside.push(format!("{}:{line}: {call}", file.display()));
                }
            }
        }
    }
    // The library has parallel steps in several modules; finding none means the scan broke.
    assert!(found >= 12, "only {found} parallel calls found in src/");
    assert!(
        outside.is_empty(),
        "parallel calls outside parallel::install (they would run on rayon's global pool, \
         ignoring --threads):\n{}",
        outside.join("\n")
    );
}

/// The lint itself: it finds a call outside `install`, accepts one inside (also through a
/// nested closure and a multi-line chain), and is not fooled by parentheses in comments,
/// strings or char literals.
#[test]
fn the_lint_tells_inside_from_outside() {
    let check = |src: &str| {
        let code = code_only(src);
        let text = String::from_utf8(code.clone()).unwrap();
        let at = text.find("par_iter(").expect("a call");
        inside_install(&code, at)
    };
    assert!(check(
        "let v = pool::install(|| x.par_iter().map(f).collect());"
    ));
    assert!(check(
        "let v = install(|| {\n    let y = g(1);\n    y\n        .par_iter()\n        .sum()\n});"
    ));
    assert!(!check("pool::threads();\nlet v = x.par_iter().sum();"));
    assert!(!check("install(|| f());\nlet v = x.par_iter().sum();"));
    assert!(!check("reinstall(|| x.par_iter().sum());"));
    assert!(!check("let s = \"install(\"; x.par_iter().sum()"));
    assert!(!check("// install(\nx.par_iter().sum()"));
    assert!(!check("let c = '('; install(|| 1); x.par_iter().sum()"));
    assert!(check("install(|| { let c = ')'; x.par_iter().sum() })"));
}

fn unstoppable(backend: Backend) -> Scope<'static> {
    Scope {
        ids: None,
        backend,
        stop: StopRule::NEVER,
    }
}

/// Run `step`; it must call `install` at least once, and only on pools of 3 threads.
fn through_install(name: &str, step: impl FnOnce()) {
    let (before, _) = install_record();
    step();
    let (after, sizes) = install_record();
    assert!(
        after > before,
        "{name}: no parallel step went through install"
    );
    assert_eq!(
        sizes,
        1 << 3,
        "{name}: pool sizes seen (bit set) {sizes:#b}, want 3 only"
    );
}

#[test]
fn every_parallel_site_runs_on_the_requested_pool() {
    // 3: not this 2-core machine's default, so rayon's default pool would show.
    parallel::set_threads(Some(3));
    assert_eq!(parallel::threads(), 3);
    let n = PARALLEL_MIN + 2000;
    let inst = common::synthetic(&format!("gauss:n={n},d=4,clusters=4,seed=3"));
    through_install("scan pass", || {
        let cols: Vec<Vec<f64>> = (0..inst.d)
            .map(|j| (0..n).map(|i| inst.row(i)[j]).collect())
            .collect();
        let mut dist = vec![0.0; n];
        pool::squared_distances(&cols, inst.row(0), &mut dist);
    });
    for backend in [Backend::Fixed, Backend::Filter, Backend::Buckets] {
        through_install(&format!("{backend:?}"), || {
            engine::groups_in("t", &inst, 400, Rules::MDAV, unstoppable(backend)).unwrap();
        });
    }
    through_install("kd-tree lists", || {
        microagg::geometry::knn::all_nearest(&inst.z, inst.d, 3, || false, |_| {}).unwrap();
    });
    through_install("approximate kd-tree lists", || {
        microagg::geometry::knn::all_nearest_approx(&inst.z, inst.d, 3, 1.0, || false, |_| {})
            .unwrap();
    });
    through_install("record linkage", || {
        let small = &inst.z[..2000 * inst.d];
        microagg::measure::risk::dbrl_percent(small, small, inst.d);
    });
    through_install("blocks, repair and split units", || {
        use microagg::parts::{solve_split, UnitSolver};
        let inst = common::synthetic("gauss:n=2000,d=3,clusters=4,seed=5");
        let pipeline = microagg::pipeline::Pipeline::parse("mdav", &[]).unwrap();
        let go = std::sync::atomic::AtomicBool::new(false);
        let solver = UnitSolver {
            max_steps: Some(20),
            ..UnitSolver::new(&inst, &pipeline, 3, 1, &go)
        };
        let out = solve_split(&solver, None, Some(500), None).unwrap();
        assert!(out.units >= 4 && !out.repair.is_empty());
    });
    // No site ran on rayon's global pool: it was never built, so building it now works.
    assert!(
        build_global_pool(),
        "rayon's global pool was built: some parallel step bypassed parallel::install"
    );
}

/// Builds rayon's global pool (one thread): true when this built it, false when it had been
/// built already.
fn build_global_pool() -> bool {
    rayon::ThreadPoolBuilder::new()
        .num_threads(1)
        .build_global()
        .is_ok()
}

/// What the last check of [`every_parallel_site_runs_on_the_requested_pool`] relies on: a
/// parallel call outside any pool builds rayon's global pool, after which `build_global`
/// fails. Run in a child process (this binary, the ignored probe below) so that this
/// process's global pool stays unbuilt.
#[test]
fn a_parallel_call_outside_the_entry_point_is_noticed() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "bypass_probe",
            "--ignored",
            "--test-threads",
            "1",
        ])
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success(), "probe failed:\n{stdout}");
    assert!(stdout.contains("1 passed"), "probe did not run:\n{stdout}");
}

#[test]
#[ignore = "run by a_parallel_call_outside_the_entry_point_is_noticed in its own process"]
fn bypass_probe() {
    use rayon::prelude::*;
    let sum: u64 = (0..100_000u64).into_par_iter().sum();
    assert_eq!(sum, 4_999_950_000);
    assert!(
        !build_global_pool(),
        "the bypass did not build the global pool: the check in every_parallel_site_runs_on_the_requested_pool could not fail"
    );
}
