//! # Incumbents of branch-and-price
//!
//! The incumbent partition with its certified SSE upper bound, and the node heuristics that
//! feed it: the partition of an integral master solution and LP rounding of a fractional one
//! (SSE always recomputed from the labels).
//!
//! ## Complexity
//! [`round_support`]: O(support · 2k · d + n · groups · d); the others O(n + support · 2k).
//!
//! ## References
//! See [`super`].

use super::Incumbent;
use crate::exact::certify::partition_sse_upper;
use crate::merge::canonical;
use crate::sse::partition_sse;

/// Replace the incumbent by `labels` when its two-pass SSE is lower.
pub(super) fn consider(x: &[f64], d: usize, labels: Vec<usize>, inc: &mut Incumbent) {
    let labels = canonical(&labels);
    let sse = partition_sse(x, d, &labels);
    if sse < inc.sse {
        inc.upper = partition_sse_upper(x, d, &labels);
        inc.sse = sse;
        inc.labels = labels;
    }
}

/// The partition of an integral master solution (columns at value 1), if it covers every
/// record exactly once.
pub(super) fn labels_of(
    support: &[(usize, f64)],
    pool: &[Vec<u32>],
    n: usize,
) -> Option<Vec<usize>> {
    let mut labels = vec![usize::MAX; n];
    for (g, &(c, _)) in support.iter().enumerate() {
        for &i in &pool[c] {
            if labels[i as usize] != usize::MAX {
                return None;
            }
            labels[i as usize] = g;
        }
    }
    (!labels.contains(&usize::MAX)).then_some(labels)
}

/// LP rounding (node heuristic): the columns of the master solution by decreasing value,
/// each taken when disjoint from those taken; every record left over joins the taken group
/// of nearest centroid (groups only grow, so all keep at least `k` records). None when no
/// column was taken.
pub(super) fn round_support(
    x: &[f64],
    n: usize,
    d: usize,
    support: &[(usize, f64)],
    pool: &[Vec<u32>],
) -> Option<Vec<usize>> {
    let mut order: Vec<(usize, f64)> = support.to_vec();
    order.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut labels = vec![usize::MAX; n];
    let mut centroids: Vec<Vec<f64>> = Vec::new();
    for (c, _) in order {
        let g = &pool[c];
        if g.iter().any(|&i| labels[i as usize] != usize::MAX) {
            continue;
        }
        let mut centre = vec![0.0; d];
        for &i in g {
            labels[i as usize] = centroids.len();
            for (t, v) in centre.iter_mut().enumerate() {
                *v += x[i as usize * d + t] / g.len() as f64;
            }
        }
        centroids.push(centre);
    }
    if centroids.is_empty() {
        return None;
    }
    for i in 0..n {
        if labels[i] == usize::MAX {
            let row = &x[i * d..(i + 1) * d];
            labels[i] = (0..centroids.len())
                .min_by(|&a, &b| {
                    crate::sse::sq_dist(row, &centroids[a])
                        .total_cmp(&crate::sse::sq_dist(row, &centroids[b]))
                        .then(a.cmp(&b))
                })
                .expect("one group");
        }
    }
    Some(labels)
}
