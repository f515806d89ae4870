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
use super::super::subgrad::{self, GroupPool};
use super::super::ColgenError;
use super::push_project::projection;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    if state.segment.is_none() {
        return Ok(());
    }
    let centre = state.cut_free_centre();
    let (geo, columns) = (&state.geo, &state.master.columns);
    let pool = state
        .pool
        .get_or_insert_with(|| GroupPool::seeded(geo, columns));
    let Some(y) = centre else {
        return Ok(());
    };
    let asc = subgrad::slack_push(
        geo,
        state.x,
        state.d,
        (&y, state.out.lagrangian),
        &state.best_start,
        pool,
        projection(state.opts.lp_projection),
        state.tau,
        state.opts.stop_early,
        budget.until,
        obs,
    );
    state.take_ascent(asc, "slack push", obs);
    Ok(())
}
