//! # One-shot MIP models, written once against good_lp
//!
//! The models that are built, solved once and dropped, written against good_lp's modelling
//! API and solved by HiGHS (default) or by another solver compiled in ([`MipSolver`]):
//!
//! - [`set_partition`]: the set-partitioning MIP over a column pool (one binary per group,
//!   its SSE as cost, every record covered once). The pool MIP of branch-and-price and of
//!   the solution merges ([`crate::merge`]) and the heuristic MIP of the exact
//!   set-partitioning method ([`crate::exact::setpart`]) are this model.
//! - [`exact`]: the same model over every group of `k..=2k-1` records (small n).
//! - [`compact`]: an assignment formulation with fixed-size group slots and linearised pair
//!   products (small n).
//!
//! The LPs that are re-solved with warm starts (column generation masters, the assignment
//! LP, the node LPs of the certified branch and bound) stay on `highs` directly: good_lp
//! consumes its model when it solves. A MIP solver's "optimal" is never a proof here; the
//! callers recompute every SSE from the labels (`docs/developer/models.md`).
//!
//! ## Complexity
//! Building a model is linear in its nonzeros; solving it is NP-hard in general.
//!
//! ## References
//! See the submodules.

pub mod compact;
pub mod exact;
#[doc(hidden)]
pub mod native;
pub mod set_partition;
mod solver;

pub use solver::{solve, LpBinary, MipSolver};

use crate::sse::{partition_sse, pow2_near};
use crate::SolverError;
use good_lp::{Constraint, Expression, ProblemVariables};
use std::sync::atomic::AtomicBool;

/// A minimisation MIP in good_lp's terms, with the variables whose values are read back.
pub struct Mip {
    /// The variables (good_lp numbers them 0, 1, ... in order of creation).
    pub vars: ProblemVariables,
    /// The objective, minimised.
    pub objective: Expression,
    pub constraints: Vec<Constraint>,
    /// [`MipOutcome::values`] holds the values of the first `watched` variables.
    pub watched: usize,
    /// A feasible solution to start from, one value per variable (by its index), if any.
    pub start: Option<Vec<f64>>,
}

/// How one solve runs.
#[derive(Debug, Clone, Copy, Default)]
pub struct MipRun<'a> {
    /// Seconds; on the limit the best solution found is returned.
    pub time_limit: Option<f64>,
    /// A flag set from outside that stops the search with its best solution (HiGHS only;
    /// the other solvers stop at the time limit).
    pub interrupt: Option<&'a AtomicBool>,
}

/// Why a solve ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MipStatus {
    /// The solver says optimal (within its tolerances; not a proof).
    Optimal,
    TimeLimit,
    Interrupted,
    /// Any other end the solver reports, by its name.
    Other(String),
}

/// Solve a model of a partition from the feasible labelling `start`, costs scaled by the
/// power of two nearest to `n / SSE(start)` (exact): `solve_from(start, scale, run)` returns
/// labels. HiGHS' tolerances are absolute, so when the answer is far cheaper than the start
/// (its scale would differ), the model is solved again from the answer at its scale, at
/// most [`RESCALES`] times; `run`'s time limit covers all solves. Returns the last answer
/// and its status.
pub(crate) fn solve_rescaled(
    x: &[f64],
    d: usize,
    start: Vec<usize>,
    run: &MipRun,
    mut solve_from: impl FnMut(&[usize], f64, &MipRun) -> Result<(Vec<usize>, MipStatus), SolverError>,
) -> Result<(Vec<usize>, MipStatus), SolverError> {
    let began = std::time::Instant::now();
    let n = start.len() as f64;
    let (mut labels, mut status) = (start, MipStatus::Other("not solved".into()));
    for _ in 0..RESCALES {
        let scale = pow2_near(n / partition_sse(x, d, &labels));
        let left = run
            .time_limit
            .map(|t| (t - began.elapsed().as_secs_f64()).max(0.0));
        let this = MipRun {
            time_limit: left,
            interrupt: run.interrupt,
        };
        let (next, s) = solve_from(&labels, scale, &this)?;
        let sse = partition_sse(x, d, &next);
        (labels, status) = (next, s);
        if sse == 0.0 || pow2_near(n / sse) == scale || status != MipStatus::Optimal {
            break;
        }
    }
    Ok((labels, status))
}

/// Most solves of [`solve_rescaled`].
pub const RESCALES: usize = 6;

/// The answer of [`solve`].
#[derive(Debug, Clone, PartialEq)]
pub struct MipOutcome {
    /// Values of the watched variables (empty if the solver has no solution).
    pub values: Vec<f64>,
    pub status: MipStatus,
    /// Branch-and-bound nodes, where the solver says (HiGHS).
    pub nodes: Option<i64>,
}
