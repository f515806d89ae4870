//! # Lower bounds on the optimal SSE
//!
//! Every bound here is a value `LB` with `LB <= SSE(P)` for every feasible partition `P`
//! (all groups of at least `k` records) of the given data, rounded outward (down) so that the
//! inequality holds for the floating-point data as stored, not only in exact arithmetic.
//!
//! - [`nn`]: the nearest-neighbour bound, `sum_i NN_{k-1}(i) / (2k)` (proof:
//!   `proofs/P06-nn-bound.md`). O(n^2 d) time by scan, or O(n k) from k-nearest lists a
//!   caller computed (`nn_bound_from_lists`, e.g. from a kd-tree); O(n) extra memory.
//! - [`nn_weighted`]: the weighted nearest-neighbour bound on the weighted SSE (sampling
//!   weights, groups of at least k records), `sum_i (w_i / 2) lambda_i` with each
//!   `lambda_i` a certified minimum ratio (proof: `proofs/P41-weighted-nn-bound.md`).
//!   O(n^2 d) by scan, or O(n m d) from m-nearest lists.
//! - [`colgen`]: the column generation (Lagrangian) bound over groups of `k..2k-1` records
//!   (proof: `proofs/P09-lagrangian-bound.md`). HiGHS master, O(n^2) memory.
//! - [`colgen_weighted`]: the column generation bound on the weighted SSE (sampling weights,
//!   groups of `k..2k-1` records), medoid-anchored with the weighted star bound (proof:
//!   `proofs/P43-weighted-lagrangian-bound.md`). HiGHS master, O(n d) memory besides it.
//!
//! - [`local_lagrangian`]: the anchored Lagrangian bound for given duals, priced by exact
//!   searches on local sets of spatial blocks (proof: `proofs/P23-local-pricing.md`), for
//!   any number of records. O(max local set^2) memory.
//!
//! ## References
//! See each module.

pub mod colgen;
pub mod colgen_weighted;
pub mod local_lagrangian;
pub mod nn;
pub mod nn_raised;
pub mod nn_weighted;

pub use colgen::verify::{
    regions_cover, tree_covers, verify_lagrangian, verify_lagrangian_anchored,
    verify_lagrangian_anchored_at, verify_lagrangian_anchored_claim, verify_lagrangian_cuts,
    verify_node_bound, LeafRegion, VerifiedBound,
};
pub use colgen::{colgen_bound, verifiable_claim, ColgenBound, ColgenError, ColgenOptions};
pub use nn::{nn_bound, NnBound};

/// Unit roundoff of `f64` (half the machine epsilon).
pub(crate) const UNIT_ROUNDOFF: f64 = f64::EPSILON / 2.0;

/// Round a computed nonnegative sum down so that it lower-bounds the exact value it
/// approximates, when the computation involved at most `ops` roundings, each with relative
/// error at most the unit roundoff `u`, applied to nonnegative terms (so the computed value is
/// at most `(1 + u)^ops` times the exact one). Then `exact >= computed / (1 + u)^ops >=
/// computed * (1 - ops u)`; twice the margin and one `next_down` absorb the roundings of this
/// correction itself. See `proofs/P10-outward-rounding.md`.
pub fn round_down_sum(computed: f64, ops: usize) -> f64 {
    debug_assert!(computed >= 0.0);
    if computed <= 0.0 {
        return 0.0;
    }
    let margin = 2.0 * ops as f64 * UNIT_ROUNDOFF;
    let lowered = computed * (1.0 - margin);
    lowered.next_down().max(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_down_lowers_and_keeps_sign() {
        let v = round_down_sum(1.0, 10);
        assert!(v < 1.0 && v > 1.0 - 1e-14);
        assert_eq!(round_down_sum(0.0, 10), 0.0);
    }
}
