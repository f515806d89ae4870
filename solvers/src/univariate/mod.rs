//! # Optimal univariate microaggregation
//!
//! Exact algorithms for partitioning `n` real values into groups of at least `k` values
//! minimising the within-group SSE. By Hansen and Mukherjee's theorem an optimal partition
//! exists whose groups are contiguous runs of the sorted values with sizes `k..=2k-1`
//! (`proofs/P04-univariate-contiguity-dp.md`), so the problem is a shortest path over cut
//! positions `0..=n` of the sorted values: `F[0] = 0`,
//! `F[j] = min { F[i] + w(i, j) : k <= j - i <= 2k-1 }`, with `w(i, j)` the SSE of
//! `sorted[i..j]`.
//!
//! Methods (all exact, all returning a [`Segmentation`] of the sorted values):
//! - [`univariate_optimal`]: the fastest exact method; dispatches to [`univariate_dp`] for
//!   `k <= DP_MAX_K` (a bounded `k`, so O(n), and with a smaller constant than SMAWK there)
//!   and to [`univariate_smawk`] otherwise; O(n) in all cases.
//! - [`univariate_smawk`]: O(n). Rows `j` of the DP are processed in blocks of `k`; all
//!   predecessors of a block are final before the block starts, and the block's matrix
//!   `F[i] + w(i, j)` is Monge, so SMAWK finds its row minima in O(k)
//!   (`proofs/P08-monge-fast-univariate.md`).
//! - [`univariate_dp`]: O(nk) scan of the `k` admissible predecessors of each cut.
//! - [`univariate_brute_force`]: all set partitions (any order, no contiguity assumed),
//!   `n <= BRUTE_FORCE_MAX_N`; the test oracle.
//! - [`univariate_weighted_runs`] (sampling weights): the minimum weighted SSE over sorted
//!   runs, O(nk); globally optimal only for equal weights (see "Sampling weights").
//! - [`univariate_weighted_brute_force`]: every set partition, weighted SSE; the oracle.
//!
//! Group costs are evaluated from prefix sums of values centred on a local reference, rebuilt
//! per block of `k` cuts over a window of at most `3k-2` values (never global prefix sums of
//! squares, which cancel catastrophically for large `n` and small spreads). The reported
//! `sse` is recomputed exactly from the chosen sizes (two-pass per group, compensated sum).
//!
//! Input rules: `k >= 1`, every value finite, `n >= k` (else [`SolverError::Infeasible`]);
//! the DP and SMAWK methods require ascending input ([`SolverError::Unsorted`]; use
//! [`sorting_order`] and [`Segmentation::labels_along`] for unsorted data). For
//! `k <= n <= 2k-1` the answer is the single group. Ties between equal-cost segmentations
//! are broken towards the smaller predecessor cut (as computed in floating point; different
//! methods may therefore return different segmentations of equal SSE).
//!
//! ## Sampling weights
//! Records with values `x_i` and sampling weights `w_i > 0`; a group's weighted SSE is
//! `sum_{i in G} w_i (x_i - c_w(G))^2` with the weighted mean `c_w(G) = sum w_i x_i / sum w_i`;
//! the size constraint stays on record counts (`|G| >= k`). The input rules and the reported
//! `sse` (two-pass per group, compensated sum) are those of the unweighted methods, with one
//! finite positive weight per value; unit weights give the unweighted SSE bit for bit.
//! Unlike the unweighted problem, the optimum over *all* partitions need not consist of
//! sorted runs when the weights differ: a light record is a cheap filler for a group's
//! count, wherever its value lies (`proofs/P40-weighted-sse.md` gives a 7-record
//! counterexample; `tests/release/weights.rs` checks it). So [`univariate_weighted_runs`] is
//! optimal over sorted runs (Lemma W2 of P40), and globally optimal when all weights are
//! equal (then the weighted SSE is a constant multiple of the SSE and Hansen and
//! Mukherjee's theorem applies).
//!
//! ## Complexity
//! SMAWK and `univariate_optimal`: O(n) time, O(n + k) memory. DP: O(nk) time, O(n + k)
//! memory (weighted runs: O(nk) time, O(n) memory). Brute force: O(Bell(n) n). All but brute
//! force also validate sortedness in O(n).
//!
//! ## References
//! - Hansen, S. L. and Mukherjee, S. (2003). A polynomial algorithm for optimal univariate
//!   microaggregation. IEEE Transactions on Knowledge and Data Engineering 15(4), 1043-1044.
//! - Aggarwal, A., Klawe, M. M., Moran, S., Shor, P. and Wilber, R. (1987). Geometric
//!   applications of a matrix-searching algorithm. Algorithmica 2, 195-208 (SMAWK).
//! - Wilber, R. (1988). The concave least-weight subsequence problem revisited. Journal of
//!   Algorithms 9(3), 418-425.
//! - Stamm, F. I. and Schaub, M. T. (2024). Faster optimal univariate microaggregation.
//!   arXiv preprint (the `microagg1d` package implements it).
//! - West, D. H. D. (1979). Updating mean and variance estimates: an improved method.
//!   Communications of the ACM 22(9), 532-535 (weighted incremental update).

mod brute;
mod dp;
mod fast;
mod window;

pub use brute::{
    univariate_brute_force, univariate_weighted_brute_force, Partition, BRUTE_FORCE_MAX_N,
};
pub use dp::{univariate_dp, univariate_weighted_runs};
pub use fast::univariate_smawk;

use crate::error::SolverError;
use crate::segmentation::{CompensatedSum, Segmentation};

/// Largest `k` for which [`univariate_optimal`] uses the O(nk) scan instead of SMAWK.
/// Measured with `examples/bench_univariate.rs` at n = 1e6 (thread CPU time): SMAWK costs
/// about 20 cost evaluations per cut whatever `k`, the scan `k`; the crossover is near
/// k = 28 (k = 24: scan 62 ms, SMAWK 88 ms; k = 32: scan 92 ms, SMAWK 74 ms).
pub const DP_MAX_K: usize = 28;

/// Optimal univariate microaggregation of ascending `sorted` values with minimum group size
/// `k`, by the fastest exact method (see the module docs).
pub fn univariate_optimal(sorted: &[f64], k: usize) -> Result<Segmentation, SolverError> {
    if k <= DP_MAX_K {
        univariate_dp(sorted, k)
    } else {
        univariate_smawk(sorted, k)
    }
}

/// The permutation that sorts `values` ascending (ties by index, so it is deterministic):
/// `values[order[0]] <= values[order[1]] <= ...`. Fails on a non-finite value.
pub fn sorting_order(values: &[f64]) -> Result<Vec<usize>, SolverError> {
    if let Some(index) = values.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index });
    }
    let mut order: Vec<usize> = (0..values.len()).collect();
    order.sort_by(|&a, &b| values[a].total_cmp(&values[b]).then(a.cmp(&b)));
    Ok(order)
}

/// Checks `k >= 1`, finiteness, (if `require_sorted`) ascending order, `n >= k` and then the
/// `weights` if any: one per value, each finite and positive.
pub(crate) fn validate(
    values: &[f64],
    weights: Option<&[f64]>,
    k: usize,
    require_sorted: bool,
) -> Result<(), SolverError> {
    if k == 0 {
        return Err(SolverError::ZeroGroupSize);
    }
    if let Some(index) = values.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index });
    }
    if require_sorted {
        if let Some(p) = values.windows(2).position(|w| w[1] < w[0]) {
            return Err(SolverError::Unsorted { index: p + 1 });
        }
    }
    if values.len() < k {
        return Err(SolverError::Infeasible { n: values.len(), k });
    }
    let Some(weights) = weights else {
        return Ok(());
    };
    if weights.len() != values.len() {
        return Err(SolverError::BadDimension {
            len: weights.len(),
            d: values.len(),
        });
    }
    crate::error::check_weights(weights, values.len())
}

/// The shortest-path tables of the O(nk) scans and of SMAWK over the cuts `0..=n` of
/// ascending `sorted` values with optional `weights` (errors as [`validate`] with sorting
/// required): `(best, pred)`, `best[j]` the least SSE of the prefix ending at cut `j` (0 at
/// cut 0, infinite elsewhere until computed) and `pred[j]` its last group's first cut. None
/// when `n < 2k`: the single group is then optimal.
pub(crate) fn cut_tables(
    sorted: &[f64],
    weights: Option<&[f64]>,
    k: usize,
) -> Result<Option<CutTables>, SolverError> {
    validate(sorted, weights, k, true)?;
    let n = sorted.len();
    if n < 2 * k {
        return Ok(None);
    }
    let mut best = vec![f64::INFINITY; n + 1];
    best[0] = 0.0;
    Ok(Some((best, vec![0usize; n + 1])))
}

/// What [`cut_tables`] returns: `(best, pred)`, over the cuts `0..=n`.
pub(crate) type CutTables = (Vec<f64>, Vec<usize>);

/// Two-pass SSE of a slice (mean first, then squared deviations), weighted when `weights`
/// (one per value) are given: the weighted mean, then `sum w (x - mean)^2`. Unit weights
/// change no bit (each product by 1 is exact, and the weights add up to `n` exactly).
pub(crate) fn slice_sse(values: &[f64], weights: Option<&[f64]>) -> f64 {
    let weight = |i: usize| weights.map_or(1.0, |w| w[i]);
    let total: f64 = weights.map_or(values.len() as f64, |w| w.iter().sum());
    if values.is_empty() || total <= 0.0 {
        return 0.0;
    }
    let mean = values
        .iter()
        .enumerate()
        .map(|(i, x)| weight(i) * x)
        .sum::<f64>()
        / total;
    values
        .iter()
        .enumerate()
        .map(|(i, x)| weight(i) * (x - mean) * (x - mean))
        .sum()
}

/// Builds the segmentation ending at `n` from the predecessor array, with exact SSE
/// (weighted with `weights`).
pub(crate) fn finish(sorted: &[f64], weights: Option<&[f64]>, pred: &[usize]) -> Segmentation {
    single_or_sizes(sorted, weights, sizes_from_pred(pred))
}

/// The group sizes, first to last, of the segmentation that the predecessor array `pred`
/// (`pred[j]`: the cut before the group ending at cut `j`) ends at its last cut.
fn sizes_from_pred(pred: &[usize]) -> Vec<usize> {
    let mut sizes = Vec::new();
    let mut j = pred.len() - 1;
    while j > 0 {
        let i = pred[j];
        sizes.push(j - i);
        j = i;
    }
    sizes.reverse();
    sizes
}

/// Segmentation with the given sizes, its SSE (weighted with `weights`) the compensated sum
/// of the groups' two-pass SSEs.
pub(crate) fn single_or_sizes(
    sorted: &[f64],
    weights: Option<&[f64]>,
    sizes: Vec<usize>,
) -> Segmentation {
    let mut total = CompensatedSum::default();
    let mut start = 0;
    for &size in &sizes {
        let group = start..start + size;
        total.add(slice_sse(
            &sorted[group.clone()],
            weights.map(|w| &w[group]),
        ));
        start += size;
    }
    Segmentation {
        sizes,
        sse: total.value(),
    }
}
