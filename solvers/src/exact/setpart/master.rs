//! # The set-partitioning master on HiGHS
//!
//! The master problem of [`super`] over a list of group masks, solved as an LP (with the
//! duals that pricing needs) or as a MIP (a heuristic upper bound), and the partition of an
//! integral solution. Moved out of `setpart.rs` unchanged.
//!
//! ## Complexity
//! One HiGHS solve over `masks.len()` columns and n rows; [`chosen`] O(columns + n).
//!
//! ## References
//! See [`super`].

use super::super::masks::{bits, labels_of_masks};
use crate::error::set_highs_option;
use crate::SolverError;
use highs::{ColProblem, HighsModelStatus, Model, Sense};

/// Solve the master over `masks` (costs `costs`) as an LP (duals returned) or a MIP.
pub(super) struct MasterSolution {
    pub(super) objective: f64,
    pub(super) values: Vec<f64>,
    pub(super) duals: Vec<f64>,
    pub(super) optimal: bool,
    pub(super) mip_nodes: i64,
}

///
/// HiGHS sees the costs multiplied by `cost_scale` (a power of two, chosen by the caller so
/// that the objective is about n: HiGHS' tolerances are absolute); the objective and duals are
/// returned on the callers' scale (exact divisions).
pub(super) fn solve_master(
    n: usize,
    masks: &[u64],
    costs: &[f64],
    integer: bool,
    time_left: Option<f64>,
    cost_scale: f64,
) -> Result<MasterSolution, SolverError> {
    let mut pb = ColProblem::default();
    let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
    for (&m, &c) in masks.iter().zip(costs) {
        let c = c * cost_scale;
        let factors: Vec<_> = bits(m).map(|i| (rows[i], 1.0)).collect();
        if integer {
            pb.add_integer_column(c, 0.0..=1.0, factors);
        } else {
            pb.add_column(c, 0.0.., factors);
        }
    }
    let mut model = Model::try_new(pb)
        .map_err(|s| SolverError::backend(format!("could not load the master: {s:?}")))?;
    model.make_quiet();
    model.set_sense(Sense::Minimise);
    if integer {
        set_highs_option(&mut model, "mip_rel_gap", 0.0)?;
        set_highs_option(&mut model, "mip_abs_gap", 0.0)?;
    } else {
        set_highs_option(&mut model, "solver", "simplex")?;
        set_highs_option(&mut model, "dual_feasibility_tolerance", 1e-9)?;
        set_highs_option(&mut model, "primal_feasibility_tolerance", 1e-9)?;
    }
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
    let has_solution = values.len() == masks.len()
        && (optimal || (integer && status == HighsModelStatus::ReachedTimeLimit));
    if !has_solution {
        return Err(SolverError::backend(format!("master status {status:?}")));
    }
    let mip_nodes = if integer {
        let mut v: i64 = -1;
        // SAFETY: the pointer is the live HiGHS instance owned by `solved`; the name is a
        // NUL-terminated C string and `v` a valid i64 out-parameter, as the C API requires.
        let status = unsafe {
            highs_sys::Highs_getInt64InfoValue(solved.as_ptr(), c"mip_node_count".as_ptr(), &mut v)
        };
        if status == highs_sys::STATUS_ERROR {
            -1
        } else {
            v
        }
    } else {
        0
    };
    Ok(MasterSolution {
        objective: solved.objective_value() / cost_scale,
        duals: if integer {
            Vec::new()
        } else {
            sol.dual_rows().iter().map(|v| v / cost_scale).collect()
        },
        values,
        optimal,
        mip_nodes,
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
