//! The reduced-cost region dive (`microagg_solvers::rc_dive`, issue 18's primal heuristic):
//! its output is a feasible partition never worse than its start, whatever the duals, and
//! with zero duals and one region holding every record it finds the optimum (subset DP);
//! the same at a leaf holding rank-1 cuts on 4-5 records (proofs/P21) besides triples.

use crate::common;
use microagg_solvers::bounds::colgen::cuts::{Cut, CutDuals};
use microagg_solvers::exact::{solve_exact_with, ExactMethod, ExactOptions};
use microagg_solvers::merge::groups_of;
use microagg_solvers::rc_dive::{rc_dive, DiveOptions, DiveResult};
use microagg_solvers::sse::partition_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Clustered records with duplicates and an outlier now and then (d columns, row-major).
fn instance(rng: &mut impl Rng, n: usize, d: usize) -> Vec<f64> {
    let centres: Vec<f64> = (0..3 * d).map(|_| rng.random_range(-5.0..5.0)).collect();
    let mut x = Vec::with_capacity(n * d);
    for i in 0..n {
        if i > 0 && rng.random_bool(0.15) {
            // A duplicate of an earlier record.
            let j = rng.random_range(0..i);
            let row: Vec<f64> = x[j * d..(j + 1) * d].to_vec();
            x.extend(row);
            continue;
        }
        let c = rng.random_range(0..3);
        let spread = if rng.random_bool(0.05) { 30.0 } else { 0.5 };
        for j in 0..d {
            x.push(centres[c * d + j] + spread * rng.random_range(-1.0..1.0));
        }
    }
    x
}

/// A random feasible labelling: a random order cut into groups of k (the rest to the last).
fn random_partition(rng: &mut impl Rng, n: usize, k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let mut labels = vec![0; n];
    for (p, &i) in order.iter().enumerate() {
        labels[i] = (p / k).min(n / k - 1);
    }
    labels
}

fn feasible(labels: &[usize], n: usize, k: usize) -> bool {
    labels.len() == n && groups_of(labels).iter().all(|g| g.len() >= k)
}

/// A random dive start: `n` (in `ns`) records of [`instance`] in d = 1..=3, k in 2..=4, a
/// random partition, its SSE, the duals' scale (SSE per record) and duals around it.
struct DiveStart {
    n: usize,
    d: usize,
    k: usize,
    x: Vec<f64>,
    start: Vec<usize>,
    start_sse: f64,
    scale: f64,
    y: Vec<f64>,
}

impl DiveStart {
    fn random(rng: &mut ChaCha8Rng, ns: std::ops::Range<usize>) -> DiveStart {
        let (n, d, k) = (
            rng.random_range(ns),
            rng.random_range(1..4),
            rng.random_range(2..5),
        );
        let x = instance(rng, n, d);
        let start = random_partition(rng, n, k);
        let start_sse = partition_sse(&x, d, &start);
        let scale = start_sse / n as f64;
        let y: Vec<f64> = (0..n)
            .map(|_| scale * rng.random_range(-0.5..2.0))
            .collect();
        DiveStart {
            n,
            d,
            k,
            x,
            start,
            start_sse,
            scale,
            y,
        }
    }

    /// Duals of `count` cuts, each a penalty of up to the start's SSE per record.
    fn cut_duals(&self, rng: &mut ChaCha8Rng, count: usize) -> Vec<f64> {
        (0..count)
            .map(|_| -self.scale * rng.random_range(0.0..1.0))
            .collect()
    }

    /// The dive from this start with `cuts` (region size drawn from `rng`): feasible, its
    /// SSE recomputed, never worse than the start, the same labels when run again.
    fn checked_dive(&self, cuts: &CutDuals, rng: &mut ChaCha8Rng, case: usize) -> DiveResult {
        let DiveStart { n, d, k, .. } = *self;
        let (x, y, start, start_sse) = (&self.x, &self.y, &self.start, self.start_sse);
        let opts = DiveOptions {
            region: rng.random_range(k..3 * k + 8),
            threshold: self.scale * 0.1,
            max_pool: 3000,
            ..DiveOptions::default()
        };
        let run = || rc_dive(x, n, d, k, y, cuts, start, &opts, &mut |_| {});
        let r = run().unwrap();
        assert!(feasible(&r.labels, n, k), "case {case}: infeasible");
        assert_eq!(r.sse, partition_sse(x, d, &r.labels), "case {case}");
        assert!(r.sse <= start_sse, "case {case}: {} > {start_sse}", r.sse);
        // Same input, same bytes (the MIPs are small: no time limit is met).
        assert_eq!(
            run().unwrap().labels,
            r.labels,
            "case {case}: not deterministic"
        );
        r
    }
}

/// A small instance (9..15 records in 1..3 columns, k = 3) and a random start of it:
/// (n, d, k, x, start).
fn small_start(rng: &mut impl Rng) -> (usize, usize, usize, Vec<f64>, Vec<usize>) {
    let (n, d, k) = (rng.random_range(9..15), rng.random_range(1..3), 3);
    let x = instance(rng, n, d);
    let start = random_partition(rng, n, k);
    (n, d, k, x, start)
}

/// The optimum of (x, k) by the solver's subset DP.
fn subset_dp_optimum(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
    let dp = ExactOptions {
        method: ExactMethod::SubsetDp,
        ..ExactOptions::default()
    };
    solve_exact_with(x, n, d, k, &dp).unwrap().sse
}

/// One region over all `n` records, listed and solved without a limit that could stop
/// them first (so the region's MIP is exact when the listing holds an optimal partition).
fn whole_region(n: usize) -> DiveOptions {
    DiveOptions {
        region: n,
        threshold: 1e-3,
        max_pool: 1_000_000,
        list_seconds: 600.0,
        mip_seconds: 600.0,
        ..DiveOptions::default()
    }
}

/// The dive's SSE equals the subset DP's optimum `opt` (to 1e-9 relative).
fn assert_optimal(sse: f64, opt: f64, case: usize, n: usize, d: usize) {
    assert!(
        (sse - opt).abs() <= 1e-9 * opt.max(1e-300),
        "case {case} (n {n}, d {d}): dive {sse} vs subset DP {opt}"
    );
}

#[test]
fn dive_output_is_feasible_and_never_worse_than_its_start() {
    let mut rng = ChaCha8Rng::seed_from_u64(18);
    let mut improved = 0;
    for case in 0..24 {
        // Any duals: the dive is a heuristic, only its choice of groups depends on them.
        let ds = DiveStart::random(&mut rng, 14..40);
        let (n, start_sse) = (ds.n, ds.start_sse);
        let triples: Vec<[u32; 3]> = (0..rng.random_range(0..6))
            .map(|_| {
                let a = rng.random_range(0..n as u32 - 2);
                [a, a + 1, a + 2]
            })
            .collect();
        let sigma = ds.cut_duals(&mut rng, triples.len());
        let cuts = if triples.is_empty() {
            CutDuals::none()
        } else {
            CutDuals::new(n, &triples, &sigma)
        };
        let r = ds.checked_dive(&cuts, &mut rng, case);
        assert_eq!(r.start_sse, start_sse, "case {case}");
        for s in &r.steps {
            assert!(s.sse_after <= s.sse_before, "case {case}: a step got worse");
        }
        if r.sse < start_sse {
            improved += 1;
        }
    }
    // Random starts are poor: the dive must find something on most of them.
    common::assert_shown_in("the random start improved", improved, 24, 18);
}

#[test]
fn one_region_over_every_record_at_zero_duals_finds_the_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..12 {
        let (n, d, k, x, start) = small_start(&mut rng);
        // With zero duals a group's reduced cost is its SSE, so listing up to the start's
        // SSE lists every group of every better partition: the region's MIP is exact.
        let y = vec![0.0; n];
        let opts = whole_region(n);
        let r = rc_dive(
            &x,
            n,
            d,
            k,
            &y,
            &CutDuals::none(),
            &start,
            &opts,
            &mut |_| {},
        )
        .unwrap();
        let opt = subset_dp_optimum(&x, n, d, k);
        assert!(feasible(&r.labels, n, k));
        assert_optimal(r.sse, opt, case, n, d);
    }
}

/// `count` random cuts over `n` records: subset-row triples, 5-record subset-row cuts (1/3)
/// and 4-record cuts (2/3, 1/3, 1/3, 1/3), on distinct records drawn at random.
fn random_cuts(rng: &mut impl Rng, n: usize, count: usize) -> Vec<Cut> {
    (0..count)
        .map(|c| {
            let mut r: Vec<u32> = Vec::new();
            while r.len() < 5 {
                let i = rng.random_range(0..n as u32);
                if !r.contains(&i) {
                    r.push(i);
                }
            }
            match c % 3 {
                0 => Cut::triple([r[0], r[1], r[2]]),
                1 => Cut::five([r[0], r[1], r[2], r[3], r[4]]),
                _ => Cut::four(r[0], [r[1], r[2], r[3]]),
            }
        })
        .collect()
}

#[test]
fn dive_at_a_leaf_with_rank1_cuts_is_feasible_and_never_worse() {
    let mut rng = ChaCha8Rng::seed_from_u64(21);
    let improved = (0..8)
        .filter(|&case| {
            let ds = DiveStart::random(&mut rng, 15..28);
            let count = rng.random_range(3..12);
            let list = random_cuts(&mut rng, ds.n, count);
            let sigma = ds.cut_duals(&mut rng, list.len());
            let cuts = CutDuals::new(ds.n, &list, &sigma);
            ds.checked_dive(&cuts, &mut rng, case).sse < ds.start_sse
        })
        .count();
    assert!(improved >= 6, "only {improved} of 8 random starts improved");
}

#[test]
fn one_region_keeps_every_rank1_cut_in_its_reduced_costs() {
    // One region holding every record keeps every cut: the first step's excess is the
    // start groups' reduced costs with every cut's penalty.
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    for case in 0..8 {
        let (n, d, k) = (rng.random_range(12..20), 2, 3);
        let x = instance(&mut rng, n, d);
        let start = random_partition(&mut rng, n, k);
        let y: Vec<f64> = (0..n).map(|_| rng.random_range(-0.2..0.5)).collect();
        let list = random_cuts(&mut rng, n, 9);
        let w: Vec<f64> = list.iter().map(|_| rng.random_range(0.1..1.0)).collect();
        let sigma: Vec<f64> = w.iter().map(|v| -v).collect();
        let cuts = CutDuals::new(n, &list, &sigma);
        // Each start group's reduced cost with every cut's penalty, computed here
        // independently (weighted counts against the denominators).
        let rcs: Vec<f64> = groups_of(&start)
            .iter()
            .map(|g| {
                let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
                let mut rc = microagg_solvers::sse::group_sse(&x, d, &m);
                rc -= m.iter().map(|&i| y[i]).sum::<f64>();
                for (c, wc) in list.iter().zip(&w) {
                    let count: u32 = c
                        .records()
                        .iter()
                        .zip(c.multipliers())
                        .filter(|(i, _)| g.contains(i))
                        .map(|(_, &p)| u32::from(p))
                        .sum();
                    if count >= u32::from(c.denominator()) {
                        rc += wc;
                    }
                }
                rc
            })
            .collect();
        let expected: f64 = rcs.iter().sum();
        let top = rcs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        // The most expensive group is the only seed (one region, over every record).
        let opts = DiveOptions {
            region: n,
            min_rc: top - 1e-9 * top.abs().max(1.0),
            passes: 1,
            max_pool: 3000,
            ..DiveOptions::default()
        };
        let r = rc_dive(&x, n, d, k, &y, &cuts, &start, &opts, &mut |_| {}).unwrap();
        let step = &r.steps[0];
        assert_eq!(step.records, n, "case {case}");
        assert!(
            (step.excess - expected).abs() <= 1e-9 * expected.abs().max(1.0),
            "case {case}: excess {} vs {expected}",
            step.excess
        );
    }
}

#[test]
fn one_region_at_a_leaf_with_rank1_cuts_finds_the_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    for case in 0..10 {
        let (n, d, k, x, start) = small_start(&mut rng);
        let start_sse = partition_sse(&x, d, &start);
        let opt = subset_dp_optimum(&x, n, d, k);
        // Zero record duals and cut penalties summing to less than the start's excess over
        // the optimum: every group S of an optimal partition then has reduced cost
        // SSE(S) + pen(S) < SSE(opt) + (SSE(start) - SSE(opt)) <= the start's excess, so the
        // listing up to that excess holds it and the region's MIP is exact.
        let list = random_cuts(&mut rng, n, 6);
        let room = (start_sse - opt).max(0.0) / (list.len() + 1) as f64;
        let sigma: Vec<f64> = list
            .iter()
            .map(|_| -room * rng.random_range(0.0..1.0))
            .collect();
        let cuts = CutDuals::new(n, &list, &sigma);
        let y = vec![0.0; n];
        let opts = whole_region(n);
        let r = rc_dive(&x, n, d, k, &y, &cuts, &start, &opts, &mut |_| {}).unwrap();
        assert!(feasible(&r.labels, n, k));
        assert!(r.sse <= start_sse);
        assert_optimal(r.sse, opt, case, n, d);
    }
}
