//! # Outward rounding of the Lagrangian bounds
//!
//! The rounding margins of proofs/P09 ("Floating point") and P10 shared by every bound of
//! the column generation and its verifier: the rounded Lagrangian value with and without
//! cuts ([`lagrangian_rounded`], [`lagrangian_with_cuts`], [`least_rc_lagrangian`]), the
//! reduced-cost margins ([`rc_margin`], [`least_rc_margin`]) and the claim a certificate
//! writes ([`verifiable_claim`], proofs/P13).
//!
//! ## Complexity
//! O(n log n) per bound (the `2k` largest duals are found by a sort), O(n + cuts) for the
//! sums.
//!
//! ## References
//! - Higham, N. J. (2002). Accuracy and Stability of Numerical Algorithms, 2nd ed. SIAM
//!   (summation error bounds).
//! - Neumaier, A. and Shcherbina, O. (2004). Safe bounds in linear and mixed-integer linear
//!   programming. Math. Program. 99, 283-296.

use super::super::UNIT_ROUNDOFF;
use super::cuts::CutDuals;
use super::pricing::Geometry;

/// Rounded Lagrangian bound `sum y + floor(n/k) min(0, rc_lb)` for computed `rc_lb`, with the
/// margins of proofs/P09: `eps_rc` absolute on the pricing bound, `2 n u sum|y|` on the sum.
pub(crate) fn lagrangian_rounded(y: &[f64], groups_max: usize, rc_lb: f64, eps_rc: f64) -> f64 {
    let n = y.len() as f64;
    let sum: f64 = y.iter().sum();
    let abs: f64 = y.iter().map(|v| v.abs()).sum();
    let sum_low = sum - 2.0 * (n + 1.0) * UNIT_ROUNDOFF * abs;
    let rc = rc_lb.min(0.0) - eps_rc;
    let prod = groups_max as f64 * rc; // <= 0
    let prod_low = prod - 2.0 * UNIT_ROUNDOFF * prod.abs();
    let total = sum_low + prod_low;
    (total - 2.0 * UNIT_ROUNDOFF * total.abs()).next_down()
}

/// The claim a producer writes for a Lagrangian value `value` it computed at record duals `y`
/// and cuts `cuts` (proofs/P13 "The claim a producer writes"): `value` lowered by
/// `4 g M + 32 (n + g + 4) u (Y + |value| + 4 g M)` and one step more (`g = floor(n/k)`, `M`
/// = [`least_rc_margin`], the rounding of one computed reduced cost at most 0, `Y` the dual
/// magnitude `sum |y| + sum w_C b_C`). The verifier recomputes the bound with its own
/// searches, whose per-anchor values differ from the producer's (a search cut by the
/// producer's deadline, another summation) by rounding, so an unlowered claim can exceed
/// the recomputation in its last bits and be rejected. Never above `value` (so as valid as
/// `value`); a value that is not finite is returned as it is.
pub fn verifiable_claim(geo: &Geometry, y: &[f64], d: usize, cuts: &CutDuals, value: f64) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let g = (geo.n / geo.k) as f64;
    let duals: f64 = y.iter().map(|v| v.abs()).sum::<f64>() + cuts.total_weight();
    let shift = 4.0 * g * least_rc_margin(geo, y, d, cuts);
    let rounding = 32.0 * (geo.n as f64 + g + 4.0) * UNIT_ROUNDOFF * (duals + value.abs() + shift);
    (value - (shift + rounding)).next_down()
}

/// The sum of the `m` largest `|y_i|` (largest first), the dual magnitude both rounding
/// margins charge.
fn sum_largest_abs(y: &[f64], m: usize) -> f64 {
    let mut abs_y: Vec<f64> = y.iter().map(|v| v.abs()).collect();
    abs_y.sort_unstable_by(|a, b| b.total_cmp(a));
    abs_y.iter().take(m).sum()
}

/// Absolute rounding margin for computed reduced-cost bounds (proofs/P09): every computed
/// quantity is a sum of at most `ops` roundings over terms of total magnitude at most
/// `scale`, so its error is below `ops u scale`; a factor 4 covers the comparison chain.
/// With cuts, a group's penalty adds at most `b_C` weights per cut (`b_C` its right side; 1
/// for the cuts of P14), of total magnitude at most `sum_C w_C b_C` (proofs/P14, P21).
pub fn rc_margin(geo: &Geometry, y: &[f64], d: usize, cuts: &CutDuals) -> f64 {
    let k = geo.k;
    let top = sum_largest_abs(y, 2 * k);
    let scale = (2 * k * 2 * k) as f64 * geo.max_dist + top + cuts.total_weight();
    let ops = (3 * d + 8 * k * k + 2 * geo.n + 16 + cuts.penalty_terms()) as f64;
    4.0 * ops * UNIT_ROUNDOFF * scale
}

/// Absolute rounding margin on the least reduced cost proven by one search with a shared
/// incumbent (`ExactSearch::new(cuts)`, `ExactSearch::pairs`) and by the weak bound
/// ([`weak_rc_bound`](super::pricing::weak_rc_bound)): `4 ops u Y` with `Y` the sum of the `2k`
/// largest `|y_i|` and `ops = 3d + 8k^2 + 8k + 16` plus the penalty operations of one group
/// ([`CutDuals::path_terms`]). Proof: proofs/P09, "The least reduced cost of one search": a
/// decision taken on a computed value can be wrong only for a group whose exact value is below
/// the incumbent (<= 0), and then the terms of that value add up to at most `3Y`, so neither
/// the largest distance nor `n` enters (unlike [`rc_margin`], which also covers the sums over
/// anchors of proofs/P20 and stays the margin there).
pub fn least_rc_margin(geo: &Geometry, y: &[f64], d: usize, cuts: &CutDuals) -> f64 {
    let k = geo.k;
    let top = sum_largest_abs(y, 2 * k);
    let ops = (3 * d + 8 * k * k + 8 * k + 16 + cuts.path_terms(2 * k)) as f64;
    4.0 * ops * UNIT_ROUNDOFF * top
}

/// [`lagrangian_with_cuts`] for a pricing bound `rc_lb` proven by one search with a shared
/// incumbent and the weak bound, with the margin [`least_rc_margin`].
pub(crate) fn least_rc_lagrangian(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    groups_max: usize,
    rc_lb: f64,
) -> f64 {
    let eps = least_rc_margin(geo, y, d, cuts);
    rounded_with_cuts(y, cuts, groups_max, rc_lb, eps)
}

/// The Lagrangian bound proven by record duals `y` and cuts `cuts` (whose weights are the
/// negated cut duals) for a proven pricing bound `rc_lb` (<= 0): P14's `sum y + sum sigma b +
/// floor(n/k) rc_lb` (`b` the cuts' right sides, P21), rounded outward. The dual sum is taken
/// over the concatenation of `y` and `sigma`, so P09's rounding margin covers both.
pub(crate) fn lagrangian_with_cuts(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    groups_max: usize,
    rc_lb: f64,
) -> f64 {
    let eps = rc_margin(geo, y, d, cuts);
    rounded_with_cuts(y, cuts, groups_max, rc_lb, eps)
}

/// [`lagrangian_rounded`] over the record duals `y` followed by the cut duals `sigma`, each
/// repeated right-side times ([`CutDuals::rhs_terms`]; one dual sum, so P09's rounding
/// margin covers both); `y` alone when there are no cuts.
pub(crate) fn rounded_with_cuts(
    y: &[f64],
    cuts: &CutDuals,
    groups_max: usize,
    rc_lb: f64,
    eps_rc: f64,
) -> f64 {
    if cuts.is_empty() {
        return lagrangian_rounded(y, groups_max, rc_lb, eps_rc);
    }
    let mut all = y.to_vec();
    all.extend(cuts.rhs_terms());
    lagrangian_rounded(&all, groups_max, rc_lb, eps_rc)
}
