//! # Restricted master LP of the column generation bound (HiGHS)
//!
//! `min sum_S c_S x_S` s.t. `sum_{S ni i} x_S = 1` for every record `i`, `x >= 0`, over the
//! columns (groups) added so far. The HiGHS instance is kept between iterations: new columns
//! join with `Highs_addCols` at value 0, so the previous basis stays primal feasible and the
//! re-solve is a primal simplex run from it.
//!
//! **Box stabilisation** (optional, [`Master::new`] with `boxed`; du Merle, Villeneuve,
//! Desrosiers and Hansen 1999, in its boxstep form): `2n` artificial columns `w+_i`
//! (coefficient `+1` in row `i`, cost `c_i + delta_i`) and `w-_i` (coefficient `-1`, cost
//! `-(c_i - delta_i)`), `0 <= w <= 1`, come first. In the dual they are the box
//! `c - delta <= y <= c + delta` around the stability centre `c` ([`Master::set_box`]), left
//! only at a penalty (the bound 1 on `w`, which also keeps the LP bounded when the box does
//! not meet the dual feasible region); it keeps the duals from jumping between the vertices
//! of the degenerate master. With `w = 0` the LP value is the restricted master's own value
//! (and, the bounds on `w` not binding, equals `sum y`); with `w != 0` the box is binding.
//!
//! **Subset-row cuts** ([`Master::add_cuts`], proofs/P14; other rank-1 cuts, with coefficient
//! `floor(p(S ∩ C) / q)` and right side `floor(p(C) / q)`, by [`Master::add_rank1_cuts`],
//! proofs/P21): rows
//! `sum_S floor(|S ∩ C| / 2) x_S <= 1` for record triples `C`, after the `n` partitioning
//! rows; every column added later gets its coefficients in them. Their duals `sigma_C <= 0`
//! enter the reduced cost `c_S - y(S) - sum_C sigma_C floor(|S ∩ C| / 2)`. The re-solve after
//! new cuts runs dual simplex (the kept basis stays dual feasible, not primal feasible).
//!
//! **Group-count row** (optional, [`Master::add_count_row`], proofs/P22): row `n`
//! `sum_S x_S <= floor(n/k)` before the cuts; its dual `mu <= 0` enters every column's
//! reduced cost as the constant `-mu` ([`MasterSolution::count_dual`]).
//!
//! Sign convention (checked at run time, as in the assignment LP): HiGHS reports row duals
//! `y` with reduced costs `c - A^T y`; every column at a positive value must have a reduced
//! cost of (almost) zero, else the solve fails with an error. The validity of the Lagrangian
//! bound does not depend on this check (it holds for any `y`, `proofs/P09`); the check only
//! protects the convergence of the column generation.
//!
//! **Retries** ([`RETRIES`](solve::RETRIES)): a run that ends without an optimum and not on
//! its time limit (HiGHS "solve error" or "unknown", seen on degenerate masters of far-apart
//! clusters) is repeated from a cleared solver, by dual simplex, primal simplex, dual simplex after
//! presolve and the interior point method with crossover, within the same time limit. When
//! none succeeds the solve returns no solution and [`Master::failure`] says why; the callers
//! keep the bound they certified before, as on a time limit (a bound never rests on the LP).
//!
//! The columns and rows are here; the solves, their retries and the reading of the duals are
//! in `solve.rs`.
//!
//! ## Complexity
//! One simplex run per iteration on n rows and the current columns; memory O(nonzeros).
//!
//! ## References
//! - du Merle, O., Villeneuve, D., Desrosiers, J. and Hansen, P. (1999). Stabilized column
//!   generation. Discrete Mathematics 194, 229-237.
//! - Marsten, R. E., Hogan, W. W. and Blankenship, J. W. (1975). The boxstep method for
//!   large-scale optimization. Operations Research 23(3), 389-405.
//!
//! Huangfu, Q. and Hall, J. A. J. (2018). Parallelizing the dual revised simplex method.
//! Mathematical Programming Computation 10(1), 119-142 (HiGHS).

mod solve;

use super::cuts::Cut;
use highs::{ColProblem, Model, Sense};
use highs_sys::{
    HighsInt, Highs_addCols, Highs_addRows, Highs_changeColsBoundsBySet,
    Highs_changeColsCostByRange, Highs_deleteColsByMask,
};
#[doc(hidden)]
pub use solve::fail_next_runs_for_test;
pub(crate) use solve::stop_when_set;

/// What HiGHS' C functions return on an error.
const STATUS_ERROR: HighsInt = -1;

/// The kept master LP.
pub struct Master {
    n: usize,
    model: Model,
    /// Artificial (box) columns first in the model: `2n` when boxed, else 0.
    art: usize,
    /// Members of each column (sorted record indices), in column order.
    pub columns: Vec<Vec<u32>>,
    /// Cost of each column.
    pub costs: Vec<f64>,
    /// The cuts (rows `n..n + cuts.len()`): subset-row triples ([`Master::add_cuts`]) and
    /// other rank-1 cuts ([`Master::add_rank1_cuts`], proofs/P21).
    pub cuts: Vec<Cut>,
    /// Cuts were added or column bounds changed since the last solve: re-solve by dual
    /// simplex.
    dual_restart: bool,
    /// Simplex iterations over all solves.
    pub simplex_iterations: i64,
    /// Solves so far.
    solves: usize,
    /// Re-solve with the interior point method without crossover (central, non-vertex
    /// duals; no warm start) instead of primal simplex from the kept basis.
    pub ipm: bool,
    /// The group-count row `sum_S x_S <= floor(n/k)` is row `n` (cuts follow it;
    /// [`Master::add_count_row`], proofs/P22).
    count_row: bool,
    /// Why the last solve gave no solution (not its time limit): [`Master::failure`].
    failure: Option<String>,
    /// Runs repeated after a run without an optimum ([`RETRIES`](solve::RETRIES)), over all
    /// solves.
    pub retries: usize,
}

/// The solution of one master solve.
pub struct MasterSolution {
    /// LP optimum of the restricted master (an upper bound on the full master LP value).
    pub value: f64,
    /// Row duals `y` (one per record).
    pub duals: Vec<f64>,
    /// Duals `sigma` of the cut rows (one per cut, `<= 0` up to tolerance).
    pub cut_duals: Vec<f64>,
    /// Primal values of the columns.
    pub primal: Vec<f64>,
    /// Sum of the artificial (box) columns' values: 0 when the box is not binding.
    pub artificial: f64,
    /// Reduced costs `c - A^T y` of the columns.
    pub reduced_costs: Vec<f64>,
    /// Dual `mu <= 0` of the group-count row (0 without it; proofs/P22).
    pub count_dual: f64,
}

// SAFETY: the HiGHS instance inside `model` is owned exclusively and used only through
// `&mut self`; it holds no thread-affine state.
unsafe impl Send for Master {}

impl Master {
    /// A master over the initial columns `groups` (each a set of record indices, together
    /// covering every record exactly once so that the LP is feasible) with costs `costs`;
    /// with `boxed`, the box columns come first (box at `centre +- delta` as given).
    pub fn new(
        n: usize,
        groups: Vec<Vec<u32>>,
        costs: Vec<f64>,
        boxed: Option<(&[f64], &[f64])>,
    ) -> Result<Master, String> {
        let mut pb = ColProblem::default();
        let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
        if let Some((centre, delta)) = boxed {
            for i in 0..n {
                pb.add_column(centre[i] + delta[i], 0.0..=1.0, [(rows[i], 1.0)]);
                pb.add_column(-(centre[i] - delta[i]), 0.0..=1.0, [(rows[i], -1.0)]);
            }
        }
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
            art: if boxed.is_some() { 2 * n } else { 0 },
            columns: groups,
            costs,
            cuts: Vec::new(),
            dual_restart: false,
            simplex_iterations: 0,
            solves: 0,
            ipm: false,
            count_row: false,
            failure: None,
            retries: 0,
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
        let mut value: Vec<f64> = Vec::new();
        for g in &groups {
            starts.push(index.len() as HighsInt);
            index.extend(g.iter().map(|&i| i as HighsInt));
            value.resize(index.len(), 1.0);
            let first_cut = self.n + usize::from(self.count_row);
            if self.count_row {
                index.push(self.n as HighsInt);
                value.push(1.0);
            }
            for (c, t) in self.cuts.iter().enumerate() {
                let a = t.coefficient(g);
                if a > 0.0 {
                    index.push((first_cut + c) as HighsInt);
                    value.push(a);
                }
            }
        }
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

    /// Append the group-count row `sum_S x_S <= max_groups` (proofs/P22; `max_groups =
    /// floor(n/k)`), coefficient 1 in every current and later column. It must come before
    /// any cut (it is row `n`, the cuts follow it).
    pub fn add_count_row(&mut self, max_groups: usize) -> Result<(), String> {
        assert!(
            self.cuts.is_empty() && !self.count_row,
            "count row after cuts"
        );
        let index: Vec<HighsInt> = (self.art..self.art + self.columns.len())
            .map(|j| j as HighsInt)
            .collect();
        let value = vec![1.0; index.len()];
        let (lower, upper, starts) = ([f64::NEG_INFINITY], [max_groups as f64], [0]);
        if !self.add_rows(&lower, &upper, &starts, &index, &value) {
            return Err("Highs_addRows failed (count row)".into());
        }
        self.count_row = true;
        self.dual_restart = true;
        Ok(())
    }

    /// Append subset-row cut rows `sum_S floor(|S ∩ C| / 2) x_S <= 1`, one per triple
    /// (records ascending), with their coefficients in every current column.
    pub fn add_cuts(&mut self, triples: &[[u32; 3]]) -> Result<(), String> {
        let cuts: Vec<Cut> = triples.iter().map(|&t| Cut::triple(t)).collect();
        self.add_rank1_cuts(&cuts)
    }

    /// Append rank-1 cut rows `sum_S floor(p(S ∩ C) / q) x_S <= floor(p(C) / q)`
    /// (proofs/P21), with their coefficients in every current column.
    pub fn add_rank1_cuts(&mut self, cuts: &[Cut]) -> Result<(), String> {
        if cuts.is_empty() {
            return Ok(());
        }
        let m = cuts.len();
        let lower = vec![f64::NEG_INFINITY; m];
        let upper: Vec<f64> = cuts.iter().map(|c| f64::from(c.rhs())).collect();
        let mut starts: Vec<HighsInt> = Vec::with_capacity(m);
        let mut index: Vec<HighsInt> = Vec::new();
        let mut value: Vec<f64> = Vec::new();
        for row in self.cut_rows(cuts) {
            starts.push(index.len() as HighsInt);
            for (j, a) in row {
                index.push(j);
                value.push(a);
            }
        }
        if !self.add_rows(&lower, &upper, &starts, &index, &value) {
            return Err("Highs_addRows failed".into());
        }
        self.cuts.extend_from_slice(cuts);
        self.dual_restart = true;
        Ok(())
    }

    /// The nonzeros `(model column, coefficient)` of each cut's row over the current columns.
    fn cut_rows(&self, cuts: &[Cut]) -> Vec<Vec<(HighsInt, f64)>> {
        let m = cuts.len();
        // Row-wise coefficients from one pass over the columns, through the cuts of each
        // record (O(nonzeros of the columns x cuts per record), not O(columns x cuts)): a
        // column enters a cut's row when its weighted count reaches the denominator, with
        // coefficient floor(count / q).
        let mut of: Vec<Vec<(u32, u8)>> = vec![Vec::new(); self.n];
        for (c, t) in cuts.iter().enumerate() {
            for (&i, &p) in t.records().iter().zip(t.multipliers()) {
                of[i as usize].push((c as u32, p));
            }
        }
        let mut rows: Vec<Vec<(HighsInt, f64)>> = vec![Vec::new(); m];
        let mut hits = vec![0u16; m];
        let mut touched: Vec<u32> = Vec::new();
        for (j, g) in self.columns.iter().enumerate() {
            for &i in g {
                for &(c, p) in &of[i as usize] {
                    if hits[c as usize] == 0 {
                        touched.push(c);
                    }
                    hits[c as usize] += u16::from(p);
                }
            }
            for &c in &touched {
                let a = hits[c as usize] / u16::from(cuts[c as usize].denominator());
                if a > 0 {
                    rows[c as usize].push(((self.art + j) as HighsInt, f64::from(a)));
                }
                hits[c as usize] = 0;
            }
            touched.clear();
        }
        rows
    }

    /// Append rows `lower <= a x <= upper` given row-wise (`starts` per row, column `index`
    /// and `value` per nonzero) in one `Highs_addRows` call; false when HiGHS refuses them.
    fn add_rows(
        &mut self,
        lower: &[f64],
        upper: &[f64],
        starts: &[HighsInt],
        index: &[HighsInt],
        value: &[f64],
    ) -> bool {
        // SAFETY: arrays sized as HiGHS requires (lower.len() rows, index.len() nonzeros,
        // column indices below the model's column count).
        let status = unsafe {
            Highs_addRows(
                self.model.as_mut_ptr(),
                lower.len() as HighsInt,
                lower.as_ptr(),
                upper.as_ptr(),
                index.len() as HighsInt,
                starts.as_ptr(),
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        status != STATUS_ERROR
    }

    /// Move the box to `centre +- delta` (boxed masters only; the basis is kept).
    pub fn set_box(&mut self, centre: &[f64], delta: &[f64]) -> Result<(), String> {
        assert!(self.art == 2 * self.n, "set_box on a master without box");
        let cost: Vec<f64> = (0..self.n)
            .flat_map(|i| [centre[i] + delta[i], -(centre[i] - delta[i])])
            .collect();
        // SAFETY: cost has one entry per column of the range 0..2n.
        let status = unsafe {
            Highs_changeColsCostByRange(
                self.model.as_mut_ptr(),
                0,
                (self.art - 1) as HighsInt,
                cost.as_ptr(),
            )
        };
        if status == STATUS_ERROR {
            return Err("Highs_changeColsCostByRange failed".into());
        }
        Ok(())
    }

    /// Set the upper bound of the columns `cols` (master column order) to `upper` (0 fixes
    /// them at 0, `f64::INFINITY` frees them again). The kept basis stays dual feasible, so
    /// the next solve runs dual simplex from it (strong branching's child LPs).
    pub fn set_column_upper(&mut self, cols: &[usize], upper: f64) -> Result<(), String> {
        if cols.is_empty() {
            return Ok(());
        }
        let set: Vec<HighsInt> = cols.iter().map(|&c| (self.art + c) as HighsInt).collect();
        let lower = vec![0.0; set.len()];
        let upper = vec![upper; set.len()];
        // SAFETY: valid HiGHS instance; the three arrays have `set.len()` entries, and every
        // index is a model column (the box columns come first).
        let status = unsafe {
            Highs_changeColsBoundsBySet(
                self.model.as_mut_ptr(),
                set.len() as HighsInt,
                set.as_ptr(),
                lower.as_ptr(),
                upper.as_ptr(),
            )
        };
        if status == STATUS_ERROR {
            return Err("Highs_changeColsBoundsBySet failed".into());
        }
        self.dual_restart = true;
        Ok(())
    }

    /// Delete the columns with `drop[c]` set (callers pass nonbasic columns only, those with
    /// a clearly positive reduced cost, so the kept basis stays valid); returns the members
    /// of the deleted columns.
    pub fn delete_columns(&mut self, drop: &[bool]) -> Result<Vec<Vec<u32>>, String> {
        assert_eq!(drop.len(), self.columns.len(), "one flag per column");
        if !drop.iter().any(|&d| d) {
            return Ok(Vec::new());
        }
        let mut mask: Vec<HighsInt> = vec![0; self.art];
        mask.extend(drop.iter().map(|&d| HighsInt::from(d)));
        // SAFETY: mask has one entry per column of the model.
        let status = unsafe { Highs_deleteColsByMask(self.model.as_mut_ptr(), mask.as_mut_ptr()) };
        if status == STATUS_ERROR {
            return Err("Highs_deleteColsByMask failed".into());
        }
        let mut removed = Vec::new();
        let (mut cols, mut costs) = (Vec::new(), Vec::new());
        for ((g, c), &d) in self.columns.drain(..).zip(self.costs.drain(..)).zip(drop) {
            if d {
                removed.push(g);
            } else {
                cols.push(g);
                costs.push(c);
            }
        }
        self.columns = cols;
        self.costs = costs;
        Ok(removed)
    }

    /// Why the last solve ended without a solution other than on its time limit (HiGHS gave
    /// no optimum in any of the retries); `None` after a solve that succeeded.
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }
}

/// `floor(|S ∩ C| / 2)` for a group `S` (members sorted) and a triple `C`: 1 when the group
/// holds two or three of its records, else 0.
pub fn cut_coefficient(group: &[u32], triple: &[u32; 3]) -> f64 {
    Cut::triple(*triple).coefficient(group)
}
