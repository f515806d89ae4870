//! # Weighted univariate microaggregation over sorted runs
//!
//! Records with values `x_i` and sampling weights `w_i > 0`; a group's weighted SSE is
//! `sum_{i in G} w_i (x_i - c_w(G))^2` with the weighted mean `c_w(G) = sum w_i x_i / sum w_i`;
//! the size constraint stays on record counts (`|G| >= k`). [`univariate_weighted_runs`]
//! finds a partition of minimum weighted SSE among those whose groups are runs of
//! consecutive records of the given order (the sorted order), by the DP of Hansen and
//! Mukherjee with weighted group costs: `F[j] = min_{k <= j-i <= 2k-1} F[i] + w(i, j)`.
//!
//! Unlike the unweighted problem, the optimum over *all* partitions need not consist of
//! sorted runs when the weights differ: a light record is a cheap filler for a group's
//! count, wherever its value lies (`proofs/P40-weighted-sse.md` gives a 7-record
//! counterexample; `tests/release/weights.rs` checks it). So the result is optimal over sorted runs
//! (Lemma W2 of P40), and globally optimal when all weights are equal (then the weighted
//! SSE is a constant multiple of the SSE and Hansen and Mukherjee's theorem applies).
//! [`univariate_weighted_brute_force`] enumerates every set partition (the test oracle).
//!
//! Group costs are grown leftwards from each cut with the weighted Welford update
//! `S += W w / (W + w) (x - m)^2`, `m += w (x - m) / (W + w)` (no difference of large
//! sums); the reported `sse` is recomputed two-pass per group with a compensated sum.
//! Ties go to the smaller predecessor cut.
//!
//! ## Complexity
//! DP: O(n k) time, O(n) memory. Brute force: O(Bell(n) n), `n <= BRUTE_FORCE_MAX_N`.
//!
//! ## References
//! - Hansen, S. L. and Mukherjee, S. (2003). A polynomial algorithm for optimal univariate
//!   microaggregation. IEEE Transactions on Knowledge and Data Engineering 15(4), 1043-1044.
//! - West, D. H. D. (1979). Updating mean and variance estimates: an improved method.
//!   Communications of the ACM 22(9), 532-535 (weighted incremental update).

use super::brute::{Partition, Search, BRUTE_FORCE_MAX_N};
use super::{segmentation_of, sizes_from_pred, validate};
use crate::error::SolverError;
use crate::segmentation::Segmentation;

/// Checks the weights: one per value, each finite and positive.
fn validate_weights(values: &[f64], weights: &[f64]) -> Result<(), SolverError> {
    if weights.len() != values.len() {
        return Err(SolverError::BadDimension {
            len: weights.len(),
            d: values.len(),
        });
    }
    if let Some(index) = weights.iter().position(|w| !(w.is_finite() && *w > 0.0)) {
        return Err(SolverError::BadWeight { index });
    }
    Ok(())
}

/// Two-pass weighted SSE of paired slices: the weighted mean first, then
/// `sum w (x - mean)^2`.
pub fn weighted_slice_sse(values: &[f64], weights: &[f64]) -> f64 {
    let total: f64 = weights.iter().sum();
    if values.is_empty() || total <= 0.0 {
        return 0.0;
    }
    let mean = values.iter().zip(weights).map(|(x, w)| w * x).sum::<f64>() / total;
    values
        .iter()
        .zip(weights)
        .map(|(x, w)| w * (x - mean) * (x - mean))
        .sum()
}

/// Minimum weighted SSE over partitions of `sorted` (ascending; `weights[i]` belongs to
/// `sorted[i]`) into runs of consecutive values of at least `k` records each. Errors: `k = 0`,
/// a non-finite value, unsorted input, `n < k`, a weight that is not finite and positive.
pub fn univariate_weighted_runs(
    sorted: &[f64],
    weights: &[f64],
    k: usize,
) -> Result<Segmentation, SolverError> {
    validate(sorted, k, true)?;
    validate_weights(sorted, weights)?;
    let n = sorted.len();
    if n < 2 * k {
        return Ok(weighted_sizes(sorted, weights, vec![n]));
    }
    let mut best = vec![f64::INFINITY; n + 1];
    let mut pred = vec![0usize; n + 1];
    best[0] = 0.0;
    for j in k..=n {
        let lo = (j + 1).saturating_sub(2 * k);
        // Grow the group sorted[i..j] leftwards from i = j - 1.
        let (mut total, mut mean, mut cost) = (0.0f64, 0.0f64, 0.0f64);
        let mut min_value = f64::INFINITY;
        let mut min_i = usize::MAX;
        for i in (lo..j).rev() {
            let (x, w) = (sorted[i], weights[i]);
            let grown = total + w;
            let dev = x - mean;
            cost += total * w / grown * dev * dev;
            mean += w * dev / grown;
            total = grown;
            if j - i < k || best[i] == f64::INFINITY {
                continue;
            }
            let value = best[i] + cost;
            // `<=` while i decreases: ties go to the smaller predecessor.
            if value <= min_value || min_i == usize::MAX {
                min_value = value;
                min_i = i;
            }
        }
        if min_i != usize::MAX {
            best[j] = min_value;
            pred[j] = min_i;
        }
    }
    Ok(weighted_sizes(sorted, weights, sizes_from_pred(&pred)))
}

/// Segmentation with the given sizes and its weighted SSE (two-pass per group).
fn weighted_sizes(sorted: &[f64], weights: &[f64], sizes: Vec<usize>) -> Segmentation {
    segmentation_of(sizes, |a, b| {
        weighted_slice_sse(&sorted[a..b], &weights[a..b])
    })
}

/// Minimum weighted SSE over every set partition of `values` (any order) into groups of at
/// least `k` records, by enumeration (restricted growth strings, first in lexicographic
/// order on ties). Errors: as [`univariate_weighted_runs`] (any order), `n > 12`.
pub fn univariate_weighted_brute_force(
    values: &[f64],
    weights: &[f64],
    k: usize,
) -> Result<Partition, SolverError> {
    validate(values, k, false)?;
    validate_weights(values, weights)?;
    let n = values.len();
    if n > BRUTE_FORCE_MAX_N {
        return Err(SolverError::TooLarge {
            n,
            max: BRUTE_FORCE_MAX_N,
        });
    }
    let score = |labels: &[usize], sizes: &[usize]| {
        let mut sse = 0.0;
        for g in 0..sizes.len() {
            let (x, w): (Vec<f64>, Vec<f64>) = (0..n)
                .filter(|&i| labels[i] == g)
                .map(|i| (values[i], weights[i]))
                .unzip();
            sse += weighted_slice_sse(&x, &w);
        }
        sse
    };
    Ok(Search::best(n, k, score).expect("n >= k: the single group is enumerated"))
}
