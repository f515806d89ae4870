//! # Group SSE on plain arrays
//!
//! Two-pass (centre first, then squared deviations) sums of squared errors, the reference
//! against which every incremental formula is checked. See `proofs/P01-sse-identities.md`.
//!
//! ## Complexity
//! O(m d) for a group of m records.

/// Squared Euclidean distance between two rows.
#[inline]
pub fn sq_dist(a: &[f64], b: &[f64]) -> f64 {
    a.iter().zip(b).map(|(p, q)| (p - q) * (p - q)).sum()
}

/// SSE of the records `members` (row indices) of the row-major matrix `x` with `d` columns.
/// Two passes: the centroid, then the squared deviations from it (no cancellation).
pub fn group_sse(x: &[f64], d: usize, members: &[usize]) -> f64 {
    if members.is_empty() {
        return 0.0;
    }
    let mut mean = vec![0.0; d];
    for &i in members {
        for (m, v) in mean.iter_mut().zip(&x[i * d..(i + 1) * d]) {
            *m += v;
        }
    }
    let inv = 1.0 / members.len() as f64;
    mean.iter_mut().for_each(|m| *m *= inv);
    members
        .iter()
        .map(|&i| {
            x[i * d..(i + 1) * d]
                .iter()
                .zip(&mean)
                .map(|(v, m)| (v - m) * (v - m))
                .sum::<f64>()
        })
        .sum()
}

/// The SSE ([`group_sse`]) of the group of records `g` (ids, as the column pools hold them).
pub(crate) fn ids_sse(x: &[f64], d: usize, g: &[u32]) -> f64 {
    let members: Vec<usize> = g.iter().map(|&i| i as usize).collect();
    group_sse(x, d, &members)
}

/// The SSE ([`ids_sse`]) of each group of `columns` (record ids), in order.
pub fn columns_sse<G: AsRef<[u32]>>(x: &[f64], d: usize, columns: &[G]) -> Vec<f64> {
    columns.iter().map(|g| ids_sse(x, d, g.as_ref())).collect()
}

/// The records other than `i` of the `n` records of `x` with their squared distances to
/// record `i`, by full sorting on (distance, id): nearest first, ties by lower id.
pub(crate) fn others_by_distance(x: &[f64], n: usize, d: usize, i: usize) -> Vec<(f64, usize)> {
    let row = |r: usize| &x[r * d..(r + 1) * d];
    let mut near: Vec<(f64, usize)> = (0..n)
        .filter(|&j| j != i)
        .map(|j| (sq_dist(row(i), row(j)), j))
        .collect();
    near.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    near
}

/// SSE of a whole labelling: `labels[i]` is the group of record `i`; groups are 0..g.
pub fn partition_sse(x: &[f64], d: usize, labels: &[usize]) -> f64 {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    members.iter().map(|m| group_sse(x, d, m)).sum()
}

/// The power of two nearest to `ratio` (1 for a ratio that is not finite and positive),
/// with the exponent clamped to +-200 so that scaled values of z-scored data stay far from
/// overflow and underflow.
pub fn pow2_near(ratio: f64) -> f64 {
    if !(ratio.is_finite() && ratio > 0.0) {
        return 1.0;
    }
    2f64.powi((ratio.log2().round() as i32).clamp(-200, 200))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sse_of_three_points_on_a_line() {
        // 0, 1, 2 -> mean 1, SSE = 1 + 0 + 1
        let x = [0.0, 1.0, 2.0];
        assert_eq!(group_sse(&x, 1, &[0, 1, 2]), 2.0);
        assert_eq!(partition_sse(&x, 1, &[0, 0, 1]), 0.5);
    }
}
