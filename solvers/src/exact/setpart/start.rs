//! # Starting partitions of the set-partitioning method
//!
//! Two feasible partitions whose best is the method's first upper bound: chunks of k records
//! along the first attribute and MDAV on at most 64 records. Moved out of `setpart.rs`
//! unchanged.
//!
//! ## Complexity
//! [`chunk_labels`] O(n log n); [`mdav_labels`] O(n^2 d).
//!
//! ## References
//! - Domingo-Ferrer, J. and Torra, V. (2005). Ordinal, continuous and heterogeneous
//!   k-anonymity through microaggregation. Data Mining and Knowledge Discovery 11(2),
//!   195-212 (MDAV).

use crate::sse::sq_dist;

/// Chunks of k records along the first attribute, the last chunk absorbing the rest: a
/// feasible partition, the first upper bound.
pub(crate) fn chunk_labels(x: &[f64], n: usize, d: usize, k: usize) -> Vec<usize> {
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&a, &b| x[a * d].total_cmp(&x[b * d]).then(a.cmp(&b)));
    let groups = n / k;
    let mut labels = vec![0usize; n];
    for (p, &i) in order.iter().enumerate() {
        labels[i] = (p / k).min(groups - 1);
    }
    labels
}

/// MDAV (Domingo-Ferrer and Torra 2005) on at most 64 records, a second starting partition:
/// while 3k or more records remain, the record farthest from their centroid and the record
/// farthest from it each take their k - 1 nearest; then one more such group if 2k or more
/// remain; the rest form the last group. Ties go to the lowest record index. O(n^2 d).
pub(super) fn mdav_labels(x: &[f64], n: usize, d: usize, k: usize) -> Vec<usize> {
    let row = |i: usize| &x[i * d..(i + 1) * d];
    let mut labels = vec![usize::MAX; n];
    let mut left: Vec<usize> = (0..n).collect();
    let mut group = 0;
    let farthest = |from: &[f64], left: &[usize]| {
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for &i in left {
            let q = sq_dist(from, row(i));
            if q > best.0 {
                best = (q, i);
            }
        }
        best.1
    };
    let mut take = |seed: usize, left: &mut Vec<usize>, labels: &mut Vec<usize>| {
        let mut near: Vec<(f64, usize)> = left
            .iter()
            .map(|&j| (sq_dist(row(seed), row(j)), j))
            .collect();
        near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        // The seed is at distance 0 and the lowest index among its duplicates is not
        // necessarily itself: take it explicitly, then its k - 1 nearest others.
        labels[seed] = group;
        let mut taken = 1;
        for &(_, j) in &near {
            if taken == k {
                break;
            }
            if j != seed {
                labels[j] = group;
                taken += 1;
            }
        }
        left.retain(|&j| labels[j] == usize::MAX);
        group += 1;
    };
    let centroid = |left: &[usize]| {
        let mut c = vec![0.0; d];
        for &i in left {
            c.iter_mut().zip(row(i)).for_each(|(a, v)| *a += v);
        }
        c.iter_mut().for_each(|a| *a /= left.len() as f64);
        c
    };
    while left.len() >= 3 * k {
        let r = farthest(&centroid(&left), &left);
        take(r, &mut left, &mut labels);
        let s = farthest(row(r), &left);
        take(s, &mut left, &mut labels);
    }
    if left.len() >= 2 * k {
        let r = farthest(&centroid(&left), &left);
        take(r, &mut left, &mut labels);
    }
    for &i in &left {
        labels[i] = group;
    }
    labels
}
