//! The one-shot MIP models written against good_lp (`microagg_solvers::models`): the pool
//! model gives HiGHS the same problem as the native HiGHS code it replaced (same values,
//! status and node count, so the same labels), and the exact set-partitioning and compact
//! models reach the brute-force optimum, on 120 small instances each, adversarial ones
//! included (`common::adversarial_family`). A solver name that is unknown or not compiled in
//! is refused with a message naming the feature.

use crate::common;
use common::{adversarial_family, brute_force_optimum};
use microagg_solvers::merge::groups_of;
use microagg_solvers::models::compact::compact_partition;
use microagg_solvers::models::exact::{exact_set_partition, ModelPartition};
use microagg_solvers::models::native::pool_mip_highs;
use microagg_solvers::models::set_partition::{picked_labels, solve_pool_mip};
use microagg_solvers::models::{MipRun, MipSolver, MipStatus};
use microagg_solvers::sse::{group_sse, partition_sse};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random labelling of `n` records into groups of `k..=2k-1` (shuffled chunks).
fn random_partition(rng: &mut ChaCha8Rng, n: usize, k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let mut labels = vec![0; n];
    let (mut at, mut group) = (0, 0);
    while at < n {
        let left = n - at;
        let size = if left < 2 * k {
            left
        } else {
            rng.random_range(k..=(2 * k - 1).min(left - k))
        };
        for &i in &order[at..at + size] {
            labels[i] = group;
        }
        at += size;
        group += 1;
    }
    labels
}

/// One small instance: (x, n, d, k).
fn instance(rng: &mut ChaCha8Rng, case: usize, n_max: usize) -> (Vec<f64>, usize, usize, usize) {
    let k = 2 + case % 2;
    let n = rng.random_range(2 * k..=n_max);
    let d = 1 + case % 3;
    (adversarial_family(rng, case, n, d), n, d, k)
}

#[test]
fn pool_model_gives_highs_the_native_problem() {
    let mut rng = ChaCha8Rng::seed_from_u64(54);
    let mut improved = 0;
    for case in 0..120 {
        let (x, n, d, k) = instance(&mut rng, case, 16);
        // The pool: the groups of several random partitions; the start is the first one.
        let parts: Vec<Vec<usize>> = (0..4).map(|_| random_partition(&mut rng, n, k)).collect();
        let mut columns: Vec<Vec<u32>> = Vec::new();
        for p in &parts {
            for g in groups_of(p) {
                if !columns.contains(&g) {
                    columns.push(g);
                }
            }
        }
        let start_columns: Vec<usize> = groups_of(&parts[0])
            .iter()
            .map(|g| columns.iter().position(|c| c == g).unwrap())
            .collect();
        let scale = microagg_solvers::sse::pow2_near(n as f64 / partition_sse(&x, d, &parts[0]));
        let costs: Vec<f64> = columns
            .iter()
            .map(|g| {
                let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
                group_sse(&x, d, &m) * scale
            })
            .collect();
        let refs: Vec<&[u32]> = columns.iter().map(Vec::as_slice).collect();
        let run = MipRun::default();
        // Half the cases without a start (as the exact method's heuristic MIP runs).
        let start = (case % 2 == 0).then_some(start_columns.as_slice());
        let ours = solve_pool_mip(n, &refs, &costs, start, MipSolver::Highs, &run).unwrap();
        let native = pool_mip_highs(n, &refs, &costs, start, &run).unwrap();
        assert_eq!(ours.status, MipStatus::Optimal, "case {case}");
        let bits = |v: &[f64]| v.iter().map(|f| f.to_bits()).collect::<Vec<_>>();
        assert_eq!(
            bits(&ours.values),
            bits(&native.values),
            "case {case}: values"
        );
        assert_eq!(ours.status, native.status, "case {case}");
        assert_eq!(ours.nodes, native.nodes, "case {case}: nodes");
        let labels = picked_labels(n, &refs, &ours.values).expect("a partition");
        improved += usize::from(partition_sse(&x, d, &labels) < partition_sse(&x, d, &parts[0]));
    }
    // The pools are rich enough that the MIP often beats its start (the check is not idle).
    assert!(improved >= 30, "{improved} of 120 improved");
}

/// Relative agreement of two SSEs computed from different labels of the same optimum.
fn same_optimum(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + b.abs())
}

/// The model `solve` (HiGHS, no limits) on 120 cases from [`instance`] (n up to `n_max`,
/// drawn from the seed `seed`): proven optimal at the brute-force optimum. Returns each
/// case's (x, n, d, k, solution) for the model's own checks.
fn solved_at_the_brute_force_optimum<E: std::fmt::Debug>(
    seed: u64,
    n_max: usize,
    solve: impl Fn(&[f64], usize, usize, usize, MipSolver, &MipRun) -> Result<ModelPartition, E>,
) -> Vec<(Vec<f64>, usize, usize, usize, ModelPartition)> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    (0..120)
        .map(|case| {
            let (x, n, d, k) = instance(&mut rng, case, n_max);
            let r = solve(&x, n, d, k, MipSolver::Highs, &MipRun::default()).unwrap();
            let best = brute_force_optimum(&x, n, d, k);
            assert_eq!(r.status, MipStatus::Optimal, "case {case}");
            assert!(
                same_optimum(r.sse, best),
                "case {case} (n {n} k {k}): {} vs {best}",
                r.sse
            );
            (x, n, d, k, r)
        })
        .collect()
}

#[test]
fn exact_set_partitioning_model_reaches_the_brute_force_optimum() {
    for (x, _, d, _, r) in solved_at_the_brute_force_optimum(541, 10, exact_set_partition) {
        assert_eq!(r.sse, partition_sse(&x, d, &r.labels));
    }
}

#[test]
fn compact_model_reaches_the_brute_force_optimum() {
    for (_, n, _, k, r) in solved_at_the_brute_force_optimum(542, 8, compact_partition) {
        let mut sizes = vec![0; n];
        r.labels.iter().for_each(|&l| sizes[l] += 1);
        assert!(sizes.iter().all(|&s| s == 0 || (k..2 * k).contains(&s)));
    }
}

#[test]
fn solver_names_are_checked() {
    assert_eq!(MipSolver::parse("highs"), Ok(MipSolver::Highs));
    let unknown = MipSolver::parse("gurobi").unwrap_err();
    assert!(unknown.contains("lp-gurobi"), "{unknown}");
    for s in MipSolver::ALL.into_iter().filter(|s| !s.compiled()) {
        let e = MipSolver::parse(s.name()).unwrap_err();
        assert!(
            e.contains(&format!("--features {}", s.feature().unwrap())),
            "{e}"
        );
        // Solving with it is an error too, never a silent fallback to HiGHS.
        let x = [0.0, 1.0, 2.0, 3.0];
        let e = exact_set_partition(&x, 4, 1, 2, s, &MipRun::default()).unwrap_err();
        assert!(e.to_string().contains("not in this build"), "{e}");
    }
}

#[test]
fn models_refuse_bad_input() {
    let run = MipRun::default();
    let x = [0.0, 1.0, f64::NAN, 3.0];
    assert!(exact_set_partition(&x, 4, 1, 2, MipSolver::Highs, &run).is_err());
    assert!(compact_partition(&x, 4, 1, 2, MipSolver::Highs, &run).is_err());
    let big: Vec<f64> = (0..40).map(f64::from).collect();
    let e = exact_set_partition(&big, 40, 1, 5, MipSolver::Highs, &run).unwrap_err();
    assert!(e.to_string().contains("at most"), "{e}");
    let e = compact_partition(&big, 40, 1, 3, MipSolver::Highs, &run).unwrap_err();
    assert!(e.to_string().contains("at most 30"), "{e}");
}

#[test]
fn solve_exact_and_bnp_take_the_mip_solver_parameter() {
    let dir = tempfile::tempdir().unwrap();
    let data = dir.path().join("d.csv");
    let mut rng = ChaCha8Rng::seed_from_u64(5454);
    let rows: Vec<Vec<f64>> = (0..24)
        .map(|_| vec![rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)])
        .collect();
    common::write_rows_csv(&data, &rows);
    let data = data.to_str().unwrap();
    let exact = ["solve-exact", "--data", data, "--k", "3", "--json"];
    let sp = [&exact[..], &["--method", "set-partitioning"]].concat();
    let default = common::cli_json(&sp);
    let highs = common::cli_json(&[&sp[..], &["--param", "mip_solver=highs"]].concat());
    for key in [
        "sse",
        "lower_bound",
        "proven_optimal",
        "mip_nodes",
        "columns",
    ] {
        assert_eq!(default[key], highs[key], "{key}");
    }
    for s in MipSolver::ALL.into_iter().filter(|s| !s.compiled()) {
        let param = format!("mip_solver={}", s.name());
        let feature = format!("--features {}", s.feature().unwrap());
        let e = common::cli_err(&[&sp[..], &["--param", &param]].concat());
        assert!(e.contains(&feature), "{e}");
        let bnp = ["bound", "--data", data, "--k", "3", "--method", "bnp"];
        let e = common::cli_err(&[&bnp[..], &["--param", &param]].concat());
        assert!(e.contains(&feature), "{e}");
    }
    let e = common::cli_err(&[&exact[..], &["--param", "mip_solver=glpk"]].concat());
    assert!(e.contains("lp-glpk"), "{e}");
}
