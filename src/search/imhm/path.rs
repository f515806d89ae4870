//! # IMHM's path: Construct_Path and Sort_Centers
//!
//! The geometry of IMHM ([`super`]) on plain arrays: the centroids and SSE of a labelling,
//! the path through a block's groups that the optimal segmentation re-cuts
//! ([`construct_path`], Fig. 2 lines 36-52) and the order of the input groups that cuts
//! them into blocks ([`sort_centers`], lines 30-35).
//!
//! ## Complexity
//! [`construct_path`]: O(m c d) for m records in c groups; [`sort_centers`]:
//! O(c d + c log c); centroids: O(m d).
//!
//! ## References
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544.

use crate::geometry::group_path::walk_groups;
use crate::partition::{sq_dist, Partition};

/// Centroids (row-major) and SSE of `labels` over `groups` groups (two-pass).
pub(super) fn centroids_sse(
    x: &[f64],
    d: usize,
    labels: &[usize],
    groups: usize,
) -> (Vec<f64>, f64) {
    let mut sums = vec![0.0; groups * d];
    let mut sizes = vec![0usize; groups];
    for (row, &g) in x.chunks_exact(d).zip(labels) {
        sizes[g] += 1;
        for (s, v) in sums[g * d..(g + 1) * d].iter_mut().zip(row) {
            *s += v;
        }
    }
    for (g, &s) in sizes.iter().enumerate() {
        if s > 0 {
            sums[g * d..(g + 1) * d]
                .iter_mut()
                .for_each(|v| *v /= s as f64);
        }
    }
    let sse = x
        .chunks_exact(d)
        .zip(labels)
        .map(|(row, &g)| sq_dist(row, &sums[g * d..(g + 1) * d]))
        .sum();
    (sums, sse)
}

/// Construct_Path (Fig. 2, lines 36-52) over local records with `labels` into `groups`
/// groups and their `centroids`.
pub fn construct_path(
    x: &[f64],
    d: usize,
    labels: &[usize],
    groups: usize,
    centroids: &[f64],
) -> Vec<usize> {
    let m = labels.len();
    if groups <= 1 {
        return (0..m).collect();
    }
    let mut mean = vec![0.0; d];
    for row in x.chunks_exact(d) {
        mean.iter_mut().zip(row).for_each(|(a, v)| *a += v);
    }
    mean.iter_mut().for_each(|a| *a /= m as f64);
    // Farthest record from the mean (lowest index on ties).
    let mut far = (f64::NEG_INFINITY, 0);
    for (i, row) in x.chunks_exact(d).enumerate() {
        let dist = sq_dist(row, &mean);
        if dist > far.0 {
            far = (dist, i);
        }
    }
    let mut members = vec![Vec::new(); groups];
    for (i, &g) in labels.iter().enumerate() {
        members[g].push(i);
    }
    let row = |r: usize| &x[r * d..(r + 1) * d];
    let centroid = |g: usize| &centroids[g * d..(g + 1) * d];
    walk_groups(&members, row, centroid, labels[far.1])
}

/// Sort_Centers (Fig. 2, lines 30-35): group slots ordered by the distance of their
/// centroid to the centroid farthest from the mean of the centroids (stable on ties).
pub fn sort_centers(p: &Partition, d: usize) -> Vec<usize> {
    let groups: Vec<usize> = (0..p.slots()).filter(|&g| p.size(g) > 0).collect();
    if groups.is_empty() {
        return groups;
    }
    let mut cc = vec![0.0; d];
    for &g in &groups {
        cc.iter_mut().zip(p.centroid(g)).for_each(|(a, v)| *a += v);
    }
    cc.iter_mut().for_each(|a| *a /= groups.len() as f64);
    let mut far = (f64::NEG_INFINITY, groups[0]);
    for &g in &groups {
        let dist = sq_dist(p.centroid(g), &cc);
        if dist > far.0 {
            far = (dist, g);
        }
    }
    let f = p.centroid(far.1).to_vec();
    let mut keyed: Vec<(f64, usize)> = groups
        .iter()
        .map(|&g| (sq_dist(p.centroid(g), &f), g))
        .collect();
    keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    keyed.into_iter().map(|(_, g)| g).collect()
}
