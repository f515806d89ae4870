//! # Phase: line search toward the master's duals
//!
//! From the best certified point toward the final master duals, clipped to `[0, 4 max]` (a
//! few extreme components of a degenerate master would otherwise dominate the direction,
//! study-colgen.txt 9), certified at the anchor threshold ([`ascent::line_search`],
//! proofs/P20). Its direction, step and best point are what push-and-project continues.
//! Needs a cut-free best point and final duals.
//!
//! ## Complexity
//! At most 12 certified points, each one exact pricing within the budget.
//!
//! ## References
//! studies/study-colgen.txt section 9.

use super::super::ascent;
use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::{ColgenState, Segment};
use super::super::ColgenError;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let n = state.n;
    let Some(y_final) = state.y_final.as_ref().filter(|y| y.len() == n) else {
        return Ok(());
    };
    let Some(from) = state.cut_free_centre() else {
        return Ok(());
    };
    let cap = 4.0 * from.iter().copied().fold(0.0, f64::max);
    let h: Vec<f64> = y_final
        .iter()
        .zip(&from)
        .map(|(a, b)| a.clamp(0.0, cap) - b)
        .collect();
    let (geo, d, tau) = (&state.geo, state.d, state.tau);
    let Some(ls) = ascent::line_search(geo, d, &from, &h, 0.02, 2.0, 3, 12, budget.until, tau)
    else {
        return Ok(());
    };
    state.out.exact_calls += ls.trace.len();
    obs.detail(format_args!(
        "colgen: {:7.1} s  line search toward the master duals: bound {:.6} at {:.4} ({:?})",
        state.start.elapsed().as_secs_f64(),
        ls.lower_bound,
        ls.step,
        ls.trace
    ));
    state.take(ls.lower_bound, ls.duals.clone(), tau, "line search", obs);
    state.segment = Some(Segment {
        from,
        h,
        step: ls.step,
        duals: ls.duals,
        lower_bound: ls.lower_bound,
    });
    Ok(())
}
