//! # Phase: the final evaluations
//!
//! With the time left, the Lagrangian bound by exact pricing (never stopped early) at the
//! final master duals, then at the last separation point. Needs the final solve.
//!
//! ## Complexity
//! At most two exact pricing searches.
//!
//! ## References
//! proofs/P09.

use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::ColgenError;

pub fn run(
    state: &mut ColgenState,
    budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    let Some(y_final) = state.y_final.take() else {
        return Ok(());
    };
    let until = budget.until;
    state.evaluate(&y_final, until, usize::MAX, obs);
    if let Some(p) = state.y_sep_prev.clone() {
        if !until.passed() {
            state.evaluate(&p, until, usize::MAX, obs);
        }
    }
    state.detail_line(0, obs);
    Ok(())
}
