//! # A round of subset-row cuts
//!
//! Once pricing proved the master converged (with the cuts so far), the record triples `C`
//! whose cut `sum_S floor(|S ∩ C| / 2) x_S <= 1` the master solution violates are added as
//! rows ([`cuts::separate`], at most `cuts_per_round`, a record in at most
//! [`CUTS_PER_RECORD`] new cuts) and column generation resumes (proofs/P14: every bound
//! before, during and after the rounds is valid). Run by the column generation phase at
//! each convergence while rounds are left.
//!
//! ## Complexity
//! One pass of [`cuts::separate`] over the master's fractional columns.
//!
//! ## References
//! Jepsen, Petersen, Spoorendonk and Pisinger (2008).

use super::super::cuts;
use super::super::master::MasterSolution;
use super::super::observer::ColgenObserver;
use super::super::state::ColgenState;
use super::super::ColgenError;
use crate::deadline::Deadline;
use std::collections::HashSet;

/// A record takes part in at most this many new cuts per round (spreads the cuts).
pub const CUTS_PER_RECORD: usize = 3;

/// Whether a round is due: rounds left and time left in the phase.
pub fn due(state: &ColgenState, until: Deadline) -> bool {
    state.out.cut_rounds < state.opts.cut_rounds && !until.passed()
}

/// Separate and add the violated cuts of the converged master solution `sol`; false when
/// none is violated.
pub fn run(
    state: &mut ColgenState,
    sol: &MasterSolution,
    obs: &mut dyn ColgenObserver,
) -> Result<bool, ColgenError> {
    let opts = state.opts;
    let master = &mut state.master;
    let existing: HashSet<[u32; 3]> = master
        .cuts
        .iter()
        .filter_map(cuts::Cut::as_triple)
        .collect();
    let found = cuts::separate(
        state.n,
        &master.columns,
        &sol.primal,
        &existing,
        opts.cuts_per_round,
        CUTS_PER_RECORD,
        opts.cut_violation,
    );
    if found.is_empty() {
        return Ok(false);
    }
    let triples: Vec<[u32; 3]> = found.iter().map(|(t, _)| *t).collect();
    master.add_cuts(&triples).map_err(ColgenError::Lp)?;
    state.out.cut_rounds += 1;
    state.out.cuts += triples.len();
    obs.detail(format_args!(
        "colgen: {:7.1} s  cut round {}: LP {:.6}, {} violated cuts added (max left side \
         {:.4}), {} cuts in all",
        state.start.elapsed().as_secs_f64(),
        state.out.cut_rounds,
        sol.value,
        triples.len(),
        found[0].1,
        master.cuts.len()
    ));
    Ok(true)
}
