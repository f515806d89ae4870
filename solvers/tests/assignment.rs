//! Size-constrained assignment LP: sparse model with exact pricing against the dense model
//! (an independent model built through the safe `highs` API) on random instances, both
//! against brute force on tiny instances, warm re-solves against cold solves, and clear
//! errors for infeasible size bounds. Proofs: P05 (integrality), P15 (pricing).

mod common;

use common::SplitMix64;
use microagg_solvers::assignment::{
    assignment_cost, check_size_bounds, solve_dense, AssignmentError, AssignmentOptions,
    AssignmentSolver, Cost,
};

fn points(rng: &mut SplitMix64, m: usize, d: usize, spread: f64) -> Vec<f64> {
    (0..m * d).map(|_| spread * (rng.uniform() - 0.5)).collect()
}

/// Clustered records: `groups` blobs of width 0.3 in a box of side 10.
fn clustered(rng: &mut SplitMix64, n: usize, d: usize, groups: usize) -> Vec<f64> {
    let centres = points(rng, groups, d, 10.0);
    let mut x = Vec::with_capacity(n * d);
    for _ in 0..n {
        let g = rng.below(groups);
        for l in 0..d {
            x.push(centres[g * d + l] + 0.3 * (rng.uniform() - 0.5));
        }
    }
    x
}

/// A random feasible instance: (x, d, centres, lo, hi).
fn instance(seed: u64) -> (Vec<f64>, usize, Vec<f64>, usize, usize) {
    let mut rng = SplitMix64::new(seed);
    let n = 20 + rng.below(180);
    let d = 1 + rng.below(5);
    let k = 2 + rng.below(3);
    let (lo, hi) = (k, 2 * k - 1);
    let c_min = n.div_ceil(hi);
    let c_max = n / lo;
    let c = c_min + rng.below(c_max - c_min + 1);
    let x = if seed.is_multiple_of(2) {
        points(&mut rng, n, d, 4.0)
    } else {
        let blobs = 3 + rng.below(6);
        clustered(&mut rng, n, d, blobs)
    };
    // Centres away from the data in a third of the cases, so that pricing has work to do.
    let centres = points(
        &mut rng,
        c,
        d,
        if seed.is_multiple_of(3) { 12.0 } else { 4.0 },
    );
    (x, d, centres, lo, hi)
}

fn rel_diff(a: f64, b: f64) -> f64 {
    (a - b).abs() / a.abs().max(b.abs()).max(1e-300)
}

#[test]
fn sparse_with_pricing_equals_dense_optimum_on_random_instances() {
    let mut priced = 0;
    for seed in 0..24u64 {
        let (x, d, centres, lo, hi) = instance(seed);
        for cost in [Cost::Distance, Cost::SquaredDistance] {
            let dense = solve_dense(&x, d, &centres, lo, hi, cost).unwrap();
            // Tiny candidate lists: pricing must find the missing arcs.
            let opts = AssignmentOptions {
                record_candidates: 1,
                centre_candidates: lo,
                ..AssignmentOptions::default()
            };
            let mut solver = AssignmentSolver::new(d, lo, hi, cost, opts);
            let sparse = solver.solve(&x, &centres, None).unwrap();
            assert!(
                rel_diff(sparse.objective, dense.objective) <= 1e-9,
                "seed {seed} {cost:?}: sparse {} dense {}",
                sparse.objective,
                dense.objective
            );
            // The pricing pass proves optimality: the dual bound meets the objective, and
            // it bounds the independently computed dense optimum.
            assert!(sparse.lower_bound <= dense.objective);
            assert!(dense.lower_bound <= sparse.objective);
            assert!(
                sparse.objective - sparse.lower_bound <= 1e-6 * (1.0 + sparse.objective),
                "seed {seed}: gap {} - {}",
                sparse.objective,
                sparse.lower_bound
            );
            // Labels are a feasible assignment whose recomputed cost is the objective.
            let n = x.len() / d;
            let mut sizes = vec![0; centres.len() / d];
            sparse.labels.iter().for_each(|&j| sizes[j] += 1);
            assert!(sizes.iter().all(|&s| s >= lo && s <= hi));
            assert_eq!(sparse.labels.len(), n);
            let recomputed = assignment_cost(&x, d, &centres, &sparse.labels, cost);
            assert_eq!(recomputed, sparse.objective);
            if sparse.pricing_passes > 1 {
                priced += 1;
            }
        }
    }
    // The candidate lists were too small in many cases: pricing added arcs.
    assert!(priced >= 10, "pricing added arcs in only {priced} cases");
}

/// Every labelling with sizes in lo..=hi, exhaustively (c^n of them, n <= 8).
fn brute_force(x: &[f64], d: usize, centres: &[f64], lo: usize, hi: usize, cost: Cost) -> f64 {
    let n = x.len() / d;
    let c = centres.len() / d;
    let mut best = f64::INFINITY;
    let mut labels = vec![0usize; n];
    loop {
        let mut sizes = vec![0; c];
        labels.iter().for_each(|&j| sizes[j] += 1);
        if sizes.iter().all(|&s| s >= lo && s <= hi) {
            best = best.min(assignment_cost(x, d, centres, &labels, cost));
        }
        // Next labelling (odometer).
        let mut p = 0;
        loop {
            if p == n {
                return best;
            }
            labels[p] += 1;
            if labels[p] < c {
                break;
            }
            labels[p] = 0;
            p += 1;
        }
    }
}

#[test]
fn brute_force_agrees_on_tiny_instances() {
    let mut checked = 0;
    for seed in 100..160u64 {
        let mut rng = SplitMix64::new(seed);
        let n = 3 + rng.below(6); // 3..=8
        let d = 1 + rng.below(3);
        let lo = 1 + rng.below(3);
        let hi = lo + rng.below(3);
        let c = 1 + rng.below(4);
        let x = points(&mut rng, n, d, 4.0);
        let centres = points(&mut rng, c, d, 4.0);
        if check_size_bounds(n, c, lo, hi).is_err() {
            let e = solve_dense(&x, d, &centres, lo, hi, Cost::Distance).unwrap_err();
            assert!(matches!(e, AssignmentError::SizeBounds { .. }));
            continue;
        }
        for cost in [Cost::Distance, Cost::SquaredDistance] {
            let exact = brute_force(&x, d, &centres, lo, hi, cost);
            let dense = solve_dense(&x, d, &centres, lo, hi, cost).unwrap();
            let mut solver = AssignmentSolver::new(
                d,
                lo,
                hi,
                cost,
                AssignmentOptions {
                    record_candidates: 1,
                    centre_candidates: 1,
                    ..AssignmentOptions::default()
                },
            );
            let sparse = solver.solve(&x, &centres, None).unwrap();
            assert!(rel_diff(dense.objective, exact) <= 1e-12, "seed {seed}");
            assert!(rel_diff(sparse.objective, exact) <= 1e-12, "seed {seed}");
            // Both dual bounds are valid: LB <= OPT (P15), and tight.
            for lb in [dense.lower_bound, sparse.lower_bound] {
                assert!(lb <= exact, "seed {seed}: bound {lb} above optimum {exact}");
                assert!(
                    exact - lb <= 1e-6 * (1.0 + exact),
                    "seed {seed}: loose {lb}"
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} feasible tiny cases");
}

#[test]
fn infeasible_size_bounds_are_a_clear_error() {
    let x = vec![0.0, 1.0, 2.0, 3.0, 4.0]; // n = 5, d = 1
    let two = vec![0.0, 4.0];
    // 2 centres x 3 records > 5.
    for (lo, hi) in [(3, 5), (1, 2), (3, 2)] {
        let e = solve_dense(&x, 1, &two, lo, hi, Cost::Distance).unwrap_err();
        assert_eq!(e, AssignmentError::SizeBounds { n: 5, c: 2, lo, hi });
        let mut s = AssignmentSolver::new(1, lo, hi, Cost::Distance, Default::default());
        let e = s.solve(&x, &two, None).unwrap_err();
        assert!(matches!(e, AssignmentError::SizeBounds { .. }));
        assert!(e.to_string().contains("infeasible size bounds"), "{e}");
    }
    // Bad data and bad hints are errors too, not panics.
    let mut s = AssignmentSolver::new(1, 1, 5, Cost::Distance, Default::default());
    assert!(matches!(
        s.solve(&[0.0, f64::NAN], &two, None).unwrap_err(),
        AssignmentError::Input(_)
    ));
    assert!(matches!(
        s.solve(&x, &two, Some(&[0, 1, 2, 0, 1])).unwrap_err(),
        AssignmentError::BadHint { record: 2 }
    ));
    assert!(matches!(
        s.solve(&x, &[], None).unwrap_err(),
        AssignmentError::Empty { .. }
    ));
}

#[test]
fn warm_resolves_equal_cold_solves_along_a_centre_sequence() {
    // Lloyd-like sequence: assign, move each centre to its group's mean, repeat.
    let mut rng = SplitMix64::new(7);
    let (n, d, k) = (300, 4, 3);
    let x = clustered(&mut rng, n, d, 12);
    let c = n / k;
    let mut centres: Vec<f64> = (0..c)
        .flat_map(|j| x[j * d..(j + 1) * d].to_vec())
        .collect();
    for cost in [Cost::Distance, Cost::SquaredDistance] {
        let mut warm = AssignmentSolver::new(d, k, 2 * k - 1, cost, Default::default());
        let mut cold = AssignmentSolver::new(
            d,
            k,
            2 * k - 1,
            cost,
            AssignmentOptions {
                warm_start: false,
                ..Default::default()
            },
        );
        let mut cs = centres.clone();
        let (mut warm_iters, mut cold_iters) = (0, 0);
        for step in 0..6 {
            let a = warm.solve(&x, &cs, None).unwrap();
            let b = cold.solve(&x, &cs, None).unwrap();
            assert!(rel_diff(a.objective, b.objective) <= 1e-9);
            if step > 0 {
                warm_iters += a.simplex_iterations;
                cold_iters += b.simplex_iterations;
            }
            let mut sums = vec![0.0; c * d];
            let mut sizes = vec![0usize; c];
            for (i, &j) in a.labels.iter().enumerate() {
                sizes[j] += 1;
                for l in 0..d {
                    sums[j * d + l] += x[i * d + l];
                }
            }
            for j in 0..c {
                for l in 0..d {
                    cs[j * d + l] = sums[j * d + l] / sizes[j] as f64;
                }
            }
        }
        assert_eq!(warm.totals.warm_calls, 5);
        // The kept basis is really reused: fewer simplex iterations than from scratch.
        assert!(
            warm_iters < cold_iters,
            "{cost:?}: warm {warm_iters} vs cold {cold_iters} simplex iterations"
        );
        eprintln!("{cost:?}: simplex iterations warm {warm_iters}, cold {cold_iters}");
        assert_eq!(cold.totals.warm_calls, 0);
        centres = cs;
    }
    assert_eq!(centres.len(), c * d);
}
