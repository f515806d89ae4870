//! Strong branching (`strong_branching`): the pair branched on is chosen by re-solving the
//! node's restricted master in both children of several candidate pairs. It changes only
//! the tree's shape, so branch-and-price with it equals an independent subset DP, and its
//! certificates verify while tampered ones are rejected. Without cuts the small instances
//! branch often; the first test also checks that strong branching ran (a tree of another
//! size than the most fractional rule's in some cases), so that a rule that never fires
//! fails it.

use crate::bnp_support::{
    assert_certificate_sound, assert_solved, family_cases, run_from_chunks as run,
    z_scored_family_cases,
};
use crate::common::subset_dp;
use microagg_solvers::bnp::BnpOptions;

fn options(strong_branching: usize, cuts: usize) -> BnpOptions {
    BnpOptions {
        strong_branching,
        cut_rounds: cuts,
        node_cut_rounds: cuts.min(1),
        cut_violation: 1e-6,
        rc_pool_columns: 0,
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

#[test]
fn branch_and_price_with_strong_branching_equals_the_subset_dp() {
    let (mut branched, mut reshaped, mut unproven) = (0, 0, Vec::new());
    for (case, x, n, d, k) in family_cases(54_0505, 120, 6..=12) {
        let opt = subset_dp(&x, n, d, k);
        let plain = run(&x, n, d, k, &options(0, 0));
        let strong = run(&x, n, d, k, &options(4 + case % 5, 0));
        assert_solved(&strong, &x, d, opt, case);
        let with_cuts = run(&x, n, d, k, &options(3, 50));
        assert_solved(&with_cuts, &x, d, opt, case);
        if plain.nodes > 1 {
            branched += 1;
        }
        if plain.nodes != strong.nodes {
            reshaped += 1;
        }
        if !strong.proven_optimal || !with_cuts.proven_optimal {
            unproven.push(case);
        }
    }
    eprintln!("{branched} cases branched, {reshaped} trees reshaped, unproven {unproven:?}");
    assert!(unproven.is_empty(), "{unproven:?}");
    assert!(branched >= 20, "{branched}");
    assert!(reshaped >= 5, "{reshaped}");
}

#[test]
fn strong_branching_certificates_verify_and_tampered_ones_are_rejected() {
    let mut checked = 0;
    for (case, inst, n, d, k) in z_scored_family_cases(54_0606, 40, 8..=12) {
        let opts = BnpOptions {
            max_nodes: 4,
            ..options(6, 0)
        };
        let r = run(&inst.z, n, d, k, &opts);
        let opt = subset_dp(&inst.z, n, d, k);
        if assert_certificate_sound(&inst, k, &r, opt, case) {
            checked += 1;
        }
    }
    eprintln!("{checked} certificates");
    assert!(checked >= 25, "{checked}");
}
