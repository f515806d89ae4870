//! # Phase: line search from the nn duals
//!
//! From the nn duals along the best start partition's slacks ([`ascent::line_search`],
//! proofs/P20 for the anchored values it certifies); its best point becomes the stability
//! centre and, with a box, the box's centre.
//!
//! ## Complexity
//! At most 40 certified points, each one exact pricing within the budget.
//!
//! ## References
//! studies/study-colgen.txt section 8.

use super::super::ascent;
use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::ColgenError;
use std::time::Instant;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let t = Instant::now();
    let y0 = ascent::nn_duals(&state.geo);
    let h = ascent::slack_direction(state.x, state.d, &state.best_start, &y0);
    let found = ascent::line_search(
        &state.geo,
        state.d,
        &y0,
        &h,
        0.05,
        1.3,
        4,
        40,
        budget.until,
        0.0,
    );
    if let Some(ls) = found {
        state.out.exact_calls += ls.trace.len();
        obs.detail(format_args!(
            "colgen: {:7.1} s  nn line search: bound {:.6} at t = {:.4} ({} points)",
            state.start.elapsed().as_secs_f64(),
            ls.lower_bound,
            ls.step,
            ls.trace.len()
        ));
        if state.take(ls.lower_bound, ls.duals, 0.0, "nn line search", obs) && state.boxed {
            // The box (box step) around the certified point, not the nn duals.
            let centre = state.centre.as_ref().expect("taken");
            state.box_centre.clone_from(centre);
            state
                .master
                .set_box(&state.box_centre, &state.delta)
                .map_err(ColgenError::Lp)?;
        }
    }
    state.out.exact_seconds += t.elapsed().as_secs_f64();
    Ok(())
}
