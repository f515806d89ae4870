//! # Sparse assignment LP: candidate arcs, exact pricing, warm starts
//!
//! [`AssignmentSolver`] solves the LP of [`super`] over a restricted set of arcs and proves
//! the result optimal for the full LP by pricing every omitted arc:
//!
//! 1. **Candidates** (cold build): each record's `record_candidates` nearest centres, each
//!    centre's `centre_candidates` nearest records (records-only lists can leave a centre
//!    with fewer than `lo` reachable records), and the arcs of the optional feasible `hint`.
//!    If the restricted LP is still infeasible, the record lists are doubled and the model is
//!    rebuilt (ultimately every arc, which is feasible whenever the size bounds are).
//! 2. **Pricing**: with the row duals `u_i` (record rows) and `v_j` (centre rows) of the
//!    restricted optimum, an arc is added when its reduced cost `w_ij - u_i - v_j` is below
//!    `-tol`; at most `max_added_per_record` of the most negative per record and pass. The
//!    distance computation stops as soon as the partial squared distance exceeds the arc's
//!    threshold. When a pass adds nothing, `(u, v)` is dual feasible for the full LP up to
//!    `tol` and the restricted optimum is optimal for the full LP
//!    (`proofs/P15-assignment-pricing.md`); the dual bound is returned.
//! 3. **Warm start**: the `highs::Model` is kept between calls with the same n and c. New
//!    centres only change the objective, so all column costs are replaced in one
//!    `Highs_changeColsCostByRange` call (the safe API changes one cost per call) and HiGHS
//!    re-solves from its retained basis, which is still primal feasible: primal simplex
//!    (`simplex_strategy = 4`). Pricing then runs as in 2. Columns are never removed, so the
//!    model only grows (bounded by n*c).
//!
//! A cold call (first call, `warm_start = false`, a change of n or c, or after
//! [`AssignmentSolver::reset`]) builds a new model
//! and solves it with HiGHS' default dual simplex.
//!
//! Sign convention (checked at run time): HiGHS reports row duals `y` with reduced costs
//! `w - A^T y`; an arc at value 1 is basic, so its computed reduced cost must vanish, else
//! the solve fails with an error instead of pricing with wrong duals.
//!
//! ## Complexity
//! Cold build O(n c d + n c log) for candidate selection; each pricing pass O(n c d) worst
//! case (usually far less thanks to the early exit); simplex runs on n + c rows. Memory:
//! the columns plus an n*c-bit membership set (700 kB for EIA at k = 3); meant for blocks of
//! up to some tens of thousands of records, like IMHM itself.
//!
//! ## References
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544 ("hot start" of the simplex
//!   between iterations, Sect. 5).
//! - Chvatal, V. (1983). Linear Programming. Freeman (revised simplex, pricing, Ch. 7-8).

use super::{
    assignment_cost, dual_bound, labels_from_solution, sq_dist, validate, Assignment,
    AssignmentError, Cost,
};
use highs::Model;
use highs_sys::{
    HighsInt, Highs_addCols, Highs_changeColsCostByRange, Highs_getModelStatus,
    Highs_getSimplexIterationCount, Highs_getSolution, Highs_run, MODEL_STATUS_INFEASIBLE,
    MODEL_STATUS_OPTIMAL, STATUS_ERROR,
};
use std::time::Instant;

mod candidates;

/// Options of the sparse solver (all have defaults).
#[derive(Debug, Clone, PartialEq)]
pub struct AssignmentOptions {
    /// Nearest centres of each record in the initial candidate set.
    pub record_candidates: usize,
    /// Nearest records of each centre in the initial candidate set (0: use `hi`).
    pub centre_candidates: usize,
    /// Keep the HiGHS model between calls and re-solve from the previous basis.
    pub warm_start: bool,
    /// At most this many (most negative) arcs per record are added per pricing pass.
    pub max_added_per_record: usize,
    /// Pricing tolerance, relative to `1 + max |dual|`: arcs with reduced cost above
    /// `-tol` are not added.
    pub pricing_tol: f64,
}

impl Default for AssignmentOptions {
    fn default() -> Self {
        AssignmentOptions {
            record_candidates: 4,
            centre_candidates: 0,
            warm_start: true,
            max_added_per_record: 4,
            pricing_tol: 1e-9,
        }
    }
}

/// Totals over the life of a solver.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct SolverTotals {
    /// Calls of [`AssignmentSolver::solve`].
    pub calls: usize,
    /// Calls answered from a kept model (warm).
    pub warm_calls: usize,
    /// HiGHS runs.
    pub lp_solves: usize,
    /// Seconds inside HiGHS runs.
    pub lp_seconds: f64,
    /// Seconds in pricing passes.
    pub pricing_seconds: f64,
    /// Seconds building models and candidates.
    pub build_seconds: f64,
}

/// Size-constrained assignment LP with candidate arcs, exact pricing and warm starts.
pub struct AssignmentSolver {
    d: usize,
    lo: usize,
    hi: usize,
    cost: Cost,
    opts: AssignmentOptions,
    model: Option<Model>,
    /// Shape (n, c) of the kept model.
    shape: (usize, usize),
    /// Arc (record, centre) of each column, in column order.
    arcs: Vec<(u32, u32)>,
    /// Bit (i * c + j) set when arc (i, j) is a column.
    in_model: Vec<u64>,
    pub totals: SolverTotals,
}

// SAFETY: the only non-Send field is the HiGHS instance inside `model`, which this struct
// owns exclusively and touches only through `&mut self` (no aliasing, no shared access).
// A HiGHS instance holds no thread-affine state, so moving it to another thread between
// calls is sound; concurrent use is impossible without `&mut`.
unsafe impl Send for AssignmentSolver {}

impl AssignmentSolver {
    /// A solver for data of dimension `d`, centres receiving `lo..=hi` records.
    pub fn new(d: usize, lo: usize, hi: usize, cost: Cost, opts: AssignmentOptions) -> Self {
        AssignmentSolver {
            d,
            lo,
            hi,
            cost,
            opts,
            model: None,
            shape: (0, 0),
            arcs: Vec::new(),
            in_model: Vec::new(),
            totals: SolverTotals::default(),
        }
    }

    /// Forget the kept model: the next call is cold.
    pub fn reset(&mut self) {
        self.model = None;
        self.arcs.clear();
        self.in_model.clear();
        self.shape = (0, 0);
    }

    /// Number of columns in the kept model.
    pub fn columns(&self) -> usize {
        self.arcs.len()
    }

    /// Optimal assignment of the records `x` (row-major, n x d) to `centres` (c x d).
    /// `hint`, if given, is a feasible labelling whose arcs join a cold model's candidates.
    pub fn solve(
        &mut self,
        x: &[f64],
        centres: &[f64],
        hint: Option<&[usize]>,
    ) -> Result<Assignment, AssignmentError> {
        let (d, lo, hi, cost) = (self.d, self.lo, self.hi, self.cost);
        let (n, c) = validate(x, d, centres, lo, hi)?;
        if let Some(h) = hint {
            if h.len() != n {
                return Err(AssignmentError::BadHint {
                    record: h.len().min(n),
                });
            }
            if let Some(i) = h.iter().position(|&j| j >= c) {
                return Err(AssignmentError::BadHint { record: i });
            }
        }
        self.totals.calls += 1;
        let mut stats = Assignment {
            labels: Vec::new(),
            objective: 0.0,
            lower_bound: f64::NEG_INFINITY,
            lp_solves: 0,
            pricing_passes: 0,
            columns: 0,
            simplex_iterations: 0,
            lp_seconds: 0.0,
        };
        let warm = self.opts.warm_start && self.model.is_some() && self.shape == (n, c);
        let mut record_candidates = self.opts.record_candidates.max(1);
        let mut strategy: i32;
        if warm {
            self.totals.warm_calls += 1;
            let t = Instant::now();
            let costs: Vec<f64> = self
                .arcs
                .iter()
                .map(|&(i, j)| arc_cost(x, centres, d, cost, i as usize, j as usize))
                .collect();
            let model = self.model.as_mut().expect("warm implies a model");
            // SAFETY: the pointer is owned by `model`, alive for the call; `costs` has
            // exactly `ncols` entries as HiGHS requires for the range 0..=ncols-1.
            let status = unsafe {
                Highs_changeColsCostByRange(
                    model.as_mut_ptr(),
                    0,
                    (costs.len() - 1) as HighsInt,
                    costs.as_ptr(),
                )
            };
            if status == STATUS_ERROR {
                return Err(lp_error("Highs_changeColsCostByRange failed"));
            }
            self.totals.build_seconds += t.elapsed().as_secs_f64();
            strategy = 4;
        } else {
            self.build_cold(x, centres, n, c, hint, record_candidates)?;
            strategy = 1;
        }
        loop {
            let model = self.model.as_mut().expect("model built");
            set_option(model, "simplex_strategy", strategy)?;
            let t = Instant::now();
            // SAFETY: valid HiGHS instance owned by `model`.
            unsafe { Highs_run(model.as_mut_ptr()) };
            let secs = t.elapsed().as_secs_f64();
            stats.lp_seconds += secs;
            stats.lp_solves += 1;
            self.totals.lp_seconds += secs;
            self.totals.lp_solves += 1;
            // SAFETY: as above.
            let (status, iters) = unsafe {
                (
                    Highs_getModelStatus(model.as_ptr()),
                    Highs_getSimplexIterationCount(model.as_ptr()),
                )
            };
            stats.simplex_iterations += iters as i64;
            if status == MODEL_STATUS_INFEASIBLE && !warm && record_candidates < c {
                // The restricted model lacks arcs: widen the record lists and rebuild.
                record_candidates = (record_candidates * 2).min(c);
                self.build_cold(x, centres, n, c, hint, record_candidates)?;
                strategy = 1;
                continue;
            }
            if status != MODEL_STATUS_OPTIMAL {
                self.reset();
                return Err(lp_error(&format!(
                    "restricted model not solved to optimality (model status {status})"
                )));
            }
            let ncols = self.arcs.len();
            let mut col_value = vec![0.0; ncols];
            let mut col_dual = vec![0.0; ncols];
            let mut row_value = vec![0.0; n + c];
            let mut row_dual = vec![0.0; n + c];
            // SAFETY: buffers sized to the model's columns and rows.
            unsafe {
                Highs_getSolution(
                    model.as_ptr(),
                    col_value.as_mut_ptr(),
                    col_dual.as_mut_ptr(),
                    row_value.as_mut_ptr(),
                    row_dual.as_mut_ptr(),
                )
            };
            let (u, v) = row_dual.split_at(n);
            let t = Instant::now();
            let scale = 1.0 + row_dual.iter().fold(0.0f64, |m, y| m.max(y.abs()));
            let tol = self.opts.pricing_tol * scale;
            // Reduced costs of the columns: basic columns (value 1) must have zero.
            let mut min_rc = -tol;
            let mut max_cost = 0.0f64;
            for (col, &(i, j)) in self.arcs.iter().enumerate() {
                let (i, j) = (i as usize, j as usize);
                let w = arc_cost(x, centres, d, cost, i, j);
                max_cost = max_cost.max(w);
                let rc = w - u[i] - v[j];
                if col_value[col] > 0.5 && rc.abs() > 1e-6 * scale {
                    self.reset();
                    return Err(lp_error(&format!(
                        "dual sign check failed: basic arc ({i}, {j}) has reduced cost {rc}"
                    )));
                }
                min_rc = min_rc.min(rc);
            }
            let added = self.price(x, centres, n, c, u, v, tol);
            stats.pricing_passes += 1;
            self.totals.pricing_seconds += t.elapsed().as_secs_f64();
            if added.is_empty() {
                stats.labels = labels_from_solution(&self.arcs, &col_value, n, c, lo, hi)
                    .inspect_err(|_| self.reset())?;
                stats.lower_bound = dual_bound(u, v, lo, hi, min_rc, d, max_cost);
                break;
            }
            self.add_columns(x, centres, c, &added)?;
            // The basis stays primal feasible when columns join at zero.
            strategy = 4;
        }
        stats.objective = assignment_cost(x, d, centres, &stats.labels, cost);
        stats.columns = self.arcs.len();
        Ok(stats)
    }

    /// Omitted arcs with reduced cost below `-tol`: up to `max_added_per_record` of the most
    /// negative per record.
    #[allow(clippy::too_many_arguments)]
    fn price(
        &self,
        x: &[f64],
        centres: &[f64],
        n: usize,
        c: usize,
        u: &[f64],
        v: &[f64],
        tol: f64,
    ) -> Vec<(u32, u32)> {
        let d = self.d;
        let cap = self.opts.max_added_per_record.max(1);
        let mut added = Vec::new();
        let mut found: Vec<(f64, usize)> = Vec::new();
        for i in 0..n {
            let xi = &x[i * d..(i + 1) * d];
            found.clear();
            for j in 0..c {
                let b = i * c + j;
                if self.in_model[b / 64] >> (b % 64) & 1 == 1 {
                    continue;
                }
                // Negative iff w < u_i + v_j - tol (w >= 0 always).
                let t = u[i] + v[j] - tol;
                if t <= 0.0 {
                    continue;
                }
                let limit = self.cost.squared_threshold(t);
                let cj = &centres[j * d..(j + 1) * d];
                let mut sq = 0.0;
                let mut over = false;
                for (p, q) in xi.iter().zip(cj) {
                    sq += (p - q) * (p - q);
                    if sq >= limit {
                        over = true;
                        break;
                    }
                }
                if !over {
                    let rc = self.cost.of_squared(sq) - u[i] - v[j];
                    if rc < -tol {
                        found.push((rc, j));
                    }
                }
            }
            if found.len() > cap {
                found.select_nth_unstable_by(cap - 1, |a, b| {
                    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
                });
                found.truncate(cap);
            }
            found.sort_unstable_by_key(|&(_, j)| j);
            added.extend(found.iter().map(|&(_, j)| (i as u32, j as u32)));
        }
        added
    }

    /// Append columns for `added` arcs in one `Highs_addCols` call.
    fn add_columns(
        &mut self,
        x: &[f64],
        centres: &[f64],
        c: usize,
        added: &[(u32, u32)],
    ) -> Result<(), AssignmentError> {
        let n = self.shape.0;
        let m = added.len();
        let costs: Vec<f64> = added
            .iter()
            .map(|&(i, j)| arc_cost(x, centres, self.d, self.cost, i as usize, j as usize))
            .collect();
        let lower = vec![0.0; m];
        let upper = vec![f64::INFINITY; m];
        let starts: Vec<HighsInt> = (0..m).map(|k| (2 * k) as HighsInt).collect();
        let mut index: Vec<HighsInt> = Vec::with_capacity(2 * m);
        for &(i, j) in added {
            index.push(i as HighsInt);
            index.push((n + j as usize) as HighsInt);
        }
        let value = vec![1.0; 2 * m];
        let model = self.model.as_mut().expect("model built");
        // SAFETY: arrays sized as HiGHS requires (m columns, 2m nonzeros).
        let status = unsafe {
            Highs_addCols(
                model.as_mut_ptr(),
                m as HighsInt,
                costs.as_ptr(),
                lower.as_ptr(),
                upper.as_ptr(),
                (2 * m) as HighsInt,
                starts.as_ptr(),
                index.as_ptr(),
                value.as_ptr(),
            )
        };
        if status == STATUS_ERROR {
            self.reset();
            return Err(lp_error("Highs_addCols failed"));
        }
        for &(i, j) in added {
            let b = i as usize * c + j as usize;
            self.in_model[b / 64] |= 1 << (b % 64);
        }
        self.arcs.extend_from_slice(added);
        Ok(())
    }
}

#[inline]
fn arc_cost(x: &[f64], centres: &[f64], d: usize, cost: Cost, i: usize, j: usize) -> f64 {
    cost.of_squared(sq_dist(
        &x[i * d..(i + 1) * d],
        &centres[j * d..(j + 1) * d],
    ))
}

fn lp_error(message: &str) -> AssignmentError {
    AssignmentError::Lp {
        message: message.to_string(),
    }
}

fn set_option<V: highs::HighsOptionValue>(
    model: &mut Model,
    name: &str,
    value: V,
) -> Result<(), AssignmentError> {
    model
        .try_set_option(name, value)
        .map_err(|_| lp_error(&format!("could not set option {name}")))
}
