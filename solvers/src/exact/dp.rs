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
//! ## Complexity
//! Memory 2^n (8 + 8 + 4) bytes: 20 MB at the limit n = [`DP_MAX_N`] = 20. Time O(2^n n) for
//! the pair table plus one step per (state, group) pair, about
//! `sum_{g=k}^{2k-1} C(n, g) 2^(n-g)`. Measured (`tests/exact/exact.rs`, release, shared machine):
//! n = 16, k = 4: 0.4 s (1.3e7 steps); n = 18, k = 3: 1.8 s (5.7e7); n = 20, k = 3: 8.8 s
//! (3.6e8); n = 20, k = 4: 35 s (9.1e8). The set-partitioning MIP is faster beyond n = 16,
//! hence [`super::AUTO_DP_MAX_N`]; the DP remains the independent reference for it.
//!
//! ## References
//! Held, M. and Karp, R. M. (1962). A dynamic programming approach to sequencing problems.
//! J. SIAM 10(1), 196-210 (dynamic programming over subsets). Domingo-Ferrer, J. and
//! Mateo-Sanz, J. M. (2002). Practical data-oriented microaggregation for statistical
//! disclosure control. IEEE TKDE 14(1), 189-201 (group sizes k..2k-1).

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
pub(crate) fn check_size(n: usize, method: &'static str) -> Result<(), SolverError> {
    if n > DP_MAX_N {
        return Err(SolverError::TooLargeFor {
            method,
            n,
            max: DP_MAX_N,
        });
    }
    Ok(())
}

/// The subset DP on validated input (`1 <= k <= n <= DP_MAX_N`).
pub(crate) fn subset_dp(x: &[f64], n: usize, d: usize, k: usize) -> Result<DpResult, SolverError> {
    check_size(n, "the subset DP")?;
    let size = 1usize << n;
    let mut dist = vec![0.0f64; n * n];
    for a in 0..n {
        for b in 0..n {
            dist[a * n + b] = sq_dist(&x[a * d..(a + 1) * d], &x[b * d..(b + 1) * d]);
        }
    }
    // Pair sums P(mask), each P(rest) plus the new pairs in index order: sums of nonnegative
    // terms whose roundings the certified bound of `solve_exact_with` counts (P10).
    let mut pair = vec![0.0f64; size];
    for mask in 1..size {
        let h = usize::BITS as usize - 1 - mask.leading_zeros() as usize;
        let rest = mask & !(1 << h);
        let mut s = pair[rest];
        let mut r = rest;
        while r != 0 {
            let a = r.trailing_zeros() as usize;
            s += dist[a * n + h];
            r &= r - 1;
        }
        pair[mask] = s;
    }
    optimal_partition(n, k, |mask, g| pair[mask] / g as f64)
}

/// The recursion over all subsets for a group cost `cost(mask, |mask|)` (SSE(G) for the
/// subset DP, the weighted SSE for [`super::dp_weighted`]): `f(S)` over the groups of
/// `k..=2k-1` records holding the lowest record of `S` whose rest is empty or holds at least
/// `k`, the minimising group of each state kept (first minimiser in enumeration order) and
/// the labels rebuilt from the full set. Errors: no feasible partition (`n < k`).
pub(crate) fn optimal_partition(
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
        let mut r = s & !(1 << l);
        while r != 0 {
            elems.push(r.trailing_zeros() as usize);
            r &= r - 1;
        }
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
        let mut r = g;
        while r != 0 {
            labels[r.trailing_zeros() as usize] = group;
            r &= r - 1;
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
