//! # The exact set-partitioning model (every group enumerated)
//!
//! [`exact_set_partition`] lists every group of `k..=2k-1` of the n records (some optimal
//! partition uses only such sizes, `proofs/P03-group-sizes.md`), costs each by its
//! two-pass SSE and solves the set-partitioning MIP of [`super::set_partition`] over all of
//! them, from the chunk partition along the first attribute. Its optimum is the optimal SSE
//! up to the solver's tolerances; nothing is certified (the certified exact methods are in
//! [`crate::exact`]). Costs are scaled by the power of two nearest to `n / SSE(start)`
//! (exact), and solved again from the answer at its own scale when that differs
//! ([`super::solve_rescaled`]): the solvers' tolerances are absolute.
//!
//! ## Complexity
//! `sum_{s=k}^{2k-1} C(n, s)` columns, at most [`EXACT_MAX_COLUMNS`] (about n = 24 at
//! k = 3, n = 16 at k = 5); O(columns · k d) to cost them; the MIP is NP-hard.
//!
//! ## References
//! - Garfinkel, R. S. and Nemhauser, G. L. (1969). The set-partitioning problem: set
//!   covering with equality constraints. Operations Research 17(5), 848-856.

use super::set_partition::{picked_labels, solve_pool_mip};
use super::{solve_rescaled, MipRun, MipSolver, MipStatus};
use crate::merge::{canonical, groups_of};
use crate::sse::{columns_sse, partition_sse};
use crate::SolverError;
use std::collections::HashMap;

/// Most groups [`exact_set_partition`] lists.
pub const EXACT_MAX_COLUMNS: usize = 200_000;

/// A partition a model returned.
#[derive(Debug, Clone, PartialEq)]
pub struct ModelPartition {
    /// Group label of each record, numbered in order of first appearance.
    pub labels: Vec<usize>,
    /// SSE of `labels` (two-pass).
    pub sse: f64,
    /// How the solve ended (`Optimal`: the solver's word, within its tolerances).
    pub status: MipStatus,
    /// Variables of the model.
    pub variables: usize,
}

/// Every group of `k..=2k-1` of `n` records, by size then lexicographically; an error when
/// there are more than [`EXACT_MAX_COLUMNS`].
pub fn all_groups(n: usize, k: usize) -> Result<Vec<Vec<u32>>, SolverError> {
    let count: u128 = (k..2 * k).map(|s| binomial(n, s)).sum();
    if count > EXACT_MAX_COLUMNS as u128 {
        return Err(SolverError::TooLargeFor {
            method: "the exact set-partitioning model (at this k)",
            n,
            max: largest_n(k),
        });
    }
    let mut out = Vec::with_capacity(count as usize);
    for s in k..(2 * k).min(n + 1) {
        let mut c: Vec<u32> = (0..s as u32).collect();
        loop {
            out.push(c.clone());
            // Next combination in lexicographic order.
            let Some(p) = (0..s).rev().find(|&p| (c[p] as usize) < n - s + p) else {
                break;
            };
            c[p] += 1;
            for q in p + 1..s {
                c[q] = c[q - 1] + 1;
            }
        }
    }
    Ok(out)
}

/// C(n, s), saturating.
fn binomial(n: usize, s: usize) -> u128 {
    if s > n {
        return 0;
    }
    (0..s as u128).fold(1u128, |acc, i| acc.saturating_mul(n as u128 - i) / (i + 1))
}

/// The largest n whose group list fits [`EXACT_MAX_COLUMNS`] at this k.
fn largest_n(k: usize) -> usize {
    (k..)
        .take_while(|&n| {
            (k..2 * k).map(|s| binomial(n, s)).sum::<u128>() <= EXACT_MAX_COLUMNS as u128
        })
        .last()
        .unwrap_or(k)
}

/// The least-SSE partition of the `n` records of `x` (row-major, `d` columns) into groups
/// of at least `k`, by the set-partitioning MIP over every group of `k..=2k-1` records.
pub fn exact_set_partition(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    solver: MipSolver,
    run: &MipRun,
) -> Result<ModelPartition, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    let groups = all_groups(n, k)?;
    let sse = columns_sse(x, d, &groups);
    let index: HashMap<&[u32], usize> = groups
        .iter()
        .enumerate()
        .map(|(c, g)| (g.as_slice(), c))
        .collect();
    let columns: Vec<&[u32]> = groups.iter().map(Vec::as_slice).collect();
    let solve_from = |start: &[usize], scale: f64, run: &MipRun| {
        let costs: Vec<f64> = sse.iter().map(|c| c * scale).collect();
        let chosen: Vec<usize> = groups_of(start)
            .iter()
            .map(|g| index[g.as_slice()])
            .collect();
        let out = solve_pool_mip(n, &columns, &costs, Some(&chosen), solver, run)?;
        let labels = picked_labels(n, &columns, &out.values).ok_or_else(|| {
            no_answer(
                "the exact set-partitioning model: no partition",
                &out.status,
            )
        })?;
        Ok((labels, out.status))
    };
    let (labels, status) = solve_from_chunks(x, n, d, k, run, solve_from)?;
    Ok(ModelPartition::of(x, d, labels, status, columns.len()))
}

impl ModelPartition {
    /// The answer `labels` (canonical) with its SSE, the solve's `status` and the model's
    /// `variables`.
    pub(super) fn of(
        x: &[f64],
        d: usize,
        labels: Vec<usize>,
        status: MipStatus,
        variables: usize,
    ) -> Self {
        ModelPartition {
            sse: partition_sse(x, d, &labels),
            labels,
            status,
            variables,
        }
    }
}

/// [`solve_rescaled`] from the chunk partition ([`crate::exact::setpart::chunk_labels`]),
/// the answer's labels made canonical.
pub(super) fn solve_from_chunks(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    run: &MipRun,
    solve_from: impl FnMut(&[usize], f64, &MipRun) -> Result<(Vec<usize>, MipStatus), SolverError>,
) -> Result<(Vec<usize>, MipStatus), SolverError> {
    let start = crate::exact::setpart::chunk_labels(x, n, d, k);
    let (labels, status) = solve_rescaled(x, d, start, run, solve_from)?;
    Ok((canonical(&labels), status))
}

/// The error for an answer without a partition: `what` ("the ... model: no ...") and the
/// solver's status.
pub(super) fn no_answer(what: &str, status: &MipStatus) -> SolverError {
    SolverError::backend(format!("{what} in the answer ({status:?})"))
}
