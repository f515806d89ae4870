//! # Set partitioning over a pool of groups (solution merging)
//!
//! [`solve_pool`] returns the partition of least SSE whose every group is in a given pool of
//! groups (columns): a set-partitioning MIP, one binary per distinct group with its SSE as
//! cost and every record covered exactly once ([`crate::models::set_partition`]), solved by
//! HiGHS (or the MIP solver given to [`solve_pool_with`]) from a given feasible
//! partition whose groups are always added to the pool. The start is feasible for the MIP,
//! so the result is never worse than it. [`merge_partitions`] is the special case whose pool
//! is the union of the groups of several partitions: where the inputs differ, it takes the
//! best combination of their versions (recombination of local optima). Fed with the groups
//! an iterated local search visits, this is the set-partitioning step of the ILS-SP
//! matheuristic (Subramanian et al. 2013).
//!
//! The costs are scaled by the power of two nearest to `n / SSE(start)` before they reach
//! HiGHS, so that its absolute tolerances (1e-6 on integrality, 1e-7 on reduced costs) are
//! small against every group's cost whatever the units of the data; scaling by a power of
//! two is exact, so the optimal set of groups is unchanged. The returned SSE is recomputed
//! from the labels by the two-pass formula; if HiGHS' answer is not strictly better than the
//! start (or is not a partition), the start is returned.
//!
//! ## Complexity
//! O(C m d) to cost C groups of at most m records; the MIP is NP-hard in general. Pools
//! drawn from nearby local optima of one instance are usually solved at or near the root
//! (measured in `studies/study-merge.txt`).
//!
//! ## References
//! - Subramanian, A., Uchoa, E. and Ochi, L. S. (2013). A hybrid algorithm for a class of
//!   vehicle routing problems. Computers & Operations Research 40(10), 2519-2531
//!   (iterated local search with a set-partitioning model over the pool of routes).
//! - Rochat, Y. and Taillard, E. D. (1995). Probabilistic diversification and
//!   intensification in local search for vehicle routing. J. Heuristics 1, 147-167.

use crate::models::{set_partition, MipRun, MipSolver, MipStatus};
use crate::sse::{columns_sse, partition_sse};
use crate::SolverError;
use std::collections::{BTreeMap, HashMap};

/// Outcome of [`solve_pool`] and [`merge_partitions`].
#[derive(Debug, Clone, PartialEq)]
pub struct MergeResult {
    /// Group label of each record (0-based, numbered in order of first appearance).
    pub labels: Vec<usize>,
    /// SSE of `labels` (two-pass).
    pub sse: f64,
    /// Distinct groups offered to the MIP.
    pub columns: usize,
    /// True when the MIP solver reported the MIP optimal over the offered groups.
    pub optimal: bool,
    /// True when `labels` is strictly better than the start.
    pub improved: bool,
}

/// The groups of a labelling, as sorted member lists, ordered by label (deterministic).
pub fn groups_of(labels: &[usize]) -> Vec<Vec<u32>> {
    let mut groups: BTreeMap<usize, Vec<u32>> = BTreeMap::new();
    for (i, &l) in labels.iter().enumerate() {
        groups.entry(l).or_default().push(i as u32);
    }
    groups.into_values().collect()
}

/// Best partition whose groups all come from `pool` or from `start` (a feasible labelling
/// of the `n` rows of `x`, row-major with `d` columns, groups of at least `k`). Pool groups
/// must be sorted member lists of at least `k` records below `n`; duplicates are ignored.
/// `time_limit` in seconds bounds the MIP; on the limit the best solution HiGHS found is
/// used.
pub fn solve_pool(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    pool: &[Vec<u32>],
    start: &[usize],
    time_limit: Option<f64>,
) -> Result<MergeResult, SolverError> {
    let run = MipRun {
        time_limit,
        interrupt: None,
    };
    solve_pool_with(x, n, d, k, pool, start, MipSolver::Highs, &run)
}

/// [`solve_pool`] with the MIP solved by `solver` under `run` (its time limit, and with
/// HiGHS its interrupt flag: once set, the MIP stops with the best solution it holds).
#[allow(clippy::too_many_arguments)]
pub fn solve_pool_with(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    pool: &[Vec<u32>],
    start: &[usize],
    solver: MipSolver,
    run: &MipRun,
) -> Result<MergeResult, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if start.len() != n {
        return Err(SolverError::BadDimension {
            len: start.len(),
            d: 1,
        });
    }
    let start_groups = groups_of(start);
    if let Some(g) = start_groups.iter().find(|g| g.len() < k) {
        return Err(SolverError::backend(format!(
            "the start has a group of {} records, fewer than k = {k}",
            g.len()
        )));
    }
    let columns = distinct_columns(&start_groups, pool, n, k)?;
    let start_sse = partition_sse(x, d, start);
    // A power of two: scaling is exact, so the order of costs and their ties are kept.
    let scale = crate::sse::pow2_near(n as f64 / start_sse);
    let costs: Vec<f64> = columns_sse(x, d, &columns)
        .into_iter()
        .map(|c| c * scale)
        .collect();
    // The start's groups are the first columns.
    let chosen: Vec<usize> = (0..start_groups.len()).collect();
    let out = set_partition::solve_pool_mip(n, &columns, &costs, Some(&chosen), solver, run)?;
    let optimal = out.status == MipStatus::Optimal;
    let unchanged = MergeResult {
        labels: canonical(start),
        sse: start_sse,
        columns: columns.len(),
        optimal,
        improved: false,
    };
    let Some(labels) = set_partition::picked_labels(n, &columns, &out.values) else {
        return Ok(unchanged);
    };
    let sse = partition_sse(x, d, &labels);
    if sse >= start_sse {
        return Ok(unchanged);
    }
    Ok(MergeResult {
        labels: canonical(&labels),
        sse,
        columns: columns.len(),
        optimal,
        improved: true,
    })
}

/// The start's groups, then the pool's groups not seen before, in order; an error for a
/// pool group that is not a sorted list of at least `k` records below `n`.
fn distinct_columns<'a>(
    start_groups: &'a [Vec<u32>],
    pool: &'a [Vec<u32>],
    n: usize,
    k: usize,
) -> Result<Vec<&'a [u32]>, SolverError> {
    let mut index: HashMap<&[u32], usize> = HashMap::new();
    let mut columns: Vec<&[u32]> = Vec::new();
    for g in start_groups.iter().chain(pool) {
        if g.len() < k || g.iter().any(|&i| i as usize >= n) || !g.is_sorted() {
            return Err(SolverError::backend(format!(
                "pool group {g:?} is not a sorted list of at least k = {k} records below {n}"
            )));
        }
        let next = columns.len();
        if *index.entry(g.as_slice()).or_insert(next) == next {
            columns.push(g);
        }
    }
    Ok(columns)
}

/// Best partition whose groups all come from `partitions` (feasible labellings of the same
/// `n` records): [`solve_pool`] from the best of them (the first on ties) with the groups of
/// the others as the pool. `improved` means strictly better than every input.
pub fn merge_partitions(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    partitions: &[&[usize]],
    time_limit: Option<f64>,
) -> Result<MergeResult, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if let Some(p) = partitions.iter().find(|p| p.len() != n) {
        return Err(SolverError::BadDimension { len: p.len(), d: 1 });
    }
    let best = (0..partitions.len())
        .map(|p| (partition_sse(x, d, partitions[p]), p))
        .min_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)))
        .ok_or_else(|| SolverError::backend("no partition to merge"))?
        .1;
    let pool: Vec<Vec<u32>> = partitions
        .iter()
        .enumerate()
        .filter(|&(p, _)| p != best)
        .flat_map(|(_, labels)| groups_of(labels))
        .collect();
    solve_pool(x, n, d, k, &pool, partitions[best], time_limit)
}

/// Labels renumbered 0, 1, ... in order of first appearance.
pub(crate) fn canonical(labels: &[usize]) -> Vec<usize> {
    let mut map: HashMap<usize, usize> = HashMap::new();
    labels
        .iter()
        .map(|&l| {
            let next = map.len();
            *map.entry(l).or_insert(next)
        })
        .collect()
}
