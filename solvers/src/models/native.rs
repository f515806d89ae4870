//! # The set-partitioning MIP written directly on `highs` (reference)
//!
//! The pool MIP as the workbench wrote it before the models moved to good_lp
//! ([`super::set_partition`]): a HiGHS `ColProblem` with one integer column per group and
//! one equality row per record, the same options, start and interrupt callback. Kept only so
//! that tests can check that the good_lp model gives HiGHS the same problem (same values,
//! status and node count); no product path calls it.
//!
//! ## Complexity
//! As [`super::set_partition`].
//!
//! ## References
//! See [`super::set_partition`].

use super::{MipOutcome, MipRun, MipStatus};
use crate::bounds::colgen::master::stop_when_set;
use crate::error::set_highs_option;
use crate::SolverError;
use highs::{ColProblem, HighsModelStatus, Model, Sense};

/// The pool MIP of [`super::set_partition::solve_pool_mip`] on HiGHS' own API.
pub fn pool_mip_highs(
    n: usize,
    columns: &[&[u32]],
    costs: &[f64],
    start: Option<&[usize]>,
    run: &MipRun,
) -> Result<MipOutcome, SolverError> {
    let mut pb = ColProblem::default();
    let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
    for (g, &c) in columns.iter().zip(costs) {
        let factors: Vec<_> = g.iter().map(|&i| (rows[i as usize], 1.0)).collect();
        pb.add_integer_column(c, 0.0..=1.0, factors);
    }
    let mut model = Model::try_new(pb)
        .map_err(|s| SolverError::backend(format!("could not load the pool MIP: {s:?}")))?;
    model.make_quiet();
    model.set_sense(Sense::Minimise);
    set_highs_option(&mut model, "mip_rel_gap", 0.0)?;
    set_highs_option(&mut model, "mip_abs_gap", 0.0)?;
    if let Some(t) = run.time_limit {
        set_highs_option(&mut model, "time_limit", t.max(0.01))?;
    }
    if let Some(chosen) = start {
        let mut initial = vec![0.0; columns.len()];
        chosen.iter().for_each(|&c| initial[c] = 1.0);
        model
            .try_set_solution(Some(&initial), None, None, None)
            .map_err(|s| SolverError::backend(format!("starting solution: {s:?}")))?;
    }
    if let Some(flag) = run.interrupt {
        let data = flag as *const std::sync::atomic::AtomicBool as *mut std::os::raw::c_void;
        // SAFETY: as in the models' HiGHS driver: the flag outlives the model.
        unsafe {
            highs_sys::Highs_setCallback(model.as_mut_ptr(), Some(stop_when_set), data);
            highs_sys::Highs_startCallback(
                model.as_mut_ptr(),
                highs_sys::kHighsCallbackMipInterrupt,
            );
        }
    }
    let solved = model
        .try_solve()
        .map_err(|s| SolverError::backend(format!("pool MIP failed: {s:?}")))?;
    let status = match solved.status() {
        HighsModelStatus::Optimal => MipStatus::Optimal,
        HighsModelStatus::ReachedTimeLimit => MipStatus::TimeLimit,
        HighsModelStatus::ReachedInterrupt => MipStatus::Interrupted,
        s => MipStatus::Other(format!("{s:?}")),
    };
    let mut v: i64 = -1;
    // SAFETY: live instance, NUL-terminated name, valid out-parameter.
    let info = unsafe {
        highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut v)
    };
    let values = solved.get_solution().columns().to_vec();
    Ok(MipOutcome {
        values: if values.len() == columns.len() {
            values
        } else {
            Vec::new()
        },
        status,
        nodes: (info != highs_sys::STATUS_ERROR && v >= 0).then_some(v),
    })
}
