//! # Phase: certified Wentges smoothing
//!
//! From the certified centre (it needs one: after the nn line search or the box ascent),
//! every smoothed point `alpha y_centre + (1 - alpha) y_LP` is certified by per-anchor exact
//! pricing at the anchor threshold, its negative groups enter the master, a better value
//! moves the centre ([`smoothing::certified_smoothing`], proofs/P20). When it runs it
//! replaces the heuristic column generation.
//!
//! ## Complexity
//! Per iteration one master solve and one certified check.
//!
//! ## References
//! Wentges (1997); Pessoa, Sadykov, Uchoa and Vanderbeck (2018), see [`smoothing`].

use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::smoothing;
use super::super::state::ColgenState;
use super::super::ColgenError;
use std::time::Instant;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let Some(c) = state.cut_free_centre() else {
        return Ok(());
    };
    let opts = state.opts;
    let params = smoothing::SmoothingParams {
        alpha: opts.smoothing,
        auto: opts.auto_smoothing,
        tau: state.tau,
        tol: opts.tol,
        max_columns: state.cap,
        box_delta: state.boxed.then(|| state.delta.clone()),
        stop_early: opts.stop_early,
    };
    let t = Instant::now();
    let (x, d) = (state.x, state.d);
    let cost = |g: &[u32]| super::super::state::group_cost(x, d, g);
    let sm = smoothing::certified_smoothing(
        &state.geo,
        d,
        &mut state.master,
        &mut state.known,
        &cost,
        &c,
        state.out.lagrangian,
        &params,
        budget.until,
        obs,
    )
    .map_err(ColgenError::Lp)?;
    let out = &mut state.out;
    out.iterations += sm.trace.len();
    out.exact_calls += sm.trace.len();
    out.lp_seconds += sm.lp_seconds;
    out.exact_seconds += t.elapsed().as_secs_f64() - sm.lp_seconds;
    if let Some(&(_, lp, _, _, _)) = sm.trace.last() {
        out.lp_value = lp;
    }
    obs.detail(format_args!(
        "colgen: {:7.1} s  certified smoothing: bound {:.6} ({} iterations, {} columns)",
        state.start.elapsed().as_secs_f64(),
        sm.lower_bound,
        sm.trace.len(),
        sm.columns_added
    ));
    let tau = state.tau;
    if state.take(
        sm.lower_bound,
        sm.duals.clone(),
        tau,
        "certified smoothing",
        obs,
    ) && state.boxed
    {
        state.box_centre.clone_from(&sm.duals);
    }
    state.last_y = sm.duals;
    state.smoothed = !state.last_y.is_empty();
    Ok(())
}
