//! # Set-partitioning MIP over reduced-cost-filtered groups (exact, n <= 64)
//!
//! The master problem: one binary `z_G` per group `G` with `k <= |G| <= 2k-1`, cost SSE(G),
//! `min sum_G SSE(G) z_G` s.t. every record is covered exactly once. Some optimal
//! microaggregation uses only such groups (`proofs/P03-group-sizes.md`), so the master's
//! optimum is the optimal SSE. There are far too many groups to list (C(40, 9) = 2.7e8 at
//! k = 5), so:
//!
//! 1. **Column generation** on the LP relaxation (HiGHS simplex, model rebuilt each round,
//!    which costs milliseconds at n <= 64): start from the groups of each record with its
//!    `k - 1` nearest neighbours and a feasible partition (chunks along the first attribute,
//!    plus the caller's labels if given); price exactly with [`super::enumerate`]
//!    ([`Mode::Best`](super::enumerate::Mode): the `pricing_cap` most negative groups); stop
//!    when the least reduced cost is `>= -tol`. Every complete pricing pass gives the
//!    Lagrangian bound `sum_i y_i + floor(n/k) min(0, rho)` (rho = the proven least reduced
//!    cost), reported as a lower bound if the run stops early.
//! 2. **Upper bound**: the best of the starting partitions (chunks along the first
//!    attribute, MDAV, the caller's labels) and of a time-capped MIP over the generated
//!    columns ([`crate::models::set_partition`], HiGHS or the solver of
//!    [`SetPartOptions::mip_solver`]; a heuristic: its answer is only used as a partition).
//! 3. **Reduced-cost filtering** (`proofs/P11-exact-small.md`, Theorem 2): with any duals
//!    `y`, a certified lower bound `rho <= 0` on the least reduced cost and a certified upper
//!    bound `UB` on the incumbent's SSE, every group of a partition cheaper than the incumbent
//!    has `rc(G) <= UB - sum y - (floor(n/k) - 1) rho`. All such groups are enumerated
//!    exactly ([`Mode::All`](super::enumerate::Mode)), with the rounding margin of P12.
//! 4. **Certified branch and bound** over exactly those groups ([`super::branch`]): node
//!    bounds are Lagrangian bounds recomputed with outward rounding from HiGHS' duals, so the
//!    proof never rests on HiGHS' tolerances (`proofs/P12-certified-branch-and-bound.md`).
//!
//! The answer is "proven optimal" (decided in [`super::solve_exact_with`]) when the certified
//! lower bound is within [`super::PROOF_REL_GAP`] of a certified upper bound on the SSE. A
//! deadline, an interrupt, a HiGHS failure or a gap holding more than `max_columns` groups end the search
//! early with the best partition and bound so far and a note; they are never errors.
//!
//! The master LP/MIP is in `setpart/master.rs`, the starting partitions in
//! `setpart/start.rs`, phase 1 (steps 1 and 2) in `setpart/columns.rs`, phase 2 (steps 3
//! and 4) in `setpart/prove.rs`.
//!
//! ## Complexity
//! Each pricing pass is a pruned enumeration (exponential worst case); the branch and bound
//! works on as many columns as groups within the reduced-cost gap (tens to tens of thousands
//! for n = 40 on synthetic data; no proof is attempted beyond `max_columns`). Timings are
//! printed by the ignored test `tests/exact/exact.rs::set_partitioning_timings_n40`.
//!
//! ## References
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. J. Global Optim. 60(2), 165-182.
//! - Desrosiers, J. and Luebbecke, M. E. (2005). A primer in column generation. In Column
//!   Generation, Springer, 1-32 (Lagrangian bound during column generation).
//! - Baldacci, R., Christofides, N. and Mingozzi, A. (2008). An exact algorithm for the
//!   vehicle routing problem based on the set partitioning formulation with additional cuts.
//!   Math. Program. 115, 351-385 (enumerating the columns within the reduced-cost gap).

mod columns;
mod master;
mod prove;
mod start;

/// The share of the time left that the heuristic MIP of step 2 may take under a deadline.
const MIP_SHARE: f64 = 0.5;

use super::certify::partition_sse_upper;
use super::masks::bits;
use super::stop::Stop;
use crate::models::MipSolver;
use crate::sse::group_sse;
use crate::SolverError;
use columns::generate_columns;
use prove::prove;
pub(crate) use start::chunk_labels;
use start::mdav_labels;

/// Largest n of the set-partitioning method (groups are 64-bit masks).
pub const SETPART_MAX_N: usize = 64;

/// Tunables of the set-partitioning method.
#[derive(Debug, Clone, PartialEq)]
pub struct SetPartOptions {
    /// Groups added per pricing pass (the most negative ones).
    pub pricing_cap: usize,
    /// Column generation stops when the least reduced cost is `>= -pricing_tol * (1 + |z|)`.
    pub pricing_tol: f64,
    /// Attempt no proof (the answer is then unproven) when the reduced-cost gap holds more
    /// groups than this.
    pub max_columns: usize,
    /// Seconds allowed to the heuristic MIP over the generated columns (an upper bound only).
    pub heuristic_mip_seconds: f64,
    /// The solver of that heuristic MIP (HiGHS by default; the LPs stay on HiGHS).
    pub mip_solver: MipSolver,
}

impl Default for SetPartOptions {
    fn default() -> Self {
        SetPartOptions {
            pricing_cap: 200,
            pricing_tol: 1e-9,
            max_columns: 2_000_000,
            heuristic_mip_seconds: 10.0,
            mip_solver: MipSolver::Highs,
        }
    }
}

/// Outcome of the set-partitioning method.
pub(crate) struct SetPartResult {
    pub labels: Vec<usize>,
    /// Best certified lower bound on the optimum.
    pub lower_bound: f64,
    /// Lagrangian bound at the end of column generation (`None` if no complete pricing pass).
    pub lp_bound: Option<f64>,
    pub cg_iterations: usize,
    pub nodes: u64,
    pub columns: usize,
    pub mip_nodes: i64,
    /// Nodes of the certified branch and bound.
    pub branch_nodes: u64,
    /// Seconds in pricing / final enumeration, in LP solves, in MIP solves.
    pub seconds: [f64; 3],
    /// Why the search ended before a proof, if it did.
    pub note: Option<String>,
}

/// Two-pass SSE of the records of `mask`.
fn mask_sse(x: &[f64], d: usize, mask: u64) -> f64 {
    group_sse(x, d, &bits(mask).collect::<Vec<_>>())
}

/// Groups of a feasible labelling as masks (labels must be a partition with sizes in
/// k..2k-1; other groups are dropped, since the master only knows those sizes).
fn masks_of_labels(labels: &[usize], k: usize) -> Vec<u64> {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut masks = vec![0u64; g];
    for (i, &l) in labels.iter().enumerate() {
        masks[l] |= 1u64 << i;
    }
    masks
        .into_iter()
        .filter(|m| (k..2 * k).contains(&(m.count_ones() as usize)))
        .collect()
}

/// The set-partitioning method on validated input (`2 <= ... `, `n <= 64`).
///
/// HiGHS' tolerances are absolute (1e-7 on reduced costs, 1e-6 on integrality), so on a
/// region of near-identical records, whose optimum may be 1e-4, they are not small against
/// the costs. The records are therefore scaled by a power of two `s` chosen so that the SSE
/// of the best starting partition (chunks, MDAV, the caller's hint) becomes about `n`.
/// Multiplying by a power of two is exact in floating point, and SSE(G; s x) = s^2 SSE(G; x),
/// so the scaled problem has the same optimal partitions and its bounds divided by s^2 are
/// bounds of the original (`proofs/P11-exact-small.md`). The scaling only helps HiGHS steer:
/// no proof relies on HiGHS (`proofs/P12-certified-branch-and-bound.md`).
pub(crate) fn solve_setpart(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    hint: Option<&[usize]>,
    stop: Stop,
    opts: &SetPartOptions,
) -> Result<SetPartResult, SolverError> {
    if n > SETPART_MAX_N {
        return Err(SolverError::TooLargeFor {
            method: "the set-partitioning MIP",
            n,
            max: SETPART_MAX_N,
        });
    }
    // Scaling by a positive factor keeps every order and nearest neighbour, so the starting
    // partitions are the same on the scaled data.
    let mut start = chunk_labels(x, n, d, k);
    let mut ub = crate::sse::partition_sse(x, d, &start);
    for candidate in [Some(mdav_labels(x, n, d, k)), hint.map(<[usize]>::to_vec)]
        .into_iter()
        .flatten()
    {
        let s = crate::sse::partition_sse(x, d, &candidate);
        if s < ub {
            ub = s;
            start = candidate;
        }
    }
    if partition_sse_upper(x, d, &start) == 0.0 {
        // A partition of identical records: nothing is below zero, no search is needed.
        return Ok(Progress::start(x, d, start).finish());
    }
    let max_abs = x.iter().fold(0.0f64, |m, v| m.max(v.abs()));
    let s1 = bounded_scale((n as f64 / ub).sqrt(), max_abs);
    let x1: Vec<f64> = x.iter().map(|&v| v * s1).collect();
    let (mut p, last) = generate_columns(&x1, n, d, k, start, stop, opts);
    let mut scale = s1;
    let r = match last {
        None => p.finish(),
        Some((mut y, mut rho)) => {
            // Rescale once more so that the incumbent found (often far better than the
            // starting partition) is about n: the node LPs then see costs near 1.
            let s2 = bounded_scale((n as f64 / p.sse).sqrt(), max_abs * s1);
            let x2: Vec<f64> = x1.iter().map(|&v| v * s2).collect();
            let q = s2 * s2;
            y.iter_mut().for_each(|v| *v *= q);
            rho *= q;
            p.sse = crate::sse::partition_sse(&x2, d, &p.labels);
            p.lower_bound *= q;
            p.lp_bound = p.lp_bound.map(|b| b * q);
            scale *= s2;
            prove(&x2, n, d, k, p, &y, rho, stop, opts)
        }
    };
    Ok(unscale(r, scale))
}

/// The power of two nearest to `ratio`, or 1 when the scaled data (largest magnitude
/// `max_abs`) would leave [2^-400, 2^200] (squares and sums must neither overflow nor lose
/// their exactness to subnormals).
fn bounded_scale(ratio: f64, max_abs: f64) -> f64 {
    let s = crate::sse::pow2_near(ratio);
    let scaled = max_abs * s;
    if max_abs == 0.0 || (scaled <= 2f64.powi(200) && scaled >= 2f64.powi(-400)) {
        s
    } else {
        1.0
    }
}

/// Bounds of a run on data multiplied by `scale` (a power of two), back on the original
/// scale: exact divisions, so the outward rounding is kept.
fn unscale(mut r: SetPartResult, scale: f64) -> SetPartResult {
    let q = scale * scale;
    r.lower_bound /= q;
    r.lp_bound = r.lp_bound.map(|b| b / q);
    r
}

/// The best partition known and the best certified lower bound, as they improve.
struct Progress {
    labels: Vec<usize>,
    sse: f64,
    lower_bound: f64,
    lp_bound: Option<f64>,
    cg_iterations: usize,
    nodes: u64,
    columns: usize,
    mip_nodes: i64,
    branch_nodes: u64,
    seconds: [f64; 3],
    note: Option<String>,
}

impl Progress {
    /// Nothing done yet: the starting partition and the bound 0.
    fn start(x: &[f64], d: usize, labels: Vec<usize>) -> Self {
        Progress {
            sse: crate::sse::partition_sse(x, d, &labels),
            labels,
            lower_bound: 0.0,
            lp_bound: None,
            cg_iterations: 0,
            nodes: 0,
            columns: 0,
            mip_nodes: 0,
            branch_nodes: 0,
            seconds: [0.0; 3],
            note: None,
        }
    }

    fn offer(&mut self, x: &[f64], d: usize, labels: Vec<usize>) {
        let s = crate::sse::partition_sse(x, d, &labels);
        if s < self.sse {
            self.sse = s;
            self.labels = labels;
        }
    }

    fn finish(self) -> SetPartResult {
        SetPartResult {
            labels: self.labels,
            lower_bound: self.lower_bound.max(0.0),
            lp_bound: self.lp_bound,
            cg_iterations: self.cg_iterations,
            nodes: self.nodes,
            columns: self.columns,
            mip_nodes: self.mip_nodes,
            branch_nodes: self.branch_nodes,
            seconds: self.seconds,
            note: self.note,
        }
    }
}
