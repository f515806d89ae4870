//! # The set-partitioning master
//!
//! The master problem of [`super`] over a list of group masks, solved as an LP on HiGHS
//! (with the duals that pricing needs) or as a MIP (a heuristic upper bound) through the
//! one-shot set-partitioning model ([`crate::models::set_partition`]) with the chosen MIP
//! solver, and the partition of an integral solution.
//!
//! ## Complexity
//! One HiGHS solve over `masks.len()` columns and n rows; [`chosen`] O(columns + n).
//!
//! ## References
//! See [`super`].

use super::super::masks::{bits, labels_of_masks};
use crate::error::set_highs_option;
use crate::models::{set_partition, MipRun, MipSolver, MipStatus};
use crate::SolverError;
use highs::{ColProblem, HighsModelStatus, Model, Sense};

/// The master over `masks` (costs `costs`) solved as an LP (duals returned) or a MIP.
pub(super) struct MasterSolution {
    pub(super) objective: f64,
    pub(super) values: Vec<f64>,
    pub(super) duals: Vec<f64>,
    pub(super) optimal: bool,
    pub(super) mip_nodes: i64,
}

/// Solve the master's LP relaxation on HiGHS (simplex, with the duals pricing needs).
///
/// HiGHS sees the costs multiplied by `cost_scale` (a power of two, chosen by the caller so
/// that the objective is about n: HiGHS' tolerances are absolute); the objective and duals are
/// returned on the callers' scale (exact divisions).
pub(super) fn solve_master_lp(
    n: usize,
    masks: &[u64],
    costs: &[f64],
    time_left: Option<f64>,
    cost_scale: f64,
) -> Result<MasterSolution, SolverError> {
    let mut pb = ColProblem::default();
    let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
    for (&m, &c) in masks.iter().zip(costs) {
        let factors: Vec<_> = bits(m).map(|i| (rows[i], 1.0)).collect();
        pb.add_column(c * cost_scale, 0.0.., factors);
    }
    let mut model = Model::try_new(pb)
        .map_err(|s| SolverError::backend(format!("could not load the master: {s:?}")))?;
    model.make_quiet();
    model.set_sense(Sense::Minimise);
    set_highs_option(&mut model, "solver", "simplex")?;
    set_highs_option(&mut model, "dual_feasibility_tolerance", 1e-9)?;
    set_highs_option(&mut model, "primal_feasibility_tolerance", 1e-9)?;
    if let Some(t) = time_left {
        set_highs_option(&mut model, "time_limit", t.max(0.01))?;
    }
    let solved = model
        .try_solve()
        .map_err(|s| SolverError::backend(format!("run failed: {s:?}")))?;
    let status = solved.status();
    let optimal = status == HighsModelStatus::Optimal;
    let sol = solved.get_solution();
    let values = sol.columns().to_vec();
    if values.len() != masks.len() || !optimal {
        return Err(SolverError::backend(format!("master status {status:?}")));
    }
    Ok(MasterSolution {
        objective: solved.objective_value() / cost_scale,
        duals: sol.dual_rows().iter().map(|v| v / cost_scale).collect(),
        values,
        optimal,
        mip_nodes: 0,
    })
}

/// The master as a MIP (a heuristic: no start, the solver's best solution on its time
/// limit); `mip_nodes` is -1 where the solver does not say.
pub(super) fn solve_master_mip(
    n: usize,
    masks: &[u64],
    costs: &[f64],
    time_left: Option<f64>,
    cost_scale: f64,
    solver: MipSolver,
) -> Result<MasterSolution, SolverError> {
    let members: Vec<Vec<u32>> = masks
        .iter()
        .map(|&m| bits(m).map(|i| i as u32).collect())
        .collect();
    let columns: Vec<&[u32]> = members.iter().map(Vec::as_slice).collect();
    let scaled: Vec<f64> = costs.iter().map(|c| c * cost_scale).collect();
    let run = MipRun {
        time_limit: time_left,
        interrupt: None,
    };
    let out = set_partition::solve_pool_mip(n, &columns, &scaled, None, solver, &run)?;
    let usable = matches!(out.status, MipStatus::Optimal | MipStatus::TimeLimit);
    if out.values.len() != masks.len() || !usable {
        return Err(SolverError::backend(format!(
            "master status {:?}",
            out.status
        )));
    }
    Ok(MasterSolution {
        objective: scaled
            .iter()
            .zip(&out.values)
            .map(|(c, v)| c * v)
            .sum::<f64>()
            / cost_scale,
        values: out.values,
        duals: Vec::new(),
        optimal: out.status == MipStatus::Optimal,
        mip_nodes: out.nodes.unwrap_or(-1),
    })
}

/// Partition from the values of an integral master solution.
pub(super) fn chosen(masks: &[u64], values: &[f64], n: usize) -> Result<Vec<usize>, SolverError> {
    let picked: Vec<u64> = masks
        .iter()
        .zip(values)
        .filter(|(_, v)| **v > 0.5)
        .map(|(m, _)| *m)
        .collect();
    labels_of_masks(&picked, n)
}
