//! Branching on the group count (`count_branching`, proofs/P22 Part E): a node whose master
//! has between `F - 1` and `F = floor(n/k)` groups, fractionally, splits into "at most
//! `F - 1` groups" and "at least `F`" (groups of at most `n - k (F - 1)` records). Checked
//! against brute force: the node bound over a count range (random duals, random ranges and
//! decisions) never exceeds the least SSE over the partitions of that region; branch and
//! price with count branching equals an independent subset DP (and the rule must fire);
//! its certificates verify, and certificates whose ranges leave a count uncovered, or whose
//! size-capped leaves claim more than their duals prove, are rejected.

use crate::bnp_support::{
    assert_solved, family_case, family_cases, honest_certificate, run_from_chunks as run,
    z_scored_family_cases,
};
use crate::common::{duals_around_chunks, for_each_set_partition, subset_dp};
use microagg::bnp_certificate::{verify, BnpCertificate};
use microagg::data::Instance;
use microagg_solvers::bnp::{BnpOptions, BnpResult};
use microagg_solvers::bounds::colgen::pairs::ANY_COUNT;
use microagg_solvers::bounds::verify_node_bound;
use microagg_solvers::sse::partition_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn options(count_branching: bool, cuts: usize) -> BnpOptions {
    BnpOptions {
        count_branching,
        cut_rounds: cuts,
        node_cut_rounds: cuts.min(1),
        cut_violation: 1e-6,
        rc_pool_columns: 0,
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

/// Whether the run branched on the group count (a leaf carries a range).
fn split_on_count(r: &BnpResult) -> bool {
    r.leaves.iter().any(|l| l.count != ANY_COUNT)
}

/// The least SSE over the partitions into groups of `k..2k-1` records with `lo..=hi` groups
/// that satisfy `decisions` (infinite when there is none), by enumerating every partition.
fn region_optimum(
    x: &[f64],
    (n, d, k): (usize, usize, usize),
    (lo, hi): (usize, usize),
    decisions: &[(u32, u32, bool)],
) -> f64 {
    let mut best = f64::INFINITY;
    for_each_set_partition(n, k, &mut |labels| {
        let groups = labels.iter().max().map_or(0, |m| m + 1);
        let mut sizes = vec![0usize; groups];
        for &l in labels {
            sizes[l] += 1;
        }
        let decided = decisions
            .iter()
            .all(|&(a, b, t)| (labels[a as usize] == labels[b as usize]) == t);
        if (lo..=hi).contains(&groups) && sizes.iter().all(|&s| s < 2 * k) && decided {
            best = best.min(partition_sse(x, d, labels));
        }
    });
    best
}

#[test]
fn node_bounds_over_a_count_range_stay_below_the_region_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(54_0909);
    let (mut checked, mut empty, mut gained) = (0, 0, 0);
    for case in 0..160 {
        let (x, n, d, k) = family_case(&mut rng, case, 6..=10, 3);
        let f = n / k;
        let lo = rng.random_range(0..=f + 1);
        let hi = if rng.random_bool(0.3) {
            usize::MAX
        } else {
            rng.random_range(lo.saturating_sub(1)..=f)
        };
        let decisions: Vec<(u32, u32, bool)> = if rng.random_bool(0.5) {
            vec![(
                0,
                1 + rng.random_range(0..n as u32 - 1),
                rng.random_bool(0.5),
            )]
        } else {
            Vec::new()
        };
        let truth = region_optimum(&x, (n, d, k), (lo, hi), &decisions);
        let (_, y) = duals_around_chunks(&mut rng, &x, n, d, k);
        // Several scales of the same duals: the bound is concave along them, some come close.
        for t in [0.2, 0.5, 0.8, 1.0, 1.3] {
            let yt: Vec<f64> = y.iter().map(|v| t * v).collect();
            let v =
                verify_node_bound(&x, n, d, k, &yt, &[], &[], &decisions, (lo, hi), None).unwrap();
            assert!(v.pricing_exact, "case {case}");
            if truth.is_infinite() {
                // No partition of the region: +inf is allowed, and is what an empty range
                // (lo > hi or lo > F) gives.
                if lo > hi || lo > f {
                    assert_eq!(v.lower_bound, f64::INFINITY, "case {case}");
                }
                empty += 1;
                continue;
            }
            assert!(
                v.lower_bound <= truth,
                "case {case} ({lo}..={hi}, {decisions:?}, t {t}): bound {} above the region's optimum {truth}",
                v.lower_bound
            );
            let whole =
                verify_node_bound(&x, n, d, k, &yt, &[], &[], &decisions, ANY_COUNT, None).unwrap();
            if v.lower_bound > whole.lower_bound + 1e-9 * (1.0 + truth) {
                gained += 1;
            }
            checked += 1;
        }
    }
    eprintln!("{checked} bounds checked, {empty} over empty regions, {gained} above the bound without the range");
    assert!(checked >= 300 && empty >= 20 && gained >= 50);
}

#[test]
fn branch_and_price_with_count_branching_equals_the_subset_dp() {
    let (mut split, mut unproven) = (0, Vec::new());
    for (case, x, n, d, k) in family_cases(54_0707, 150, 6..=12) {
        let opt = subset_dp(&x, n, d, k);
        let plain = run(&x, n, d, k, &options(true, 0));
        assert_solved(&plain, &x, d, opt, case);
        let with_cuts = run(&x, n, d, k, &options(true, 50));
        assert_solved(&with_cuts, &x, d, opt, case);
        if split_on_count(&plain) || split_on_count(&with_cuts) {
            split += 1;
        }
        if !plain.proven_optimal || !with_cuts.proven_optimal {
            unproven.push(case);
        }
    }
    eprintln!("{split} cases split on the group count, unproven {unproven:?}");
    assert!(unproven.is_empty(), "{unproven:?}");
    assert!(split >= 10, "{split}");
}

/// The certificate with the leaves of range `from` moved to range `to`.
fn moved(cert: &BnpCertificate, from: (usize, usize), to: (usize, usize)) -> BnpCertificate {
    let mut bad = cert.clone();
    let (lo, hi) = microagg::bnp_certificate::LeafCertificate::count_fields(to);
    for l in bad.leaves.iter_mut().filter(|l| l.count() == from) {
        (l.min_groups, l.max_groups) = (lo, hi);
    }
    bad
}

fn assert_rejected(cert: &BnpCertificate, inst: &Instance, k: usize, case: usize, what: &str) {
    let v = verify(cert, inst, k, None).unwrap();
    assert!(!v.valid, "case {case}: {what} accepted");
}

#[test]
fn count_branching_certificates_verify_and_tampered_ranges_are_rejected() {
    let (mut checked, mut raised) = (0, 0);
    for (case, inst, n, d, k) in z_scored_family_cases(54_0808, 120, 8..=12) {
        let opts = BnpOptions {
            max_nodes: 4,
            ..options(true, 0)
        };
        let r = run(&inst.z, n, d, k, &opts);
        if !split_on_count(&r) {
            continue;
        }
        let opt = subset_dp(&inst.z, n, d, k);
        let (cert, v) = honest_certificate(&inst, k, &r, opt, case).unwrap();
        assert!(v.recomputed >= cert.lower_bound, "case {case}");
        let f = n / k;
        let (fewer, most) = ((0, f - 1), (f, usize::MAX));
        assert!(
            cert.leaves.iter().any(|l| l.count() == fewer),
            "case {case}"
        );
        // A count left uncovered: F - 1 groups, or F.
        assert_rejected(
            &moved(&cert, fewer, (0, f - 2)),
            &inst,
            k,
            case,
            "a gap at F - 1",
        );
        assert_rejected(
            &moved(&cert, most, (f + 1, usize::MAX)),
            &inst,
            k,
            case,
            "a gap at F",
        );
        // Each leaf with duals claiming just above what they prove over its region (count
        // range included) is refused.
        for (j, l) in cert.leaves.iter().enumerate() {
            if l.lower_bound.is_none() || l.nn_bound {
                continue;
            }
            let cuts: Vec<_> = cert.cuts[..l.cut_duals.len()].iter().map(|c| c.0).collect();
            let proven = verify_node_bound(
                &inst.z,
                n,
                d,
                k,
                &l.duals,
                &cuts,
                &l.cut_duals,
                &l.decisions,
                l.count(),
                None,
            )
            .unwrap()
            .lower_bound;
            let mut bad = cert.clone();
            bad.leaves[j].lower_bound = Some(proven + 1e-6 * (1.0 + proven.abs()));
            assert_rejected(&bad, &inst, k, case, "a claim above its leaf's proof");
            raised += usize::from(l.count() == most);
        }
        // The round trip keeps the ranges.
        let text = serde_json::to_string(&cert).unwrap();
        assert_eq!(BnpCertificate::parse(&text, "mem").unwrap(), cert);
        checked += 1;
    }
    eprintln!(
        "{checked} certificates with a count split, {raised} raised claims at F groups or more"
    );
    assert!(checked >= 10 && raised >= 5, "{checked} {raised}");
}
