//! # Where the LP relaxation lies: the restricted master's own value
//!
//! Every Lagrangian bound is at most the LP relaxation's optimum `LP*` (proofs/P09), and
//! `LP*` is at most the value of any restricted master `min { c x : A x = 1, x >= 0 }` over
//! a subset of the columns: its solutions are feasible for the full LP. So after a run, the
//! master's columns *without* the box (a boxed master's value is not a restricted master's
//! once the box binds, [`super::master`]) and without cuts give a value `U` with
//! `LB <= LP* <= U`, up to the LP solver's tolerance: how far a converged column generation
//! could still raise the bound, and how much of the gap to the best partition only cuts or
//! branching can close.
//!
//! The value is an estimate, not a certificate: it rests on HiGHS' primal solution
//! (feasibility tolerance 1e-9). What this module checks in floating point is reported
//! with it: the cost `sum_S c_S x_S` recomputed from the columns' costs with negative
//! values taken as 0, and the largest coverage residual `max_i |1 - sum_{S ni i} x_S|`.
//! Nothing certified is derived from it.
//!
//! ## Complexity
//! One LP solve from scratch (dual simplex) over the run's columns; O(nonzeros) to recompute
//! the checks.

use super::master::Master;

/// The restricted master's value over a run's columns.
#[derive(Debug, Clone, PartialEq)]
pub struct MasterUpper {
    /// HiGHS' optimal value of the unboxed, cut-free restricted master.
    pub value: f64,
    /// `sum_S c_S max(0, x_S)` recomputed from the primal solution.
    pub recomputed: f64,
    /// Largest `|1 - sum_{S ni i} max(0, x_S)|` over the records.
    pub residual: f64,
    /// Columns at a value above 1e-9.
    pub support: usize,
    /// Wall-clock seconds of the solve.
    pub seconds: f64,
}

impl std::fmt::Display for MasterUpper {
    /// The value with its checks, as progress lines and reports print it.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{:.6} (recomputed {:.6}, coverage residual {:.1e}, support {} columns, {:.1} s)",
            self.value, self.recomputed, self.residual, self.support, self.seconds
        )
    }
}

/// Solve the restricted master `min c x, A x = 1, x >= 0` over `columns` (sorted record
/// indices, together containing a partition of `0..n` so that it is feasible) with costs
/// `costs`, within `seconds`; `Ok(None)` when HiGHS stopped on that limit.
pub fn restricted_master_value(
    n: usize,
    columns: &[Vec<u32>],
    costs: &[f64],
    seconds: f64,
) -> Result<Option<MasterUpper>, String> {
    let start = std::time::Instant::now();
    let mut master = Master::new(n, columns.to_vec(), costs.to_vec(), None)?;
    let Some(sol) = master.solve(seconds)? else {
        return Ok(None);
    };
    let mut cover = vec![0.0f64; n];
    let mut recomputed = 0.0;
    let mut support = 0;
    for ((g, &c), &x) in columns.iter().zip(costs).zip(&sol.primal) {
        let x = x.max(0.0);
        if x > 1e-9 {
            support += 1;
        }
        recomputed += c * x;
        for &i in g {
            cover[i as usize] += x;
        }
    }
    let residual = cover.iter().fold(0.0f64, |m, a| m.max((1.0 - a).abs()));
    Ok(Some(MasterUpper {
        value: sol.value,
        recomputed,
        residual,
        support,
        seconds: start.elapsed().as_secs_f64(),
    }))
}
