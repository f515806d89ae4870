//! Orders with optimal segmentation (`mhm-*`), fixed cuts (`proj-*`), `random` and
//! `semirandom`: invariants, brute force on small instances, parameters and seeds.

use crate::common;
use common::{casc, from_rows, run_method, run_with_params as run_with, synthetic};
use microagg::data::Instance;
use microagg::init::mhm::orders::{order_by_score, zsum_scores};

fn test_instances() -> Vec<Instance> {
    let mut out = vec![
        synthetic("gauss:n=157,d=4,clusters=6,seed=11"),
        synthetic("uniform:n=203,d=3,seed=5"),
        synthetic("gauss:n=400,d=7,clusters=3,seed=2"),
    ];
    out.extend(casc("tarragona"));
    out.extend(casc("census"));
    out
}

/// A fixed cut of an order is one of the segmentations the optimal cut ranges over, so
/// `proj-X` is never better than `mhm-X` (same order), for every order, instance and k.
#[test]
fn projections_are_never_better_than_the_optimal_cut_of_the_same_order() {
    for inst in test_instances() {
        for k in [2, 3, 5, 10] {
            let mut pairs: Vec<(&str, &str, Vec<String>)> = vec![
                ("mhm-pc1", "proj-pc1", vec![]),
                ("mhm-zsum", "proj-zsum", vec![]),
            ];
            for c in 1..=inst.d.min(3) {
                pairs.push(("mhm-var", "proj-var", vec![c.to_string()]));
            }
            for (mhm, proj, col) in pairs {
                let pm: Vec<String> = col.iter().map(|c| format!("{mhm}.column={c}")).collect();
                let pp: Vec<String> = col.iter().map(|c| format!("{proj}.column={c}")).collect();
                let pm: Vec<&str> = pm.iter().map(String::as_str).collect();
                let pp: Vec<&str> = pp.iter().map(String::as_str).collect();
                let (s_mhm, _) = run_with(&inst, mhm, &pm, k, 0).unwrap();
                let (s_proj, _) = run_with(&inst, proj, &pp, k, 0).unwrap();
                assert!(
                    s_mhm <= s_proj * (1.0 + 1e-12),
                    "{} k={k} {col:?}: {mhm} {s_mhm} > {proj} {s_proj}",
                    inst.name
                );
            }
        }
    }
}

/// Brute force: on a 13-record instance, `mhm-zsum` equals the best of all segmentations of
/// the z-score-sum order into runs of >= k (every composition enumerated, no size cap).
#[test]
fn mhm_zsum_matches_brute_force_over_all_segmentations_of_its_order() {
    let inst = synthetic("gauss:n=13,d=3,clusters=2,seed=4");
    let order = order_by_score(&zsum_scores(&inst));
    fn best(inst: &Instance, order: &[usize], k: usize) -> f64 {
        if order.is_empty() {
            return 0.0;
        }
        let mut out = f64::INFINITY;
        for s in k..=order.len() {
            if order.len() - s != 0 && order.len() - s < k {
                continue;
            }
            let g = microagg_solvers::sse::group_sse(&inst.z, inst.d, &order[..s]);
            out = out.min(g + best(inst, &order[s..], k));
        }
        out
    }
    for k in [2, 3, 4] {
        let brute = best(&inst, &order, k);
        let (sse, _) = run_method(&inst, "mhm-zsum", k, 0);
        assert!(
            (sse - brute).abs() <= 1e-9 * brute,
            "k={k}: {sse} vs brute {brute}"
        );
    }
}

/// On one-attribute data `mhm-var` is the optimal univariate solution.
#[test]
fn mhm_var_on_one_attribute_equals_the_univariate_optimum() {
    let line = from_rows(
        &(0..61)
            .map(|i| vec![((i * 37) % 61) as f64 + (i % 7) as f64 * 0.3])
            .collect::<Vec<_>>(),
    );
    for k in [2, 3, 5] {
        let (a, _) = run_method(&line, "mhm-var", k, 0);
        let (b, _) = run_method(&line, "univariate", k, 0);
        assert!((a - b).abs() <= 1e-9 * b.max(1e-12), "k={k}: {a} vs {b}");
    }
}

/// `column` by name and by 1-based index select the same variable; a missing column, index 0
/// and an unknown parameter are usage errors, not panics.
#[test]
fn column_parameter_by_name_or_index_and_its_errors() {
    let inst = synthetic("uniform:n=50,d=3,seed=9");
    let by_index = run_with(&inst, "mhm-var", &["mhm-var.column=2"], 3, 0).unwrap();
    let by_name = run_with(&inst, "mhm-var", &["mhm-var.column=x2"], 3, 0).unwrap();
    assert_eq!(by_index.1, by_name.1);
    let default = run_with(&inst, "proj-var", &[], 3, 0).unwrap();
    let first = run_with(&inst, "proj-var", &["proj-var.column=1"], 3, 0).unwrap();
    assert_eq!(default.1, first.1);
    let e = run_with(&inst, "mhm-var", &["mhm-var.column=4"], 3, 0).unwrap_err();
    assert!(
        e.contains("column 4 not found") && e.contains("x1, x2, x3"),
        "{e}"
    );
    let e = run_with(&inst, "proj-var", &["proj-var.column=nope"], 3, 0).unwrap_err();
    assert!(e.contains("'nope' not found"), "{e}");
    let e = run_with(&inst, "mhm-var", &["mhm-var.column=0"], 3, 0).unwrap_err();
    assert!(e.contains("1-based"), "{e}");
    let e = run_with(&inst, "semirandom", &["semirandom.p=1.5"], 3, 0).unwrap_err();
    assert!(e.contains("p must be in [0, 1]"), "{e}");
    let e = run_with(&inst, "mhm-mdav", &["mhm-mdav.path=zigzag"], 3, 0).unwrap_err();
    assert!(e.contains("parameters of 'mhm-mdav'"), "{e}");
    assert!(run_with(&inst, "mhm-md", &["mhm-md.path=chain"], 3, 0).is_ok());
}

/// `semirandom`: p = 0 is exactly `mhm-zsum` (whatever the seed); the same seed gives the
/// same labels and another seed another partition (feasibility: `tests/construct/conformance.rs`).
#[test]
fn semirandom_seeds_and_the_p_zero_limit() {
    let inst = synthetic("gauss:n=300,d=5,clusters=4,seed=3");
    let zsum = run_method(&inst, "mhm-zsum", 4, 0);
    let p0 = run_with(&inst, "semirandom", &["semirandom.p=0"], 4, 99).unwrap();
    assert_eq!(zsum.1, p0.1);
    let a = run_method(&inst, "semirandom", 4, 1);
    let b = run_method(&inst, "semirandom", 4, 1);
    let c = run_method(&inst, "semirandom", 4, 2);
    assert_eq!(a.1, b.1);
    assert_ne!(a.1, c.1);
}

/// `random`: feasible sizes k..2k-1, reproducible per seed, different across seeds; its IL
/// is far above a heuristic's (a baseline, not an algorithm).
#[test]
fn random_partition_sizes_and_seeds() {
    let inst = synthetic("gauss:n=157,d=4,clusters=6,seed=11");
    for k in [2, 3, 5] {
        let (s1, l1) = run_method(&inst, "random", k, 1);
        let (_, l1b) = run_method(&inst, "random", k, 1);
        let (_, l2) = run_method(&inst, "random", k, 2);
        assert_eq!(l1, l1b);
        assert_ne!(l1, l2);
        let report = microagg::labels::check_labels(&inst, k, &l1).unwrap();
        assert!(report.min_group_size >= k && report.max_group_size < 2 * k);
        let (s_mdav, _) = run_method(&inst, "mdav", k, 0);
        assert!(s1 > s_mdav, "k={k}");
    }
}

/// IMHM paper Table 5 (RIMHM, p = 10 %, mean of 10 runs after the full IMHM iterations):
/// Tarragona 16.99 / 24.54 / 32.42 and Census 5.43 / 8.38 / 12.54 at k = 3 / 5 / 10. Our
/// `semirandom` is only RIMHM's initialisation (no IMHM iterations), so it must be worse,
/// and we check the order of magnitude: at most 6 times the published value. Measured
/// (seed 0): Tarragona 41.27 / 54.27 / 58.16, Census 27.16 / 32.78 / 37.58. EIA is not
/// checked: the z-score-sum order is poor on its skewed attributes (our initialisation gives
/// 25.70 at k = 3 against the published 0.45 after IMHM), so the order of magnitude there is
/// set by IMHM's iterations, which are not part of this method.
#[test]
fn semirandom_is_within_an_order_of_magnitude_of_rimhm_table_5() {
    // Tarragona and Census only (EIA: see above).
    check_against_rimhm_table_5("semirandom", &RIMHM_TABLE_5[..2], |il, published| {
        il > published && il < 6.0 * published
    });
}

/// IMHM paper Table 5: RIMHM's IL (p = 10 %, mean of 10 runs; EIA with NPB = 4 blocks) per
/// data set at k = 3, 5, 10.
const RIMHM_TABLE_5: [(&str, [f64; 3]); 3] = [
    ("tarragona", [16.99, 24.54, 32.42]),
    ("census", [5.43, 8.38, 12.54]),
    ("eia", [0.45, 0.87, 2.28]),
];

/// Runs `method` (seed 0) on every cell of `rows` (from [`RIMHM_TABLE_5`]) whose data set is
/// present and checks `near(ours, published)` on the ILs.
fn check_against_rimhm_table_5(
    method: &str,
    rows: &[(&str, [f64; 3])],
    near: impl Fn(f64, f64) -> bool,
) {
    for &(id, values) in rows {
        let Some(inst) = casc(id) else { continue };
        for (k, published) in [3, 5, 10].into_iter().zip(values) {
            let (sse, _) = run_method(&inst, method, k, 0);
            let il = inst.il(sse);
            assert!(
                near(il, published),
                "{method} {id} k={k}: IL {il:.3}, RIMHM {published}"
            );
        }
    }
}

/// Independent second implementation: `tests/scripts/orders_numpy_check.py` (numpy's LAPACK
/// `eigh` for the first principal axis, its own stable sort, fixed cut and DP) printed these
/// IL values (4 decimals) for Tarragona, Census and EIA at k = 3, 5, 10; ours agree.
#[test]
fn projection_and_pc1_values_match_an_independent_numpy_implementation() {
    let numpy = [
        (
            "tarragona",
            [
                [23.8886, 28.9217, 23.0003],
                [33.2875, 35.2030, 29.7211],
                [39.9075, 40.9245, 37.0868],
            ],
        ),
        (
            "census",
            [
                [26.7161, 26.6357, 24.4036],
                [32.4366, 32.3456, 30.2867],
                [36.2164, 36.4493, 34.8627],
            ],
        ),
        (
            "eia",
            [
                [18.5641, 17.2343, 15.4346],
                [22.7131, 21.4346, 20.1997],
                [25.6046, 24.0955, 23.8858],
            ],
        ),
    ];
    for (id, rows) in numpy {
        let Some(inst) = casc(id) else { continue };
        for (k, row) in [3, 5, 10].into_iter().zip(rows) {
            for (method, want) in ["proj-pc1", "proj-zsum", "mhm-pc1"].into_iter().zip(row) {
                let il = inst.il(run_method(&inst, method, k, 0).0);
                assert!(
                    (il - want).abs() <= 0.5e-4 + 1e-9,
                    "{method} {id} k={k}: IL {il:.6}, numpy {want}"
                );
            }
        }
    }
}

/// RIMHM refines its semi-random start with IMHM's iterations; the workbench has no IMHM
/// refiner yet, so the closest pipeline is `semirandom+descent` (local search to a local
/// optimum). Table 5 (mean of 10 runs; EIA with NPB = 4 blocks): Tarragona 16.99 / 24.54 /
/// 32.42, Census 5.43 / 8.38 / 12.54, EIA 0.45 / 0.87 / 2.28 at k = 3 / 5 / 10. Measured
/// (seed 0): Tarragona 14.97 / 21.84 / 31.14, Census 5.52 / 8.21 / 12.37, EIA 0.665 / 1.544 /
/// 2.511, so every cell is within a factor 2 of the published mean (the same order of
/// magnitude; EIA worse because descent is weaker than IMHM and our run is one block).
#[test]
fn semirandom_with_descent_is_within_a_factor_two_of_rimhm_table_5() {
    check_against_rimhm_table_5("semirandom+descent", &RIMHM_TABLE_5, |il, published| {
        il > 0.5 * published && il < 2.0 * published
    });
}
