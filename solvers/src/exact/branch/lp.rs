//! # The node LP of the certified branch and bound
//!
//! The LP of one node of [`super`]: the node's columns plus one artificial column per record
//! (cost `big_m`), solved on HiGHS with tight tolerances first and its defaults as a
//! fallback. Moved out of `branch.rs` unchanged.
//!
//! ## Complexity
//! One HiGHS simplex solve over the node's columns and n rows.
//!
//! ## References
//! See [`super`].

use super::super::masks::bits;
use super::Search;
use crate::error::set_highs_option;
use crate::SolverError;
use highs::{ColProblem, HighsModelStatus, Model, Sense};

impl Search<'_> {
    /// The LP over `work` plus one artificial column per record (cost `big_m`). Tight
    /// tolerances first (1e-10: the bound then comes close to the LP value); if HiGHS does not
    /// reach "optimal" with them (it answered "unknown" on near-duplicate data), once more with
    /// its defaults. The duals only steer: any finite duals give a valid bound (P12 Claim 2).
    pub(super) fn solve_lp(&self, work: &[usize]) -> Result<NodeLp, SolverError> {
        match self.solve_lp_with(work, Some(1e-10)) {
            Ok(lp) => Ok(lp),
            Err(_) => self.solve_lp_with(work, None),
        }
    }

    fn solve_lp_with(&self, work: &[usize], tolerance: Option<f64>) -> Result<NodeLp, SolverError> {
        let n = self.n;
        let mut pb = ColProblem::default();
        let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
        for &c in work {
            let factors: Vec<_> = bits(self.cols.masks[c]).map(|i| (rows[i], 1.0)).collect();
            pb.add_column(self.cols.cost[c] * self.cost_scale, 0.0.., factors);
        }
        for &row in &rows {
            pb.add_column(self.big_m * self.cost_scale, 0.0.., [(row, 1.0)]);
        }
        let mut model = Model::try_new(pb)
            .map_err(|s| SolverError::backend(format!("could not load the node LP: {s:?}")))?;
        model.make_quiet();
        model.set_sense(Sense::Minimise);
        set_highs_option(&mut model, "solver", "simplex")?;
        if let Some(tol) = tolerance {
            set_highs_option(&mut model, "dual_feasibility_tolerance", tol)?;
            set_highs_option(&mut model, "primal_feasibility_tolerance", tol)?;
        }
        if let Some(left) = self.stop.time_left() {
            set_highs_option(&mut model, "time_limit", left.max(0.01))?;
        }
        let solved = model
            .try_solve()
            .map_err(|s| SolverError::backend(format!("node LP failed: {s:?}")))?;
        if solved.status() != HighsModelStatus::Optimal {
            return Err(SolverError::backend(format!(
                "node LP status {:?}",
                solved.status()
            )));
        }
        let sol = solved.get_solution();
        // Back on the columns' scale: exact divisions by a power of two.
        let duals: Vec<f64> = sol
            .dual_rows()
            .iter()
            .map(|v| v / self.cost_scale)
            .collect();
        if duals.len() != n || duals.iter().any(|v| !v.is_finite()) {
            return Err(SolverError::backend("node LP returned no usable duals"));
        }
        Ok(NodeLp {
            values: sol.columns().to_vec(),
            duals,
        })
    }
}

pub(super) struct NodeLp {
    /// Values of the work columns, then of the n artificial columns.
    pub(super) values: Vec<f64>,
    pub(super) duals: Vec<f64>,
}
