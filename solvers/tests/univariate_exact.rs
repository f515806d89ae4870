//! Exact univariate methods against each other, brute force, petgraph and a compensated
//! reference (proofs P04 and P08).

mod common;

use common::{compensated_reference, petgraph_reference, sst, SplitMix64};
use microagg_solvers::sse::partition_sse;
use microagg_solvers::{
    segment_order, sorting_order, univariate_brute_force, univariate_dp, univariate_optimal,
    univariate_smawk, Segmentation, SolverError,
};

/// Sizes are valid (each in k..=2k-1, or the single group when n < 2k), cover n, and the
/// reported SSE equals the two-pass SSE of the labelling.
fn check_valid(seg: &Segmentation, sorted: &[f64], k: usize) {
    let n = sorted.len();
    assert_eq!(seg.n_records(), n);
    if n < 2 * k {
        assert_eq!(seg.sizes, vec![n]);
    } else {
        assert!(
            seg.sizes.iter().all(|&s| s >= k && s < 2 * k),
            "{:?}",
            seg.sizes
        );
    }
    let exact = partition_sse(sorted, 1, &seg.labels());
    assert!(
        (seg.sse - exact).abs() <= 1e-12 * (1.0 + exact),
        "{} vs {exact}",
        seg.sse
    );
}

/// All sorted-input methods on one instance; returns their SSEs.
fn all_sorted_methods(sorted: &[f64], k: usize) -> Vec<(&'static str, f64)> {
    let identity: Vec<usize> = (0..sorted.len()).collect();
    let results = [
        ("smawk", univariate_smawk(sorted, k).unwrap()),
        ("dp", univariate_dp(sorted, k).unwrap()),
        ("optimal", univariate_optimal(sorted, k).unwrap()),
        (
            "segment_order",
            segment_order(sorted, 1, &identity, k).unwrap(),
        ),
    ];
    results
        .into_iter()
        .map(|(name, seg)| {
            check_valid(&seg, sorted, k);
            (name, seg.sse)
        })
        .collect()
}

fn random_values(rng: &mut SplitMix64, n: usize) -> Vec<f64> {
    let shape = rng.below(4);
    (0..n).map(|_| rng.test_value(shape)).collect()
}

/// A random instance, drawn in this order: n in 1..=`max_n`, k in 1..=`max_k` (at most n),
/// then the values: (k, values).
fn random_k_and_values(rng: &mut SplitMix64, max_n: usize, max_k: usize) -> (usize, Vec<f64>) {
    let n = 1 + rng.below(max_n);
    let k = 1 + rng.below(max_k.min(n));
    (k, random_values(rng, n))
}

/// P04 (contiguity, sizes k..2k-1, DP recursion): brute force over all set partitions of the
/// unsorted values (no contiguity assumed) equals every exact method on the sorted values.
#[test]
fn exact_methods_agree_with_brute_force_on_random_small_instances() {
    let mut rng = SplitMix64::new(20260522);
    let mut checked = 0;
    for trial in 0..3000 {
        // Mostly n <= 9 (fast); every 100th instance goes up to the limit n = 12.
        let n = if trial % 100 == 0 {
            12
        } else {
            1 + rng.below(9)
        };
        let k = 1 + rng.below(4.min(n));
        let k = if trial % 100 == 0 { k.max(2) } else { k };
        let values = random_values(&mut rng, n);
        let brute = univariate_brute_force(&values, k).unwrap();
        let mut sorted = values.clone();
        sorted.sort_by(f64::total_cmp);
        let tolerance = 1e-9 * sst(&sorted) + 1e-12;
        assert!((brute.sse - partition_sse(&values, 1, &brute.labels)).abs() <= tolerance);
        for (name, sse) in all_sorted_methods(&sorted, k) {
            assert!(
                (sse - brute.sse).abs() <= tolerance,
                "trial {trial} n {n} k {k} {name}: {sse} vs brute force {} on {values:?}",
                brute.sse
            );
        }
        let reference = petgraph_reference(&sorted, k);
        assert!((reference - brute.sse).abs() <= tolerance);
        checked += 1;
    }
    assert_eq!(checked, 3000);
}

/// P08 (SMAWK exactness) and P04 (DP): SMAWK, DP, the dispatcher and the IMHM segmentation
/// engine agree with petgraph's shortest path over two-pass edge costs on medium instances.
#[test]
fn exact_methods_agree_with_petgraph_reference_on_random_medium_instances() {
    let mut rng = SplitMix64::new(4);
    for trial in 0..600 {
        let (k, mut sorted) = random_k_and_values(&mut rng, 250, 16);
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let reference = petgraph_reference(&sorted, k);
        let tolerance = 1e-9 * sst(&sorted) + 1e-12;
        for (name, sse) in all_sorted_methods(&sorted, k) {
            assert!(
                (sse - reference).abs() <= tolerance,
                "trial {trial} n {n} k {k} {name}: {sse} vs petgraph {reference}"
            );
        }
    }
}

/// P08 at large k (where `univariate_optimal` dispatches to SMAWK): SMAWK, DP and the
/// dispatcher agree with each other and with petgraph.
#[test]
fn large_k_methods_agree_with_petgraph_reference() {
    let mut rng = SplitMix64::new(31);
    for trial in 0..16 {
        let k = 20 + rng.below(80);
        let n = k + rng.below(8 * k);
        let values = random_values(&mut rng, n);
        let mut sorted = values;
        sorted.sort_by(f64::total_cmp);
        let tolerance = 1e-9 * sst(&sorted) + 1e-12;
        let reference = petgraph_reference(&sorted, k);
        for (name, sse) in all_sorted_methods(&sorted, k) {
            assert!(
                (sse - reference).abs() <= tolerance,
                "trial {trial} n {n} k {k} {name}: {sse} vs petgraph {reference}"
            );
        }
    }
}

/// Precision (issue requirement): n = 10^6 uniform[0,1) values, spreads of groups near 1e-6;
/// every exact method within 1e-9 relative of the compensated O(nk) reference.
fn precision_uniform_million(k: usize) {
    let mut rng = SplitMix64::new(1_000_000 + k as u64);
    let mut sorted: Vec<f64> = (0..1_000_000).map(|_| rng.uniform()).collect();
    sorted.sort_by(f64::total_cmp);
    let reference = compensated_reference(&sorted, k);
    assert!(reference > 0.0);
    for (name, seg) in [
        ("smawk", univariate_smawk(&sorted, k).unwrap()),
        ("dp", univariate_dp(&sorted, k).unwrap()),
        ("optimal", univariate_optimal(&sorted, k).unwrap()),
    ] {
        assert!(seg.sizes.iter().all(|&s| s >= k && s < 2 * k));
        assert_eq!(seg.n_records(), sorted.len());
        let relative = (seg.sse - reference).abs() / reference;
        assert!(
            relative <= 1e-9,
            "k {k} {name}: {} vs reference {reference} (relative {relative:e})",
            seg.sse
        );
    }
}

#[test]
fn precision_uniform_million_k3() {
    precision_uniform_million(3);
}

#[test]
fn precision_uniform_million_k10() {
    precision_uniform_million(10);
}

/// P08 Lemma 1: the quadrangle (Monge) inequality of the interval SSE on sorted data, for
/// every quadruple a <= b <= c <= d of cut positions (two-pass costs, rounding slack only).
#[test]
fn monge_quadrangle_inequality_holds_on_sorted_data() {
    let mut rng = SplitMix64::new(8);
    for _ in 0..20 {
        let n = 24;
        let mut sorted = random_values(&mut rng, n);
        sorted.sort_by(f64::total_cmp);
        let w = |i: usize, j: usize| {
            let members: Vec<usize> = (i..j).collect();
            microagg_solvers::sse::group_sse(&sorted, 1, &members)
        };
        let slack = 1e-9 * (1.0 + sst(&sorted));
        for a in 0..=n {
            for b in a..=n {
                for c in b..=n {
                    for d in c..=n {
                        assert!(w(a, c) + w(b, d) <= w(a, d) + w(b, c) + slack);
                    }
                }
            }
        }
    }
}

/// Adapter path: unsorted values -> sorting_order -> optimum on sorted values ->
/// labels_along(order) gives a labelling of the original values with the optimal SSE.
#[test]
fn labels_along_sorting_order_attain_the_brute_force_optimum() {
    let mut rng = SplitMix64::new(12);
    for _ in 0..300 {
        let (k, values) = random_k_and_values(&mut rng, 10, 3);
        let order = sorting_order(&values).unwrap();
        let sorted: Vec<f64> = order.iter().map(|&i| values[i]).collect();
        let seg = univariate_optimal(&sorted, k).unwrap();
        let labels = seg.labels_along(&order).unwrap();
        let brute = univariate_brute_force(&values, k).unwrap();
        let tolerance = 1e-9 * sst(&values) + 1e-12;
        assert!((partition_sse(&values, 1, &labels) - brute.sse).abs() <= tolerance);
        let mut counts = vec![0; seg.n_groups()];
        labels.iter().for_each(|&l| counts[l] += 1);
        assert!(counts.iter().all(|&c| c >= k));
    }
}

/// For k <= n <= 2k-1 the only feasible partition is the single group.
#[test]
fn single_group_when_n_below_two_k() {
    let mut rng = SplitMix64::new(3);
    for k in 1..8 {
        for n in k..2 * k {
            let mut sorted = random_values(&mut rng, n);
            sorted.sort_by(f64::total_cmp);
            for seg in [
                univariate_smawk(&sorted, k).unwrap(),
                univariate_dp(&sorted, k).unwrap(),
            ] {
                assert_eq!(seg.sizes, vec![n]);
                assert!((seg.sse - sst(&sorted)).abs() <= 1e-12 * (1.0 + sst(&sorted)));
            }
        }
    }
}

/// Documented tie rule: the smaller predecessor cut wins among equal costs (all-equal data,
/// where every cost is exactly 0).
#[test]
fn ties_prefer_the_smaller_predecessor() {
    let sorted = [5.0; 7];
    assert_eq!(univariate_dp(&sorted, 2).unwrap().sizes, vec![2, 2, 3]);
    assert_eq!(univariate_smawk(&sorted, 2).unwrap().sizes, vec![2, 2, 3]);
    let identity: Vec<usize> = (0..7).collect();
    assert_eq!(
        segment_order(&sorted, 1, &identity, 2).unwrap().sizes,
        vec![2, 2, 3]
    );
    let sorted = [1.0; 11];
    assert_eq!(univariate_smawk(&sorted, 3).unwrap().sizes, vec![3, 3, 5]);
    assert_eq!(univariate_dp(&sorted, 3).unwrap().sizes, vec![3, 3, 5]);
}

#[test]
fn invalid_input_is_rejected() {
    let sorted = [0.0, 1.0, 2.0];
    for method in [univariate_dp, univariate_smawk, univariate_optimal] {
        assert_eq!(method(&sorted, 0), Err(SolverError::ZeroGroupSize));
        assert_eq!(
            method(&sorted, 4),
            Err(SolverError::Infeasible { n: 3, k: 4 })
        );
        assert_eq!(method(&[], 1), Err(SolverError::Infeasible { n: 0, k: 1 }));
        assert_eq!(
            method(&[0.0, f64::NAN], 1),
            Err(SolverError::NonFinite { index: 1 })
        );
        assert_eq!(
            method(&[0.0, 2.0, 1.0], 1),
            Err(SolverError::Unsorted { index: 2 })
        );
    }
    assert_eq!(
        univariate_brute_force(&[0.0; 13], 2),
        Err(SolverError::TooLarge { n: 13, max: 12 })
    );
    assert_eq!(
        univariate_brute_force(&[f64::INFINITY], 1),
        Err(SolverError::NonFinite { index: 0 })
    );
    assert_eq!(
        sorting_order(&[1.0, f64::NAN]),
        Err(SolverError::NonFinite { index: 1 })
    );
    // Unsorted input is fine for brute force.
    assert!(univariate_brute_force(&[2.0, 0.0, 1.0], 1).is_ok());
}
