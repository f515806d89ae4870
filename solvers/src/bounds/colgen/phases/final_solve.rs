//! # Phase: the final master solve
//!
//! When column generation ended without converging and time is left, the master is solved
//! once more and its duals (record duals, then cut duals; the last duals when the solve
//! fails) become the point the final phases start from. Without it, the final phases do
//! nothing. This solve also runs when column generation had no time at all (the phases
//! before it used the main share, as the nn line search does at short time limits): the
//! master over the start columns then gives the final phases their direction, so they use
//! the rest of the run instead of ending it.
//!
//! ## Complexity
//! One master solve.
//!
//! ## References
//! None.

use super::super::master::{Master, MasterSolution};
use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::ColgenError;
use std::time::Instant;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    _obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let until = budget.until;
    let never_solved = state.out.iterations == 0 && !state.smoothed;
    if (state.last_y.is_empty() && !never_solved) || state.out.converged || until.passed() {
        return Ok(());
    }
    let t = Instant::now();
    let sol = state
        .master
        .solve_stoppable(until.seconds_left(), state.interrupt);
    state.out.lp_seconds += t.elapsed().as_secs_f64();
    let y_final = match solved_or_noted(&state.master, sol, &mut state.out.lp_error) {
        Some(sol) => {
            state.out.lp_value = sol.value;
            let mut y = sol.duals;
            y.extend(sol.cut_duals);
            y
        }
        None => std::mem::take(&mut state.last_y),
    };
    if !y_final.is_empty() {
        state.y_final = Some(y_final);
    }
    Ok(())
}

/// The solution of a master solve, or `None` after its time limit or a failure (the
/// bound never rests on the LP, proofs/P09: the caller keeps what it certified so far);
/// a failure's cause goes to `error`.
pub(crate) fn solved_or_noted(
    master: &Master,
    solved: Result<Option<MasterSolution>, String>,
    error: &mut Option<String>,
) -> Option<MasterSolution> {
    match solved {
        Ok(Some(sol)) => Some(sol),
        Ok(None) => {
            if let Some(why) = master.failure() {
                *error = Some(why.to_string());
            }
            None
        }
        Err(e) => {
            *error = Some(e);
            None
        }
    }
}
