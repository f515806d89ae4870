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

use super::solver::{highs_node_count, mip_status, set_exact_gap_and_limit, watch_interrupt};
use super::{MipOutcome, MipRun};
use crate::SolverError;
use highs::{ColProblem, Model, Sense};

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
    set_exact_gap_and_limit(&mut model, run)?;
    if let Some(chosen) = start {
        let mut initial = vec![0.0; columns.len()];
        chosen.iter().for_each(|&c| initial[c] = 1.0);
        model
            .try_set_solution(Some(&initial), None, None, None)
            .map_err(|s| SolverError::backend(format!("starting solution: {s:?}")))?;
    }
    watch_interrupt(&mut model, run);
    let solved = model
        .try_solve()
        .map_err(|s| SolverError::backend(format!("pool MIP failed: {s:?}")))?;
    let status = mip_status(solved.status());
    let values = solved.get_solution().columns().to_vec();
    Ok(MipOutcome {
        values: if values.len() == columns.len() {
            values
        } else {
            Vec::new()
        },
        status,
        nodes: highs_node_count(&solved),
    })
}
