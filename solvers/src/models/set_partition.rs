//! # The set-partitioning MIP over a column pool
//!
//! Given groups ("columns", sorted member lists of records below n) and their costs,
//! `min sum_c cost_c z_c` s.t. `sum_{c ∋ i} z_c = 1` for every record i, `z_c` binary: the
//! least-cost partition of the records into pool groups. One binary per column in the
//! order given and one equality row per record in record order, so that a solver sees the
//! same model whichever caller built it. The callers scale the costs (HiGHS' tolerances are
//! absolute) and recompute every SSE from the labels.
//!
//! ## Complexity
//! O(total members) to build; the MIP is NP-hard in general.
//!
//! ## References
//! - Balas, E. and Padberg, M. W. (1976). Set partitioning: a survey. SIAM Review 18(4),
//!   710-760.

use super::{solve, Mip, MipOutcome, MipRun, MipSolver};
use crate::SolverError;
use good_lp::{constraint, variable, Expression, ProblemVariables};

/// The model over `columns` (members) with `costs`; `start` lists the columns of a feasible
/// partition to start from, if any.
pub fn model(n: usize, columns: &[&[u32]], costs: &[f64], start: Option<&[usize]>) -> Mip {
    let mut vars = ProblemVariables::new();
    let z = vars.add_vector(variable().binary(), columns.len());
    let mut objective = Expression::with_capacity(columns.len());
    for (&v, &c) in z.iter().zip(costs) {
        objective.add_mul(c, v);
    }
    let mut rows: Vec<Expression> = (0..n).map(|_| Expression::with_capacity(8)).collect();
    for (&v, g) in z.iter().zip(columns) {
        for &i in g.iter() {
            rows[i as usize].add_mul(1.0, v);
        }
    }
    let constraints = rows.into_iter().map(|r| constraint::eq(r, 1.0)).collect();
    let start = start.map(|chosen| {
        let mut s = vec![0.0; columns.len()];
        chosen.iter().for_each(|&c| s[c] = 1.0);
        s
    });
    Mip {
        vars,
        objective,
        constraints,
        watched: columns.len(),
        start,
    }
}

/// Build [`model`] and solve it with `solver`: one value per column.
pub fn solve_pool_mip(
    n: usize,
    columns: &[&[u32]],
    costs: &[f64],
    start: Option<&[usize]>,
    solver: MipSolver,
    run: &MipRun,
) -> Result<MipOutcome, SolverError> {
    solve(model(n, columns, costs, start), solver, run)
}

/// The partition picked by `values` (a column is picked above 0.5), labelled by the order of
/// the picked columns; `None` when the picked columns overlap or miss a record.
pub fn picked_labels(n: usize, columns: &[&[u32]], values: &[f64]) -> Option<Vec<usize>> {
    if values.len() != columns.len() {
        return None;
    }
    let mut labels = vec![usize::MAX; n];
    let mut group = 0;
    for (g, &v) in columns.iter().zip(values) {
        if v > 0.5 {
            for &i in g.iter() {
                if labels[i as usize] != usize::MAX {
                    return None;
                }
                labels[i as usize] = group;
            }
            group += 1;
        }
    }
    (!labels.contains(&usize::MAX)).then_some(labels)
}
