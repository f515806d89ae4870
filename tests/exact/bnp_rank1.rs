//! Rank-1 cuts on four and five records (proofs/P21): no cut of any kind cuts off a
//! partition (every set partition of up to 8 records against every cut on them, and random
//! cuts of the general form); pricing with their penalties equals enumeration of all groups;
//! the Lagrangian bound with them stays below the brute-force optimum for any duals;
//! branch-price-and-cut with them equals an independent subset DP (and exhaustive
//! enumeration of set partitions for n <= 9) on adversarial families; their certificates
//! verify, and tampered ones are rejected.

use crate::bnp_support::{
    assert_no_partition_cut_off, assert_positive_cut_dual_rejected, assert_raised_dual_rejected,
    assert_round_trip, assert_solved, family_cases, honest_certificate, leaf_using_cut,
    run_from_chunks as run, z_scored_family_cases, CutPricingCase, PricingTotals,
};
use crate::common;
use common::{brute_force_optimum, subset_dp};
use common::{coefficient_by_floor, distinct_records, for_each_partition, members_of};
use microagg_solvers::bnp::BnpOptions;
use microagg_solvers::bounds::colgen::cuts::Cut;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn rank1_cuts_never_cut_off_a_partition() {
    let mut rng = ChaCha8Rng::seed_from_u64(21_2026);
    let mut checks = 0u64;
    for n in 5..=8usize {
        // Every cut of the three kinds on 0..n, and random ones of the general form.
        let mut cuts: Vec<Cut> = Vec::new();
        for mask in 0usize..1 << n {
            let r = members_of(mask, n);
            match r.len() {
                3 => cuts.push(Cut::triple([r[0], r[1], r[2]])),
                4 => {
                    for h in 0..4 {
                        let light: Vec<u32> = (0..4).filter(|&j| j != h).map(|j| r[j]).collect();
                        cuts.push(Cut::four(r[h], [light[0], light[1], light[2]]));
                    }
                }
                5 => cuts.push(Cut::five([r[0], r[1], r[2], r[3], r[4]])),
                _ => {}
            }
        }
        for _ in 0..200 {
            cuts.push(random_cut(&mut rng, n));
        }
        checks += assert_no_partition_cut_off(n, &cuts, |c, g, by_floor| {
            assert!(
                by_floor <= u32::from(c.rhs()),
                "{c:?}: coefficient {by_floor} for {g:b}"
            );
            assert_eq!(
                c.coefficient(&members_of(g, n)),
                f64::from(by_floor),
                "{c:?} on {g:b}"
            );
        });
    }
    eprintln!("{checks} (cut, partition) checks");
    assert!(checks > 1_000_000);
    // Malformed cuts are refused: right side 0, a multiplier of 0 or of q, repeated records,
    // too many records; a right side above 1 is the floor (P21 Part F).
    assert!(Cut::new(&[0, 1, 2], &[1, 1, 1], 4).is_err());
    assert_eq!(Cut::new(&[0, 1, 2, 3], &[1, 1, 1, 1], 2).unwrap().rhs(), 2);
    assert!(Cut::new(&[0, 1, 2], &[0, 1, 1], 2).is_err());
    assert!(Cut::new(&[0, 1, 2], &[2, 1, 1], 2).is_err());
    assert!(Cut::new(&[0, 1, 1], &[1, 1, 1], 2).is_err());
    assert!(Cut::new(&(0..33).collect::<Vec<u32>>(), &[1; 33], 4).is_err());
    assert!(Cut::new(&[4, 0, 2], &[1, 1, 1], 2).unwrap() == Cut::triple([0, 2, 4]));
}

/// A random cut on records of `0..n` (n >= 5): one of the three kinds in use, or a random
/// rank-1 cut of the general form on 2..5 records (right side `floor(p(C) / q)`, 1 or more;
/// the larger cuts have tests/exact/bnp_big_cuts.rs).
fn random_cut(rng: &mut ChaCha8Rng, n: usize) -> Cut {
    match rng.random_range(0..4) {
        0 => {
            let r = distinct_records(rng, n, 3);
            Cut::triple([r[0], r[1], r[2]])
        }
        1 => {
            let r = distinct_records(rng, n, 5);
            Cut::five([r[0], r[1], r[2], r[3], r[4]])
        }
        2 => {
            let r = distinct_records(rng, n, 4);
            Cut::four(r[0], [r[1], r[2], r[3]])
        }
        _ => loop {
            let m = rng.random_range(2..=5);
            let q = rng.random_range(2..=9u8);
            let p: Vec<u8> = (0..m).map(|_| rng.random_range(1..q)).collect();
            if let Ok(c) = Cut::new(&distinct_records(rng, n, m), &p, q) {
                break c;
            }
        },
    }
}

#[test]
fn pricing_and_the_lagrangian_bound_with_rank1_cuts_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(21_0021);
    let mut seen_total = PricingTotals::default();
    for case in 0..90 {
        let pc = CutPricingCase::random(&mut rng, case, 6..=11, 3, 8, random_cut);
        let truth = pc.least_rc(|_| {});
        let (k, share, geo) = (pc.k, pc.share, &pc.geo);
        let tol = 1e-9 * (share + geo.max_dist) * (4 * k * k) as f64 + 1e-300;
        let seen = pc.assert_pricing(truth, tol, &mut rng, case);
        seen_total.add(&seen, tol);
        // The Lagrangian bound with these cuts, recomputed by the verifier, is below the
        // optimum for any duals (P21 Part B).
        pc.assert_verified_bound_below_optimum(case);
    }
    let t = seen_total;
    eprintln!(
        "{} negative, {} listed, {} heuristic groups",
        t.negative, t.listed, t.heuristic
    );
    assert!(t.negative >= 20 && t.listed >= 200 && t.heuristic >= 300);
}

/// Options that separate rank-1 cuts readily on small instances: small violations count and
/// few triples per round, so that the 4- and 5-record cuts get their share.
fn rank1_options(light: bool) -> BnpOptions {
    BnpOptions {
        rank1_cuts: true,
        cut_violation: 1e-6,
        cuts_per_round: if light { 3 } else { 800 },
        cut_rounds: if light { 2 } else { 50 },
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

#[test]
fn branch_and_price_with_rank1_cuts_equals_brute_force() {
    let (mut with_rank1, mut rank1_checks, mut unproven) = (0, 0, Vec::new());
    for (case, x, n, d, k) in family_cases(21_1212, 110, 6..=12) {
        let opt = subset_dp(&x, n, d, k);
        if n <= 9 {
            let bf = brute_force_optimum(&x, n, d, k);
            assert!((bf - opt).abs() <= 1e-12 * bf.abs() + 1e-300, "case {case}");
        }
        for light in [false, true] {
            let r = run(&x, n, d, k, &rank1_options(light));
            assert_solved(&r, &x, d, opt, case);
            if !r.proven_optimal {
                unproven.push((case, case % 6, light));
            }
            let rank1: Vec<&Cut> = r.cuts.iter().filter(|c| c.as_triple().is_none()).collect();
            if !rank1.is_empty() {
                with_rank1 += 1;
                if n <= 9 {
                    for_each_partition(n, &mut |groups| {
                        for c in &rank1 {
                            let lhs: u32 = groups.iter().map(|&g| coefficient_by_floor(c, g)).sum();
                            assert!(
                                lhs <= u32::from(c.rhs()),
                                "case {case}: {c:?} cuts off {groups:?}"
                            );
                            rank1_checks += 1;
                        }
                    });
                }
            }
        }
    }
    eprintln!(
        "{with_rank1} runs with rank-1 cuts, {rank1_checks} (cut, partition) checks, \
         unproven {unproven:?}"
    );
    // Proven everywhere. Before the small dual box (P17 "Small duals") 18 far-cluster runs
    // stayed unproven; with it but without the search again at the incumbent's scale, 3
    // (the chunked start 1e11 times the optimum, P17 "Floating point").
    assert!(unproven.is_empty(), "{unproven:?}");
    common::assert_shown_in("rank-1 cuts separated", with_rank1, 2 * 110, 10);
}

#[test]
fn rank1_certificates_verify_and_tampered_ones_are_rejected() {
    use microagg::bnp_certificate::{verify, BnpCertificate};
    let (mut checked, mut with_rank1) = (0, 0);
    for (case, inst, n, d, k) in z_scored_family_cases(21_4242, 60, 8..=12) {
        let r = run(&inst.z, n, d, k, &rank1_options(true));
        let opt = subset_dp(&inst.z, n, d, k);
        let Some((cert, _)) = honest_certificate(&inst, k, &r, opt, case) else {
            continue;
        };
        checked += 1;
        let text = assert_round_trip(&cert);
        // A rank-1 cut with a nonzero dual at some leaf (kept by the compaction).
        let Some((j, c)) = leaf_using_cut(&cert, |cut| cut.as_triple().is_none()) else {
            continue;
        };
        with_rank1 += 1;
        assert!(text.contains("\"denominator\""), "case {case}");
        // One record dual raised at that leaf.
        assert_raised_dual_rejected(&cert, &inst, k, j, case);
        // The rank-1 cut's dual made positive: it proves nothing.
        assert_positive_cut_dual_rejected(&cert, &inst, k, (j, c), case);
        // The cut's denominator edited to 9 in the file (right side floor(p(C) / 9) = 0):
        // refused when read.
        let bad_text = text.replacen("\"denominator\":3", "\"denominator\":9", 1);
        assert!(bad_text != text);
        assert!(
            BnpCertificate::parse(&bad_text, "mem").is_err(),
            "case {case}"
        );
        // A record out of range: an error, not a verdict.
        let mut bad = cert.clone();
        let c0 = bad.cuts[c].0;
        let mut recs = c0.records().to_vec();
        recs[0] = n as u32;
        bad.cuts[c].0 = Cut::new(&recs, c0.multipliers(), c0.denominator()).unwrap();
        assert!(verify(&bad, &inst, k, None).is_err(), "case {case}");
    }
    eprintln!("{checked} certificates, {with_rank1} with a rank-1 cut in a proof");
    assert!(checked >= 30 && with_rank1 >= 5, "{checked} {with_rank1}");
}
