//! # Dual estimates from the incumbent partition
//!
//! For record `i` in group `G` of the best start partition (size `m`, centroid `c_G`), the
//! LP dual `y_i` is the price of covering `i`; two costs of the incumbent bracket it
//! (Sudoso and Aloise 2025, section 5): the saving of removing `i` from its group,
//! `lo_i = SSE(G) - SSE(G - i) = m / (m - 1) ||x_i - c_G||^2` (0 for a singleton), and the
//! cost of adding it to the group `H` of nearest centroid among the others,
//! `hi_i = SSE(H + i) - SSE(H) = |H| / (|H| + 1) ||x_i - c_H||^2` (P01's update). When
//! `hi_i < lo_i` the estimate is poor and `lo_i` is taken as 0. These are only estimates:
//! they place the du Merle box of the stabilised masters; no bound rests on them.
//!
//! ## Complexity
//! O(n g d) for `g` groups.
//!
//! ## References
//! - Sudoso, A. M. and Aloise, D. (2025). A column generation algorithm with dynamic
//!   constraint aggregation for minimum sum-of-squares clustering. INFORMS Journal on
//!   Computing.
//! - du Merle, O., Villeneuve, D., Desrosiers, J. and Hansen, P. (1999). Stabilized column
//!   generation. Discrete Mathematics 194, 229-237.

use crate::sse::sq_dist;

/// The bracket `(lo_i, hi_i)` of every record's dual estimated from the partition `groups`
/// of the `n` records of `x` (`d` columns; module doc). With a single group, `hi_i` is the
/// group's own `lo_i` doubled (there is no other group to add `i` to).
pub fn dual_brackets(x: &[f64], n: usize, d: usize, groups: &[Vec<u32>]) -> Vec<(f64, f64)> {
    let centroids: Vec<Vec<f64>> = groups.iter().map(|g| centroid(x, d, g)).collect();
    let mut out = vec![(0.0, 0.0); n];
    for (gi, g) in groups.iter().enumerate() {
        let m = g.len() as f64;
        for &i in g {
            let xi = &x[i as usize * d..(i as usize + 1) * d];
            let lo = if g.len() > 1 {
                m / (m - 1.0) * sq_dist(xi, &centroids[gi])
            } else {
                0.0
            };
            let nearest_other = (0..groups.len())
                .filter(|&h| h != gi)
                .map(|h| (sq_dist(xi, &centroids[h]), groups[h].len() as f64))
                .min_by(|a, b| a.0.total_cmp(&b.0));
            let hi = match nearest_other {
                Some((dist, size)) => size / (size + 1.0) * dist,
                None => 2.0 * lo,
            };
            out[i as usize] = if hi < lo { (0.0, hi) } else { (lo, hi) };
        }
    }
    out
}

/// The du Merle box of the brackets `b`: record `i`'s box is `[lo_i, hi_i]`, as centres and
/// half-widths, each half-width at least a millionth of the mean |centre| (so that widening
/// moves it); also returns that mean.
pub fn box_of(b: &[(f64, f64)]) -> (Vec<f64>, Vec<f64>, f64) {
    let scale = b.iter().map(|(lo, hi)| (lo + hi).abs() / 2.0).sum::<f64>() / b.len() as f64;
    let floor = (1e-6 * scale).max(f64::MIN_POSITIVE);
    let centre = b.iter().map(|(lo, hi)| (lo + hi) / 2.0).collect();
    let delta = b
        .iter()
        .map(|(lo, hi)| ((hi - lo) / 2.0).max(floor))
        .collect();
    (centre, delta, scale)
}

/// The centroid of group `g`.
fn centroid(x: &[f64], d: usize, g: &[u32]) -> Vec<f64> {
    let mut c = vec![0.0; d];
    for &i in g {
        for (cj, xj) in c.iter_mut().zip(&x[i as usize * d..(i as usize + 1) * d]) {
            *cj += xj;
        }
    }
    c.iter_mut().for_each(|v| *v /= g.len() as f64);
    c
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brackets_are_the_removal_and_insertion_costs() {
        // Groups {0, 1} (centroid 1) and {2, 3, 4} (centroid 11).
        let x = [0.0, 2.0, 10.0, 11.0, 12.0];
        let groups = vec![vec![0, 1], vec![2, 3, 4]];
        let b = dual_brackets(&x, 5, 1, &groups);
        // Record 0: removal 2/1 * 1 = 2; insertion into {2,3,4}: 3/4 * 121.
        assert_eq!(b[0], (2.0, 0.75 * 121.0));
        // Record 3: removal 3/2 * 0 = 0; insertion into {0,1}: 2/3 * 100.
        assert_eq!(b[3], (0.0, 2.0 / 3.0 * 100.0));
        // The brackets hold the SSE changes computed from scratch.
        let sse = |g: &[usize]| crate::sse::group_sse(&x, 1, g);
        assert!((b[1].0 - (sse(&[0, 1]) - sse(&[0]))).abs() < 1e-12);
        assert!((b[1].1 - (sse(&[1, 2, 3, 4]) - sse(&[2, 3, 4]))).abs() < 1e-12);
    }
}
