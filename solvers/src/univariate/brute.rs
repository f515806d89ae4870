//! # Brute-force univariate microaggregation
//!
//! Enumerates every set partition of the values (restricted growth strings) whose groups all
//! have at least `k` members, and keeps one of minimum SSE. It assumes nothing about
//! contiguity or group sizes, so it is the oracle against which the contiguity theorem and
//! the exact algorithms are tested (`proofs/P04-univariate-contiguity-dp.md`). Branches that
//! can no longer give every open group `k` members are pruned. Ties keep the first partition
//! in lexicographic order of the restricted growth string. [`univariate_weighted_brute_force`]
//! scores the same enumeration by the weighted SSE (the oracle of the weighted runs DP).
//!
//! ## Complexity
//! O(Bell(n) n) time in the worst case (`k = 1`), O(n) memory; `n <= BRUTE_FORCE_MAX_N`.
//!
//! ## References
//! - Knuth, D. E. (2011). The Art of Computer Programming, Vol. 4A, Section 7.2.1.5
//!   (generating set partitions). Addison-Wesley.

use super::{slice_sse, validate};
use crate::error::SolverError;

/// Largest input size accepted by [`univariate_brute_force`] (Bell(12) = 4 213 597).
pub const BRUTE_FORCE_MAX_N: usize = 12;

/// A partition given by a label per value (groups numbered in order of first appearance).
#[derive(Debug, Clone, PartialEq)]
pub struct Partition {
    /// `labels[i]` is the group of value `i`.
    pub labels: Vec<usize>,
    /// Total within-group SSE (two-pass per group).
    pub sse: f64,
}

/// Every set partition of `n` records into groups of at least `k`, as restricted growth
/// strings in lexicographic order, scored by `score(labels, sizes)`: the first of least
/// score.
struct Search<F: Fn(&[usize], &[usize]) -> f64> {
    n: usize,
    k: usize,
    score: F,
    labels: Vec<usize>,
    sizes: Vec<usize>,
    best: Option<Partition>,
}

impl<F: Fn(&[usize], &[usize]) -> f64> Search<F> {
    /// The first partition of least score (None when `n < k`).
    fn best(n: usize, k: usize, score: F) -> Option<Partition> {
        let mut search = Search {
            n,
            k,
            score,
            labels: vec![0; n],
            sizes: Vec::new(),
            best: None,
        };
        search.visit(0);
        search.best
    }

    fn visit(&mut self, next: usize) {
        let n = self.n;
        // Prune: the remaining values must be able to fill every group up to k.
        let missing: usize = self.sizes.iter().map(|&s| self.k.saturating_sub(s)).sum();
        if missing > n - next {
            return;
        }
        if next == n {
            let sse = (self.score)(&self.labels, &self.sizes);
            if self.best.as_ref().is_none_or(|b| sse < b.sse) {
                self.best = Some(Partition {
                    labels: self.labels.clone(),
                    sse,
                });
            }
            return;
        }
        for group in 0..=self.sizes.len() {
            if group == self.sizes.len() {
                self.sizes.push(0);
            }
            self.sizes[group] += 1;
            self.labels[next] = group;
            self.visit(next + 1);
            self.sizes[group] -= 1;
            if self.sizes[group] == 0 {
                self.sizes.pop();
            }
        }
    }
}

/// The SSE of `values` grouped by `labels` (groups `0..sizes.len()` of `sizes` records).
fn sse_of_labels(values: &[f64], labels: &[usize], sizes: &[usize]) -> f64 {
    let mut mean = vec![0.0; sizes.len()];
    for (&v, &l) in values.iter().zip(labels) {
        mean[l] += v;
    }
    for (m, &s) in mean.iter_mut().zip(sizes) {
        *m /= s as f64;
    }
    values
        .iter()
        .zip(labels)
        .map(|(&v, &l)| (v - mean[l]) * (v - mean[l]))
        .sum()
}

/// The weighted SSE of `values` with `weights` grouped by `labels` (groups
/// `0..sizes.len()`): the two-pass weighted SSE of each group, added in group order.
fn weighted_sse_of_labels(values: &[f64], weights: &[f64], labels: &[usize], groups: usize) -> f64 {
    let mut sse = 0.0;
    for g in 0..groups {
        let (x, w): (Vec<f64>, Vec<f64>) = (0..values.len())
            .filter(|&i| labels[i] == g)
            .map(|i| (values[i], weights[i]))
            .unzip();
        sse += slice_sse(&x, Some(&w));
    }
    sse
}

/// Optimal partition of `values` (any order) into groups of at least `k`, by enumerating
/// all set partitions. Errors: `k = 0`, a non-finite value, `n < k`, `n > 12`.
pub fn univariate_brute_force(values: &[f64], k: usize) -> Result<Partition, SolverError> {
    let score = |labels: &[usize], sizes: &[usize]| sse_of_labels(values, labels, sizes);
    best_partition(values, None, k, score)
}

/// Minimum weighted SSE over every set partition of `values` (any order) into groups of at
/// least `k` records, by enumeration (restricted growth strings, first in lexicographic
/// order on ties). Errors: as [`univariate_brute_force`], and a weight that is not finite
/// and positive (one per value).
pub fn univariate_weighted_brute_force(
    values: &[f64],
    weights: &[f64],
    k: usize,
) -> Result<Partition, SolverError> {
    let score = |labels: &[usize], sizes: &[usize]| {
        weighted_sse_of_labels(values, weights, labels, sizes.len())
    };
    best_partition(values, Some(weights), k, score)
}

/// The first partition of least `score` after the checks of [`validate`] (any order, with
/// the `weights` if given) and `n <= BRUTE_FORCE_MAX_N`.
fn best_partition(
    values: &[f64],
    weights: Option<&[f64]>,
    k: usize,
    score: impl Fn(&[usize], &[usize]) -> f64,
) -> Result<Partition, SolverError> {
    validate(values, weights, k, false)?;
    let n = values.len();
    if n > BRUTE_FORCE_MAX_N {
        return Err(SolverError::TooLarge {
            n,
            max: BRUTE_FORCE_MAX_N,
        });
    }
    Ok(Search::best(n, k, score).expect("n >= k: the single group is enumerated"))
}
