//! # Pricing for the column generation bound
//!
//! Given row duals `y`, the pricing problem is `min_S rc(S) = SSE(S) - y(S)` over groups `S`
//! with `k <= |S| <= 2k - 1`. With `D_ab = ||x_a - x_b||^2` and `P(S) = sum_{a<b in S} D_ab`,
//! `SSE(S) = P(S) / |S|` (P01), so `rc(S) = P(S)/|S| - y(S)`.
//!
//! - [`Geometry`]: the pairwise squared distances, each record's nearest-neighbour lists and
//!   the prefix sums `NN_r(i)` of its `r` smallest distances (r <= 2k - 2).
//! - [`heuristic`]: from a seed record, greedy growth over its nearest neighbours minimising
//!   the reduced cost, then best-improvement add / remove / swap local search. Fast, no proof.
//! - [`weak_rc_bound`]: for `|S| = m`, `SSE(S) >= sum_{i in S} NN_{m-1}(i) / (2m)` (P06 step
//!   1-2), so `rc(S) >= ` the sum of the `m` smallest `NN_{m-1}(i)/(2m) - y_i`; minimised over
//!   m. Valid for any `y`, O(n k) after the geometry; usually weak.
//! - [`ExactSearch`]: branch and bound over records (proofs/P09, part B). Every group `S`
//!   has a medoid `r` (the member minimising `sum_{b in S} D_rb`), and
//!   `sum_{b in S} D_rb <= 2 SSE(S)`; a group with `rc(S) < t <= 0` has `SSE(S) < y(S) + t`,
//!   so all its members lie within squared distance `2 (y(S) + t)` of `r`. For each anchor `r`
//!   and size `m`, subsets of the records within that radius are enumerated in a fixed
//!   order; a partial set `T` with `q` records still to add from the remaining candidates
//!   `R` is bounded by
//!   `rc(S) >= P(T)/m - y(T) + (sum of the q smallest over u in R of
//!   [sum_{t in T} D_tu / m + NN_{q-1}(u) / (2m) - y_u])`.
//!   When the node or time budget runs out, the bound of every unexplored node is kept, so
//!   the result is always a proven lower bound on the minimum reduced cost; it is the exact
//!   minimum (capped at 0) when nothing was cut (`exact = true`).
//! - With subset-row cuts ([`ExactSearch::new`] with cut duals, [`super::cuts`], proofs/P14) the reduced
//!   cost gains the nonnegative penalty `pen(S) = sum_C w_C floor(|S ∩ C| / 2)`. Every bound
//!   above ignores it and stays a lower bound; node bounds add `pen(T)` of the records fixed
//!   so far (`pen` only grows with the group), and leaves evaluate it exactly.
//! - With branching decisions ([`ExactSearch::pairs`], [`super::pairs`], proofs/P17) only
//!   groups compatible with the together / apart pairs count: leaves that are not are
//!   skipped, and a child is not entered when its new member has an apart partner among the
//!   members or a member's together partner can no longer join (it is neither a member nor a
//!   later candidate). Every bound above stays a lower bound over the smaller set.
//!
//! ## Complexity
//! Geometry: O(n^2 d) time, O(n^2) memory (the distance matrix; refused beyond
//! [`MAX_RECORDS`]). Heuristic: O(L m) per growth step with L neighbours, all seeds O(n L k^2).
//! Weak bound: O(n k). Exact: O(n^2 k) for the radii and root bounds, plus the branch and
//! bound nodes (O(|candidates|) each), bounded by the node budget and deadline.
//!
//! ## References
//! Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//! numerical microaggregation. Journal of Global Optimization 60, 165-182 (the master and
//! the pricing problem; their exact pricing is a specialised branch and bound, this one is
//! our own design with the bounds above).

use super::cuts::CutDuals;
use crate::sse::sq_dist;

pub mod completion;
mod exact;
mod greedy;
mod listing;
pub mod local_completion;
mod search;
mod stop_below;

pub use exact::{anchor_sizes, ExactBudget, ExactPricing};
pub use greedy::{heuristic, heuristic_cuts};
pub use listing::{cheap_groups, CheapGroups};
pub use search::{per_anchor_minima, Anchors, ExactSearch};
pub use stop_below::StopBelow;

/// Largest number of records accepted (the distance matrix takes 8 n^2 bytes: 512 MB here).
pub const MAX_RECORDS: usize = 8000;

/// Pairwise squared distances and nearest-neighbour data.
pub struct Geometry {
    pub n: usize,
    pub k: usize,
    /// `dist[a * n + b] = ||x_a - x_b||^2`.
    pub dist: Vec<f64>,
    /// `nn_prefix[i * (2k - 1) + r]` = sum of the `r` smallest distances from `i` to others,
    /// `r = 0..=2k-2`.
    nn_prefix: Vec<f64>,
    /// `neighbours[i * pool ..]`: the `pool` nearest other records, nearest first.
    neighbours: Vec<u32>,
    pool: usize,
    /// Largest pairwise squared distance.
    pub max_dist: f64,
}

impl Geometry {
    /// Geometry of the `n` records of `x` (row-major, `d` columns), for groups of `k..2k-1`
    /// records and heuristic neighbour lists of `pool` records. Requires `n >= k >= 1`.
    pub fn new(x: &[f64], n: usize, d: usize, k: usize, pool: usize) -> Geometry {
        Self::new_until(x, n, d, k, pool, &|| false).expect("never stopped")
    }

    /// [`Geometry::new`] that polls `stop` every 64 records (O(n^2) work in all, seconds at
    /// n = 8000) and returns None once it says so.
    pub fn new_until(
        x: &[f64],
        n: usize,
        d: usize,
        k: usize,
        pool: usize,
        stop: &dyn Fn() -> bool,
    ) -> Option<Geometry> {
        let mut dist = vec![0.0; n * n];
        let mut max_dist = 0.0f64;
        for a in 0..n {
            if a % 64 == 63 && stop() {
                return None;
            }
            let xa = &x[a * d..(a + 1) * d];
            for b in a + 1..n {
                let xb = &x[b * d..(b + 1) * d];
                let s = sq_dist(xa, xb);
                dist[a * n + b] = s;
                dist[b * n + a] = s;
                max_dist = max_dist.max(s);
            }
        }
        let w = 2 * k - 1;
        let r_max = (2 * k - 2).min(n - 1);
        let pool = pool.min(n - 1);
        let mut nn_prefix = vec![0.0; n * w];
        let mut neighbours = vec![0u32; n * pool];
        let mut row: Vec<(f64, u32)> = Vec::with_capacity(n);
        for i in 0..n {
            if i % 64 == 63 && stop() {
                return None;
            }
            row.clear();
            row.extend(
                (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (dist[i * n + j], j as u32)),
            );
            let take = r_max.max(pool);
            let cmp = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            if take > 0 && take < row.len() {
                row.select_nth_unstable_by(take - 1, cmp);
            }
            let head = &mut row[..take.min(n - 1)];
            head.sort_unstable_by(cmp);
            let mut s = 0.0;
            for r in 1..w {
                if r <= r_max {
                    s += head[r - 1].0;
                    nn_prefix[i * w + r] = s;
                } else {
                    // Fewer than r other records: no group of that size exists anyway.
                    nn_prefix[i * w + r] = f64::INFINITY;
                }
            }
            for (p, &(_, j)) in head.iter().take(pool).enumerate() {
                neighbours[i * pool + p] = j;
            }
        }
        Some(Geometry {
            n,
            k,
            dist,
            nn_prefix,
            neighbours,
            pool,
            max_dist,
        })
    }

    #[inline]
    pub fn d(&self, a: usize, b: usize) -> f64 {
        self.dist[a * self.n + b]
    }

    /// Sum of the `r` smallest distances from `i` to other records (`r <= 2k - 2`).
    #[inline]
    pub fn nn(&self, i: usize, r: usize) -> f64 {
        self.nn_prefix[i * (2 * self.k - 1) + r]
    }

    /// The `pool` nearest other records of `i`, nearest first.
    pub fn neighbours(&self, i: usize) -> &[u32] {
        &self.neighbours[i * self.pool..(i + 1) * self.pool]
    }

    /// Reduced cost `P(S)/|S| - y(S)` of a group.
    pub fn reduced_cost(&self, members: &[u32], y: &[f64]) -> f64 {
        let m = members.len();
        let mut p = 0.0;
        for (a, &u) in members.iter().enumerate() {
            for &v in &members[a + 1..] {
                p += self.d(u as usize, v as usize);
            }
        }
        p / m as f64 - members.iter().map(|&i| y[i as usize]).sum::<f64>()
    }

    /// Reduced cost with subset-row cuts: `P(S)/|S| - y(S) + pen(S)`.
    pub fn reduced_cost_cuts(&self, members: &[u32], y: &[f64], cuts: &CutDuals) -> f64 {
        self.reduced_cost(members, y) + cuts.penalty(members)
    }
}

/// Sum of the `q` smallest values of `v` (`q <= v.len()`), reordering `v`.
fn sum_smallest(v: &mut [f64], q: usize) -> f64 {
    if q == 0 {
        return 0.0;
    }
    if q < v.len() {
        v.select_nth_unstable_by(q - 1, f64::total_cmp);
    }
    v[..q].iter().sum()
}

/// The weak pricing bound: `min_m` (sum of the `m` smallest `NN_{m-1}(i)/(2m) - y_i`), a
/// lower bound on `min_S rc(S)` over groups of `k..2k-1` records (as computed; the caller
/// applies the rounding margin).
pub fn weak_rc_bound(geo: &Geometry, y: &[f64]) -> f64 {
    let n = geo.n;
    let mut best = f64::INFINITY;
    let mut v = vec![0.0; n];
    for m in geo.k..=(2 * geo.k - 1).min(n) {
        for (i, vi) in v.iter_mut().enumerate() {
            *vi = geo.nn(i, m - 1) / (2 * m) as f64 - y[i];
        }
        best = best.min(sum_smallest(&mut v, m));
    }
    best
}
