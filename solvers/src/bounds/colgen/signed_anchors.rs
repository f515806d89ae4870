//! # The anchored bound with signed values and the exact total size
//!
//! The knapsack of proofs/P20 "Per size" caps every per-anchor value at 0 and lets the chosen
//! sizes sum to at most `n`, so anchors whose groups all have positive reduced costs add
//! nothing. But an optimal partition's groups have distinct medoids and sizes summing to
//! EXACTLY `n`, and `rc(S) >= L_{r(S),|S|}` holds for positive values as well, so
//!
//! `OPT >= sum y + min { sum_{r in A} L_{r,m_r} : A distinct records, m_r in k..2k-1,
//! sum m_r = n }`
//!
//! with the values uncapped (proofs/P20 "Signed values"). Away from the LP optimum, where
//! most anchors have only positive-reduced-cost groups, the positive values count. From the
//! same values it is never below the capped knapsack (each term `L >= min(0, L)`, and a set
//! summing to `n` is one of the capped knapsack's sets).
//! The per-anchor values come from the per-anchor exact search run with a threshold
//! `tau > 0` (`ExactSearch` with `Anchors::Signed`).
//!
//! ## Complexity
//! O(n^2 w) for the knapsack (`w <= k` sizes), after the per-anchor search.
//!
//! ## References
//! Multiple-choice knapsack by dynamic programming over the total (Kellerer, Pferschy and
//! Pisinger 2004, ch. 11); the decomposition by medoid is this project's (proofs/P20).

use super::anchors::{size_knapsack, sizes_per_anchor};
use super::cuts::CutDuals;
use super::pricing::Geometry;
use super::rc_margin;
use crate::bounds::UNIT_ROUNDOFF;

/// The signed exact-total anchored bound, rounded outward (proofs/P20 "Signed values"):
/// `per_size[r * w + (m - k)]` (`w` = number of sizes `k..=min(2k - 1, n)`) a computed lower
/// bound (before the rounding margin) on the reduced cost of every group of `m` records with
/// medoid `r` (any sign), `floor_rc` a computed lower bound on every group's reduced cost.
/// No cuts. `-infinity` when `per_size` has the wrong length or no sizes sum to `n`.
pub fn signed_sizes_lagrangian(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    per_size: &[f64],
    floor_rc: f64,
) -> f64 {
    let (n, k) = (geo.n, geo.k);
    let Some(w) = sizes_per_anchor(geo, y, per_size) else {
        return f64::NEG_INFINITY;
    };
    let eps = rc_margin(geo, y, d, &CutDuals::none());
    let mut largest = 0.0f64;
    let dp = size_knapsack(n, k, w, per_size, |v| {
        let t = v.max(floor_rc) - eps;
        largest = largest.max(t.abs());
        t
    });
    let least = dp[n];
    if !least.is_finite() || !largest.is_finite() {
        return f64::NEG_INFINITY;
    }
    // A path holds at most g = floor(n/k) terms of magnitude <= largest; summation and term
    // rounding errors are below (g + 1) u (1 + 2u) g largest (P20), covered twice.
    let g = (n / k) as f64;
    let low = least - 4.0 * (g + 2.0) * g * UNIT_ROUNDOFF * largest;
    let sum: f64 = y.iter().sum();
    let abs: f64 = y.iter().map(|v| v.abs()).sum();
    let sum_low = sum - 2.0 * (n as f64 + 1.0) * UNIT_ROUNDOFF * abs;
    let total = sum_low + low;
    (total - 2.0 * UNIT_ROUNDOFF * total.abs()).next_down()
}
