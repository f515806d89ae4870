//! Set partitioning over a pool of groups (`microagg_solvers::merge`): the answer is the
//! least-SSE exact cover by pool groups, found by an independent brute force on small
//! instances; merging two partitions recombines their better halves; the result is never
//! worse than the start, deterministic, and bad input is an error. The `ils.merge_pool`
//! option keeps the ILS invariants.

use crate::common;
use microagg::pipeline::Pipeline;
use microagg_solvers::merge::{groups_of, merge_partitions, solve_pool};
use microagg_solvers::sse::{group_sse, partition_sse};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;

/// Least SSE of an exact cover of 0..n by `pool` groups (depth-first: the group that covers
/// the lowest uncovered record), or infinity.
fn best_cover(x: &[f64], d: usize, n: usize, pool: &[Vec<u32>]) -> f64 {
    fn go(covered: u64, full: u64, pool: &[(u64, f64)]) -> f64 {
        if covered == full {
            return 0.0;
        }
        let low = (!covered & full).trailing_zeros();
        pool.iter()
            .filter(|(m, _)| m & (1 << low) != 0 && m & covered == 0)
            .map(|&(m, c)| c + go(covered | m, full, pool))
            .fold(f64::INFINITY, f64::min)
    }
    let masks: Vec<(u64, f64)> = pool
        .iter()
        .map(|g| {
            let members: Vec<usize> = g.iter().map(|&i| i as usize).collect();
            (
                g.iter().fold(0u64, |m, &i| m | (1 << i)),
                group_sse(x, d, &members),
            )
        })
        .collect();
    go(0, (1u64 << n) - 1, &masks)
}

/// A random feasible labelling: a random order cut into groups of k (the rest to the last).
fn random_partition(rng: &mut impl Rng, n: usize, k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        order.swap(i, rng.random_range(0..=i));
    }
    let groups = n / k;
    let mut labels = vec![0; n];
    for (p, &i) in order.iter().enumerate() {
        labels[i] = (p / k).min(groups - 1);
    }
    labels
}

#[test]
fn pool_optimum_equals_brute_force_exact_cover() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let mut improved = 0;
    for case in 0..40 {
        let n = rng.random_range(8..=14);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3);
        let x: Vec<f64> = (0..n * d).map(|_| rng.random_range(-1.0..1.0)).collect();
        let parts: Vec<Vec<usize>> = (0..4).map(|_| random_partition(&mut rng, n, k)).collect();
        let start = &parts[0];
        let pool: Vec<Vec<u32>> = parts[1..].iter().flat_map(|p| groups_of(p)).collect();
        let r = solve_pool(&x, n, d, k, &pool, start, None).unwrap();
        let mut all = pool.clone();
        all.extend(groups_of(start));
        let brute = best_cover(&x, d, n, &all);
        let start_sse = partition_sse(&x, d, start);
        assert!(r.optimal, "case {case}");
        assert!(
            (r.sse - brute).abs() <= 1e-9 * (1.0 + brute),
            "case {case}: pool optimum {} vs brute force {brute}",
            r.sse
        );
        assert!((partition_sse(&x, d, &r.labels) - r.sse).abs() <= 1e-12 * (1.0 + r.sse));
        assert!(r.sse <= start_sse);
        assert_eq!(r.improved, r.sse < start_sse, "case {case}");
        // Every group of the answer is a pool or start group.
        for g in groups_of(&r.labels) {
            assert!(all.contains(&g), "case {case}: group {g:?} not offered");
        }
        improved += usize::from(r.improved);
    }
    assert!(
        improved >= 10,
        "only {improved} of 40 cases improved on the start"
    );
}

/// Two tight clusters of 6 records far apart, k = 3: partition A splits the left cluster
/// well and the right one badly, B the other way round; the merge takes the good half of
/// each and is strictly better than both.
#[test]
fn merging_two_partitions_recombines_their_better_halves() {
    let rows: Vec<f64> = [0.0, 0.1, 0.2, 5.0, 5.1, 5.2]
        .iter()
        .chain(&[100.0, 100.1, 100.2, 105.0, 105.1, 105.2])
        .copied()
        .collect();
    let good_left = [0, 0, 0, 1, 1, 1];
    let bad_left = [0, 1, 0, 1, 0, 1];
    let a: Vec<usize> = good_left
        .iter()
        .copied()
        .chain(bad_left.iter().map(|l| l + 2))
        .collect();
    let b: Vec<usize> = bad_left
        .iter()
        .copied()
        .chain(good_left.iter().map(|l| l + 2))
        .collect();
    let r = merge_partitions(&rows, 12, 1, 3, &[&a, &b], None).unwrap();
    let best: Vec<usize> = good_left
        .iter()
        .copied()
        .chain(good_left.iter().map(|l| l + 2))
        .collect();
    let want = partition_sse(&rows, 1, &best);
    assert!(r.improved);
    assert!((r.sse - want).abs() < 1e-12, "{} vs {want}", r.sse);
    assert!(r.sse < partition_sse(&rows, 1, &a).min(partition_sse(&rows, 1, &b)));
    assert_eq!(groups_of(&r.labels), groups_of(&best));
    // Deterministic, and merging a partition with itself changes nothing.
    assert_eq!(
        merge_partitions(&rows, 12, 1, 3, &[&a, &b], None).unwrap(),
        r
    );
    let same = merge_partitions(&rows, 12, 1, 3, &[&a, &a], None).unwrap();
    assert!(!same.improved);
    assert_eq!(groups_of(&same.labels), groups_of(&a));
}

/// Costs of 1e-10 and below (near-identical records): the costs are scaled before HiGHS
/// sees them, so the pool optimum is still the brute-force one.
#[test]
fn tiny_costs_are_merged_exactly() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..10 {
        let (n, d, k) = (12, 2, 3);
        let x: Vec<f64> = (0..n * d)
            .map(|_| 1.0 + 1e-6 * rng.random_range(-1.0..1.0))
            .collect();
        let parts: Vec<Vec<usize>> = (0..5).map(|_| random_partition(&mut rng, n, k)).collect();
        let pool: Vec<Vec<u32>> = parts[1..].iter().flat_map(|p| groups_of(p)).collect();
        let r = solve_pool(&x, n, d, k, &pool, &parts[0], None).unwrap();
        let mut all = pool.clone();
        all.extend(groups_of(&parts[0]));
        let brute = best_cover(&x, d, n, &all);
        assert!(
            (r.sse - brute).abs() <= 1e-9 * brute,
            "{} vs {brute}",
            r.sse
        );
    }
}

#[test]
fn bad_pools_are_errors() {
    let x = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
    let start = [0, 0, 0, 1, 1, 1];
    // A start group below k, a pool group below k, an unsorted or out-of-range group, a
    // labelling of the wrong length.
    assert!(solve_pool(&x, 6, 1, 3, &[], &[0, 0, 1, 1, 1, 1], None).is_err());
    assert!(solve_pool(&x, 6, 1, 3, &[vec![0, 1]], &start, None).is_err());
    assert!(solve_pool(&x, 6, 1, 3, &[vec![2, 1, 0]], &start, None).is_err());
    assert!(solve_pool(&x, 6, 1, 3, &[vec![4, 5, 6]], &start, None).is_err());
    assert!(solve_pool(&x, 6, 1, 3, &[], &[0, 0, 0], None).is_err());
    assert!(merge_partitions(&x, 6, 1, 3, &[], None).is_err());
}

/// `ils.merge_pool`: feasible, never worse than the input, cached SSE exact, identical for
/// the same seed; merges do run and some of them give a new best partition (so the checks
/// are not vacuous); bad values are rejected.
#[test]
fn ils_with_merges_keeps_the_invariants() {
    use microagg::search::ils::{Ils, IlsParams};
    use microagg::search::refine;
    let inst = common::synthetic("gauss:n=400,d=4,clusters=8,seed=11");
    let never = AtomicBool::new(false);
    for k in [3, 5] {
        let (input_sse, start) = common::run_method(&inst, "mdav+decompose-shrink", k, 0);
        let run = || {
            let params = IlsParams {
                stall: 2000,
                merge_pool: 200,
                ..IlsParams::default()
            };
            let mut ils = Ils::new(params);
            let start = microagg::partition::Partition::from_labels(&inst, start.clone()).unwrap();
            let mut rng = microagg::rng::rng_for(3, &["merge"]);
            let out = refine(&mut ils, &inst, k, start, &mut rng, None, &never).unwrap();
            (out.partition, ils.merges, ils.merges_improved)
        };
        let (a, merges, improved) = run();
        let (b, _, _) = run();
        assert!(a.is_feasible(k), "k={k}: infeasible");
        assert!(a.sse() < input_sse, "k={k}: no improvement");
        let fresh = a.fresh_sse(&inst);
        assert!((a.sse() - fresh).abs() <= 1e-9 * fresh, "k={k}: cached SSE");
        assert_eq!(a.labels(), b.labels(), "k={k}: not reproducible");
        assert!(
            merges >= 2 && improved >= 1,
            "k={k}: {merges} merges, {improved} improved"
        );
    }
    for bad in ["ils.merge_time=0", "ils.merge_time=-1", "ils.merge_pool=x"] {
        assert!(
            Pipeline::parse("mdav+ils", &[bad.to_string()]).is_err(),
            "{bad} accepted"
        );
    }
}
