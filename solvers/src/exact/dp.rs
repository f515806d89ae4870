//! # Subset dynamic programme (exact, n <= 20)
//!
//! `f(S)` is the minimum SSE of a partition of the record set `S` into groups of sizes
//! `k..=2k-1` (`f(empty) = 0`, `f(S) = inf` when no such partition exists). The group holding
//! the lowest record `l` of `S` is some `G` with `l in G subset S`, so
//! `f(S) = min over such G with k <= |G| <= 2k-1 of SSE(G) + f(S \ G)`. Restricting the sizes
//! to `k..=2k-1` loses no optimum (`proofs/P03-group-sizes.md`); fixing the group of the lowest
//! record enumerates every partition of `S` exactly once. The recursion is evaluated for all
//! bitmasks in increasing order (every proper subset is numerically smaller), so `f(full)` is
//! the optimum; the minimising `G` of each state is kept to rebuild the labels.
//!
//! `SSE(G) = P(G) / |G|` with `P(G)` the sum of squared distances over the unordered pairs of
//! `G` (`proofs/P01-sse-identities.md`), tabulated for all masks by
//! `P(G) = P(G - h) + sum_{a in G - h} ||x_a - x_h||^2` (h the highest record of G): sums of
//! nonnegative terms, hence accurate. Ties keep the first minimiser in enumeration order, so
//! the labels are deterministic.
//!
//! ## Sampling weights
//! [`weighted_subset_dp`] runs the same recursion on the weighted group cost
//! `SSE_w(G) = P_w(G) / W(G)` with `P_w(G) = sum_{i<j in G} w_i w_j ||x_i - x_j||^2` and
//! `W(G) = sum_{i in G} w_i` (P40 W1(c)), both tabulated by adding the highest record. With
//! weights `w_i > 0` and the size constraint on record counts, restricting to `k..=2k-1`
//! records still loses no optimum: a group of `2k` or more records splits into two of at
//! least `k`, and splitting never raises the weighted SSE (P40 W1(b)); so `f(full)` is the
//! weighted optimum over **all** partitions, contiguous or not (unlike the univariate DP over
//! sorted runs, P40 W4). In floating point the tabulated costs carry relative errors of order
//! `(n + 3d) u`, so the returned partition is optimal up to that relative tolerance (ties
//! within it are broken by enumeration order); the value is not a certified bound.
//!
//! ## Complexity
//! Memory 2^n (8 + 8 + 4) bytes (8 more per mask for `W` with weights): 20 MB at the limit
//! n = [`DP_MAX_N`] = 20. Time O(2^n n) for the pair table plus one step per (state, group)
//! pair, about
//! `sum_{g=k}^{2k-1} C(n, g) 2^(n-g)`. Measured (`tests/exact/exact.rs`, release, shared machine):
//! n = 16, k = 4: 0.4 s (1.3e7 steps); n = 18, k = 3: 1.8 s (5.7e7); n = 20, k = 3: 8.8 s
//! (3.6e8); n = 20, k = 4: 35 s (9.1e8). The set-partitioning MIP is faster beyond n = 16,
//! hence [`super::AUTO_DP_MAX_N`]; the DP remains the independent reference for it.
//!
//! ## References
//! Held, M. and Karp, R. M. (1962). A dynamic programming approach to sequencing problems.
//! J. SIAM 10(1), 196-210 (dynamic programming over subsets). Domingo-Ferrer, J. and
//! Mateo-Sanz, J. M. (2002). Practical data-oriented microaggregation for statistical
//! disclosure control. IEEE TKDE 14(1), 189-201 (group sizes k..2k-1). Weighted identities:
//! proofs/P40-weighted-sse.md.

use super::masks::bits;
use crate::sse::sq_dist;
use crate::SolverError;

/// Largest n the subset DP accepts (memory 2^n * 20 bytes).
pub const DP_MAX_N: usize = 20;

/// Optimum of a subset DP: labels (group ids in order of first appearance along the DP's
/// reconstruction), the tabulated optimum and the number of (state, group) steps.
#[derive(Debug, Clone, PartialEq)]
pub struct DpResult {
    pub labels: Vec<usize>,
    /// The tabulated optimum `f(full)` (sums of the computed group costs).
    pub value: f64,
    pub steps: u64,
}

/// Refuses `n > DP_MAX_N` before any table of 2^n entries is allocated.
fn check_size(n: usize, method: &'static str) -> Result<(), SolverError> {
    if n > DP_MAX_N {
        return Err(SolverError::TooLargeFor {
            method,
            n,
            max: DP_MAX_N,
        });
    }
    Ok(())
}

/// The subset DP on validated input (`1 <= k <= n <= DP_MAX_N`), unweighted or (with
/// `weights`, one finite positive weight per record) for the weighted SSE.
pub(crate) fn subset_dp(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    weights: Option<&[f64]>,
) -> Result<DpResult, SolverError> {
    let method = match weights {
        None => "the subset DP",
        Some(_) => "the weighted subset DP",
    };
    check_size(n, method)?;
    let mut dist = vec![0.0f64; n * n];
    for a in 0..n {
        for b in 0..n {
            dist[a * n + b] = sq_dist(&x[a * d..(a + 1) * d], &x[b * d..(b + 1) * d]);
        }
    }
    match weights {
        None => {
            let pair = pair_table(n, &dist);
            optimal_partition(n, k, |mask, g| pair[mask] / g as f64)
        }
        Some(w) => {
            let (pair, weight) = weighted_tables(n, &dist, w);
            optimal_partition(n, k, |mask, _| pair[mask] / weight[mask])
        }
    }
}

/// The weighted subset DP: minimum weighted SSE over all partitions of the `n <= 20`
/// records of `x` (row-major, `d` columns) with weights `w` into groups of at least `k`
/// records (module doc, "Sampling weights"). Labels in order of the reconstruction, the
/// tabulated weighted SSE and the (state, group) steps.
///
/// Errors: `k == 0`, `n < k`, bad dimensions or values, a weight not finite and > 0,
/// `n > 20`.
pub fn weighted_subset_dp(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
) -> Result<DpResult, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    crate::error::check_weights(w, n)?;
    subset_dp(x, n, d, k, Some(w))
}

/// `(h, rest)`: the highest record of a nonzero `mask` and the mask without it.
fn split_highest(mask: usize) -> (usize, usize) {
    let h = usize::BITS as usize - 1 - mask.leading_zeros() as usize;
    (h, mask & !(1 << h))
}

/// The pair sums `P(mask)` of every mask from the squared distances `dist` (`n * n`): each
/// `P(rest)` plus the new pairs of the highest record in index order. Sums of nonnegative
/// terms whose roundings the certified bound of `solve_exact_with` counts (P10).
fn pair_table(n: usize, dist: &[f64]) -> Vec<f64> {
    let mut pair = vec![0.0f64; 1 << n];
    for mask in 1..pair.len() {
        let (h, rest) = split_highest(mask);
        pair[mask] = bits(rest as u64).fold(pair[rest], |s, a| s + dist[a * n + h]);
    }
    pair
}

/// With weights `w`, the weighted pair sums `P_w(mask) = P_w(rest) + w_h sum_{a in rest}
/// w_a dist(a, h)` and the weights `W(mask) = W(rest) + w_h` of every mask (`h` the highest
/// record).
fn weighted_tables(n: usize, dist: &[f64], w: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut pair = vec![0.0f64; 1 << n];
    let mut weight = vec![0.0f64; 1 << n];
    for mask in 1..pair.len() {
        let (h, rest) = split_highest(mask);
        let to_h = bits(rest as u64).fold(0.0, |s, a| s + w[a] * dist[a * n + h]);
        pair[mask] = pair[rest] + w[h] * to_h;
        weight[mask] = weight[rest] + w[h];
    }
    (pair, weight)
}

/// The recursion over all subsets for a group cost `cost(mask, |mask|)` (SSE(G) for the
/// subset DP, the weighted SSE for [`weighted_subset_dp`]): `f(S)` over the groups of
/// `k..=2k-1` records holding the lowest record of `S` whose rest is empty or holds at least
/// `k`, the minimising group of each state kept (first minimiser in enumeration order) and
/// the labels rebuilt from the full set. Errors: no feasible partition (`n < k`).
fn optimal_partition(
    n: usize,
    k: usize,
    cost: impl Fn(usize, usize) -> f64,
) -> Result<DpResult, SolverError> {
    let size = 1usize << n;
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
        elems.extend(bits((s & !(1 << l)) as u64));
        let (mut best, mut best_g) = (f64::INFINITY, 0usize);
        for g in k..=max_g.min(m) {
            // The rest must be empty or hold at least k records.
            if m - g != 0 && m - g < k {
                continue;
            }
            // Every group of g records: the lowest record of s and g - 1 of `elems`.
            each_group(&elems, 0, g - 1, 1 << l, &mut |mask| {
                steps += 1;
                let v = cost(mask, g) + f[s & !mask];
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
        for a in bits(g as u64) {
            labels[a] = group;
        }
        group += 1;
        s &= !g;
    }
    Ok(DpResult {
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
    // Leave room for the `need - 1` further picks.
    for p in start..=elems.len() - need {
        each_group(elems, p + 1, need - 1, mask | (1 << elems[p]), visit);
    }
}
