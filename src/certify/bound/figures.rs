//! # Bound figures
//!
//! The IL of a lower bound and the gap of a solution to it, in a file of their own so that
//! the branch-and-price driver ([`crate::bnp`]) reports them without importing the registry
//! that calls it. O(1) each.

use crate::data::Instance;

/// The IL of a lower bound on the SSE, rounded down (one ulp) so it stays a lower bound.
pub fn il_lower_bound(inst: &Instance, lower_bound: f64) -> f64 {
    il_lower_bound_of(lower_bound, inst.sst)
}

/// [`il_lower_bound`] against a given total sum of squares (the weighted SST for weighted
/// bounds): `100 lb / sst`, rounded down one ulp, never negative.
pub(crate) fn il_lower_bound_of(lower_bound: f64, sst: f64) -> f64 {
    (100.0 * lower_bound / sst).next_down().max(0.0)
}

/// Gap of a solution to a lower bound, in percent of the bound: `100 (sse - lb) / lb`.
/// Zero when the solution is proven optimal; `None` when the bound is zero (no relative
/// statement is possible). A negative gap is kept as is: it would expose an invalid bound.
pub fn gap_percent(sse: f64, lower_bound: f64) -> Option<f64> {
    if lower_bound > 0.0 {
        Some(100.0 * (sse - lower_bound) / lower_bound)
    } else {
        None
    }
}
