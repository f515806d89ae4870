//! # Phase: push-and-project along the line search's direction
//!
//! From the best certified point of the line search (its start when it did not improve)
//! along the same direction, a quarter of its step first ([`subgrad::push_project`]: each
//! candidate projected onto the master's columns and the negative groups met, then
//! certified). Needs the line search.
//!
//! ## Complexity
//! See [`subgrad::push_project`](mod@subgrad::push_project).
//!
//! ## References
//! Agmon (1954), see [`subgrad::pool`].

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
    let Some(seg) = state.segment.as_ref() else {
        return Ok(());
    };
    if state.deadline.passed() {
        return Ok(());
    }
    let best_y = if seg.lower_bound >= state.out.lagrangian {
        &seg.duals
    } else {
        &seg.from
    };
    let asc = subgrad::push_project(
        &state.geo,
        state.d,
        best_y,
        &seg.h,
        seg.step / 4.0,
        state.tau,
        &state.master.columns,
        projection(state.opts.lp_projection),
        0.5,
        state.opts.stop_early,
        budget.until,
        obs,
    );
    state.take_ascent(asc, "push-project", obs);
    Ok(())
}

/// How the final ascents project a candidate (`lp_projection`: the covering LP).
pub(super) fn projection(lp_projection: bool) -> subgrad::Projection {
    if lp_projection {
        subgrad::Projection::LeastLowering
    } else {
        subgrad::Projection::Cyclic
    }
}
