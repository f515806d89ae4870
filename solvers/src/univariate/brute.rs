//! # Brute-force univariate microaggregation
//!
//! Enumerates every set partition of the values (restricted growth strings) whose groups all
//! have at least `k` members, and keeps one of minimum SSE. It assumes nothing about
//! contiguity or group sizes, so it is the oracle against which the contiguity theorem and
//! the exact algorithms are tested (`proofs/P04-univariate-contiguity-dp.md`). Branches that
//! can no longer give every open group `k` members are pruned. Ties keep the first partition
//! in lexicographic order of the restricted growth string.
//!
//! ## Complexity
//! O(Bell(n) n) time in the worst case (`k = 1`), O(n) memory; `n <= BRUTE_FORCE_MAX_N`.
//!
//! ## References
//! - Knuth, D. E. (2011). The Art of Computer Programming, Vol. 4A, Section 7.2.1.5
//!   (generating set partitions). Addison-Wesley.

use super::validate;
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
pub(crate) struct Search<F: Fn(&[usize], &[usize]) -> f64> {
    n: usize,
    k: usize,
    score: F,
    labels: Vec<usize>,
    sizes: Vec<usize>,
    best: Option<Partition>,
}

impl<F: Fn(&[usize], &[usize]) -> f64> Search<F> {
    /// The first partition of least score (None when `n < k`).
    pub(crate) fn best(n: usize, k: usize, score: F) -> Option<Partition> {
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

/// Optimal partition of `values` (any order) into groups of at least `k`, by enumerating
/// all set partitions. Errors: `k = 0`, a non-finite value, `n < k`, `n > 12`.
pub fn univariate_brute_force(values: &[f64], k: usize) -> Result<Partition, SolverError> {
    validate(values, k, false)?;
    if values.len() > BRUTE_FORCE_MAX_N {
        return Err(SolverError::TooLarge {
            n: values.len(),
            max: BRUTE_FORCE_MAX_N,
        });
    }
    let score = |labels: &[usize], sizes: &[usize]| sse_of_labels(values, labels, sizes);
    // n >= k, so the single group is always enumerated and `best` is set.
    Ok(Search::best(values.len(), k, score).unwrap_or(Partition {
        labels: vec![0; values.len()],
        sse: super::slice_sse(values),
    }))
}
