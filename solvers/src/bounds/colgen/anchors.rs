//! # The medoid-anchored Lagrangian bound
//!
//! The plain Lagrangian bound charges every group of an optimal partition the least reduced
//! cost over all groups: `sum y + floor(n/k) min(0, RC*)` (proofs/P09 Part A). When the
//! negative reduced costs sit in one region of the data (duals too high there), most groups
//! of the partition are charged a reduced cost they cannot have. The exact pricing already
//! covers every group at the anchor of its medoid (P09 B2.1); run with the incumbent reset
//! at every anchor (`ExactSearch` with `Anchors::PerSize` and `per_anchor_minima`) it proves, per record `r`, a
//! lower bound `L_r` on the reduced cost of every group whose medoid is `r`. The groups of a
//! partition have distinct medoids and there are at most `floor(n/k)` of them, so
//!
//! `OPT >= sum y (+ sum sigma) + (sum of the floor(n/k) smallest min(0, L_r))`
//!
//! (proofs/P20). Never below the plain bound (each `L_r >= RC*`), equal to it when one
//! anchor's group is as negative as all, and up to `floor(n/k)` times closer to `sum y` when
//! few anchors carry negative groups.
//!
//! Kept per group size (`L_{r,m}`), the same argument gives a knapsack: the groups of a
//! partition have distinct medoids and sizes summing to `n`, so at most `n` records' worth
//! of anchors can be charged ([`anchored_sizes_lagrangian`], P20 "Per size"); never weaker.
//!
//! ## Complexity
//! O(n log n) for the selection after the per-anchor pricing (whose cost is the exact
//! pricing's without the pruning that another anchor's incumbent gives); O(n^2 k) for the
//! knapsack over sizes.
//!
//! ## References
//! Lagrangian relaxation with a cardinality-constrained subproblem: the bound is the
//! Lagrangian dual function of the set-partitioning master with the pricing problem
//! decomposed by medoid (Aloise, Hansen, Rocha and Santi 2014 for the master and pricing;
//! the decomposition by medoid is this project's, proofs/P20).

use super::cuts::CutDuals;
use super::pricing::Geometry;
use super::{rc_margin, rounded_with_cuts};
use crate::bounds::UNIT_ROUNDOFF;

/// The anchored Lagrangian bound, rounded outward (proofs/P20): record duals `y`, cuts `cuts`,
/// at most `groups_max` groups, `per_anchor[r]` a computed lower bound (before the rounding
/// margin) on the reduced cost of every group with medoid `r`, and `floor_rc` a computed
/// lower bound on every group's reduced cost (the weak pricing bound; raises cut-short
/// anchor values). `-infinity` when `per_anchor` does not have one value per record.
pub fn anchored_lagrangian(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    groups_max: usize,
    per_anchor: &[f64],
    floor_rc: f64,
) -> f64 {
    if per_anchor.len() != geo.n || y.len() != geo.n {
        return f64::NEG_INFINITY;
    }
    let eps = rc_margin(geo, y, d, cuts);
    // Each term: the anchor's proven value capped at 0, lowered by the pricing margin.
    let mut terms: Vec<f64> = per_anchor
        .iter()
        .map(|&v| v.max(floor_rc).min(0.0) - eps)
        .collect();
    let g = groups_max.min(terms.len());
    if g > 0 && g < terms.len() {
        terms.select_nth_unstable_by(g - 1, f64::total_cmp);
    }
    let chosen = &terms[..g];
    let sum: f64 = chosen.iter().sum();
    let abs: f64 = chosen.iter().map(|v| v.abs()).sum();
    // Recursive summation of g terms: error below (g - 1) u sum|t|; doubled.
    let sum_low = sum - 2.0 * (g as f64 + 1.0) * UNIT_ROUNDOFF * abs;
    // One "group" charged the (already summed, nonpositive) total; no further margin.
    rounded_with_cuts(y, cuts, 1, sum_low.min(0.0), 0.0)
}

/// The anchored Lagrangian bound with group sizes (proofs/P20, "Per size"), rounded outward:
/// `per_size[r * w + (m - k)]` (`w` = number of sizes `k..=min(2k - 1, n)`) a computed lower
/// bound (before the rounding margin) on the reduced cost of every group of `m` records with
/// medoid `r`, `floor_rc` a computed lower bound on every group's reduced cost. The groups
/// of a partition have distinct medoids and sizes summing to `n`, so
/// `OPT >= sum y (+ sum sigma) + min { sum_{r in A} V_{r, m_r} : A distinct, sum m_r <= n }`,
/// a multiple-choice knapsack solved exactly by dynamic programming over the total size
/// (O(n^2 w)). Never below [`anchored_lagrangian`] of the per-anchor minima (every size is
/// at least `k`, so at most `floor(n/k)` anchors fit). `-infinity` when `per_size` has the
/// wrong length.
pub fn anchored_sizes_lagrangian(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    per_size: &[f64],
    floor_rc: f64,
) -> f64 {
    let (n, k) = (geo.n, geo.k);
    let Some(w) = sizes_per_anchor(geo, y, per_size) else {
        return f64::NEG_INFINITY;
    };
    let eps = rc_margin(geo, y, d, cuts);
    let dp = size_knapsack(n, k, w, per_size, |v| v.max(floor_rc).min(0.0) - eps);
    let least = dp.iter().copied().fold(0.0, f64::min);
    // A path holds at most g = floor(n/k) nonpositive terms, summed recursively: see P20 for
    // the margin (summation error and the rounding of each term, relative to |least|).
    let g = (n / k) as f64;
    let low = least - 4.0 * (g + 2.0) * UNIT_ROUNDOFF * least.abs();
    rounded_with_cuts(y, cuts, 1, low.min(0.0), 0.0)
}

/// The number `w` of sizes `k..=min(2k - 1, n)` when `per_size` holds `w` values per record
/// and `y` one dual per record; None otherwise.
pub(super) fn sizes_per_anchor(geo: &Geometry, y: &[f64], per_size: &[f64]) -> Option<usize> {
    let (n, k) = (geo.n, geo.k);
    let top = (2 * k - 1).min(n);
    let w = top + 1 - k;
    (per_size.len() == n * w && y.len() == n).then_some(w)
}

/// The multiple-choice knapsack over the anchors (rows of `w` per-size values of
/// `per_size`, sizes `k..k + w`): `dp[s]` the least computed sum of `term(value)` over
/// distinct anchors, one size each, with sizes summing to `s` (infinite when none do).
pub(super) fn size_knapsack(
    n: usize,
    k: usize,
    w: usize,
    per_size: &[f64],
    mut term: impl FnMut(f64) -> f64,
) -> Vec<f64> {
    let mut dp = vec![f64::INFINITY; n + 1];
    dp[0] = 0.0;
    let mut terms = vec![0.0; w];
    for row in per_size.chunks(w) {
        for (t, &v) in terms.iter_mut().zip(row) {
            *t = term(v);
        }
        // Descending totals: dp[s - m] still holds the value without this anchor.
        for total in (k..=n).rev() {
            let mut best = dp[total];
            for (j, &t) in terms.iter().enumerate() {
                let m = k + j;
                if m > total {
                    break;
                }
                let prev = dp[total - m];
                if prev + t < best {
                    best = prev + t;
                }
            }
            dp[total] = best;
        }
    }
    dp
}

/// The larger of [`anchored_lagrangian`] (per-anchor minima over the sizes, the
/// `floor(n/k)` most negative) and [`anchored_sizes_lagrangian`] from the same per-size
/// values (the second is never weaker in exact arithmetic; both are valid, proofs/P20).
pub fn anchored_best(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    per_size: &[f64],
    floor_rc: f64,
) -> f64 {
    let w = per_size.len() / geo.n.max(1);
    if w == 0 {
        return f64::NEG_INFINITY;
    }
    let per_anchor: Vec<f64> = per_size
        .chunks(w)
        .map(|c| c.iter().copied().fold(f64::INFINITY, f64::min))
        .collect();
    let g = geo.n / geo.k;
    anchored_lagrangian(geo, y, d, cuts, g, &per_anchor, floor_rc).max(anchored_sizes_lagrangian(
        geo, y, d, cuts, per_size, floor_rc,
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn equal_anchor_values_give_the_plain_bound_and_spread_ones_more() {
        let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.2, 20.0, 20.3, 20.1];
        let geo = Geometry::new(&x, 9, 1, 3, 4);
        let y = [0.01; 9];
        let cuts = CutDuals::none();
        let plain = super::super::lagrangian_with_cuts(&geo, &y, 1, &cuts, 3, -0.5);
        let same = anchored_lagrangian(&geo, &y, 1, &cuts, 3, &[-0.5; 9], f64::NEG_INFINITY);
        assert!((plain - same).abs() < 1e-12, "{plain} vs {same}");
        // Only two anchors negative: the third group is charged 0.
        let mut v = [0.0; 9];
        v[0] = -0.5;
        v[4] = -0.2;
        let spread = anchored_lagrangian(&geo, &y, 1, &cuts, 3, &v, f64::NEG_INFINITY);
        assert!((spread - (0.09 - 0.7)).abs() < 1e-8, "{spread}");
        assert!(spread > plain);
        // The floor raises cut-short anchors; a wrong length proves nothing.
        let floored = anchored_lagrangian(&geo, &y, 1, &cuts, 3, &[-9.0; 9], -0.1);
        assert!((floored - (0.09 - 0.3)).abs() < 1e-8, "{floored}");
        assert_eq!(
            anchored_lagrangian(&geo, &y, 1, &cuts, 3, &[0.0; 8], 0.0),
            f64::NEG_INFINITY
        );
    }
}
