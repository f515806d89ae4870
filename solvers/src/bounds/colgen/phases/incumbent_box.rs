//! # Phase: the dual box from the incumbent
//!
//! Places the full master's du Merle box around the incumbent's dual estimates
//! ([`super::super::incumbent_box`]): record `i`'s box is `[lo_i, hi_i]` (centre their
//! midpoint, half-width half their difference, at least a millionth of the mean |centre|
//! so that widening moves it), instead of the uniform box around the nn duals. The column
//! generation then moves the centre to every better certified point and doubles the
//! half-widths when the box binds at convergence, as with the uniform box. Needs the
//! boxed master (`box_width > 0`, checked with the options).
//!
//! ## Complexity
//! O(n g d) for `g` incumbent groups, one change of the box costs.
//!
//! ## References
//! Sudoso and Aloise (2025); du Merle et al. (1999).

use super::super::incumbent_box::{box_of, dual_brackets};
use super::super::observer::ColgenObserver;
use super::super::schedule::PhaseBudget;
use super::super::state::ColgenState;
use super::super::ColgenError;

pub fn run(
    state: &mut ColgenState,
    _budget: PhaseBudget,
    obs: &mut dyn ColgenObserver,
) -> Result<(), ColgenError> {
    if !state.boxed {
        return Ok(());
    }
    let b = dual_brackets(state.x, state.n, state.d, &state.best_start);
    let (centre, delta, scale) = box_of(&b);
    state.box_centre = centre;
    state.delta = delta;
    let (master, c, delta) = (&mut state.master, &state.box_centre, &state.delta);
    master.set_box(c, delta).map_err(ColgenError::Lp)?;
    let mean = state.delta.iter().sum::<f64>() / state.n as f64;
    obs.detail(format_args!(
        "colgen: box from the incumbent: mean centre {scale:.6}, mean half-width {mean:.6}"
    ));
    Ok(())
}
