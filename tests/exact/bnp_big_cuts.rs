//! Rank-1 cuts on larger record sets with right side `floor(p(C) / q)` (proofs/P21 Part F):
//! no such cut cuts off any set partition (all partitions of n <= 11); pricing with their
//! duals equals brute force over all groups, and the verifier's bound is
//! `sum y + sum sigma b + floor(n/k) min(0, rc)` recomputed by hand; branch-price-and-cut
//! with `big_cut_records` equals an independent subset DP on adversarial families and on
//! rings of records (the structure of EIA k = 3's outlier block); its certificates verify,
//! and tampered ones (a raised dual, a lowered right side) are rejected.

use crate::bnp_support::{
    assert_no_partition_cut_off, assert_positive_cut_dual_rejected, assert_raised_dual_rejected,
    assert_round_trip, family_case, honest_certificate, leaf_using_cut, run_from_chunks as run,
    z_scored, CutPricingCase, PricingTotals,
};
use crate::common;
use common::subset_dp;
use common::{coefficient_by_floor, distinct_records, for_each_partition, members_of};
use microagg_solvers::bnp::BnpOptions;
use microagg_solvers::bounds::colgen::cuts::{Cut, CutDuals};
use microagg_solvers::sse::partition_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// A random large rank-1 cut on records of `0..n`: a subset-row cut `1/q` on 4..=n records,
/// or random multipliers over a random denominator; right side at least 2 when possible.
fn random_big_cut(rng: &mut ChaCha8Rng, n: usize) -> Cut {
    loop {
        let m = rng.random_range(4..=n);
        let c = if rng.random_bool(0.5) {
            let q = rng.random_range(2..=(m as u8 / 2).clamp(2, 9));
            Cut::subset_row(&distinct_records(rng, n, m), q)
        } else {
            let q = rng.random_range(2..=9u8);
            let p: Vec<u8> = (0..m).map(|_| rng.random_range(1..q)).collect();
            Cut::new(&distinct_records(rng, n, m), &p, q)
        };
        if let Ok(c) = c {
            if c.rhs() >= 2 || rng.random_bool(0.2) {
                return c;
            }
        }
    }
}

#[test]
fn big_cuts_never_cut_off_a_partition() {
    let mut rng = ChaCha8Rng::seed_from_u64(21_7777);
    let mut checks = 0u64;
    for n in 6..=11usize {
        let count = if n == 11 { 6 } else { 20 };
        let mut cuts: Vec<Cut> = (0..count).map(|_| random_big_cut(&mut rng, n)).collect();
        // The EIA shape: 1/3 on every record.
        cuts.push(Cut::subset_row(&(0..n as u32).collect::<Vec<u32>>(), 3).unwrap());
        for c in &cuts {
            let p: u32 = c.multipliers().iter().map(|&p| u32::from(p)).sum();
            assert_eq!(u32::from(c.rhs()), p / u32::from(c.denominator()), "{c:?}");
        }
        checks += assert_no_partition_cut_off(n, &cuts, |_, _, _| {});
        // The coefficient is the floor, monotone in joins (P21 Part C): on every group mask.
        for c in &cuts {
            for mask in 0usize..1 << n {
                let a = coefficient_by_floor(c, mask);
                assert_eq!(c.coefficient(&members_of(mask, n)), f64::from(a));
                for i in 0..n {
                    assert!(coefficient_by_floor(c, mask | 1 << i) >= a);
                }
            }
        }
    }
    eprintln!("{checks} (cut, partition) checks");
    assert!(checks > 4_000_000);
    // The shape is checked: right side 0, more than 32 records, a multiplier of q.
    assert!(Cut::subset_row(&[0, 1, 2], 4).is_err());
    assert!(Cut::subset_row(&(0..33).collect::<Vec<u32>>(), 3).is_err());
    assert!(Cut::new(&[0, 1, 2, 3], &[3, 1, 1, 1], 3).is_err());
    assert_eq!(
        Cut::subset_row(&(0..32).collect::<Vec<u32>>(), 3)
            .unwrap()
            .rhs(),
        10
    );
}

#[test]
fn pricing_and_the_bound_with_big_cuts_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(21_8888);
    let (mut seen_total, mut coef_above_1) = (PricingTotals::default(), 0);
    for case in 0..72 {
        let pc = CutPricingCase::random(&mut rng, case, 8..=11, 4, 6, random_big_cut);
        let truth = pc.least_rc(|mask| {
            if pc.cuts.iter().any(|c| coefficient_by_floor(c, mask) >= 2) {
                coef_above_1 += 1;
            }
        });
        let (n, k, share, geo) = (pc.n, pc.k, pc.share, &pc.geo);
        let (y, cuts, sigma, w) = (&pc.y, &pc.cuts, &pc.sigma, &pc.w);
        let wsum: f64 = cuts
            .iter()
            .zip(w)
            .map(|(c, w)| w * f64::from(c.rhs()))
            .sum();
        let tol = 1e-9 * (share + geo.max_dist + wsum) * (4 * k * k) as f64 + 1e-300;
        // The heuristic's moves are charged by floor steps.
        let seen = pc.assert_pricing(truth, tol, &mut rng, case);
        let expect = seen.expect;
        seen_total.add(&seen, tol);
        // The verifier's bound is below the optimum and sum y + sum sigma b + floor(n/k)
        // min(0, rc) (P21 Part B), rounded outward by little.
        let lower_bound = pc.assert_verified_bound_below_optimum(case);
        let by_hand = y.iter().sum::<f64>()
            + cuts
                .iter()
                .zip(sigma)
                .map(|(c, s)| s * f64::from(c.rhs()))
                .sum::<f64>()
            + (n / k) as f64 * expect;
        let scale = y.iter().map(|v| v.abs()).sum::<f64>() + wsum + (n / k) as f64 * tol;
        assert!(
            lower_bound <= by_hand + 1e-12 * scale && lower_bound >= by_hand - 1e-8 * scale,
            "case {case}: verifier {lower_bound} vs by hand {by_hand}"
        );
    }
    let t = seen_total;
    eprintln!(
        "{} negative, {} listed, {} heuristic groups, {coef_above_1} groups with a \
         coefficient >= 2",
        t.negative, t.listed, t.heuristic
    );
    assert!(t.negative >= 15 && t.listed >= 150 && t.heuristic >= 250 && coef_above_1 > 100);
}

/// `m` records on a circle of radius `r` (2-d, jittered) followed by `n - m` records in a
/// tight blob at the centre: the LP covers the ring by consecutive triples at fractional
/// values, as EIA k = 3 covers its 8 outliers.
fn ring(rng: &mut ChaCha8Rng, n: usize, m: usize, r: f64) -> Vec<f64> {
    let mut x = Vec::with_capacity(2 * n);
    for i in 0..m {
        let t = std::f64::consts::TAU * i as f64 / m as f64 + rng.random_range(-0.05..0.05);
        x.push(r * t.cos());
        x.push(r * t.sin());
    }
    for _ in m..n {
        x.push(rng.random_range(-0.1..0.1));
        x.push(rng.random_range(-0.1..0.1));
    }
    x
}

fn big_options(big: usize) -> BnpOptions {
    BnpOptions {
        big_cut_records: big,
        cut_violation: 1e-6,
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

fn is_big(c: &Cut) -> bool {
    c.records().len() > 5 || c.rhs() > 1
}

/// Instance `case`: a ring (every third case) or an adversarial family; (x, n, d, k).
fn instance(rng: &mut ChaCha8Rng, case: usize) -> (Vec<f64>, usize, usize, usize) {
    if case.is_multiple_of(3) {
        let m = rng.random_range(7..=11);
        let n = rng.random_range(m..=12);
        let r = 10f64.powi(rng.random_range(-3..=3));
        (ring(rng, n, m, r), n, 2, 3)
    } else {
        family_case(rng, case, 6..=12, 3)
    }
}

#[test]
fn branch_and_price_with_big_cuts_equals_the_subset_dp() {
    let mut rng = ChaCha8Rng::seed_from_u64(21_9999);
    let (mut with_big, mut checks, mut unproven, mut root_raised) = (0, 0u64, Vec::new(), 0);
    for case in 0..90 {
        let (x, n, d, k) = instance(&mut rng, case);
        let opt = subset_dp(&x, n, d, k);
        let plain = run(&x, n, d, k, &big_options(0));
        let r = run(&x, n, d, k, &big_options(24));
        for r in [&plain, &r] {
            assert!(r.stopped.is_none(), "case {case}: {:?}", r.stopped);
            assert_eq!(r.sse, partition_sse(&x, d, &r.labels), "case {case}");
            assert!(
                r.lower_bound <= opt && r.root_bound <= opt,
                "case {case}: {} > {opt}",
                r.lower_bound
            );
            assert!(r.sse <= opt * (1.0 + 1e-9) + 1e-300, "case {case}");
        }
        assert!(plain.cuts.iter().all(|c| !is_big(c)), "case {case}");
        if !r.proven_optimal {
            unproven.push((case, case % 6));
        }
        let big: Vec<&Cut> = r.cuts.iter().filter(|c| is_big(c)).collect();
        if !big.is_empty() {
            with_big += 1;
            if r.root_bound > plain.root_bound + 1e-9 * opt.abs() {
                root_raised += 1;
            }
            if n <= 10 {
                for_each_partition(n, &mut |groups| {
                    for c in &big {
                        let lhs: u32 = groups.iter().map(|&g| coefficient_by_floor(c, g)).sum();
                        assert!(lhs <= u32::from(c.rhs()), "case {case}: {c:?}");
                        checks += 1;
                    }
                });
            }
        }
    }
    eprintln!(
        "{with_big} runs with big cuts ({root_raised} with a higher root bound than without), \
         {checks} (cut, partition) checks, unproven {unproven:?}"
    );
    // Proven everywhere, the far-cluster family included since nodes shrink their dual box
    // (P17 "Small duals"; 5 far-cluster runs stayed unproven before).
    assert!(unproven.is_empty(), "{unproven:?}");
    assert!(with_big >= 10, "only {with_big} runs separated big cuts");
}

#[test]
fn big_cut_certificates_verify_and_tampered_ones_are_rejected() {
    use microagg::bnp_certificate::BnpCertificate;
    let mut rng = ChaCha8Rng::seed_from_u64(21_5151);
    let (mut checked, mut with_big, mut with_rhs) = (0, 0, 0);
    for case in 0..60 {
        let (x, n, d, k) = instance(&mut rng, case);
        let Some(inst) = z_scored(x, d) else {
            continue; // a constant column cannot be z-scored
        };
        let r = run(&inst.z, n, d, k, &big_options(24));
        let opt = subset_dp(&inst.z, n, d, k);
        let Some((cert, _)) = honest_certificate(&inst, k, &r, opt, case) else {
            continue;
        };
        checked += 1;
        let text = assert_round_trip(&cert);
        // A big cut with a nonzero dual at some leaf.
        let Some((j, c)) = leaf_using_cut(&cert, is_big) else {
            continue;
        };
        with_big += 1;
        // One record dual raised at that leaf.
        assert_raised_dual_rejected(&cert, &inst, k, j, case);
        // The big cut's dual raised to positive: nothing proven.
        assert_positive_cut_dual_rejected(&cert, &inst, k, (j, c), case);
        let rhs = cert.cuts[c].0.rhs();
        if rhs >= 2 {
            with_rhs += 1;
            // Written with its right side; a lowered right side is refused when read.
            let written = format!(
                "\"denominator\":{},\"rhs\":{rhs}",
                cert.cuts[c].0.denominator()
            );
            assert!(
                text.contains(&written),
                "case {case}: {written} not in the file"
            );
            let lowered = format!(
                "\"denominator\":{},\"rhs\":{}",
                cert.cuts[c].0.denominator(),
                rhs - 1
            );
            let bad_text = text.replacen(&written, &lowered, 1);
            let err = BnpCertificate::parse(&bad_text, "mem")
                .unwrap_err()
                .to_string();
            assert!(err.contains("right side"), "case {case}: {err}");
        }
    }
    eprintln!("{checked} certificates, {with_big} with a big cut in a proof, {with_rhs} of right side >= 2");
    assert!(
        checked >= 30 && with_big >= 5 && with_rhs >= 3,
        "{checked} {with_big} {with_rhs}"
    );
}

#[test]
fn a_lowered_right_side_would_raise_the_bound() {
    // Why the verifier must refuse a lowered right side: with sigma < 0 the bound's cut term
    // sigma * b grows as b falls. Eight records 1/3 each (right side 2) against the same cut
    // read with right side 1 (not constructible: only the floor is accepted).
    let cut = Cut::subset_row(&(0..8).collect::<Vec<u32>>(), 3).unwrap();
    assert_eq!(cut.rhs(), 2);
    let cd = CutDuals::new(8, &[cut], &[-0.5]);
    assert_eq!(cd.rhs_terms(), vec![-0.5, -0.5]);
    assert_eq!(cd.penalty_terms(), 2);
    assert_eq!(cd.total_weight(), 1.0);
    // Penalty steps: one weight per multiple of q reached.
    assert_eq!(cd.penalty(&[0, 1]), 0.0);
    assert_eq!(cd.penalty(&[0, 1, 2]), 0.5);
    assert_eq!(cd.penalty(&[0, 1, 2, 3, 4, 5]), 1.0);
    assert_eq!(cd.penalty_step(0, 2, 6), 1.0);
}

#[test]
fn the_big_cuts_flag_is_checked_and_reported() {
    let data = "gauss:n=40,d=2,clusters=4,seed=3";
    let err = common::cli_err(&common::method_args(
        "bound",
        data,
        "3",
        "colgen",
        &["--param", "big_cuts=8"],
    ));
    assert!(
        err.contains("bound colgen has no parameter 'big_cuts'"),
        "{err}"
    );
    let err = common::cli_err(&common::method_args(
        "bound",
        data,
        "3",
        "bnp",
        &["--param", "big_cuts=33"],
    ));
    assert!(err.contains("2..=32"), "{err}");
    let v = common::cli_json(&common::method_args(
        "bound",
        data,
        "3",
        "bnp",
        &["--param", "big_cuts=12", "--time-limit", "30", "--json"],
    ));
    let kinds = &v["details"]["cuts_by_kind"];
    let total = ["triples", "rank1_4_5", "big"]
        .iter()
        .map(|k| kinds[k].as_u64().unwrap())
        .sum::<u64>();
    assert_eq!(total, v["details"]["cuts"].as_u64().unwrap(), "{v}");
}
