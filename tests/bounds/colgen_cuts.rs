//! Subset-row cuts in the column generation bound (issue 18 item 2,
//! `proofs/P14-subset-row-cuts.md`): exact pricing with cut penalties equals brute-force
//! enumeration of all groups; on small adversarial instances (n <= 12: clusters, two far
//! clusters of tiny spread, duplicates, outliers, scales 1e-6..1e6, regular polygons) the
//! bound with cuts is at most the brute-force optimum and at least the bound without cuts (and
//! at most the subset DP optimum for n = 12..16);
//! every separated cut holds for every partition (enumerated); the recomputed (verifier) bound
//! of the cut duals supports the claim, and a positive cut dual proves nothing.

use crate::common;
use common::{brute_force_min_rc_cuts, brute_force_optimum, clustered_rows};
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::{colgen_bound, verify_lagrangian_cuts, ColgenOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn random_triple(rng: &mut impl Rng, n: usize) -> [u32; 3] {
    loop {
        let mut t = [
            rng.random_range(0..n as u32),
            rng.random_range(0..n as u32),
            rng.random_range(0..n as u32),
        ];
        t.sort_unstable();
        if t[0] != t[1] && t[1] != t[2] {
            return t;
        }
    }
}

#[test]
fn exact_pricing_with_cuts_matches_brute_force() {
    let mut rng = ChaCha8Rng::seed_from_u64(14_2026);
    let mut penalised = 0;
    for case in 0..60 {
        let (x, d, geo, scale, y) = common::random_pricing_case(&mut rng, 12, -0.3);
        let (n, k) = (geo.n, geo.k);
        let cuts: Vec<([u32; 3], f64)> = (0..rng.random_range(1..=2 * n))
            .map(|_| (random_triple(&mut rng, n), rng.random_range(0.0..scale)))
            .collect();
        let triples: Vec<[u32; 3]> = cuts.iter().map(|c| c.0).collect();
        let sigma: Vec<f64> = cuts.iter().map(|c| -c.1).collect();
        let cd = CutDuals::new(n, &triples, &sigma);
        let truth = brute_force_min_rc_cuts(&x, n, d, k, &y, &cuts);
        let plain = brute_force_min_rc_cuts(&x, n, d, k, &y, &[]);
        if truth > plain + 1e-9 {
            penalised += 1;
        }
        let tol = 1e-9 * (1.0 + truth.abs());
        // Exact with the cuts, and cut short still a valid bound.
        let label = format!("case {case} (n={n}, d={d}, k={k}), with cuts");
        let ex = common::assert_exact_pricing_matches(&geo, &y, &cd, (truth, tol), 2, &label);
        for (rc, g) in &ex.columns {
            let check = geo.reduced_cost_cuts(g, &y, &cd);
            assert!(
                (rc - check).abs() <= tol && *rc >= truth - tol,
                "case {case}"
            );
        }
    }
    assert!(
        penalised >= 20,
        "the cuts changed the minimum in only {penalised} cases"
    );
}

/// Small adversarial instances: (name, rows, n, d, k).
fn adversarial(rng: &mut ChaCha8Rng, case: usize) -> (String, Vec<f64>, usize, usize, usize) {
    let (n, d, k) = common::random_size(rng, 6..=10, 1..=3, 3);
    let mut x = match case % 6 {
        // Regular polygon (d = 2): equidistant neighbours make fractional masters.
        0 => {
            let m = n;
            (0..m)
                .flat_map(|i| {
                    let a = std::f64::consts::TAU * i as f64 / m as f64;
                    [a.cos(), a.sin()]
                })
                .collect::<Vec<f64>>()
        }
        // Two far-apart clusters of tiny spread.
        1 => (0..n * d)
            .map(|t| if t / d < n / 2 { 0.0 } else { 100.0 } + rng.random_range(-1e-3..1e-3))
            .collect(),
        // Duplicates: records repeat.
        2 => {
            let base = clustered_rows(rng, n, d, 2.0);
            (0..n * d).map(|t| base[(t / d / 2) * d + t % d]).collect()
        }
        // One outlier.
        3 => {
            let mut v = clustered_rows(rng, n, d, 1.0);
            v[0] = 1e3;
            v
        }
        // Scaled clustered data.
        4 => clustered_rows(rng, n, d, 3.0)
            .into_iter()
            .map(|v| v * if case % 12 == 4 { 1e-6 } else { 1e6 })
            .collect(),
        _ => clustered_rows(rng, n, d, 1.5),
    };
    let d = if case.is_multiple_of(6) { 2 } else { d };
    x.truncate(n * d);
    (format!("case {case} family {}", case % 6), x, n, d, k)
}

/// Every partition of 0..n into groups of k..2k-1 records (restricted growth strings).
fn partitions(n: usize, k: usize) -> Vec<Vec<usize>> {
    fn rec(
        i: usize,
        n: usize,
        k: usize,
        labels: &mut Vec<usize>,
        g: usize,
        out: &mut Vec<Vec<usize>>,
    ) {
        let mut sizes = vec![0usize; g];
        labels.iter().for_each(|&l| sizes[l] += 1);
        if sizes.iter().any(|&s| s > 2 * k - 1) {
            return;
        }
        let deficit: usize = sizes.iter().map(|&s| k.saturating_sub(s)).sum();
        if deficit > n - i {
            return;
        }
        if i == n {
            out.push(labels.clone());
            return;
        }
        for l in 0..=g {
            labels.push(l);
            rec(i + 1, n, k, labels, g.max(l + 1), out);
            labels.pop();
        }
    }
    let mut out = Vec::new();
    rec(0, n, k, &mut Vec::new(), 0, &mut out);
    out
}

#[test]
fn bound_with_cuts_is_valid_and_never_below_the_bound_without() {
    let mut rng = ChaCha8Rng::seed_from_u64(2008);
    let (mut improved, mut with_cuts) = (0, 0);
    for case in 0..48 {
        let (name, x, n, d, k) = adversarial(&mut rng, case);
        let opt = brute_force_optimum(&x, n, d, k);
        let labels = common::chunk_labels(n, k);
        let plain = colgen_bound(&x, n, d, k, &labels, &ColgenOptions::default()).unwrap();
        let opts = ColgenOptions {
            cut_rounds: 20,
            cuts_per_round: 50,
            ..ColgenOptions::default()
        };
        let cut = colgen_bound(&x, n, d, k, &labels, &opts).unwrap();
        let tol = 1e-9 * (1.0 + opt.abs());
        assert!(
            cut.lower_bound <= opt,
            "{name} (n={n}, d={d}, k={k}): bound with cuts {} > optimum {opt}",
            cut.lower_bound
        );
        assert!(
            plain.converged && cut.converged,
            "{name}: tiny cases converge"
        );
        assert!(
            cut.lower_bound >= plain.lower_bound - 1e-7 * (1.0 + plain.lower_bound.abs()),
            "{name}: with cuts {} < without {}",
            cut.lower_bound,
            plain.lower_bound
        );
        // The LP value before the cuts is the plain master's.
        assert!((cut.root_lp - plain.lp_value).abs() <= 1e-7 * (1.0 + opt.abs()));
        if cut.cuts > 0 {
            with_cuts += 1;
        }
        if cut.lower_bound > plain.lower_bound + tol + 1e-7 * opt.abs() {
            improved += 1;
        }
        // Every cut of the certificate holds for every partition into groups of k..2k-1
        // (those the bound ranges over, P03), in particular for the optimal ones.
        if !cut.cut_triples.is_empty() && n <= 10 {
            for labels in partitions(n, k) {
                for t in &cut.cut_triples {
                    let mut per_group = std::collections::HashMap::new();
                    for &i in t {
                        *per_group.entry(labels[i as usize]).or_insert(0) += 1;
                    }
                    let lhs = per_group.values().filter(|&&c| c >= 2).count();
                    assert!(lhs <= 1, "{name}: cut {t:?} cuts off {labels:?}");
                }
            }
        }
        // The verifier recomputes at least the claim from the duals and cuts.
        if !cut.duals.is_empty() {
            let v = verify_lagrangian_cuts(
                &x,
                n,
                d,
                k,
                &cut.duals,
                &cut.cut_triples,
                &cut.cut_duals,
                None,
            )
            .unwrap();
            assert!(
                v.lower_bound >= cut.lagrangian,
                "{name}: {v:?} vs {}",
                cut.lagrangian
            );
            assert!(v.lower_bound <= opt, "{name}");
        }
    }
    common::assert_shown_in("cuts separated", with_cuts, 48, 15);
    common::assert_shown_in("the bound raised by cuts", improved, 48, 12);
}

#[test]
fn random_cut_duals_never_prove_more_than_the_optimum_and_positive_ones_prove_nothing() {
    let mut rng = ChaCha8Rng::seed_from_u64(7_14);
    for case in 0..40 {
        let (n, d, k) = common::random_size(&mut rng, 5..=10, 1..=2, 3);
        let x = clustered_rows(&mut rng, n, d, 2.0);
        let opt = brute_force_optimum(&x, n, d, k);
        // Duals near each record's share of the optimum, cut duals up to that share.
        let share = opt / n as f64;
        let y: Vec<f64> = (0..n).map(|_| share * rng.random_range(0.5..2.0)).collect();
        let triples: Vec<[u32; 3]> = (0..rng.random_range(1..=n))
            .map(|_| random_triple(&mut rng, n))
            .collect();
        let sigma: Vec<f64> = triples
            .iter()
            .map(|_| -share * rng.random_range(0.0..3.0))
            .collect();
        let v = verify_lagrangian_cuts(&x, n, d, k, &y, &triples, &sigma, None).unwrap();
        assert!(v.pricing_exact);
        assert!(
            v.lower_bound <= opt,
            "case {case}: {} > {opt}",
            v.lower_bound
        );
        let mut up = sigma.clone();
        up[0] = 1e-3;
        let w = verify_lagrangian_cuts(&x, n, d, k, &y, &triples, &up, None).unwrap();
        assert_eq!(w.lower_bound, f64::NEG_INFINITY);
        // Malformed cuts are errors.
        let mut bad = triples.clone();
        bad[0] = [0, 0, 1];
        assert!(verify_lagrangian_cuts(&x, n, d, k, &y, &bad, &sigma, None).is_err());
        bad[0] = [0, 1, n as u32];
        assert!(verify_lagrangian_cuts(&x, n, d, k, &y, &bad, &sigma, None).is_err());
        assert!(verify_lagrangian_cuts(&x, n, d, k, &y, &triples, &sigma[1..], None).is_err());
    }
}

#[test]
fn bound_with_cuts_is_below_the_subset_dp_optimum_at_n_12_to_16() {
    use microagg_solvers::exact::{solve_exact_with, ExactMethod, ExactOptions};
    let mut rng = ChaCha8Rng::seed_from_u64(16_14);
    let mut raised = 0;
    for case in 0..8 {
        let n = rng.random_range(12..=16);
        let d = rng.random_range(1..=3);
        let k = if case % 2 == 0 { 2 } else { 3 };
        let mut x = clustered_rows(&mut rng, n, d, 1.5);
        if case % 4 == 1 {
            // Duplicated records and one outlier.
            let first: Vec<f64> = x[..d].to_vec();
            x[d..2 * d].copy_from_slice(&first);
            x[(n - 1) * d] = 50.0;
        }
        let opt = solve_exact_with(
            &x,
            n,
            d,
            k,
            &ExactOptions {
                method: ExactMethod::SubsetDp,
                ..ExactOptions::default()
            },
        )
        .unwrap()
        .sse;
        let labels = common::chunk_labels(n, k);
        let plain = colgen_bound(&x, n, d, k, &labels, &ColgenOptions::default()).unwrap();
        let cut = colgen_bound(
            &x,
            n,
            d,
            k,
            &labels,
            &ColgenOptions {
                cut_rounds: 20,
                ..ColgenOptions::default()
            },
        )
        .unwrap();
        // The DP's SSE is the two-pass SSE of its partition, within rounding of the optimum.
        let slack = 1e-12 * (1.0 + opt.abs());
        assert!(
            cut.lower_bound <= opt + slack,
            "case {case} (n={n}, d={d}, k={k}): {} > DP optimum {opt}",
            cut.lower_bound
        );
        assert!(cut.lower_bound >= plain.lower_bound - 1e-7 * (1.0 + opt.abs()));
        if cut.lower_bound > plain.lower_bound + 1e-7 * (1.0 + opt.abs()) {
            raised += 1;
        }
    }
    eprintln!("cuts raised the bound in {raised} of 8 cases (n = 12..16)");
    assert!(
        raised >= 2,
        "cuts raised the bound in only {raised} of 8 cases"
    );
}
