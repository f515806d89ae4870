//! # Per-record shares of the reduced costs
//!
//! For duals `y` every partition `P` into groups of `k..2k-1` records satisfies
//! `sum_{S in P} rc(S) = sum_i rc(S(i)) / |S(i)|`, so any numbers `l_i` with
//! `l_i <= min_{S ni i} rc(S)/|S|` give `sum_S rc(S) >= sum_i l_i`, and the positive parts
//! `max(rc, 0)` split the same way (proofs/P20 "Positive shares"). This module computes
//! such `l_i` cheaply from the pairwise identity `SSE(S) = (1/(2m)) sum_{a,b in S} D_ab`:
//! with `i in S`, `|S| = m`, the row of `i` holds `D_ai` for every other member `a`, and the
//! row of `a` holds `D_ai` and `m - 2` further distances, at least `N_a(m-2)` (the sum of its
//! `m - 2` nearest), so
//!
//! `rc(S) >= -y_i + sum_{a in S \ i} (D_ai/m + N_a(m-2)/(2m) - y_a)`,
//!
//! minimised over `S` by the `m - 1` smallest terms (`Pairwise`). Dropping the `N_a` terms
//! gives the star bound (`Star`, weaker; kept for the comparison).
//!
//! ## Complexity
//! O(n^2 k) time (every record against every other, for each of the `k` sizes), O(n) memory
//! beyond the geometry.
//!
//! ## References
//! The pairwise SSE identity (proofs/P01) and the nearest-neighbour bound of proofs/P06,
//! here with duals; the per-record share of the reduced costs is this project's
//! (proofs/P20 "Positive shares").

use super::pricing::Geometry;

/// Which lower bound on a group's SSE the per-record values use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ShareForm {
    /// `SSE(S) >= sum_{a in S \ i} D_ai / m` (the row of `i` only).
    Star,
    /// `SSE(S) >= sum_{a in S \ i} (D_ai/m + N_a(m-2)/(2m))` (every row; never weaker).
    Pairwise,
}

/// Computed values `l_i`, each a lower bound (before rounding margins) on `rc(S)/|S|` for
/// every group `S` of `k..=min(2k-1, n)` records holding `i` (no cuts). `+infinity` for every
/// record when `n < k` (no group exists).
pub fn record_share_bounds(geo: &Geometry, y: &[f64], form: ShareForm) -> Vec<f64> {
    let (n, k) = (geo.n, geo.k);
    let mut out = vec![f64::INFINITY; n];
    if n < k || y.len() != n {
        return out;
    }
    let mut terms = vec![0.0f64; n.saturating_sub(1)];
    for (i, li) in out.iter_mut().enumerate() {
        for m in k..=(2 * k - 1).min(n) {
            let mf = m as f64;
            for (t, a) in terms.iter_mut().zip((0..n).filter(|&a| a != i)) {
                let nn = match form {
                    ShareForm::Star => 0.0,
                    ShareForm::Pairwise => geo.nn(a, m - 2) / (2.0 * mf),
                };
                *t = geo.d(a, i) / mf + nn - y[a];
            }
            let q = m - 1;
            if q > 0 && q < terms.len() {
                terms.select_nth_unstable_by(q - 1, f64::total_cmp);
            }
            let rc_low = terms[..q].iter().sum::<f64>() - y[i];
            *li = li.min(rc_low / mf);
        }
    }
    out
}
