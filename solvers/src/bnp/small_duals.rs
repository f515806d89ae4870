//! # Duals of small magnitude at a node
//!
//! The rounding margins of a Lagrangian bound (P09 "Floating point") are relative to the
//! duals' magnitude, not to the bound. When a node's master returns duals that offset each
//! other (two far-apart clusters with a tiny spread: record duals summing to 2e4 against cut
//! duals of -2e4 for an LP value of 7e-6), those margins are 1e-3 of the optimum and no node
//! can be pruned although the LP value may equal the optimum. Such an LP has other optimal
//! duals. The node's master is boxed around 0 (its artificial columns, P17 section 2); the
//! box's half-width `M` is the largest `|y_i|` it allows. When the duals cancel by more than
//! [`CANCELLATION`], the node shrinks `M` to [`half_width`] of the LP value and goes on with
//! its column generation: the duals are then no larger than `M`, and the cut duals have
//! nothing large to offset. Where the small box binds (artificials left in a converged
//! solution), the node's usual rule multiplies `M` by 16. Every bound met on the way is a
//! Lagrangian bound like any other (P17 Claim 1 holds for every `y`; P17 "Small duals").
//!
//! The CASC masters cancel by about 1, so their runs do not change.
//!
//! ## Complexity
//! O(n + cuts) for the test ([`should_shrink`]); the shrunk box costs the master re-solves
//! and pricing calls of the column generation that follows.

/// Shrink the box when `sum |y| + sum |sigma|` exceeds the LP value's magnitude by more than
/// this factor. The margins are a few hundred units of roundoff times the duals' magnitude,
/// so below this ratio they stay far under the proof tolerance 1e-9.
const CANCELLATION: f64 = 1e3;

/// No shrinking below this (scaled) LP value: a box of half-width 2e-12 would be far below
/// HiGHS' absolute tolerances (1e-9), so its artificials would cost nothing. Such a value
/// means a start far above the optimum, which the search again at the incumbent's scale
/// handles (`RESCALE`, P17 "A start far above the optimum").
const LEAST_LP_VALUE: f64 = 1e-12;

/// True when the duals' magnitude exceeds the (scaled) LP value by more than
/// [`CANCELLATION`] and that value is not too small for a box around it.
pub(super) fn should_shrink(y: &[f64], sigma: &[f64], lp_value: f64) -> bool {
    let magnitude: f64 = y.iter().chain(sigma).map(|v| v.abs()).sum();
    lp_value > LEAST_LP_VALUE && magnitude > CANCELLATION * lp_value
}

/// The shrunk box's half-width: twice the LP value, so that duals sharing the value among
/// the records fit in it.
pub(super) fn half_width(lp_value: f64) -> f64 {
    2.0 * lp_value
}
