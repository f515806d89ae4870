//! The group-count row `sum_S x_S <= floor(n/k)` (proofs/P22): it never cuts off a
//! partition (every set partition of up to 11 records); pricing with its dual `mu != 0`
//! equals enumeration of all groups; the size completion redone for the shift holds (and
//! P20's unshifted scaling does not); the row's own Lagrangian bound is below the optimum
//! and below the verifier's bound at the same duals; branch-price-and-cut with the row equals
//! an independent subset DP, its root LP is never below the root LP without it, and its
//! certificates verify unchanged while tampered ones are rejected.

use crate::bnp_support::{
    assert_certificate_sound, assert_heuristic_groups_priced_exactly, assert_solved, family_case,
    family_cases, run_from_chunks as run, unlimited_budget, z_scored,
};
use crate::common;
use common::{adversarial_family as family, for_each_set_partition, subset_dp};
use microagg_solvers::bnp::BnpOptions;
use microagg_solvers::bounds::colgen::count_row::{
    column_threshold, completion_value_shifted, count_lagrangian, max_groups, min_groups,
    shifted_rc_bound,
};
use microagg_solvers::bounds::colgen::cuts::{Cut, CutDuals};
use microagg_solvers::bounds::colgen::pairs::ANY_COUNT;
use microagg_solvers::bounds::colgen::pricing::{ExactSearch, Geometry};
use microagg_solvers::bounds::verify_node_bound;
use microagg_solvers::sse::group_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn the_count_row_never_cuts_off_a_partition() {
    let mut checked = 0u64;
    let mut at_the_cap = 0u64;
    for n in 1..=11usize {
        for k in 1..=4usize.min(n) {
            let cap = max_groups(n, k);
            for_each_set_partition(n, k, &mut |labels| {
                let groups = labels.iter().max().map_or(0, |m| m + 1);
                assert!(groups <= cap, "n {n} k {k}: {groups} groups > {cap}");
                if groups == cap {
                    at_the_cap += 1;
                }
                // The companion (P22 "Companion"): groups of k..2k-1 records number at
                // least ceil(n / (2k - 1)).
                let mut sizes = vec![0usize; groups];
                labels.iter().for_each(|&l| sizes[l] += 1);
                if sizes.iter().all(|&s| s < 2 * k) {
                    assert!(groups >= min_groups(n, k), "n {n} k {k}: {sizes:?}");
                }
                checked += 1;
            });
        }
    }
    eprintln!("{checked} partitions, {at_the_cap} at the cap");
    // The cap is reached (the row is tight for some partition, so not trivially loose).
    assert!(checked > 900_000 && at_the_cap > 30_000);
}

/// `SSE(S) - y(S) + sum_C w_C [|S ∩ C| >= 2]` by brute force (triples; two-pass SSE).
fn rc_brute(x: &[f64], d: usize, y: &[f64], cuts: &[[u32; 3]], w: &[f64], mask: usize) -> f64 {
    let g: Vec<usize> = (0..y.len()).filter(|&i| mask >> i & 1 == 1).collect();
    let pen: f64 = cuts
        .iter()
        .zip(w)
        .filter(|(t, _)| t.iter().filter(|&&i| mask >> i & 1 == 1).count() >= 2)
        .map(|(_, w)| w)
        .sum();
    group_sse(x, d, &g) - g.iter().map(|&i| y[i]).sum::<f64>() + pen
}

#[test]
fn pricing_and_bounds_with_the_count_dual_equal_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(22_0022);
    let (mut negative, mut completions, mut gained) = (0, 0, 0);
    for case in 0..90 {
        let (x, n, d, k) = family_case(&mut rng, case, 6..=11, 3);
        let (share, y) = common::duals_around_chunks(&mut rng, &x, n, d, k);
        let with_cuts = case % 3 != 0;
        let triples: Vec<[u32; 3]> = if with_cuts {
            (0..rng.random_range(1..=6))
                .map(|_| {
                    let mut t = [0u32; 3];
                    while t[0] == t[1] || t[1] == t[2] || t[0] == t[2] {
                        t = [0, 1, 2].map(|_| rng.random_range(0..n as u32));
                    }
                    t.sort_unstable();
                    t
                })
                .collect()
        } else {
            Vec::new()
        };
        let sigma: Vec<f64> = triples
            .iter()
            .map(|_| -share * rng.random_range(0.0..1.5))
            .collect();
        let w: Vec<f64> = sigma.iter().map(|s| -s).collect();
        let cuts: Vec<Cut> = triples.iter().map(|&t| Cut::triple(t)).collect();
        let cd = CutDuals::new(n, &cuts, &sigma);
        let geo = Geometry::new(&x, n, d, k, 12);
        // Brute force: the least rc per size; then mu around the least rc (below it in about
        // half the cases, where the row's own bound is weaker than the verifier's).
        let w_sizes = 2 * k - 1 - k + 1;
        let mut per_size = vec![f64::INFINITY; w_sizes];
        for mask in 1usize..1 << n {
            let m = mask.count_ones() as usize;
            if m >= k && m < 2 * k {
                let v = rc_brute(&x, d, &y, &triples, &w, mask);
                per_size[m - k] = per_size[m - k].min(v);
            }
        }
        let least = per_size.iter().copied().fold(f64::INFINITY, f64::min);
        let mu = if least < 0.0 && case % 2 == 0 {
            least * rng.random_range(0.0..2.0)
        } else {
            -share * rng.random_range(0.0..3.0)
        };
        per_size.iter_mut().for_each(|v| *v -= mu);
        let truth = per_size.iter().copied().fold(f64::INFINITY, f64::min);
        let budget = unlimited_budget();
        let ex = ExactSearch::new(&cd).run(&geo, &y, budget, &mut Vec::new());
        assert!(ex.exact, "case {case}");
        let tol =
            1e-9 * (share * (1.0 + mu.abs() / share) + geo.max_dist) * (4 * k * k) as f64 + 1e-300;
        let shifted = shifted_rc_bound(ex.rc_lower_bound, mu);
        let expect = truth.min(0.0);
        assert!(
            (shifted - expect).abs() <= tol,
            "case {case} (family {}): shifted pricing {shifted} vs enumeration {expect}",
            case % 6
        );
        assert!(shifted <= expect + tol, "case {case}");
        // The columns below the shifted threshold: the least of them is the minimiser.
        let below = column_threshold(mu, 0.0);
        let best = ex
            .columns
            .iter()
            .filter(|(rc, _)| *rc < below)
            .map(|(rc, _)| rc - mu)
            .fold(f64::INFINITY, f64::min);
        if expect < -tol {
            negative += 1;
            assert!(
                (best - truth).abs() <= tol,
                "case {case}: {best} vs {truth}"
            );
        } else {
            assert!(best >= -tol, "case {case}");
        }
        // The heuristic's groups carry their reduced cost (the shift is the caller's).
        let rc_of = |mask| rc_brute(&x, d, &y, &triples, &w, mask);
        assert_heuristic_groups_priced_exactly(&geo, &y, &cd, rc_of, tol, case);
        // The size completion for the shift (P22 Part D; no cuts): every size m > k is at
        // least the completion of the size-k minimum.
        if !with_cuts {
            for m in k + 1..2 * k {
                let v = completion_value_shifted(k, m, per_size[0], mu, 0.0);
                assert!(
                    per_size[m - k] >= v - tol,
                    "case {case}: size {m} minimum {} below completion {v}",
                    per_size[m - k]
                );
                completions += 1;
            }
        }
        // The row's own Lagrangian bound (P22 Part B) is below the optimum and below the
        // verifier's bound at the same duals.
        let opt = subset_dp(&x, n, d, k);
        let sum_ys = y.iter().sum::<f64>() + sigma.iter().sum::<f64>();
        let own = count_lagrangian(sum_ys, max_groups(n, k), mu, shifted);
        let v = verify_node_bound(&x, n, d, k, &y, &cuts, &sigma, &[], ANY_COUNT, None).unwrap();
        assert!(v.pricing_exact);
        assert!(own <= opt + tol * n as f64, "case {case}: {own} > {opt}");
        assert!(v.lower_bound <= opt, "case {case}");
        assert!(
            v.lower_bound >= own - tol * n as f64,
            "case {case}: verifier {} below the row's bound {own}",
            v.lower_bound
        );
        if v.lower_bound > own + tol * n as f64 {
            gained += 1;
        }
    }
    eprintln!("{negative} negative, {completions} completion checks, {gained} strictly above");
    assert!(negative >= 20 && completions >= 20 && gained >= 20);
}

#[test]
fn the_completion_must_be_redone_for_the_shift() {
    // Identical records, equal duals c: rc(S) = -m c is exactly (m/k) times the size-k
    // minimum, so with mu = -c/2 P20's unshifted scaling (m/k) tau' is above the true
    // minimum -m c + c/2 at every m > k, while the shifted completion holds with equality.
    let (n, d, k, c) = (9usize, 2usize, 3usize, 1.5f64);
    let x = vec![0.25; n * d];
    let mu = -c / 2.0;
    for m in k + 1..2 * k {
        let tau_k = -(k as f64) * c - mu; // min rc' at size k
        let truth = -(m as f64) * c - mu; // min rc' at size m
        let naive = m as f64 / k as f64 * tau_k;
        assert!(naive > truth + 1e-9, "m {m}: {naive} vs {truth}");
        let v = completion_value_shifted(k, m, tau_k, mu, 0.0);
        assert!(v <= truth && v >= truth - 1e-9, "m {m}: {v} vs {truth}");
    }
    // And the group SSE of identical records is 0, as the construction assumes.
    assert_eq!(group_sse(&x, d, &[0, 1, 2, 3]), 0.0);
}

fn options(count_row: bool, rank1: bool) -> BnpOptions {
    BnpOptions {
        count_row,
        rank1_cuts: rank1,
        cut_violation: 1e-6,
        time_limit: 60.0,
        ..BnpOptions::default()
    }
}

#[test]
fn branch_and_price_with_the_count_row_equals_the_subset_dp() {
    let (mut raised, mut compared, mut unproven) = (0, 0, Vec::new());
    for (case, x, n, d, k) in family_cases(22_1212, 110, 6..=12) {
        let opt = subset_dp(&x, n, d, k);
        let plain = run(&x, n, d, k, &options(false, false));
        for rank1 in [false, true] {
            let r = run(&x, n, d, k, &options(true, rank1));
            assert_solved(&r, &x, d, opt, case);
            if !r.proven_optimal {
                unproven.push((case, case % 6, rank1));
            }
            // A valid row can only raise the root LP (both before cuts).
            if !rank1 && r.root_lp.is_finite() && plain.root_lp.is_finite() {
                let tol = 1e-7 * (1.0 + opt.abs());
                assert!(
                    r.root_lp <= opt + tol,
                    "case {case}: root LP {} > {opt}",
                    r.root_lp
                );
                assert!(
                    r.root_lp >= plain.root_lp - tol,
                    "case {case}: root LP {} with the row < {} without",
                    r.root_lp,
                    plain.root_lp
                );
                compared += 1;
                if r.root_lp > plain.root_lp + tol {
                    raised += 1;
                }
            }
        }
    }
    eprintln!("{compared} root LPs compared, {raised} raised by the row, unproven {unproven:?}");
    // Proven everywhere, the far-cluster family included since nodes shrink their dual box
    // (P17 "Small duals"; 10 far-cluster runs stayed unproven before).
    assert!(unproven.is_empty(), "{unproven:?}");
    assert!(compared >= 80 && raised >= 5, "{compared} {raised}");
}

#[test]
fn count_row_certificates_verify_and_tampered_ones_are_rejected() {
    let mut rng = ChaCha8Rng::seed_from_u64(22_4242);
    let mut checked = 0;
    for case in 0..40 {
        // n not divisible by k, so that the row can bind.
        let k = rng.random_range(2..=3usize);
        let n = loop {
            let n = rng.random_range(8..=12usize);
            if n % k != 0 {
                break n;
            }
        };
        let d = rng.random_range(1..=3);
        let x = family(&mut rng, case, n, d);
        let Some(inst) = z_scored(x, d) else {
            continue; // a constant column cannot be z-scored
        };
        let r = run(
            &inst.z,
            n,
            d,
            k,
            &BnpOptions {
                max_nodes: 3,
                ..options(true, false)
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
