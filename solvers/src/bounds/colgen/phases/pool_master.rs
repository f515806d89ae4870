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
    let settings = pool_master::PoolMasterSettings {
        tau: state.tau,
        max_rounds: usize::MAX,
        deadline: budget.until,
        moving_centre: state.opts.pool_master_moving_centre,
        ipm: false,
    };
    let Some(p) = state.pooled_start() else {
        return Ok(());
    };
    let start = (&p.y[..], p.value);
    match pool_master::pool_master_push(p.geo, p.x, p.d, start, p.groups, p.pool, settings, obs) {
        Ok(run) => state.take_ascent(run.ascent, "pool master", obs),
        Err(e) => obs.warning(format_args!("colgen: pool master failed, bound kept: {e}")),
    }
    Ok(())
}
