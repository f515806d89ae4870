//! # Phase: box-step ascent on the anchored bound
//!
//! From the best point so far (the nn duals when there is none), the box-step ascent of
//! [`subgrad::ascend`], its candidates certified by per-anchor exact pricing at the anchor
//! threshold (proofs/P20).
//!
//! ## Complexity
//! See [`subgrad::box_step`].
//!
//! ## References
//! Marsten, Hogan and Blankenship (1975), see [`subgrad::box_step`].

use super::super::ascent;
use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::subgrad;
use super::super::ColgenError;
use std::time::Instant;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let t = Instant::now();
    let n = state.n;
    let y_start =
        (state.centre.as_ref()).map_or_else(|| ascent::nn_duals(&state.geo), |c| c[..n].to_vec());
    let sg_opts = subgrad::SubgradOptions {
        threshold: state.opts.anchor_threshold,
        ..Default::default()
    };
    let asc = subgrad::ascend(
        &state.geo,
        state.d,
        &y_start,
        state.ub,
        &state.best_start,
        &sg_opts,
        budget.until,
        obs,
    );
    state.take_ascent(asc, "subgradient", obs);
    state.out.exact_seconds += t.elapsed().as_secs_f64();
    Ok(())
}
