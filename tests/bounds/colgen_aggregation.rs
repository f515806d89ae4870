//! The aggregation phase and the box from the incumbent (issue 54, items 2 and 3), on small
//! instances against brute force: the bound with aggregation is at most the brute-force
//! optimum; the aggregated master, once exact pricing over all records proves its
//! disaggregated duals, has the value of the full master LP (solved over every group of
//! k..2k-1 records, and reached by the plain column generation); the stabilised runs' bounds
//! are valid and reach the LP too.

use crate::common;
use common::{
    adversarial_family, all_lp_columns, brute_force_optimum, chunk_labels, clustered_rows,
};
use microagg_solvers::bounds::colgen::master_upper::restricted_master_value;
use microagg_solvers::bounds::colgen::{colgen_bound, ColgenBound, ColgenOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// One small instance per case: the adversarial family (uniform, duplicates, ties, scaled,
/// far clusters, ...) in even cases, three jittered clusters in odd ones; n in 7..=10, d in
/// 1..=3, k in 2..=3, and a start partition that mixes the clusters.
fn instance(case: usize) -> (Vec<f64>, usize, usize, usize, Vec<usize>) {
    let mut rng = ChaCha8Rng::seed_from_u64(5400 + case as u64);
    let (n, d, k) = (7 + case % 4, 1 + case % 3, 2 + case % 2);
    let x = if case.is_multiple_of(2) {
        adversarial_family(&mut rng, case / 2, n, d)
    } else {
        let spacing = rng.random_range(0.5..6.0);
        clustered_rows(&mut rng, n, d, spacing)
    };
    (x, n, d, k, chunk_labels(n, k))
}

fn run(case: usize, opts: &ColgenOptions) -> ColgenBound {
    let (x, n, d, k, labels) = instance(case);
    colgen_bound(&x, n, d, k, &labels, opts).unwrap_or_else(|e| panic!("case {case}: {e}"))
}

fn aggregated() -> ColgenOptions {
    ColgenOptions {
        time_limit: 20.0,
        aggregate: true,
        ..ColgenOptions::default()
    }
}

fn stabilised(aggregate: bool) -> ColgenOptions {
    ColgenOptions {
        time_limit: 20.0,
        box_width: 0.1,
        incumbent_box: true,
        aggregate,
        ..ColgenOptions::default()
    }
}

/// The LP value over every group of k..2k-1 records (HiGHS, one shot).
fn full_lp(case: usize) -> f64 {
    let (x, n, d, k, _) = instance(case);
    let (cols, costs) = all_lp_columns(&x, n, d, k);
    restricted_master_value(n, &cols, &costs, 60.0)
        .unwrap()
        .expect("solved")
        .value
}

const CASES: usize = 120;

#[test]
fn aggregated_bound_is_at_most_the_brute_force_optimum() {
    for case in 0..CASES {
        let (x, n, d, k, _) = instance(case);
        let opt = brute_force_optimum(&x, n, d, k);
        let b = run(case, &aggregated());
        assert!(
            b.aggregation.is_some(),
            "case {case}: the phase did not run"
        );
        assert!(
            b.lower_bound <= opt,
            "case {case}: {} > {opt}",
            b.lower_bound
        );
        assert!(b.lagrangian <= opt, "case {case}: {} > {opt}", b.lagrangian);
    }
}

#[test]
fn disaggregated_lp_equals_the_full_lp() {
    let mut split = 0;
    for case in 0..CASES {
        let lp = full_lp(case);
        let tol = 1e-7 * (1.0 + lp.abs());
        let agg = run(case, &aggregated());
        let a = agg.aggregation.as_ref().unwrap();
        assert!(
            a.converged,
            "case {case}: aggregation did not converge: {a:?}"
        );
        assert!(
            (a.lp_value - lp).abs() <= tol,
            "case {case}: aggregated {} vs full {lp}",
            a.lp_value
        );
        // The certified bound at the proven duals is the LP value, less the pricing tolerance
        // (floor(n/k) times 1e-7) and the rounding.
        let (_, n, _, k, _) = instance(case);
        let slack = tol + (n / k) as f64 * 1e-7;
        assert!(
            agg.lagrangian <= lp + tol && agg.lagrangian >= lp - slack,
            "case {case}: {agg:?}"
        );
        let plain = run(
            case,
            &ColgenOptions {
                time_limit: 20.0,
                ..ColgenOptions::default()
            },
        );
        assert!(plain.converged, "case {case}");
        assert!(
            (a.lp_value - plain.converged_lp).abs() <= tol,
            "case {case}: aggregated {} vs plain {}",
            a.lp_value,
            plain.converged_lp
        );
        split += usize::from(a.splits > 0);
    }
    // The instances exercise the splitting (not only aggregations that were already exact).
    assert!(split >= CASES / 2, "only {split} cases split a super-point");
}

#[test]
fn stabilised_bounds_are_valid_and_reach_the_lp() {
    for case in 0..CASES {
        let (x, n, d, k, _) = instance(case);
        let opt = brute_force_optimum(&x, n, d, k);
        let lp = full_lp(case);
        let tol = 1e-7 * (1.0 + lp.abs());
        for aggregate in [false, true] {
            let b = run(case, &stabilised(aggregate));
            let what = format!("case {case}, aggregate {aggregate}");
            assert!(b.lower_bound <= opt, "{what}: {} > {opt}", b.lower_bound);
            assert!(b.converged, "{what}: {b:?}");
            assert!(
                (b.converged_lp - lp).abs() <= tol,
                "{what}: {} vs {lp}",
                b.converged_lp
            );
            let slack = tol + (n / k) as f64 * 1e-7;
            assert!(
                b.lagrangian >= lp - slack,
                "{what}: {} << {lp}",
                b.lagrangian
            );
            if let Some(a) = &b.aggregation {
                assert!(
                    a.converged && (a.lp_value - lp).abs() <= tol,
                    "{what}: {a:?}"
                );
            }
        }
    }
}

#[test]
fn incumbent_box_needs_the_boxed_master() {
    let opts = ColgenOptions {
        incumbent_box: true,
        ..ColgenOptions::default()
    };
    let err = opts.check().unwrap_err().to_string();
    assert!(err.contains("incumbent_box needs box_width"), "{err}");
}
