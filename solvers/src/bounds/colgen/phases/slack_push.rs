//! # Phase: push-and-project along the start partition's slacks
//!
//! Push-and-project restarted from the best cut-free point along the slack direction of
//! the best start partition, recomputed after each round ([`subgrad::slack_push`]). Its
//! pool starts with the master's columns and keeps the negative groups met, for the pool
//! master after it. Needs the line search.
//!
//! ## Complexity
//! See [`subgrad::slack_push`](mod@subgrad::slack_push).
//!
//! ## References
//! studies/study-colgen.txt 18-slack.

use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::subgrad;
use super::super::ColgenError;
use super::push_project::projection;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let (tau, stop_early) = (state.tau, state.opts.stop_early);
    let projection = projection(state.opts.lp_projection);
    let Some(p) = state.pooled_start() else {
        return Ok(());
    };
    let asc = subgrad::slack_push(
        p.geo,
        p.x,
        p.d,
        (&p.y, p.value),
        p.groups,
        p.pool,
        projection,
        tau,
        stop_early,
        budget.until,
        obs,
    );
    state.take_ascent(asc, "slack push", obs);
    Ok(())
}
