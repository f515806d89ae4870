//! "Proven optimal" must be a proof (issue 18, item 0; `proofs/P12-certified-branch-and-bound.md`):
//! both exact methods against an independent brute force over all set partitions on
//! adversarial tiny instances (two far-apart clusters with tiny spreads, duplicates, outliers,
//! extreme scales, ties on a grid), and on two-cluster families at n = 16 (against the subset
//! DP) and n = 20 (against MDAV and the nn bound). Checked on every instance: the labels are
//! feasible, the reported SSE is theirs, the certified lower bound is at most the optimum, and
//! a "proven" answer is within the proof gap of the optimum. Most answers must be proven
//! (a solver that never claims a proof would pass the rest).

use crate::common;
use common::{brute_force_optimum, from_rows, run_method};
use microagg_solvers::bounds::nn_bound;
use microagg_solvers::exact::{
    solve_exact_with, ExactMethod, ExactOptions, ExactSolution, PROOF_REL_GAP,
};
use microagg_solvers::sse::partition_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn with(method: ExactMethod) -> ExactOptions<'static> {
    ExactOptions {
        method,
        ..Default::default()
    }
}

/// A small absolute slack for comparing SSEs of different partitions that may be equal in
/// exact arithmetic: far below any real difference at the scale of the data.
fn slack(x: &[f64]) -> f64 {
    1e-20 * x.iter().map(|v| v * v).sum::<f64>()
}

/// Check one solve against the optimum `opt`; returns the solution.
/// The subset DP's solution of `x`, and set partitioning's, checked by [`solve_and_check`]
/// against the DP's SSE.
fn set_partitioning_against_dp(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    tag: &str,
) -> (ExactSolution, ExactSolution) {
    let dp = solve_exact_with(x, n, d, k, &with(ExactMethod::SubsetDp)).unwrap();
    let s = solve_and_check(x, n, d, k, ExactMethod::SetPartitioning, dp.sse, tag);
    (dp, s)
}

fn solve_and_check(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    method: ExactMethod,
    opt: f64,
    tag: &str,
) -> ExactSolution {
    let s = solve_exact_with(x, n, d, k, &with(method))
        .unwrap_or_else(|e| panic!("{tag} {method:?}: error {e}"));
    let g = s.labels.iter().max().unwrap() + 1;
    let mut sizes = vec![0usize; g];
    s.labels.iter().for_each(|&l| sizes[l] += 1);
    assert!(
        sizes.iter().all(|&z| z >= k),
        "{tag} {method:?}: sizes {sizes:?}"
    );
    assert_eq!(s.sse, partition_sse(x, d, &s.labels), "{tag} {method:?}");
    let tol = slack(x);
    assert!(
        s.lower_bound <= opt * (1.0 + 1e-12) + tol,
        "{tag} {method:?}: lower bound {} above the optimum {opt}",
        s.lower_bound
    );
    assert!(
        s.sse >= opt * (1.0 - 1e-12) - tol,
        "{tag} {method:?}: {} below the optimum {opt}",
        s.sse
    );
    if s.proven_optimal {
        assert!(
            s.sse <= opt * (1.0 + PROOF_REL_GAP) + tol,
            "{tag} {method:?}: 'proven' SSE {} but the optimum is {opt} (labels {:?})",
            s.sse,
            s.labels
        );
    }
    s
}

/// Rows of one adversarial family member, flattened (n records, d columns).
fn adversarial(rng: &mut ChaCha8Rng, family: usize, n: usize, d: usize) -> Vec<f64> {
    let mut x = vec![0.0; n * d];
    match family {
        // Two far-apart clusters with tiny within-cluster spread.
        0 => {
            let far = 10f64.powi(rng.random_range(0..=4));
            let spread = 10f64.powi(-rng.random_range(2..=7));
            let split = rng.random_range(1..n);
            for i in 0..n {
                for j in 0..d {
                    let centre = if i < split { 0.0 } else { far };
                    x[i * d + j] = centre + spread * rng.random_range(-1.0..1.0);
                }
            }
        }
        // Duplicates: values from {0, 1, 2}, some nudged by 1e-12.
        1 => {
            for v in x.iter_mut() {
                *v = rng.random_range(0..3) as f64;
                if rng.random_bool(0.2) {
                    *v += 1e-12;
                }
            }
        }
        // Outliers: uniform data with one or two records at 1e6.
        2 => {
            for v in x.iter_mut() {
                *v = rng.random_range(-1.0..1.0);
            }
            for _ in 0..rng.random_range(1..=2) {
                let i = rng.random_range(0..n);
                x[i * d] = 1e6;
            }
        }
        // Extreme scales: uniform data multiplied by 1e-9 .. 1e9.
        3 => {
            let scale = 10f64.powi(3 * rng.random_range(-3..=3));
            for v in x.iter_mut() {
                *v = scale * rng.random_range(-1.0..1.0);
            }
        }
        // Ties: points of a small integer grid.
        _ => {
            for v in x.iter_mut() {
                *v = rng.random_range(0..4) as f64;
            }
        }
    }
    x
}

#[test]
fn issue_reproducer_is_solved_exactly() {
    // 8 values, d = 1, k = 2: on the z-scored data (as the CLI sees them) the set-partitioning
    // method used to "prove" SSE 2.568e-9 where the optimum is 1.062e-9.
    let v = [
        -0.000120, 0.001025, 0.000272, 0.000686, -0.002006, 99.999345, 100.000230, 100.000013,
    ];
    let inst = from_rows(&v.iter().map(|&a| vec![a]).collect::<Vec<_>>());
    let opt = brute_force_optimum(&inst.z, 8, 1, 2);
    assert!((opt - 1.0617e-9).abs() < 1e-12, "brute force {opt}");
    for method in [ExactMethod::SetPartitioning, ExactMethod::SubsetDp] {
        assert!(
            solve_and_check(&inst.z, 8, 1, 2, method, opt, "reproducer z").proven_optimal,
            "{method:?} not proven"
        );
    }
    // The raw values (SSE about 2500 times larger).
    let opt = brute_force_optimum(&v, 8, 1, 2);
    for method in [ExactMethod::SetPartitioning, ExactMethod::SubsetDp] {
        assert!(
            solve_and_check(&v, 8, 1, 2, method, opt, "reproducer raw").proven_optimal,
            "{method:?} not proven"
        );
    }
}

#[test]
fn proofs_hold_against_brute_force_on_adversarial_tiny_instances() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_000_001);
    let (mut cases, mut proven) = (0, 0);
    // MICROAGG_PROOF_CASES=N runs a longer sweep (default 300 instances).
    let count = std::env::var("MICROAGG_PROOF_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(300);
    for case in 0..count {
        let family = case % 5;
        let n = rng.random_range(4..=10);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3usize).min(n / 2).max(1);
        let x = adversarial(&mut rng, family, n, d);
        let opt = brute_force_optimum(&x, n, d, k);
        let tag = format!("case {case} family {family} (n={n}, d={d}, k={k})");
        for method in [ExactMethod::SetPartitioning, ExactMethod::SubsetDp] {
            cases += 1;
            let s = solve_and_check(&x, n, d, k, method, opt, &tag);
            if !s.proven_optimal && std::env::var("MICROAGG_PROOF_CASES").is_ok() {
                eprintln!(
                    "{tag}: unproven: {:?} bound {:e} sse {:e}",
                    s.note, s.lower_bound, s.sse
                );
            }
            proven += s.proven_optimal as usize;
        }
    }
    // Both methods prove every instance (4000 of 4000 solves with MICROAGG_PROOF_CASES=2000).
    eprintln!("{proven} of {cases} solves proven");
    assert_eq!(proven, cases, "only {proven} of {cases} proven");
}

/// Two clusters far apart (centres 0 and 50 on every attribute), tiny spread in one, a wider
/// one in the other: the family on which the HiGHS-based proof failed at n = 20.
fn two_clusters(rng: &mut ChaCha8Rng, n: usize, d: usize) -> Vec<Vec<f64>> {
    let split = rng.random_range(n / 4..=3 * n / 4);
    let tiny = 10f64.powi(-rng.random_range(3..=8));
    (0..n)
        .map(|i| {
            (0..d)
                .map(|_| {
                    if i < split {
                        tiny * rng.random_range(-1.0..1.0)
                    } else {
                        50.0 + rng.random_range(-1.0..1.0)
                    }
                })
                .collect()
        })
        .collect()
}

#[test]
fn two_cluster_family_at_n16_equals_the_subset_dp() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_000_016);
    let mut proven = 0;
    for case in 0..16 {
        let d = rng.random_range(1..=2);
        let k = rng.random_range(2..=3);
        let inst = from_rows(&two_clusters(&mut rng, 16, d));
        let tag = format!("case {case} (d={d}, k={k})");
        let (dp, s) = set_partitioning_against_dp(&inst.z, 16, d, k, &tag);
        assert!(dp.proven_optimal);
        proven += s.proven_optimal as usize;
    }
    assert!(proven >= 15, "only {proven} of 16 proven");
}

#[test]
fn two_cluster_family_at_n20_never_proves_worse_than_mdav() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_000_020);
    let mut proven = 0;
    for case in 0..20 {
        let d = rng.random_range(1..=3);
        let k = 3;
        let inst = from_rows(&two_clusters(&mut rng, 20, d));
        let s = solve_exact_with(&inst.z, 20, d, k, &with(ExactMethod::SetPartitioning)).unwrap();
        let (mdav, _) = run_method(&inst, "mdav", k, 0);
        let nn = nn_bound(&inst.z, 20, d, k).unwrap().lower_bound;
        let tag = format!("case {case} (d={d})");
        assert!(
            s.lower_bound <= mdav,
            "{tag}: bound {} above MDAV {mdav}",
            s.lower_bound
        );
        assert!(s.lower_bound >= 0.0 && s.sse >= nn * (1.0 - 1e-12), "{tag}");
        if s.proven_optimal {
            proven += 1;
            assert!(
                s.sse <= mdav * (1.0 + 1e-12),
                "{tag}: proven {} > MDAV {mdav}",
                s.sse
            );
        }
    }
    assert!(proven >= 18, "only {proven} of 20 proven");
}

/// Near-duplicate rows: two values per attribute, each nudged by up to 1e-9 (the family on
/// which the time limit was not a limit and HiGHS' answers failed to cover every record).
fn near_duplicates(rng: &mut ChaCha8Rng, n: usize, d: usize) -> Vec<Vec<f64>> {
    (0..n)
        .map(|_| {
            (0..d)
                .map(|_| rng.random_range(0..2) as f64 + 1e-9 * rng.random_range(-1.0..1.0))
                .collect()
        })
        .collect()
}

#[test]
fn near_duplicates_are_solved_without_errors() {
    // Issue 23 item 4: "inconsistent solve" without a time limit on an 18-row near-duplicate
    // file. The answer must be the subset DP's optimum.
    let mut rng = ChaCha8Rng::seed_from_u64(23_004);
    for case in 0..3 {
        let inst = from_rows(&near_duplicates(&mut rng, 18, 2));
        let tag = format!("near-duplicates case {case}");
        let (dp, s) = set_partitioning_against_dp(&inst.z, 18, 2, 3, &tag);
        assert!(
            s.proven_optimal,
            "{tag}: not proven ({:?}, bound {:e}, SSE {:e}, optimum {:e})",
            s.note, s.lower_bound, s.sse, dp.sse
        );
    }
}

#[test]
fn time_limited_answers_are_feasible_never_worse_than_mdav_with_valid_bounds() {
    // Issue 23 items 3-4: with a time limit the method returned errors ("record 0 not covered
    // by the MIP solution") or partitions far worse than MDAV. It must return its best
    // feasible partition, never worse than MDAV, with a valid bound, unproven or proven.
    let mut rng = ChaCha8Rng::seed_from_u64(23_003);
    let near = from_rows(&near_duplicates(&mut rng, 20, 2));
    let gauss = common::synthetic("gauss:n=50,d=2,clusters=10,seed=4");
    for (inst, k) in [(&near, 3), (&gauss, 3), (&gauss, 5)] {
        let (n, d) = (inst.n, inst.d);
        // The CLI passes MDAV's labels as the starting partition, as here.
        let (mdav, mdav_labels) = run_method(inst, "mdav", k, 0);
        for limit in [1e-6, 1e-3, 0.05, 0.5] {
            let opts = ExactOptions {
                method: ExactMethod::SetPartitioning,
                time_limit: Some(limit),
                hint: Some(mdav_labels.clone()),
                ..Default::default()
            };
            let tag = format!("{} k={k} limit {limit}", inst.name);
            let s =
                solve_exact_with(&inst.z, n, d, k, &opts).unwrap_or_else(|e| panic!("{tag}: {e}"));
            let g = s.labels.iter().max().unwrap() + 1;
            let mut sizes = vec![0usize; g];
            s.labels.iter().for_each(|&l| sizes[l] += 1);
            assert!(sizes.iter().all(|&z| z >= k), "{tag}: sizes {sizes:?}");
            assert_eq!(s.sse, partition_sse(&inst.z, d, &s.labels), "{tag}");
            assert!(
                s.sse <= mdav * (1.0 + 1e-12),
                "{tag}: {} worse than MDAV {mdav}",
                s.sse
            );
            assert!(s.lower_bound >= 0.0 && s.lower_bound <= s.sse, "{tag}");
            assert!(
                s.proven_optimal || s.note.is_some(),
                "{tag}: unproven without a reason"
            );
        }
    }
}
