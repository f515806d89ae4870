//! The pool MIP over reduced-cost columns after the root (`rc_pool_columns`). It is a
//! heuristic, so branch-and-price with it still equals an independent subset DP. At the root
//! alone, whenever its listing was complete up to the whole gap and the MIP was solved to
//! optimality, it returns an optimal partition: every group of a better partition has
//! reduced cost within the gap (P19 Part A). The start is the chunk partition and the
//! column-pool MIP is off, so the heuristic has something to find (with its improvement not
//! taken, the second test fails on its count of improved cases). The listing it rests on,
//! `cheap_groups`, is checked against every group's reduced cost by brute force.

use crate::bnp_support::{assert_solved, family_cases, run_from_chunks as run, CutPricingCase};
use crate::common::{distinct_records, subset_dp};
use microagg_solvers::bnp::BnpOptions;
use microagg_solvers::bounds::colgen::cuts::Cut;
use microagg_solvers::bounds::colgen::pricing::cheap_groups;
use microagg_solvers::sse::partition_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::time::{Duration, Instant};

fn options(rc_pool_columns: usize, cuts: usize) -> BnpOptions {
    BnpOptions {
        rc_pool_columns,
        mip_seconds: 0.0,
        cut_rounds: cuts,
        node_cut_rounds: cuts.min(1),
        cut_violation: 1e-6,
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

#[test]
fn branch_and_price_with_the_rc_pool_equals_the_subset_dp() {
    let mut ran = 0;
    for (case, x, n, d, k) in family_cases(54_0505, 150, 8..=14) {
        let opt = subset_dp(&x, n, d, k);
        let cuts = if case % 2 == 0 { 50 } else { 0 };
        let r = run(&x, n, d, k, &options(1000, cuts));
        assert_solved(&r, &x, d, opt, case);
        ran += usize::from(r.rc_pool.is_some());
    }
    assert!(ran >= 30, "the heuristic ran on {ran} of 150 cases");
}

#[test]
fn the_rc_pool_at_the_root_finds_the_optimum_when_it_lists_the_whole_gap() {
    let (mut whole, mut improved, mut ran) = (0, 0, 0);
    for (case, x, n, d, k) in family_cases(54_0606, 400, 8..=14) {
        let opt = subset_dp(&x, n, d, k);
        let tol = 1e-9 * (1.0 + opt.abs());
        let cuts = if case % 2 == 0 { 50 } else { 0 };
        let opts = BnpOptions {
            max_nodes: 1,
            ..options(1_000_000, cuts)
        };
        let r = run(&x, n, d, k, &opts);
        let Some(p) = &r.rc_pool else {
            continue; // the root proved its incumbent, or only the nn bound held
        };
        ran += 1;
        assert!(
            (partition_sse(&x, d, &r.labels) - r.sse).abs() <= tol,
            "case {case}: incumbent SSE"
        );
        assert!(p.sse_after <= p.sse_before, "case {case}: {p:?}");
        assert!(r.sse <= p.sse_after + tol, "case {case}: {} {p:?}", r.sse);
        assert!(
            r.sse >= opt - tol,
            "case {case}: {} below the optimum {opt}",
            r.sse
        );
        if p.whole_gap && p.mip_optimal {
            whole += 1;
            assert!(
                r.sse <= opt + tol,
                "case {case}: the whole gap listed, the MIP optimal, yet {} > {opt}: {p:?}",
                r.sse
            );
            if p.sse_before > opt + tol {
                improved += 1;
            }
        }
    }
    eprintln!("ran on {ran} cases, {whole} with the whole gap listed, {improved} improved");
    assert!(whole >= 120, "{whole} of {ran}");
    assert!(improved >= 40, "{improved} of {whole}");
}

fn random_triple(rng: &mut ChaCha8Rng, n: usize) -> Cut {
    let r = distinct_records(rng, n, 3);
    Cut::triple([r[0], r[1], r[2]])
}

/// Against brute force: the listing kept holds at most `cap` distinct groups; when complete,
/// every group below its threshold (within rounding) and none above; the doubling stopped
/// only where the next threshold would list more than `cap` groups or `last` was reached;
/// when even the first listing is over the cap, `cap` groups below its threshold.
#[test]
fn cheap_groups_are_every_group_below_the_doubled_threshold_within_the_cap() {
    let mut rng = ChaCha8Rng::seed_from_u64(54_0707);
    let (mut complete, mut capped, mut doubled) = (0, 0, 0);
    for case in 0..80 {
        let pc = CutPricingCase::random(&mut rng, case, 6..=10, 3, 4, random_triple);
        let mut all: Vec<(f64, usize)> = Vec::new();
        pc.least_rc(|mask| all.push((pc.rc(mask), mask)));
        all.sort_by(|a, b| a.0.total_cmp(&b.0));
        let tol = 1e-9 * (1.0 + pc.share);
        let cap = rng.random_range(3..=80);
        let first = pc.share * rng.random_range(0.01..0.5);
        let last = pc.share * 64.0;
        let deadline = Instant::now() + Duration::from_secs(60);
        let got = cheap_groups(&pc.geo, &pc.y, &pc.cd, (first, last), cap, deadline.into());
        let mask_of = |g: &Vec<u32>| g.iter().fold(0usize, |m, &i| m | 1 << i);
        let masks: Vec<usize> = got.groups.iter().map(mask_of).collect();
        let mut distinct = masks.clone();
        distinct.sort_unstable();
        distinct.dedup();
        assert_eq!(distinct.len(), masks.len(), "case {case}: a group twice");
        assert!(
            masks.len() <= cap,
            "case {case}: {} > cap {cap}",
            masks.len()
        );
        let below = |t: f64| all.iter().filter(|(rc, _)| *rc < t).count();
        let t = got.threshold;
        if got.complete {
            complete += 1;
            for &(rc, mask) in &all {
                if rc < t - tol {
                    assert!(masks.contains(&mask), "case {case}: rc {rc} < {t} missing");
                }
            }
            for &mask in &masks {
                assert!(
                    pc.rc(mask) < t + tol,
                    "case {case}: rc {} >= {t}",
                    pc.rc(mask)
                );
            }
            if t < last {
                doubled += usize::from(t > first);
                assert!(
                    below(2.0 * t + tol) > cap,
                    "case {case}: stopped at {t} with {} groups below {}",
                    below(2.0 * t + tol),
                    2.0 * t
                );
            }
        } else {
            capped += 1;
            assert_eq!(
                t, first,
                "case {case}: only the first listing can be over the cap"
            );
            assert_eq!(masks.len(), cap, "case {case}");
            // Cut short by the cap: groups below the first threshold (the cheapest of those
            // met, not of all when the search stopped early).
            for &mask in &masks {
                assert!(
                    pc.rc(mask) < first + tol,
                    "case {case}: rc {} >= {first}",
                    pc.rc(mask)
                );
            }
            assert!(
                below(first + tol) > cap,
                "case {case}: capped with {} below",
                below(first)
            );
        }
    }
    eprintln!("{complete} complete ({doubled} after doubling), {capped} capped");
    assert!(complete >= 20 && doubled >= 10 && capped >= 10);
}
