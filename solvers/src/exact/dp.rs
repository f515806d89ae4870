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
//! `sum_{g=k}^{2k-1} C(n, g) 2^(n-g)`. Measured (`tests/exact.rs`, release, shared machine):
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

/// Optimum of the subset DP: SSE (as tabulated), labels (group ids in order of first
/// appearance along the DP's reconstruction) and the number of (state, group) steps.
pub(crate) struct DpResult {
    pub labels: Vec<usize>,
    /// The tabulated optimum `f(full)` (sums of computed pair sums, each divided by |G|).
    pub value: f64,
    pub steps: u64,
}

/// The subset DP on validated input (`1 <= k <= n <= DP_MAX_N`).
pub(crate) fn subset_dp(x: &[f64], n: usize, d: usize, k: usize) -> Result<DpResult, SolverError> {
    if n > DP_MAX_N {
        return Err(SolverError::TooLargeFor {
            method: "the subset DP",
            n,
            max: DP_MAX_N,
        });
    }
    let size = 1usize << n;
    let mut dist = vec![0.0f64; n * n];
    for a in 0..n {
        for b in 0..n {
            dist[a * n + b] = sq_dist(&x[a * d..(a + 1) * d], &x[b * d..(b + 1) * d]);
        }
    }
    // Pair sums P(mask).
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
        let mut best = f64::INFINITY;
        let mut best_g = 0usize;
        for g in k..=max_g.min(m) {
            // The rest must be empty or hold at least k records.
            if m - g != 0 && m - g < k {
                continue;
            }
            let mut ctx = Combo {
                elems: &elems,
                pair: &pair,
                f: &f,
                s,
                g,
                best: &mut best,
                best_g: &mut best_g,
                steps: &mut steps,
            };
            ctx.rec(0, g - 1, 1 << l);
        }
        f[s] = best;
        choice[s] = best_g as u32;
    }
    let full = size - 1;
    if !f[full].is_finite() {
        return Err(SolverError::Infeasible { n, k });
    }
    let mut labels = vec![usize::MAX; n];
    let mut s = full;
    let mut group = 0;
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

/// Enumerates the groups of size `g` made of the lowest record of `s` and `g - 1` of `elems`.
struct Combo<'a> {
    elems: &'a [usize],
    pair: &'a [f64],
    f: &'a [f64],
    s: usize,
    g: usize,
    best: &'a mut f64,
    best_g: &'a mut usize,
    steps: &'a mut u64,
}

impl Combo<'_> {
    fn rec(&mut self, start: usize, need: usize, mask: usize) {
        if need == 0 {
            *self.steps += 1;
            let v = self.pair[mask] / self.g as f64 + self.f[self.s & !mask];
            if v < *self.best {
                *self.best = v;
                *self.best_g = mask;
            }
            return;
        }
        // Leave room for the `need - 1` further picks.
        for p in start..=self.elems.len() - need {
            self.rec(p + 1, need - 1, mask | (1 << self.elems[p]));
        }
    }
}
