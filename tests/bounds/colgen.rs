//! The column generation bound (proofs/P09, P10): exact pricing against brute-force
//! enumeration of all groups, the bound below the exact optimum (exhaustive enumeration of set
//! partitions) and below every heuristic, and on Tarragona k = 3 below the best known SSE.

use crate::common;
use common::{
    brute_force_min_rc_cuts, brute_force_optimum, casc, cli, cli_ok, clustered_rows, run_method,
    synthetic,
};
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{
    heuristic, weak_rc_bound, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::{colgen_bound, nn_bound, ColgenOptions};
use microagg_solvers::sse::group_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// min over all groups S with k <= |S| <= 2k-1 of SSE(S) - y(S), by enumerating bit masks,
/// with the two-pass SSE (independent of the pairwise form the pricing uses).
fn brute_force_min_rc(x: &[f64], n: usize, d: usize, k: usize, y: &[f64]) -> f64 {
    brute_force_min_rc_cuts(x, n, d, k, y, &[])
}

#[test]
fn exact_pricing_matches_brute_force_enumeration_of_groups() {
    let mut rng = ChaCha8Rng::seed_from_u64(8_2026);
    let mut negative = 0;
    for case in 0..60 {
        let (x, d, geo, _, y) = common::random_pricing_case(&mut rng, 13, -0.5);
        let (n, k) = (geo.n, geo.k);
        let truth = brute_force_min_rc(&x, n, d, k, &y);
        let tol = 1e-9 * (1.0 + truth.abs());
        // Exact: the bound equals min(0, true minimum); a budget of one node still gives a
        // valid (smaller) bound.
        let label = format!("case {case} (n={n}, d={d}, k={k})");
        let none = CutDuals::none();
        let ex = common::assert_exact_pricing_matches(&geo, &y, &none, (truth, tol), 1, &label);
        if truth < -tol {
            negative += 1;
            let (rc, g) = &ex.columns[0];
            assert!(
                (rc - truth).abs() <= tol,
                "case {case}: best column {rc} vs {truth}"
            );
            assert!(g.len() >= k && g.len() < 2 * k);
        }
        // The weak bound is a valid lower bound.
        assert!(
            weak_rc_bound(&geo, &y) <= truth + tol,
            "case {case}: weak bound"
        );
        let early = ExactBudget {
            stop_after_columns: 1,
            ..common::exact_budget(100, 60)
        };
        let early = ExactSearch::new(&CutDuals::none()).run(&geo, &y, early, &mut Vec::new());
        assert!(
            early.rc_lower_bound <= truth.min(0.0) + tol,
            "case {case}: early stop"
        );
        // Heuristic groups are feasible and their reported reduced cost is right.
        for seed in 0..n {
            if let Some((rc, g)) = heuristic(&geo, &y, seed) {
                let members: Vec<usize> = g.iter().map(|&i| i as usize).collect();
                let check = group_sse(&x, d, &members) - members.iter().map(|&i| y[i]).sum::<f64>();
                assert!((rc - check).abs() <= 1e-9 * (1.0 + check.abs()));
                assert!(g.len() >= k && g.len() < 2 * k && rc >= truth - tol);
            }
        }
    }
    common::assert_shown_in("a negative column", negative, 60, 20);
}

#[test]
fn colgen_bound_is_below_brute_force_optimum_and_above_nn() {
    let mut rng = ChaCha8Rng::seed_from_u64(20261123);
    let mut closer = 0;
    for case in 0..30 {
        let n = rng.random_range(5..=10);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=(n / 2).clamp(2, 3));
        let x = clustered_rows(&mut rng, n, d, 3.0);
        let opt = brute_force_optimum(&x, n, d, k);
        // A feasible start: consecutive blocks of k, the last one absorbing the rest.
        let labels = common::chunk_labels(n, k);
        let b = colgen_bound(&x, n, d, k, &labels, &ColgenOptions::default()).unwrap();
        let nn = nn_bound(&x, n, d, k).unwrap().lower_bound;
        assert!(
            b.lower_bound <= opt,
            "case {case} (n={n}, d={d}, k={k}): bound {} > optimum {opt}",
            b.lower_bound
        );
        assert!(b.lower_bound >= nn && b.nn == nn);
        assert!(b.converged, "case {case}: tiny instances converge");
        // Converged: the Lagrangian bound is the master LP value up to rounding.
        assert!((b.lagrangian - b.lp_value).abs() <= 1e-7 * (1.0 + b.lp_value.abs()));
        if b.lagrangian > nn + 1e-9 * opt {
            closer += 1;
        }
    }
    assert!(closer >= 20, "colgen beat nn on only {closer} of 30 cases");
}

#[test]
fn colgen_bound_is_below_every_heuristic_on_synthetic_data() {
    let inst = synthetic("gauss:n=120,d=3,clusters=6,seed=5");
    for k in [3, 5] {
        let b = microagg::bound::compute("colgen", &inst, k, Some(10.0)).unwrap();
        assert!(b.certified);
        for key in [
            "iterations",
            "columns",
            "last_pricing_gap",
            "lp_value",
            "pricing_exact",
        ] {
            assert!(b.details.get(key).is_some(), "details lack {key}");
        }
        let nn = microagg::bound::compute("nn", &inst, k, None).unwrap();
        assert!(b.lower_bound >= nn.lower_bound);
        for method in ["mdav", "vmdav", "mdav+decompose-shrink", "mdav+descent"] {
            let (sse, _) = run_method(&inst, method, k, 1);
            assert!(
                b.lower_bound <= sse,
                "k={k}: bound {} above {method} ({sse})",
                b.lower_bound
            );
        }
    }
}

#[test]
fn colgen_on_tarragona_k3_is_below_the_best_known_sse() {
    let Some(inst) = casc("tarragona") else {
        return;
    };
    // A short run (10 s, not converged): any Lagrangian bound is valid (P09).
    let b = microagg::bound::compute("colgen", &inst, 3, Some(10.0)).unwrap();
    let nn = microagg::bound::compute("nn", &inst, 3, None).unwrap();
    // Best known partition: instances/library/tarragona-k3.labels, SSE 1568.5492 (instances/library/library.toml);
    // best known IL quoted by the issue: 14.469.
    let best = 14.469 / 100.0 * inst.sst;
    assert!(b.certified);
    assert!(
        b.lower_bound <= best,
        "bound {} above best known {best}",
        b.lower_bound
    );
    assert!(b.lower_bound >= nn.lower_bound);
}

/// The star (medoid) bound of the exact pricing (P09 B3) prunes groups of 6..9 records: the
/// exact pricing still equals the brute-force minimum reduced cost at k = 4 and 5, on
/// clustered, duplicated and scaled data, with duals around each record's share of a good
/// partition (the regime where column generation prices).
#[test]
fn exact_pricing_with_star_bound_matches_brute_force_at_larger_k() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_2026);
    let mut negative = 0;
    for case in 0..24 {
        let n = rng.random_range(10..=14);
        let d = rng.random_range(1..=3);
        let k = if case % 2 == 0 { 4 } else { 5 };
        let scale = [1e-6, 1.0, 1e6][case % 3];
        let mut x: Vec<f64> = clustered_rows(&mut rng, n, d, 3.0)
            .iter()
            .map(|v| v * scale)
            .collect();
        if case % 4 == 1 {
            // Duplicates: record 1 repeats record 0, record 3 repeats record 2.
            let (r0, r2) = (x[..d].to_vec(), x[2 * d..3 * d].to_vec());
            x[d..2 * d].copy_from_slice(&r0);
            x[3 * d..4 * d].copy_from_slice(&r2);
        }
        let geo = Geometry::new(&x, n, d, k, 6);
        // Each record's share of its block's SSE, perturbed.
        let labels = common::chunk_labels(n, k);
        let mut y = vec![0.0; n];
        for g in common::groups(&labels) {
            let share = group_sse(&x, d, &g) / g.len() as f64;
            for &i in &g {
                y[i] = share * rng.random_range(0.6..1.6);
            }
        }
        let truth = brute_force_min_rc(&x, n, d, k, &y);
        let tol = 1e-9 * (truth.abs() + y.iter().map(|v| v.abs()).sum::<f64>());
        // Exact, and cut short the bound stays below the truth.
        let label = format!("case {case} (n={n}, d={d}, k={k}, scale {scale})");
        let none = CutDuals::none();
        let ex = common::assert_exact_pricing_matches(&geo, &y, &none, (truth, tol), 3, &label);
        if truth < -tol {
            negative += 1;
            assert!((ex.columns[0].0 - truth).abs() <= tol, "case {case}");
        }
    }
    assert!(negative >= 8, "only {negative} cases had a negative column");
}

/// A small clustered instance (n in 6..=10, d in 1..=2, k = 2 or 3 by `case`): (n, d, k, x,
/// its brute-force optimum, the start of consecutive blocks of k, the last absorbing the rest).
fn small_case(
    rng: &mut ChaCha8Rng,
    case: usize,
) -> (usize, usize, usize, Vec<f64>, f64, Vec<usize>) {
    let n = rng.random_range(6..=10);
    let d = rng.random_range(1..=2);
    let k = 2 + case % 2;
    let x = clustered_rows(rng, n, d, 3.0);
    let opt = brute_force_optimum(&x, n, d, k);
    let blocks = common::chunk_labels(n, k);
    (n, d, k, x, opt, blocks)
}

/// Several start partitions seed the master; the bound stays below the brute-force optimum.
#[test]
fn colgen_from_several_starts_is_below_brute_force_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_18);
    for case in 0..10 {
        let (n, d, k, x, opt, blocks) = small_case(&mut rng, case);
        let one: Vec<usize> = vec![7; n];
        let b = microagg_solvers::bounds::colgen::colgen_bound_from(
            &x,
            n,
            d,
            k,
            &[&blocks, &one],
            &ColgenOptions::default(),
        )
        .unwrap();
        assert!(
            b.lower_bound <= opt,
            "case {case}: {} > {opt}",
            b.lower_bound
        );
        assert!(b.converged, "case {case}");
        let bad: Vec<usize> = (0..n).collect();
        let e = microagg_solvers::bounds::colgen::colgen_bound_from(
            &x,
            n,
            d,
            k,
            &[&blocks, &bad],
            &ColgenOptions::default(),
        )
        .unwrap_err()
        .to_string();
        common::assert_contains_all(&e, &["start partition 2", "fewer than k"]);
    }
}

/// `bound --start`: a good labels file seeds the master; a file of the wrong length or with
/// a group below k is a clear error naming the file; nn takes no start.
#[test]
fn bound_start_labels_are_validated() {
    let dir = std::env::temp_dir().join(format!("microagg-colgen-start-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let write = |name: &str, labels: &[usize]| {
        let p = dir.join(name);
        let text: String = labels.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&p, text).unwrap();
        p.display().to_string()
    };
    let data = "gauss:n=30,d=2,clusters=5,seed=3";
    let good: Vec<usize> = (0..30).map(|i| i / 3).collect();
    let good_path = write("good.labels", &good);
    let out = cli_ok(&common::method_args(
        "bound",
        data,
        "3",
        "colgen",
        &["--time-limit", "5", "--start", &good_path, "--json"],
    ));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["details"]["start_labels"], true);
    assert!(v["lower_bound"].as_f64().unwrap() > 0.0);
    let short_path = write("short.labels", &good[..29]);
    let bad_size: Vec<usize> = (0..30).map(|i| if i < 2 { 99 } else { i / 4 }).collect();
    let small_path = write("small.labels", &bad_size);
    for (path, what) in [
        (&short_path, "29 labels for 30 records"),
        (&small_path, "fewer than k = 3"),
    ] {
        let out = cli(&common::method_args(
            "bound",
            data,
            "3",
            "colgen",
            &["--time-limit", "5", "--start", path],
        ));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(!out.status.success(), "{path} accepted");
        assert!(err.contains(what) && err.contains(path.as_str()), "{err}");
    }
    let out = cli(&["bound", "--data", data, "--k", "3", "--start", &good_path]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("start"));
    std::fs::remove_dir_all(&dir).ok();
}

/// The first box centre, the nn duals `y_i = NN_{k-1}(i) / (2k)`, is dual feasible (P09 part
/// C): the brute-force minimum reduced cost over all groups of k..2k-1 records is >= 0.
#[test]
fn nn_duals_price_out_every_group() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_0001);
    for case in 0..30 {
        let n = rng.random_range(5..=12);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(1..=(n / 2).clamp(1, 4));
        let x = clustered_rows(&mut rng, n, d, 3.0);
        let geo = Geometry::new(&x, n, d, k, 4);
        let y: Vec<f64> = (0..n).map(|i| geo.nn(i, k - 1) / (2 * k) as f64).collect();
        let truth = brute_force_min_rc(&x, n, d, k, &y);
        let scale: f64 = y.iter().sum::<f64>() + 1.0;
        assert!(
            truth >= -1e-12 * scale,
            "case {case} (n={n}, k={k}): {truth}"
        );
        // ... and the sum of the nn duals is the nn bound (before its outward rounding).
        let nn = nn_bound(&x, n, d, k).unwrap().lower_bound;
        assert!(nn <= y.iter().sum::<f64>() + 1e-12 * scale, "case {case}");
    }
}

/// Box stabilisation and interior point re-solves: still below the brute-force optimum, and
/// when converged equal to the unstabilised converged value (the master LP).
#[test]
fn box_and_ipm_bounds_are_valid_and_converge_to_the_lp() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_0002);
    for case in 0..16 {
        let (n, d, k, x, opt, labels) = small_case(&mut rng, case);
        let plain = colgen_bound(&x, n, d, k, &labels, &ColgenOptions::default()).unwrap();
        for (box_width, ipm) in [(0.5, false), (0.05, false), (0.0, true), (0.5, true)] {
            let opts = ColgenOptions {
                box_width,
                ipm,
                ..ColgenOptions::default()
            };
            let b = colgen_bound(&x, n, d, k, &labels, &opts).unwrap();
            assert!(
                b.lower_bound <= opt,
                "case {case} box {box_width} ipm {ipm}: {} > {opt}",
                b.lower_bound
            );
            assert!(b.converged, "case {case} box {box_width} ipm {ipm}");
            let tol = 1e-6 * (1.0 + plain.lagrangian.abs());
            assert!(
                (b.lagrangian - plain.lagrangian).abs() <= tol,
                "case {case} box {box_width} ipm {ipm}: {} vs {}",
                b.lagrangian,
                plain.lagrangian
            );
        }
    }
}

/// `bound --param max_iterations=N` reaches the engine: the master phase stops after N solves
/// (unconverged, the bound still certified and at most the converged one), the default runs
/// to convergence on the same small instance; 0 and a method without the parameter are
/// refused by name.
#[test]
fn max_iterations_caps_the_master_solves_from_the_command_line() {
    let spec = "gauss:n=60,d=2,clusters=12,seed=7";
    let args = |method: &'static str, extra: &[&'static str]| -> Vec<&'static str> {
        common::method_args("bound", spec, "3", method, extra)
    };
    let run = |extra: &[&'static str]| -> serde_json::Value {
        let mut args = args("colgen", &["--time-limit", "30", "--json"]);
        args.extend_from_slice(extra);
        serde_json::from_slice(&cli_ok(&args).stdout).unwrap()
    };
    let capped = run(&["--param", "max_iterations=3"]);
    let full = run(&[]);
    assert_eq!(capped["details"]["iterations"], 3, "{capped}");
    assert_eq!(capped["details"]["converged"], false, "{capped}");
    assert_eq!(full["details"]["converged"], true, "{full}");
    assert!(
        full["details"]["iterations"].as_u64().unwrap() > 3,
        "{full}"
    );
    let (lb_capped, lb_full) = (
        capped["lower_bound"].as_f64().unwrap(),
        full["lower_bound"].as_f64().unwrap(),
    );
    assert!(lb_capped <= lb_full, "{lb_capped} > {lb_full}");
    for (method, param, expected) in [
        (
            "colgen",
            "max_iterations=0",
            "max_iterations must be at least 1",
        ),
        (
            "nn",
            "max_iterations=5",
            "bound nn has no parameter 'max_iterations'",
        ),
    ] {
        common::assert_exit(&cli(&args(method, &["--param", param])), 2, expected);
    }
}
