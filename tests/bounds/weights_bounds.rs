//! Issue 22, weighted lower bounds (proofs/P41-weighted-nn-bound.md): the weighted
//! nearest-neighbour bound, by scan and from lists of every length, never above the
//! brute-force weighted optimum (every set partition into groups of at least k records) on
//! small adversarial instances (weights 1e-3..1e3, duplicated rows and weights, far
//! clusters); with equal weights c it is c times the unweighted nn bound.

use crate::common;
use common::{
    adversarial_weighted, brute_force_weighted_optimum, cli_json, pairwise_weighted_sse,
    weighted_args,
};
use microagg_solvers::bounds::nn::nn_bound;
use microagg_solvers::bounds::nn_weighted::{weighted_nn_bound, weighted_nn_bound_from_lists};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Each record's other records, nearest first (distance, then id): lists by full sorting.
fn lists_by_sorting(x: &[f64], n: usize, d: usize, m: usize) -> Vec<u32> {
    let dist = |i: usize, j: usize| -> f64 {
        microagg_solvers::sse::sq_dist(&x[i * d..(i + 1) * d], &x[j * d..(j + 1) * d])
    };
    let mut out = Vec::new();
    for i in 0..n {
        let mut c: Vec<(f64, usize)> = (0..n)
            .filter(|&j| j != i)
            .map(|j| (dist(i, j), j))
            .collect();
        c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out.extend(c[..m].iter().map(|p| p.1 as u32));
    }
    out
}

/// The bound is valid: scan and lists of every length (m = k - 1 .. n - 1), never above
/// the brute-force weighted optimum; the lists' relaxation is never above the scan (up to
/// the order of the sums); and the bound is informative (positive on most instances with
/// no zero-cost partition).
/// A small adversarial weighted case, drawn in this order: n in 4..=9, d in 1..=3, k in
/// 2..=min(3, n), rows and weights from [`adversarial_weighted`] (unscaled); with its
/// brute-force weighted optimum: (n, d, k, x, w, optimum).
fn weighted_case(rng: &mut ChaCha8Rng) -> (usize, usize, usize, Vec<f64>, Vec<f64>, f64) {
    let n = rng.random_range(4..=9);
    let d = rng.random_range(1..=3);
    let k = rng.random_range(2..=3.min(n));
    let (x, w) = adversarial_weighted(rng, n, d, false);
    let opt = brute_force_weighted_optimum(&x, d, k, &w);
    (n, d, k, x, w, opt)
}

#[test]
fn weighted_nn_bound_is_below_the_brute_force_weighted_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(22_41);
    let (mut cases, mut informative, mut ratio_sum) = (0, 0, 0.0);
    for case in 0..300 {
        let (n, d, k, x, w, opt) = weighted_case(&mut rng);
        let scan = weighted_nn_bound(&x, n, d, k, &w).unwrap();
        assert!(
            scan.lower_bound <= opt,
            "case {case}: n={n} d={d} k={k} bound {} > optimum {opt}\nx={x:?}\nw={w:?}",
            scan.lower_bound
        );
        assert!(
            scan.lower_bound <= scan.computed && scan.computed <= scan.estimate * (1.0 + 1e-12)
        );
        for m in (k - 1)..n {
            let lists = lists_by_sorting(&x, n, d, m);
            let b = weighted_nn_bound_from_lists(&x, n, d, k, &w, m, &lists).unwrap();
            assert!(
                b.lower_bound <= opt,
                "case {case}: m={m} {} > {opt}",
                b.lower_bound
            );
            assert!(
                b.lower_bound <= scan.lower_bound * (1.0 + 1e-12),
                "case {case}: m={m} lists {} above scan {}",
                b.lower_bound,
                scan.lower_bound
            );
        }
        if opt > 1e-9 {
            cases += 1;
            ratio_sum += scan.lower_bound / opt;
            if scan.lower_bound > 0.0 {
                informative += 1;
            }
        }
    }
    let mean_ratio = ratio_sum / cases as f64;
    eprintln!("{cases} cases with a positive optimum: bound > 0 in {informative}, mean bound/optimum {mean_ratio:.3}");
    assert!(informative * 10 >= cases * 9, "{informative} of {cases}");
    assert!(mean_ratio > 0.2, "mean ratio {mean_ratio}");
}

/// With every weight equal to c the weighted SSE is c SSE, and the bound is c times the
/// unweighted nn bound (P06), up to the certification margins.
#[test]
fn equal_weights_give_c_times_the_nn_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..50 {
        let n = rng.random_range(10..60);
        let d = rng.random_range(1..5);
        let k = rng.random_range(2..=6.min(n));
        let x: Vec<f64> = (0..n * d).map(|_| rng.random_range(-3.0..3.0)).collect();
        let c = 10f64.powf(rng.random_range(-3.0..3.0));
        let b = weighted_nn_bound(&x, n, d, k, &vec![c; n]).unwrap();
        let u = nn_bound(&x, n, d, k).unwrap();
        let want = c * u.computed;
        assert!(b.lower_bound <= want * (1.0 + 1e-12));
        assert!(
            b.lower_bound >= want * (1.0 - 1e-8),
            "{} vs {want}",
            b.lower_bound
        );
        assert_eq!(b.fallbacks, 0);
    }
}

/// In the relaxation a record takes its cheapest partner, not its nearest: record 0's
/// term uses the far light record 2. Hand values of every term.
#[test]
fn a_light_record_takes_its_cheapest_partner() {
    // x = 0 (w 1), 1 (w 1000), 10 (w 0.001); k = 2; f_i(T) = sum_T w_j d_ij / (w_i + sum_T w_j).
    // Record 0: {1} gives 1000 / 1001 = 0.999, {2} gives 0.1 / 1.001 = 0.0999: the far one.
    // Record 1: {0} gives 1 / 1001, {2} gives 0.081 / 1000.001 = 8.1e-5.
    // Record 2: {0} gives 100 / 1.001, {1} gives 81000 / 1000.001 = 80.99992.
    // (Larger sets only raise these.)
    let x = [0.0, 1.0, 10.0];
    let w = [1.0, 1000.0, 0.001];
    let l0: f64 = 0.1 / 1.001;
    let l1: f64 = 0.081 / 1000.001;
    let l2: f64 = 81000.0 / 1000.001;
    let want = 0.5 * (w[0] * l0 + w[1] * l1 + w[2] * l2);
    let b = weighted_nn_bound(&x, 3, 1, 2, &w).unwrap();
    assert!(
        (b.estimate - want).abs() <= 1e-12 * want,
        "{} vs {want}",
        b.estimate
    );
    assert!(b.lower_bound <= want && b.lower_bound >= want * (1.0 - 1e-9));
    // The only feasible partition for n = 3, k = 2 is one group.
    let opt = pairwise_weighted_sse(&x, 1, &w, &[0, 1, 2]);
    assert!(b.lower_bound <= opt);
}

/// `bound --weights` and `run --bound nn --weights` report the same weighted bound, below
/// the weighted SSE of every partition the run finds and below the brute-force weighted
/// optimum of the z-scores; the weighted gap is `100 (SSE_w - LB_w) / LB_w`; the top-level
/// bound stays the unweighted nn bound of the unweighted SSE.
#[test]
fn cli_reports_the_weighted_bound_and_gap() {
    let n = 9;
    let (_dir, path, w) = common::weighted_csv_in_tempdir(3, n);
    let d = path.to_str().unwrap();
    let b = cli_json(&weighted_args("bound", d, "3", &["--json"]));
    let lb = b["lower_bound"].as_f64().unwrap();
    assert_eq!(b["method"], "nn");
    assert_eq!(b["certified"], true);
    assert_eq!(b["details"]["weighted"], true);
    assert!(lb > 0.0);
    // The brute-force weighted optimum on the instance's z-scores.
    let inst =
        microagg::data::load_weighted(d, &microagg::data::ColumnSelection::All, b',', "w").unwrap();
    let opt = brute_force_weighted_optimum(&inst.z, inst.d, 3, &w);
    assert!(lb <= opt, "{lb} > {opt}");
    let sst = b["sst_weighted"].as_f64().unwrap();
    assert!((b["il_lower_bound"].as_f64().unwrap() - 100.0 * lb / sst).abs() <= 1e-12 * 100.0);
    for method in ["mdav", "mdav+descent"] {
        let r = cli_json(&weighted_args(
            "run",
            d,
            "3",
            &["--method", method, "--bound", "nn", "--json"],
        ));
        let wb = &r["weights"]["bound"];
        assert_eq!(wb["lower_bound"].as_f64().unwrap().to_bits(), lb.to_bits());
        let sse_w = r["weights"]["sse"].as_f64().unwrap();
        assert!(lb <= opt && opt <= sse_w * (1.0 + 1e-12), "{method}");
        let gap = wb["gap_percent"].as_f64().unwrap();
        assert!((gap - 100.0 * (sse_w - lb) / lb).abs() <= 1e-9 * gap.abs().max(1.0));
        assert_eq!(
            r["weights"]["sst"].as_f64().unwrap().to_bits(),
            sst.to_bits()
        );
        // The top-level bound is the unweighted nn bound, below the unweighted SSE.
        assert!(r["best_bound"]["sse"].as_f64().unwrap() <= r["sse"].as_f64().unwrap());
    }
}

/// The weighted subset DP is the brute-force weighted optimum over all set partitions
/// (values within 1e-12 relative; its labels recomputed give that value), on the same
/// adversarial instances as the bound; and the weighted bound is below it.
#[test]
fn weighted_subset_dp_equals_the_brute_force_weighted_optimum() {
    use microagg_solvers::exact::dp::weighted_subset_dp;
    let mut rng = ChaCha8Rng::seed_from_u64(2203);
    let mut non_contiguous = 0;
    for case in 0..200 {
        let (n, d, k, x, w, opt) = weighted_case(&mut rng);
        let dp = weighted_subset_dp(&x, n, d, k, &w).unwrap();
        let groups = dp.labels.iter().max().unwrap() + 1;
        let members: Vec<Vec<usize>> = (0..groups)
            .map(|g| (0..n).filter(|&i| dp.labels[i] == g).collect())
            .collect();
        assert!(members.iter().all(|m| m.len() >= k), "case {case}");
        let recomputed: f64 = members
            .iter()
            .map(|m| pairwise_weighted_sse(&x, d, &w, m))
            .sum();
        let tol = 1e-12 * opt.max(1e-300);
        assert!(
            (dp.value - opt).abs() <= tol.max(1e-12 * dp.value),
            "case {case}: {} vs {opt}",
            dp.value
        );
        assert!(
            (recomputed - opt).abs() <= tol.max(1e-12 * recomputed),
            "case {case}: {recomputed} vs {opt}"
        );
        assert!(weighted_nn_bound(&x, n, d, k, &w).unwrap().lower_bound <= dp.value);
        if d == 1 {
            // Count optima that are not runs of the sorted values (P40 W4).
            let mut order: Vec<usize> = (0..n).collect();
            order.sort_by(|&a, &b| x[a].total_cmp(&x[b]));
            let runs = order
                .windows(2)
                .filter(|p| dp.labels[p[0]] != dp.labels[p[1]])
                .count();
            if runs + 1 != groups {
                non_contiguous += 1;
            }
        }
    }
    eprintln!("weighted DP: {non_contiguous} optima in d = 1 are not sorted runs");
    // The P40 counterexample: the DP finds the non-contiguous optimum 72.3968.
    let x = [9.7, 7.3, 5.3, 7.6, 9.4, 5.5, 3.5];
    let w = [
        11.5104, 36.7863, 516.9717, 362.2761, 0.3141, 314.4988, 341.2961,
    ];
    let dp = weighted_subset_dp(&x, 7, 1, 2, &w).unwrap();
    assert!((dp.value - 72.3968).abs() < 1e-4, "{}", dp.value);
    assert_eq!(dp.labels[4], dp.labels[6], "9.4 and 3.5 together");
}

/// `solve-exact --weights` gives the weighted subset DP's optimum: equal to the brute
/// force on the z-scores, at most the weighted SSE of any run, above the weighted bound.
#[test]
fn cli_solve_exact_with_weights_is_the_weighted_optimum() {
    let n = 10;
    let (dir, path, w) = common::weighted_csv_in_tempdir(17, n);
    let d = path.to_str().unwrap();
    let labels = dir.path().join("l.txt");
    let e = cli_json(&weighted_args(
        "solve-exact",
        d,
        "3",
        &["--json", "--labels-out", labels.to_str().unwrap()],
    ));
    let inst =
        microagg::data::load_weighted(d, &microagg::data::ColumnSelection::All, b',', "w").unwrap();
    let opt = brute_force_weighted_optimum(&inst.z, inst.d, 3, &w);
    let sse = e["sse_weighted"].as_f64().unwrap();
    assert!((sse - opt).abs() <= 1e-12 * opt, "{sse} vs {opt}");
    let c = cli_json(&weighted_args(
        "check",
        d,
        "3",
        &["--labels", labels.to_str().unwrap(), "--json"],
    ));
    assert_eq!(
        c["weights"]["sse"].as_f64().unwrap().to_bits(),
        sse.to_bits()
    );
    for method in ["mdav", "mdav+descent"] {
        let r = cli_json(&weighted_args(
            "run",
            d,
            "3",
            &["--method", method, "--bound", "nn", "--json"],
        ));
        let sse_run = r["weights"]["sse"].as_f64().unwrap();
        let lb = r["weights"]["bound"]["lower_bound"].as_f64().unwrap();
        assert!(
            lb <= sse && sse <= sse_run * (1.0 + 1e-12),
            "{method}: {lb} {sse} {sse_run}"
        );
    }
}
