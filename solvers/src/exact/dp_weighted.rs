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

use super::dp::DP_MAX_N;
use crate::sse::sq_dist;
use crate::SolverError;

/// The weighted optimum: labels (groups in order of the reconstruction), the tabulated
/// weighted SSE, and the (state, group) steps.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedDpResult {
    pub labels: Vec<usize>,
    pub value: f64,
    pub steps: u64,
}

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
    if n > DP_MAX_N {
        return Err(SolverError::TooLargeFor {
            method: "the weighted subset DP",
            n,
            max: DP_MAX_N,
        });
    }
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
    let mut f = vec![f64::INFINITY; size];
    let mut choice = vec![0u32; size];
    f[0] = 0.0;
    let max_g = 2 * k - 1;
    let mut steps = 0u64;
    let mut elems: Vec<usize> = Vec::with_capacity(n);
    for s in 1..size {
        let m = s.count_ones() as usize;
        if m < k {
            continue;
        }
        let l = s.trailing_zeros() as usize;
        elems.clear();
        let mut r = s & !(1 << l);
        while r != 0 {
            elems.push(r.trailing_zeros() as usize);
            r &= r - 1;
        }
        let (mut best, mut best_g) = (f64::INFINITY, 0usize);
        for g in k..=max_g.min(m) {
            if m - g != 0 && m - g < k {
                continue;
            }
            // Every group of g records: the lowest record of s and g - 1 of `elems`.
            each_group(&elems, 0, g - 1, 1 << l, &mut |mask| {
                steps += 1;
                let v = pair[mask] / weight[mask] + f[s & !mask];
                if v < best {
                    best = v;
                    best_g = mask;
                }
            });
        }
        f[s] = best;
        choice[s] = best_g as u32;
    }
    let full = size - 1;
    if !f[full].is_finite() {
        return Err(SolverError::Infeasible { n, k });
    }
    let mut labels = vec![usize::MAX; n];
    let (mut s, mut group) = (full, 0);
    while s != 0 {
        let g = choice[s] as usize;
        let mut r = g;
        while r != 0 {
            labels[r.trailing_zeros() as usize] = group;
            r &= r - 1;
        }
        group += 1;
        s &= !g;
    }
    Ok(WeightedDpResult {
        labels,
        value: f[full],
        steps,
    })
}

/// Call `visit` with `mask` plus every choice of `need` records of `elems[start..]`, in
/// lexicographic order of positions.
fn each_group(
    elems: &[usize],
    start: usize,
    need: usize,
    mask: usize,
    visit: &mut impl FnMut(usize),
) {
    if need == 0 {
        visit(mask);
        return;
    }
    for p in start..=elems.len() - need {
        each_group(elems, p + 1, need - 1, mask | (1 << elems[p]), visit);
    }
}
