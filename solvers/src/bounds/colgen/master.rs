//! # Restricted master LP of the column generation bound (HiGHS)
//!
//! `min sum_S c_S x_S` s.t. `sum_{S ni i} x_S = 1` for every record `i`, `x >= 0`, over the
//! columns (groups) added so far. The HiGHS instance is kept between iterations: new columns
//! join with `Highs_addCols` at value 0, so the previous basis stays primal feasible and the
//! re-solve is a primal simplex run from it.
//!
//! Sign convention (checked at run time, as in the assignment LP): HiGHS reports row duals
//! `y` with reduced costs `c - A^T y`; every column at a positive value must have a reduced
//! cost of (almost) zero, else the solve fails with an error. The validity of the Lagrangian
//! bound does not depend on this check (it holds for any `y`, `proofs/P09`); the check only
//! protects the convergence of the column generation.
//!
//! ## Complexity
//! One simplex run per iteration on n rows and the current columns; memory O(nonzeros).
//!
//! ## References
//! Huangfu, Q. and Hall, J. A. J. (2018). Parallelizing the dual revised simplex method.
//! Mathematical Programming Computation 10(1), 119-142 (HiGHS).

use highs::{ColProblem, Model, Sense};
use highs_sys::{
    HighsInt, Highs_addCols, Highs_getModelStatus, Highs_getObjectiveValue,
    Highs_getSimplexIterationCount, Highs_getSolution, Highs_run,
};

const MODEL_STATUS_OPTIMAL: HighsInt = 7;
const STATUS_ERROR: HighsInt = -1;

/// The kept master LP.
pub struct Master {
    n: usize,
    model: Model,
    /// Members of each column (sorted record indices), in column order.
    pub columns: Vec<Vec<u32>>,
    /// Cost of each column.
    pub costs: Vec<f64>,
    /// Simplex iterations over all solves.
    pub simplex_iterations: i64,
}

/// The solution of one master solve.
pub struct MasterSolution {
    /// LP optimum of the restricted master (an upper bound on the full master LP value).
    pub value: f64,
    /// Row duals `y` (one per record).
    pub duals: Vec<f64>,
    /// Primal values of the columns.
    pub primal: Vec<f64>,
}

// SAFETY: the HiGHS instance inside `model` is owned exclusively and used only through
// `&mut self`; it holds no thread-affine state.
unsafe impl Send for Master {}

impl Master {
    /// A master over the initial columns `groups` (each a set of record indices, together
    /// covering every record exactly once so that the LP is feasible) with costs `costs`.
    pub fn new(n: usize, groups: Vec<Vec<u32>>, costs: Vec<f64>) -> Result<Master, String> {
        let mut pb = ColProblem::default();
        let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
        for (g, &c) in groups.iter().zip(&costs) {
            pb.add_column(c, 0.0.., g.iter().map(|&i| (rows[i as usize], 1.0)));
        }
        let mut model =
            Model::try_new(pb).map_err(|s| format!("could not load the master LP: {s:?}"))?;
        model.set_sense(Sense::Minimise);
        for (name, v) in [("solver", "simplex"), ("presolve", "off")] {
            model
                .try_set_option(name, v)
                .map_err(|_| format!("could not set option {name}"))?;
        }
        for (name, v) in [
            ("dual_feasibility_tolerance", 1e-9),
            ("primal_feasibility_tolerance", 1e-9),
        ] {
            model
                .try_set_option(name, v)
                .map_err(|_| format!("could not set option {name}"))?;
        }
        Ok(Master {
            n,
            model,
            columns: groups,
            costs,
            simplex_iterations: 0,
        })
    }

    /// Append columns (members sorted, costs given) in one `Highs_addCols` call.
    pub fn add_columns(&mut self, groups: Vec<Vec<u32>>, costs: Vec<f64>) -> Result<(), String> {
        if groups.is_empty() {
            return Ok(());
        }
        let m = groups.len();
        let lower = vec![0.0; m];
        let upper = vec![f64::INFINITY; m];
        let mut starts: Vec<HighsInt> = Vec::with_capacity(m);
        let mut index: Vec<HighsInt> = Vec::new();
        for g in &groups {
            starts.push(index.len() as HighsInt);
            index.extend(g.iter().map(|&i| i as HighsInt));
        }
        let value = vec![1.0; index.len()];
        // SAFETY: arrays sized as HiGHS requires (m columns, index.len() nonzeros).
        let status = unsafe {
            Highs_addCols(
                self.model.as_mut_ptr(),
                m as HighsInt,
                costs.as_ptr(),
                lower.as_ptr(),
                upper.as_ptr(),
                index.len() as HighsInt,
                starts.as_ptr(),
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        if status == STATUS_ERROR {
            return Err("Highs_addCols failed".into());
        }
        self.columns.extend(groups);
        self.costs.extend(costs);
        Ok(())
    }

    /// Solve (primal simplex from the kept basis after the first solve) and read the duals.
    pub fn solve(&mut self) -> Result<MasterSolution, String> {
        let strategy: HighsInt = if self.simplex_iterations == 0 { 1 } else { 4 };
        self.model
            .try_set_option("simplex_strategy", strategy)
            .map_err(|_| "could not set option simplex_strategy".to_string())?;
        // SAFETY: valid HiGHS instance owned by `model`.
        unsafe { Highs_run(self.model.as_mut_ptr()) };
        // SAFETY: as above.
        let (status, iters, value) = unsafe {
            (
                Highs_getModelStatus(self.model.as_ptr()),
                Highs_getSimplexIterationCount(self.model.as_ptr()),
                Highs_getObjectiveValue(self.model.as_ptr()),
            )
        };
        self.simplex_iterations += iters as i64;
        if status != MODEL_STATUS_OPTIMAL {
            return Err(format!(
                "master LP not solved to optimality (model status {status})"
            ));
        }
        let ncols = self.columns.len();
        let mut primal = vec![0.0; ncols];
        let mut col_dual = vec![0.0; ncols];
        let mut row_value = vec![0.0; self.n];
        let mut duals = vec![0.0; self.n];
        // SAFETY: buffers sized to the model's columns and rows.
        unsafe {
            Highs_getSolution(
                self.model.as_ptr(),
                primal.as_mut_ptr(),
                col_dual.as_mut_ptr(),
                row_value.as_mut_ptr(),
                duals.as_mut_ptr(),
            )
        };
        let scale = 1.0 + duals.iter().fold(0.0f64, |m, y| m.max(y.abs()));
        for (col, g) in self.columns.iter().enumerate() {
            if primal[col] > 1e-7 {
                let rc = self.costs[col] - g.iter().map(|&i| duals[i as usize]).sum::<f64>();
                if rc.abs() > 1e-6 * scale * g.len() as f64 {
                    return Err(format!(
                        "dual sign check failed: column {col} at value {} has reduced cost {rc}",
                        primal[col]
                    ));
                }
            }
        }
        Ok(MasterSolution {
            value,
            duals,
            primal,
        })
    }
}
