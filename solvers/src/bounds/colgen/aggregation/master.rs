//! # The aggregated master LP (HiGHS)
//!
//! One row per super-point `p` (proofs/P24), weighted by the records it stands for:
//! `sum_S |S ∩ p| x_S = |p|`, over columns compatible with the aggregation (stored in
//! canonical form, [`super::SuperPoints::canonical`]). Its dual `v_p` is a value per record,
//! so every member of `p` gets `v_p` when the duals are disaggregated and `sum_i y_i` is the
//! LP's dual objective. With a dual box ([`AggMaster::build`] with `bounds`), each row has
//! two artificial columns, coefficients `+1` and `-1`, costs `hi_p` and `-lo_p`, at most
//! `|p|` (du Merle et al. 1999; the costs are not scaled by `|p|`, which would take them
//! toward HiGHS' infinite cost on data of large scale): in the dual they are the box
//! `lo_p <= v_p <= hi_p`, left only at a penalty, so the LP stays feasible and bounded.
//! New columns join the kept HiGHS instance (warm basis); a new aggregation needs a new
//! instance. A solve that HiGHS ends with an error is repeated on a fresh instance, with
//! presolve and then by the interior point method (as the full master's retries).
//!
//! ## Complexity
//! One simplex run per solve on (super-points) rows and the current columns.
//!
//! ## References
//! du Merle, O., Villeneuve, D., Desrosiers, J. and Hansen, P. (1999). Stabilized column
//! generation. Discrete Mathematics 194, 229-237.

use super::SuperPoints;
use highs::{ColProblem, HighsModelStatus, Model, Sense};

/// The solution of one aggregated master solve.
pub struct AggSolution {
    /// The LP value (box penalties included when the box binds).
    pub value: f64,
    /// Row duals, one per super-point (a value per record).
    pub duals: Vec<f64>,
    /// Sum of the artificial (box) columns' values: 0 when the box does not bind.
    pub artificial: f64,
}

/// The settings of a solve and of its retries on a fresh instance: (solver, presolve).
const ATTEMPTS: [(&str, &str); 3] = [("simplex", "off"), ("simplex", "on"), ("ipm", "on")];

/// The kept aggregated master (module doc).
pub struct AggMaster {
    model: Option<Model>,
    /// Row weights `|p|`, the box `(lo_p, hi_p)` when given.
    weights: Vec<f64>,
    bounds: Option<Vec<(f64, f64)>>,
    /// The columns (canonical members), their costs and their entries `(row, |S ∩ p|)`,
    /// in column order.
    pub columns: Vec<Vec<u32>>,
    pub costs: Vec<f64>,
    entries: Vec<Vec<(usize, f64)>>,
}

impl AggMaster {
    /// A master over `sp` with `columns` (compatible, canonical) of costs `costs`, in the
    /// box `bounds` (`(lo_p, hi_p)` per super-point) when given.
    pub fn build(
        sp: &SuperPoints,
        columns: Vec<Vec<u32>>,
        costs: Vec<f64>,
        bounds: Option<&[(f64, f64)]>,
    ) -> Result<AggMaster, String> {
        let entries = columns.iter().map(|g| coefficients(sp, g)).collect();
        let mut m = AggMaster {
            model: None,
            weights: sp.members.iter().map(|m| m.len() as f64).collect(),
            bounds: bounds.map(<[_]>::to_vec),
            columns,
            costs,
            entries,
        };
        m.model = Some(m.fresh(ATTEMPTS[0])?);
        Ok(m)
    }

    /// A new HiGHS instance of the master with `(solver, presolve)`.
    fn fresh(&self, (solver, presolve): (&str, &str)) -> Result<Model, String> {
        let mut pb = ColProblem::default();
        let rows: Vec<_> = self.weights.iter().map(|&w| pb.add_row(w..=w)).collect();
        if let Some(bounds) = &self.bounds {
            for (p, &(lo, hi)) in bounds.iter().enumerate() {
                pb.add_column(hi, 0.0..=self.weights[p], [(rows[p], 1.0)]);
                pb.add_column(-lo, 0.0..=self.weights[p], [(rows[p], -1.0)]);
            }
        }
        for (e, &c) in self.entries.iter().zip(&self.costs) {
            pb.add_column(c, 0.0.., e.iter().map(|&(r, a)| (rows[r], a)));
        }
        let mut model = Model::try_new(pb)
            .map_err(|s| format!("could not load the aggregated master: {s:?}"))?;
        model.set_sense(Sense::Minimise);
        model.make_quiet();
        for (name, v) in [("solver", solver), ("presolve", presolve)] {
            model
                .try_set_option(name, v)
                .map_err(|_| format!("could not set option {name}"))?;
        }
        Ok(model)
    }

    /// Append a compatible canonical column of cost `cost`.
    pub fn add(&mut self, sp: &SuperPoints, column: Vec<u32>, cost: f64) -> Result<(), String> {
        let e = coefficients(sp, &column);
        let model = self.model.as_mut().expect("kept between solves");
        let rows = model.num_rows();
        let (index, value): (Vec<i32>, Vec<f64>) = e.iter().map(|&(r, a)| (r as i32, a)).unzip();
        debug_assert!(e.iter().all(|&(r, _)| r < rows));
        // SAFETY: one column with index.len() nonzeros on rows below the model's row count.
        let status = unsafe {
            highs_sys::Highs_addCol(
                model.as_mut_ptr(),
                cost,
                0.0,
                f64::INFINITY,
                index.len() as highs_sys::HighsInt,
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        if status == -1 {
            return Err("could not add a column to the aggregated master".into());
        }
        self.columns.push(column);
        self.costs.push(cost);
        self.entries.push(e);
        Ok(())
    }

    /// Solve within `seconds`; `Ok(None)` on the time limit. A run that HiGHS ends without
    /// an optimum is repeated on fresh instances ([`ATTEMPTS`]).
    pub fn solve(&mut self, seconds: f64) -> Result<Option<AggSolution>, String> {
        let until =
            std::time::Instant::now() + std::time::Duration::from_secs_f64(seconds.max(0.0));
        let mut last = String::new();
        for (a, &attempt) in ATTEMPTS.iter().enumerate() {
            let model = match self.model.take() {
                Some(m) if a == 0 => m,
                _ => self.fresh(attempt)?,
            };
            let left = until.saturating_duration_since(std::time::Instant::now());
            match self.run(model, left.as_secs_f64()) {
                Ok(out) => return Ok(out),
                Err(e) => last = e,
            }
        }
        self.model = Some(self.fresh(ATTEMPTS[0])?);
        Err(last)
    }

    /// One HiGHS run of `model` within `seconds`; the model is kept when it ran.
    fn run(&mut self, mut model: Model, seconds: f64) -> Result<Option<AggSolution>, String> {
        model
            .try_set_option("time_limit", seconds.max(1e-3))
            .map_err(|_| "could not set option time_limit".to_string())?;
        let solved = model
            .try_solve()
            .map_err(|s| format!("aggregated master not solved by HiGHS: {s:?}"))?;
        let art = if self.bounds.is_some() {
            2 * self.weights.len()
        } else {
            0
        };
        let out = match solved.status() {
            HighsModelStatus::Optimal => {
                let s = solved.get_solution();
                Ok(Some(AggSolution {
                    value: solved.objective_value(),
                    duals: s.dual_rows().to_vec(),
                    artificial: s.columns()[..art].iter().sum(),
                }))
            }
            HighsModelStatus::ReachedTimeLimit => Ok(None),
            other => Err(format!("aggregated master not solved: {other:?}")),
        };
        self.model = Some(solved.into());
        out
    }
}

/// The entries of column `g` in the rows of `sp`: `|g ∩ p|` in the row of `p`.
fn coefficients(sp: &SuperPoints, g: &[u32]) -> Vec<(usize, f64)> {
    (sp.counts(g).into_iter())
        .map(|(p, c)| (p as usize, f64::from(c)))
        .collect()
}
