//! # Size completion of the per-anchor pricing
//!
//! For a group `S` of `m >= k` records, the average over its size-`k` subsets `A` gives
//! `E[SSE(A)] = (k - 1)/(m - 1) SSE(S)` and `E[y(A)] = (k/m) y(S)`, so
//!
//! `rc(S) >= (m/k) E[rc(A)] >= (m/k) min_{A in S, |A| = k} rc(A)`
//!
//! for any duals `y` (no sign needed; without subset-row cuts, whose penalties are not
//! averaged this way): proofs/P20, "Size completion". Hence when the per-anchor search at
//! size `k` proves that no group of `k` records has a reduced cost below the threshold
//! `tau <= 0` (every anchor stays at `tau`), every group of `m` records has `rc >= (m/k) tau`,
//! and the search of the sizes `k+1..2k-1` (about two thirds of a check at the k = 10 points
//! where nothing is found, study-colgen.txt "18-k10") is not needed. The per-size values
//! `(m/k) tau` cost the size knapsack of [`super::super::anchors`] at most `|tau|` (the
//! anchors' sizes sum to at most `n`, so the charged total is at least `(n/k) tau`), and
//! nothing at all when `k` divides `n`.
//!
//! ## Complexity
//! The size-`k` part of the carried search ([`super::Anchors::Carry`]), plus O(n k) for the filling;
//! the full search when some anchor has a group below `tau` at size `k`.
//!
//! ## References
//! The averaging identity over subsets is the one behind P03 (groups above `2k - 1` records
//! can be split) and P06; its use to complete a per-size pricing is this project's.

use super::exact::{anchor_sizes, ExactPricing, Mode};
use super::Geometry;
use crate::bounds::UNIT_ROUNDOFF;

/// The completion value for size `m` from a computed size-`k` lower bound `g_k <= 0` (before
/// the rounding margin `margin`, as the per-size values of the search): `v` with
/// `v - margin <= (m/k) (g_k - margin)`, so that a later subtraction of `margin` leaves a
/// proven lower bound on every group of `m` records (P20 "Size completion", rounding: the
/// product and quotient are lowered by `4 u` of their size, then one more step down).
pub fn completion_value(k: usize, m: usize, g_k: f64, margin: f64) -> f64 {
    let low = g_k.min(0.0) - margin; // <= 0, computed exactly enough: lowered below
    let scaled = low * m as f64 / k as f64;
    let scaled = scaled - 4.0 * UNIT_ROUNDOFF * scaled.abs();
    let v = scaled + margin;
    (v - 2.0 * UNIT_ROUNDOFF * v.abs()).next_down()
}

/// After a `Mode::Complete` search that stopped after size `k` (nothing below `threshold`
/// there, so the size-`k` values are final): the sizes above `k` hold
/// [`completion_value`] of `threshold`; after any other search, `out` unchanged.
pub(super) fn complete_sizes(
    geo: &Geometry,
    mode: Mode,
    threshold: f64,
    margin: f64,
    per_size: &mut [f64],
    mut out: ExactPricing,
) -> ExactPricing {
    let w = anchor_sizes(geo);
    // The search stopped after size k exactly when this holds (the size-k values are final).
    let nothing_at_k = per_size.iter().step_by(w).all(|&v| v >= threshold);
    if mode == Mode::Complete && nothing_at_k && w > 1 {
        for (j, m) in (geo.k..geo.k + w).enumerate().skip(1) {
            let v = completion_value(geo.k, m, threshold, margin);
            for row in per_size.chunks_mut(w) {
                row[j] = row[j].min(v);
            }
            out.rc_lower_bound = out.rc_lower_bound.min(v);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every size-m group's reduced cost is at least (m/k) times the least size-k subset's
    /// (the inequality the completion rests on), checked on all groups of a small instance.
    #[test]
    fn a_group_costs_at_least_m_over_k_times_its_cheapest_k_subset() {
        let x = [0.0, 0.3, 0.35, 1.0, 4.0, 4.2, 9.0, 1e-9];
        let y = [0.4, -0.2, 0.9, 1.3, 0.05, 2.0, -1.0, 0.7];
        let k = 3;
        let geo = Geometry::new(&x, 8, 1, k, 7);
        let n = 8u32;
        let subsets = |mask: u32| -> Vec<u32> { (0..n).filter(|i| mask >> i & 1 == 1).collect() };
        for mask in 0u32..(1 << n) {
            let s = subsets(mask);
            let m = s.len();
            if m <= k || m >= 2 * k {
                continue;
            }
            let mut least = f64::INFINITY;
            for sub in 0u32..(1 << n) {
                if sub & !mask == 0 && sub.count_ones() as usize == k {
                    least = least.min(geo.reduced_cost(&subsets(sub), &y));
                }
            }
            let rc = geo.reduced_cost(&s, &y);
            assert!(
                rc >= m as f64 / k as f64 * least - 1e-12,
                "{s:?}: rc {rc} < {m}/{k} * {least}"
            );
        }
    }

    #[test]
    fn completion_value_is_below_the_scaled_value_minus_the_margin() {
        for &(k, m, g, margin) in &[
            (10usize, 19usize, -0.07, 1e-9),
            (3, 5, 0.0, 0.0),
            (3, 4, -1e9, 1e-3),
            (5, 9, -1e-12, 1e-15),
        ] {
            let v = completion_value(k, m, g, margin);
            assert!(v - margin <= m as f64 / k as f64 * (g - margin));
            assert!(v <= g);
        }
    }
}
