//! # Exact optimum for small instances
//!
//! [`solve_exact`] returns a partition of the `n` records of `x` (row-major, `d` columns)
//! into groups of at least `k` records with minimum SSE, and whether its optimality is
//! proven. Two methods (both restrict group sizes to `k..=2k-1`, `proofs/P03-group-sizes.md`):
//!
//! - [`ExactMethod::SubsetDp`] ([`dp`]): dynamic programme over all subsets, n <=
//!   [`DP_MAX_N`] = 20 (2^n states, 20 MB at n = 20). Its bound is the tabulated optimum
//!   rounded down by its rounding error (P11 Claim A, P10).
//! - [`ExactMethod::SetPartitioning`] ([`setpart`]): column generation with exact pricing
//!   by enumeration ([`enumerate`]), then a certified branch and bound ([`branch`]) over
//!   exactly the groups whose reduced cost is within the gap between an upper bound and the
//!   Lagrangian bound (`proofs/P11-exact-small.md`, `proofs/P12-certified-branch-and-bound.md`).
//!   n <= [`SETPART_MAX_N`] = 64 by representation; in practice about n = 40 with k = 3..5 on
//!   synthetic data. On a time limit, a HiGHS failure or too many columns it returns the best
//!   partition found, a certified lower bound and a note, never an error.
//! - [`ExactMethod::Auto`]: the DP up to n = [`AUTO_DP_MAX_N`], the MIP beyond.
//!
//! "Proven optimal" is decided here, in one place ([`certify::is_proven`]): a certified lower
//! bound within the relative gap [`PROOF_REL_GAP`] = 1e-9 of a certified upper bound on the
//! exact SSE of the returned labels. HiGHS' "optimal" status is never taken as a proof.
//!
//! Input errors (k = 0, n < k, bad dimension, non-finite values, n above the method's limit)
//! are returned as [`SolverError`], never panics.
//!
//! ## Complexity
//! Exponential (the problem is NP-hard for d >= 2); see [`dp`] and [`setpart`].
//!
//! ## References
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. J. Global Optim. 60(2), 165-182.
//! - Held, M. and Karp, R. M. (1962). A dynamic programming approach to sequencing problems.
//!   J. SIAM 10(1), 196-210.

pub(crate) mod branch;
pub(crate) mod certify;
pub mod dp;
pub(crate) mod enumerate;
pub(crate) mod masks;
pub mod setpart;
pub(crate) mod stop;

pub use certify::{is_proven, partition_sse_upper, PROOF_REL_GAP};
pub use dp::DP_MAX_N;
pub use setpart::{SetPartOptions, SETPART_MAX_N};

use crate::SolverError;
use std::time::{Duration, Instant};

/// Largest n for which [`ExactMethod::Auto`] uses the subset DP.
pub const AUTO_DP_MAX_N: usize = 16;

/// Which exact method to use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ExactMethod {
    /// Subset DP for n <= [`AUTO_DP_MAX_N`], set-partitioning MIP beyond.
    #[default]
    Auto,
    /// Dynamic programme over subsets (n <= 20).
    SubsetDp,
    /// Column generation + reduced-cost filtering + set-partitioning MIP (HiGHS).
    SetPartitioning,
}

impl ExactMethod {
    /// Name used on the command line and in JSON.
    pub fn name(self) -> &'static str {
        match self {
            ExactMethod::Auto => "auto",
            ExactMethod::SubsetDp => "subset-dp",
            ExactMethod::SetPartitioning => "set-partitioning",
        }
    }

    /// Parse `auto`, `subset-dp` or `set-partitioning`.
    pub fn parse(s: &str) -> Option<ExactMethod> {
        [
            ExactMethod::Auto,
            ExactMethod::SubsetDp,
            ExactMethod::SetPartitioning,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
}

/// Options of [`solve_exact_with`].
#[derive(Debug, Clone, Default)]
pub struct ExactOptions<'a> {
    /// Method (default auto).
    pub method: ExactMethod,
    /// Wall-clock limit in seconds (set-partitioning only; the DP always runs to the end).
    pub time_limit: Option<f64>,
    /// A feasible labelling (e.g. from a heuristic) used as the initial upper bound of the
    /// set-partitioning method; ignored by the DP.
    pub hint: Option<Vec<usize>>,
    /// Tunables of the set-partitioning method.
    pub setpart: SetPartOptions,
    /// A flag set from outside (the workbench's Ctrl-C / SIGTERM flag): once set, the
    /// set-partitioning method stops as at its time limit, with its best partition, a
    /// certified bound and a note. The DP does not poll it.
    pub interrupt: Option<&'a std::sync::atomic::AtomicBool>,
}

/// An exact (or, on a time limit, best found) solution.
#[derive(Debug, Clone, PartialEq)]
pub struct ExactSolution {
    /// SSE of `labels`, recomputed by the two-pass formula.
    pub sse: f64,
    /// Group label of each record (0-based, every group has `k..=2k-1` records).
    pub labels: Vec<usize>,
    /// True when the certified `lower_bound` is within the relative gap [`PROOF_REL_GAP`]
    /// (1e-9) of a certified upper bound on the exact SSE of `labels`: no partition is better
    /// by more than that (`proofs/P12-certified-branch-and-bound.md`).
    pub proven_optimal: bool,
    /// Certified lower bound on the optimum (outward rounded; never from a solver's status).
    pub lower_bound: f64,
    /// The method that produced the solution (never `Auto`).
    pub method: ExactMethod,
    /// DP: (state, group) steps; set-partitioning: enumeration nodes over all pricing passes.
    pub nodes: u64,
    /// Set-partitioning: columns of the final MIP (0 for the DP).
    pub columns: usize,
    /// Set-partitioning: column generation rounds (0 for the DP).
    pub cg_iterations: usize,
    /// Set-partitioning: Lagrangian bound at the end of column generation (before rounding).
    pub lp_bound: Option<f64>,
    /// Set-partitioning: branch-and-bound nodes of the heuristic HiGHS MIP over the generated
    /// columns (-1 if HiGHS did not say).
    pub mip_nodes: i64,
    /// Set-partitioning: nodes of the certified branch and bound (0 for the DP).
    pub branch_nodes: u64,
    /// Why the set-partitioning method stopped before a proof (time limit, HiGHS failure,
    /// too many columns), if it did.
    pub note: Option<String>,
    /// Set-partitioning: seconds in [pricing and final enumeration, LP solves, MIP solves].
    pub phase_seconds: [f64; 3],
}

/// Exact optimum with the automatic method choice. `time_limit` in seconds (None: none).
pub fn solve_exact(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    time_limit: Option<f64>,
) -> Result<ExactSolution, SolverError> {
    solve_exact_with(
        x,
        n,
        d,
        k,
        &ExactOptions {
            time_limit,
            ..ExactOptions::default()
        },
    )
}

/// Exact optimum with explicit options.
pub fn solve_exact_with(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    opts: &ExactOptions,
) -> Result<ExactSolution, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if let Some(h) = &opts.hint {
        if h.len() != n {
            return Err(SolverError::BadDimension { len: h.len(), d: 1 });
        }
    }
    let method = match opts.method {
        ExactMethod::Auto if n <= AUTO_DP_MAX_N => ExactMethod::SubsetDp,
        ExactMethod::Auto => ExactMethod::SetPartitioning,
        m => m,
    };
    match method {
        ExactMethod::SubsetDp => {
            let r = dp::subset_dp(x, n, d, k, None)?;
            let sse = crate::sse::partition_sse(x, d, &r.labels);
            // The DP minimises computed costs, sums of nonnegative terms with at most `ops`
            // roundings each: OPT >= value / (1 + u)^ops (P10; P11 Claim A).
            let ops = 3 * d + (2 * k) * (2 * k) + n + 4;
            let lower_bound = crate::bounds::round_down_sum(r.value, ops);
            Ok(ExactSolution {
                proven_optimal: certify::is_proven(
                    lower_bound,
                    certify::partition_sse_upper(x, d, &r.labels),
                ),
                sse,
                labels: r.labels,
                lower_bound,
                method,
                nodes: r.steps,
                columns: 0,
                cg_iterations: 0,
                lp_bound: None,
                mip_nodes: 0,
                branch_nodes: 0,
                note: None,
                phase_seconds: [0.0; 3],
            })
        }
        _ => {
            if n > SETPART_MAX_N {
                return Err(SolverError::TooLargeFor {
                    method: "the set-partitioning MIP",
                    n,
                    max: SETPART_MAX_N,
                });
            }
            let deadline = opts
                .time_limit
                .map(|t| Instant::now() + Duration::from_secs_f64(t.clamp(0.0, 1e9)));
            let hint = opts.hint.as_deref().filter(|h| feasible(h, k));
            let stop = stop::Stop::new(deadline, opts.interrupt);
            let mut r = setpart::solve_setpart(x, n, d, k, hint, stop, &opts.setpart)?;
            // The nn bound (P06, certified, O(n^2 d)) backs a run stopped before column
            // generation produced a bound.
            r.lower_bound = r
                .lower_bound
                .max(crate::bounds::nn_bound(x, n, d, k)?.lower_bound);
            let sse = crate::sse::partition_sse(x, d, &r.labels);
            Ok(ExactSolution {
                sse,
                proven_optimal: certify::is_proven(
                    r.lower_bound,
                    certify::partition_sse_upper(x, d, &r.labels),
                ),
                lower_bound: r.lower_bound,
                labels: r.labels,
                method,
                nodes: r.nodes,
                columns: r.columns,
                cg_iterations: r.cg_iterations,
                lp_bound: r.lp_bound,
                mip_nodes: r.mip_nodes,
                branch_nodes: r.branch_nodes,
                note: r.note,
                phase_seconds: r.seconds,
            })
        }
    }
}

/// A hint is used only if every group has at least k records.
fn feasible(labels: &[usize], k: usize) -> bool {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut sizes = vec![0usize; g];
    labels.iter().for_each(|&l| sizes[l] += 1);
    sizes.iter().all(|&s| s == 0 || s >= k)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clusters_are_found_by_both_methods() {
        // Two tight clusters of 3 on a line: the optimum keeps them apart.
        let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.2];
        for method in [ExactMethod::SubsetDp, ExactMethod::SetPartitioning] {
            let opts = ExactOptions {
                method,
                ..Default::default()
            };
            let s = solve_exact_with(&x, 6, 1, 3, &opts).unwrap();
            assert!(s.proven_optimal);
            assert!((s.sse - 0.04).abs() < 1e-12, "{method:?}: {}", s.sse);
            assert_eq!(s.labels[0], s.labels[2]);
            assert_ne!(s.labels[0], s.labels[3]);
        }
    }

    #[test]
    fn bad_input_is_an_error() {
        assert_eq!(
            solve_exact(&[1.0, 2.0], 2, 1, 0, None),
            Err(SolverError::ZeroGroupSize)
        );
        assert!(matches!(
            solve_exact(&[1.0, 2.0], 2, 1, 3, None),
            Err(SolverError::Infeasible { .. })
        ));
        assert!(matches!(
            solve_exact(&[1.0, f64::NAN], 2, 1, 1, None),
            Err(SolverError::NonFinite { index: 1 })
        ));
        let big = vec![0.0; 70];
        assert!(matches!(
            solve_exact(&big, 70, 1, 3, None),
            Err(SolverError::TooLargeFor { max: 64, .. })
        ));
        let opts = ExactOptions {
            method: ExactMethod::SubsetDp,
            ..Default::default()
        };
        assert!(matches!(
            solve_exact_with(&[0.0; 21], 21, 1, 3, &opts),
            Err(SolverError::TooLargeFor { max: 20, .. })
        ));
    }
}
