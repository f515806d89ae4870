//! # Dense assignment LP (all arcs)
//!
//! The full LP of [`super`] with one column per arc (n*c columns), built and solved once
//! through the safe `highs` API (`ColProblem` -> `Model` -> `SolvedModel`). It shares no
//! model-building or pricing code with [`super::sparse`], so it serves as the reference in
//! tests. Memory and time grow with n*c: use it for small instances only.
//!
//! ## Complexity
//! O(n c d) to build the costs, then one simplex solve on n + c rows and n*c columns.
//!
//! ## References
//! See [`super`].

use super::{
    assignment_cost, dual_bound, labels_from_solution, validate, Assignment, AssignmentError, Cost,
};
use highs::{ColProblem, HighsModelStatus, Model, Sense};
use std::time::Instant;

/// Solve the full assignment LP (every arc a column). `x` is row-major n x d, `centres`
/// row-major c x d; every centre receives `lo..=hi` records.
pub fn solve_dense(
    x: &[f64],
    d: usize,
    centres: &[f64],
    lo: usize,
    hi: usize,
    cost: Cost,
) -> Result<Assignment, AssignmentError> {
    let (n, c) = validate(x, d, centres, lo, hi)?;
    let mut pb = ColProblem::default();
    let record_rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
    let centre_rows: Vec<_> = (0..c).map(|_| pb.add_row(lo as f64..=hi as f64)).collect();
    let mut arcs = Vec::with_capacity(n * c);
    let mut max_cost = 0.0f64;
    for (i, xi) in x.chunks_exact(d).enumerate() {
        for (j, cj) in centres.chunks_exact(d).enumerate() {
            let w = cost.of_squared(super::sq_dist(xi, cj));
            max_cost = max_cost.max(w);
            pb.add_column(w, 0.0.., [(record_rows[i], 1.0), (centre_rows[j], 1.0)]);
            arcs.push((i as u32, j as u32));
        }
    }
    let mut model = Model::try_new(pb).map_err(|s| AssignmentError::Lp {
        message: format!("could not load the dense model: {s:?}"),
    })?;
    model.set_sense(Sense::Minimise);
    model.set_option("solver", "simplex");
    let t = Instant::now();
    let solved = model.try_solve().map_err(|s| AssignmentError::Lp {
        message: format!("run failed: {s:?}"),
    })?;
    let lp_seconds = t.elapsed().as_secs_f64();
    if solved.status() != HighsModelStatus::Optimal {
        return Err(AssignmentError::Lp {
            message: format!("dense model status {:?}", solved.status()),
        });
    }
    let sol = solved.get_solution();
    let labels = labels_from_solution(&arcs, sol.columns(), n, c, lo, hi)?;
    let duals = sol.dual_rows();
    let (u, v) = duals.split_at(n);
    let min_rc = sol
        .dual_columns()
        .iter()
        .copied()
        .fold(0.0f64, |m, r| m.min(r));
    Ok(Assignment {
        objective: assignment_cost(x, d, centres, &labels, cost),
        labels,
        lower_bound: dual_bound(u, v, lo, hi, min_rc, d, max_cost),
        lp_solves: 1,
        pricing_passes: 0,
        columns: arcs.len(),
        simplex_iterations: solved.simplex_iteration_count(),
        lp_seconds,
    })
}
