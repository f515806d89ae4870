//! # Phase: the pool master
//!
//! An unboxed restricted master grown from the best cut-free point's negative groups, whose
//! midpoints with that point are certified ([`pool_master::pool_master_push`]). A HiGHS
//! failure here leaves the bound as it stands and is reported as a warning. Needs the line
//! search.
//!
//! ## Complexity
//! See [`pool_master`].
//!
//! ## References
//! Wentges (1997), see [`pool_master`].

use super::super::observer::ColgenObserver;
use super::super::pool_master;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::ColgenError;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let Some(y) = state.pooled_centre() else {
        return Ok(());
    };
    let geo = &state.geo;
    let pool = state.pool.as_mut().expect("seeded by pooled_centre");
    let settings = pool_master::PoolMasterSettings {
        tau: state.tau,
        max_rounds: usize::MAX,
        deadline: budget.until,
        moving_centre: state.opts.pool_master_moving_centre,
        ipm: false,
    };
    let start = (&y[..], state.out.lagrangian);
    let (x, d) = (state.x, state.d);
    match pool_master::pool_master_push(geo, x, d, start, &state.best_start, pool, settings, obs) {
        Ok(run) => state.take_ascent(run.ascent, "pool master", obs),
        Err(e) => obs.warning(format_args!("colgen: pool master failed, bound kept: {e}")),
    }
    Ok(())
}
