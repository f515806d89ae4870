//! # Phase: re-certify at smaller anchor thresholds
//!
//! The best cut-free point re-certified at the thresholds `tau` times 0.4, 0.16, ... while
//! each check completes and raises the value ([`subgrad::tighten`], proofs/P20). The point
//! stays; its value and threshold change. Needs the line search.
//!
//! ## Complexity
//! See [`subgrad::tighten`](mod@subgrad::tighten).
//!
//! ## References
//! proofs/P20.

use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::subgrad;
use super::super::ColgenError;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    if state.segment.is_none() {
        return Ok(());
    }
    let Some(y) = state.cut_free_centre() else {
        return Ok(());
    };
    let tau = state.out.anchor_threshold;
    let tight = subgrad::tighten(&state.geo, state.d, &y, tau, budget.until, obs);
    let out = &mut state.out;
    out.exact_calls += tight.checks;
    if tight.value > out.lagrangian {
        out.lagrangian = tight.value;
        out.anchor_threshold = tight.tau;
        out.last_pricing_gap = tight.value - y.iter().sum::<f64>();
        obs.certified(tight.value, "tighten");
    }
    Ok(())
}
