//! The root master stabilised around the incumbent's dual estimates (`incumbent_box`): the
//! box only steers the duals, so branch-price-and-cut with it equals an independent subset
//! DP, its root LP equals the root LP without it (the box is widened until it no longer
//! binds), and its certificates verify while tampered ones are rejected. The start is the
//! chunk partition, far from optimal on most cases, so the box can bind and must move (with
//! a widening that does nothing, the first test fails).

use crate::bnp_support::{
    assert_certificate_sound, assert_solved, family_cases, run_from_chunks as run,
    z_scored_family_cases,
};
use crate::common::subset_dp;
use microagg_solvers::bnp::BnpOptions;

fn options(incumbent_box: bool, cuts: usize, rank1: bool) -> BnpOptions {
    BnpOptions {
        incumbent_box,
        cut_rounds: cuts,
        node_cut_rounds: cuts.min(1),
        rank1_cuts: rank1,
        cut_violation: 1e-6,
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

#[test]
fn branch_and_price_with_the_incumbent_box_equals_the_subset_dp() {
    let (mut compared, mut unproven) = (0, Vec::new());
    for (case, x, n, d, k) in family_cases(54_0303, 120, 6..=12) {
        let opt = subset_dp(&x, n, d, k);
        // Without cuts the root LP is the set-partitioning LP, with or without the box.
        let plain = run(&x, n, d, k, &options(false, 0, false));
        let boxed = run(&x, n, d, k, &options(true, 0, false));
        assert_solved(&boxed, &x, d, opt, case);
        // The stabilised root reaches its LP wherever the wide box does (a box that
        // still binds is widened until it does not).
        assert!(
            boxed.root_lp.is_finite() || !plain.root_lp.is_finite(),
            "case {case}: the stabilised root never reached its LP"
        );
        if plain.root_lp.is_finite() {
            let tol = 1e-7 * (1.0 + opt.abs());
            assert!(
                (boxed.root_lp - plain.root_lp).abs() <= tol,
                "case {case}: root LP {} with the box, {} without",
                boxed.root_lp,
                plain.root_lp
            );
            compared += 1;
        }
        let r = run(&x, n, d, k, &options(true, 50, case % 2 == 0));
        assert_solved(&r, &x, d, opt, case);
        if !boxed.proven_optimal || !r.proven_optimal {
            unproven.push(case);
        }
    }
    eprintln!("{compared} root LPs compared, unproven {unproven:?}");
    assert!(unproven.is_empty(), "{unproven:?}");
    assert!(compared >= 100, "{compared}");
}

#[test]
fn incumbent_box_certificates_verify_and_tampered_ones_are_rejected() {
    let mut checked = 0;
    for (case, inst, n, d, k) in z_scored_family_cases(54_0404, 40, 8..=12) {
        let r = run(
            &inst.z,
            n,
            d,
            k,
            &BnpOptions {
                max_nodes: 3,
                ..options(true, 50, false)
            },
        );
        let opt = subset_dp(&inst.z, n, d, k);
        if assert_certificate_sound(&inst, k, &r, opt, case) {
            checked += 1;
        }
    }
    eprintln!("{checked} certificates");
    assert!(checked >= 25, "{checked}");
}
