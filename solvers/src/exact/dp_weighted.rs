//! # Weighted subset dynamic programme (exact for the weighted SSE, n <= 20)
//!
//! The subset DP of [`super::dp`] with the weighted group cost: `f(S)` is the minimum
//! weighted SSE of a partition of `S` into groups of `k..=2k-1` records, `f(S) = min over
//! groups G holding the lowest record of S of SSE_w(G) + f(S \ G)`. With sampling weights
//! `w_i > 0` and the size constraint on record counts, restricting to `k..=2k-1` records
//! still loses no optimum: a group of `2k` or more records splits into two of at least `k`,
//! and splitting never raises the weighted SSE (P40 W1(b)); the recursion enumerates every
//! partition of S into such groups once (the group of the lowest record is fixed), so
//! `f(full)` is the weighted optimum over **all** partitions, contiguous or not (unlike the
//! univariate DP over sorted runs, P40 W4).
//!
//! `SSE_w(G) = P_w(G) / W(G)` with `P_w(G) = sum_{i<j in G} w_i w_j ||x_i - x_j||^2` and
//! `W(G) = sum_{i in G} w_i` (P40 W1(c)), tabulated for all masks by adding the highest
//! record: sums of nonnegative terms. In floating point the tabulated costs carry relative
//! errors of order `(n + 3d) u`, so the returned partition is optimal up to that relative
//! tolerance (ties within it are broken by enumeration order); the value is not a certified
//! bound.
//!
//! ## Complexity
//! As [`super::dp`]: memory 2^n (8 + 8 + 8 + 4) bytes, time O(2^n n) for the tables plus
//! one step per (state, group) pair.
//!
//! ## References
//! Held, M. and Karp, R. M. (1962). A dynamic programming approach to sequencing problems.
//! J. SIAM 10(1), 196-210. Weighted identities: proofs/P40-weighted-sse.md.

use super::dp::{check_size, optimal_partition};
use crate::sse::sq_dist;
use crate::SolverError;

/// The weighted optimum: labels (groups in order of the reconstruction), the tabulated
/// weighted SSE, and the (state, group) steps.
pub type WeightedDpResult = super::dp::DpResult;

/// The weighted subset DP: minimum weighted SSE over all partitions of the `n <= 20`
/// records of `x` (row-major, `d` columns) with weights `w` into groups of at least `k`
/// records.
///
/// Errors: `k == 0`, `n < k`, bad dimensions or values, a weight not finite and > 0,
/// `n > 20`.
pub fn weighted_subset_dp(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
) -> Result<WeightedDpResult, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if w.len() != n {
        return Err(SolverError::BadWeight {
            index: w.len().min(n),
        });
    }
    if let Some(index) = w.iter().position(|&v| !(v.is_finite() && v > 0.0)) {
        return Err(SolverError::BadWeight { index });
    }
    check_size(n, "the weighted subset DP")?;
    let size = 1usize << n;
    let dist = |a: usize, b: usize| sq_dist(&x[a * d..(a + 1) * d], &x[b * d..(b + 1) * d]);
    // P_w(mask) and W(mask), adding the highest record h of each mask to the rest.
    let mut pair = vec![0.0f64; size];
    let mut weight = vec![0.0f64; size];
    for mask in 1..size {
        let h = usize::BITS as usize - 1 - mask.leading_zeros() as usize;
        let rest = mask & !(1 << h);
        let mut s = 0.0;
        let mut r = rest;
        while r != 0 {
            let a = r.trailing_zeros() as usize;
            s += w[a] * dist(a, h);
            r &= r - 1;
        }
        pair[mask] = pair[rest] + w[h] * s;
        weight[mask] = weight[rest] + w[h];
    }
    optimal_partition(n, k, |mask, _| pair[mask] / weight[mask])
}
