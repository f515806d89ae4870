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
//! - [`exact_rc_bound`]: branch and bound over records (proofs/P09, part B). Every group `S`
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
//! - With subset-row cuts ([`exact_rc_bound_cuts`], [`super::cuts`], proofs/P14) the reduced
//!   cost gains the nonnegative penalty `pen(S) = sum_C w_C floor(|S ∩ C| / 2)`. Every bound
//!   above ignores it and stays a lower bound; node bounds add `pen(T)` of the records fixed
//!   so far (`pen` only grows with the group), and leaves evaluate it exactly.
//! - With branching decisions ([`exact_rc_bound_pairs`], [`super::pairs`], proofs/P17) only
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
use super::pairs::PairConstraints;
use crate::sse::sq_dist;
use std::time::Instant;

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
        let mut dist = vec![0.0; n * n];
        let mut max_dist = 0.0f64;
        for a in 0..n {
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
        Geometry {
            n,
            k,
            dist,
            nn_prefix,
            neighbours,
            pool,
            max_dist,
        }
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

/// Heuristic pricing from `seed`: the best group found (reduced cost, sorted members) among
/// the seed and its nearest neighbours, or None when the seed has too few neighbours.
pub fn heuristic(geo: &Geometry, y: &[f64], seed: usize) -> Option<(f64, Vec<u32>)> {
    heuristic_cuts(geo, y, &CutDuals::none(), seed)
}

/// Cut penalties of the moves of the heuristic, from a record-indexed membership flag.
struct MovePenalty<'a> {
    cuts: &'a CutDuals,
    /// `in_group[i]`: record `i` is in the current group (empty without cuts).
    in_group: Vec<bool>,
}

impl MovePenalty<'_> {
    /// Members of cut `c` in the group, not counting record `skip`.
    fn hits(&self, c: u32, skip: usize) -> usize {
        self.cuts.triples[c as usize]
            .iter()
            .filter(|&&i| i as usize != skip && self.in_group[i as usize])
            .count()
    }

    /// Penalty added by putting record `b` into the group without record `out` (`usize::MAX`:
    /// none): the cuts of `b` with exactly one other member left in the group.
    fn add(&self, b: usize, out: usize) -> f64 {
        self.cuts
            .of(b)
            .iter()
            .filter(|&&c| self.hits(c, out) == 1)
            .map(|&c| self.cuts.weights[c as usize])
            .sum()
    }

    /// Penalty removed by taking record `a` out: its cuts with exactly one other member.
    fn remove(&self, a: usize) -> f64 {
        self.cuts
            .of(a)
            .iter()
            .filter(|&&c| self.hits(c, a) == 1)
            .map(|&c| self.cuts.weights[c as usize])
            .sum()
    }
}

/// [`heuristic`] for the reduced cost with subset-row cuts (every move is charged its change
/// of `pen`); the reported reduced cost includes the penalty.
pub fn heuristic_cuts(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    seed: usize,
) -> Option<(f64, Vec<u32>)> {
    let (k, hi) = (geo.k, 2 * geo.k - 1);
    let with_cuts = !cuts.is_empty();
    let mut mp = MovePenalty {
        cuts,
        in_group: if with_cuts {
            vec![false; geo.n]
        } else {
            Vec::new()
        },
    };
    let mut cand: Vec<usize> = Vec::with_capacity(geo.pool + 1);
    cand.push(seed);
    cand.extend(geo.neighbours(seed).iter().map(|&j| j as usize));
    let l = cand.len();
    if l < k {
        return None;
    }
    let hi = hi.min(l);
    // Greedy growth.
    let mut in_s = vec![false; l];
    let mut to_s: Vec<f64> = cand.iter().map(|&j| geo.d(seed, j)).collect();
    in_s[0] = true;
    if with_cuts {
        mp.in_group[seed] = true;
    }
    let (mut m, mut p, mut ys, mut pen) = (1usize, 0.0f64, y[seed], 0.0f64);
    let mut best: Option<(f64, Vec<bool>)> = None;
    while m < hi {
        let mut pick: Option<(f64, usize, f64)> = None;
        for j in 0..l {
            if !in_s[j] {
                let dp = if with_cuts {
                    mp.add(cand[j], usize::MAX)
                } else {
                    0.0
                };
                let rc = (p + to_s[j]) / (m + 1) as f64 - ys - y[cand[j]] + pen + dp;
                if pick.is_none_or(|(b, _, _)| rc < b) {
                    pick = Some((rc, j, dp));
                }
            }
        }
        let (rc, j, dp) = pick?;
        in_s[j] = true;
        if with_cuts {
            mp.in_group[cand[j]] = true;
        }
        p += to_s[j];
        ys += y[cand[j]];
        pen += dp;
        m += 1;
        for (t, &c) in to_s.iter_mut().zip(&cand) {
            *t += geo.d(cand[j], c);
        }
        if m >= k && best.as_ref().is_none_or(|(b, _)| rc < *b) {
            best = Some((rc, in_s.clone()));
        }
    }
    let (_, mut in_s) = best?;
    // Local search: best-improvement add / remove / swap, recomputing the sums (and the
    // penalty, kept as the cuts' change per move).
    for _ in 0..4 * hi {
        let members: Vec<usize> = (0..l).filter(|&j| in_s[j]).collect();
        let m = members.len();
        if with_cuts {
            for &c in &cand {
                mp.in_group[c] = false;
            }
            for &a in &members {
                mp.in_group[cand[a]] = true;
            }
        }
        let to_s: Vec<f64> = cand
            .iter()
            .map(|&c| members.iter().map(|&a| geo.d(cand[a], c)).sum())
            .collect();
        let p: f64 = members.iter().map(|&a| to_s[a]).sum::<f64>() / 2.0;
        let ys: f64 = members.iter().map(|&a| y[cand[a]]).sum();
        // Reduced costs below are relative to the current penalty (it cancels in the
        // comparison with `cur`).
        let cur = p / m as f64 - ys;
        let dpen = |out: Option<usize>, inn: Option<usize>| -> f64 {
            if !with_cuts {
                return 0.0;
            }
            let mut v = 0.0;
            if let Some(a) = out {
                v -= mp.remove(cand[a]);
            }
            if let Some(b) = inn {
                v += mp.add(cand[b], out.map_or(usize::MAX, |a| cand[a]));
            }
            v
        };
        let mut mv: Option<(f64, Option<usize>, Option<usize>)> = None;
        let mut consider = |rc: f64, out: Option<usize>, inn: Option<usize>| {
            if rc < cur - 1e-12 * (1.0 + cur.abs()) && mv.is_none_or(|(b, _, _)| rc < b) {
                mv = Some((rc, out, inn));
            }
        };
        for b in (0..l).filter(|&b| !in_s[b]) {
            if m < hi {
                consider(
                    (p + to_s[b]) / (m + 1) as f64 - ys - y[cand[b]] + dpen(None, Some(b)),
                    None,
                    Some(b),
                );
            }
            for &a in &members {
                let pp = p - to_s[a] + to_s[b] - geo.d(cand[a], cand[b]);
                consider(
                    pp / m as f64 - ys + y[cand[a]] - y[cand[b]] + dpen(Some(a), Some(b)),
                    Some(a),
                    Some(b),
                );
            }
        }
        if m > k {
            for &a in &members {
                consider(
                    (p - to_s[a]) / (m - 1) as f64 - ys + y[cand[a]] + dpen(Some(a), None),
                    Some(a),
                    None,
                );
            }
        }
        match mv {
            Some((_, out, inn)) => {
                if let Some(a) = out {
                    in_s[a] = false;
                }
                if let Some(b) = inn {
                    in_s[b] = true;
                }
            }
            None => break,
        }
    }
    let mut members: Vec<u32> = (0..l)
        .filter(|&j| in_s[j])
        .map(|j| cand[j] as u32)
        .collect();
    members.sort_unstable();
    Some((geo.reduced_cost_cuts(&members, y, cuts), members))
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

/// Budget of one exact pricing call.
#[derive(Debug, Clone, Copy)]
pub struct ExactBudget {
    /// Branch-and-bound nodes over the whole call.
    pub nodes: u64,
    /// Wall-clock deadline.
    pub deadline: Instant,
    /// Most negative-reduced-cost groups returned as columns.
    pub max_columns: usize,
    /// Stop (as if out of budget, so the bound stays valid but weaker) once this many groups
    /// with negative reduced cost were met; `usize::MAX` to never stop early.
    pub stop_after_columns: usize,
}

/// Result of an exact pricing call.
#[derive(Debug, Clone)]
pub struct ExactPricing {
    /// Proven lower bound on `min(0, min_S rc(S))` (as computed, before the rounding margin).
    pub rc_lower_bound: f64,
    /// True when no node was cut by the budget: then `rc_lower_bound` is the exact minimum
    /// capped at 0 (up to rounding).
    pub exact: bool,
    /// Groups with negative reduced cost met at leaves (reduced cost, sorted members).
    pub columns: Vec<(f64, Vec<u32>)>,
    /// Nodes explored (leaves included).
    pub nodes: u64,
}

struct Search<'a> {
    geo: &'a Geometry,
    y: &'a [f64],
    cuts: &'a CutDuals,
    /// Members of the current node in each cut.
    cut_count: Vec<u8>,
    m: usize,
    cands: Vec<usize>,
    to_t: Vec<f64>,
    /// Star terms `f(u) = D_ru / 2 - y_u` of the candidates for the current anchor `r`.
    star: Vec<f64>,
    members: Vec<u32>,
    inc: f64,
    open_min: f64,
    nodes: u64,
    budget: ExactBudget,
    out_of_budget: bool,
    columns: Vec<(f64, Vec<u32>)>,
    /// Branching decisions the groups must respect (None: all groups count).
    pairs: Option<&'a PairConstraints>,
    /// With `pairs`: position of each record in `cands` for the current anchor
    /// (`usize::MAX`: not a candidate).
    pos: Vec<usize>,
}

/// Into `suffix[pos]` the sum of the `q1` smallest of `v[pos + 1..]` (infinite when fewer
/// remain).
fn suffix_smallest(v: &[f64], q1: usize, suffix: &mut Vec<f64>) {
    suffix.clear();
    suffix.resize(v.len(), f64::INFINITY);
    if q1 == 0 {
        suffix.iter_mut().for_each(|s| *s = 0.0);
        return;
    }
    // The q1 smallest seen so far (from the end), ascending.
    let mut best: Vec<f64> = Vec::with_capacity(q1 + 1);
    let mut sum = 0.0;
    for pos in (0..v.len()).rev() {
        if best.len() == q1 {
            suffix[pos] = sum;
        }
        let x = v[pos];
        if best.len() < q1 || x < best[best.len() - 1] {
            let at = best.partition_point(|&b| b <= x);
            best.insert(at, x);
            sum += x;
            if best.len() > q1 {
                sum -= best.pop().expect("nonempty");
            }
        }
    }
}

/// Per-node scratch vectors.
#[derive(Default)]
struct Scratch {
    g: Vec<f64>,
    suffix_g: Vec<f64>,
    suffix_f: Vec<f64>,
}

impl Search<'_> {
    /// Per-candidate terms `g(u) = sum_{t in T} D_tu / m + NN_{q-1}(u) / (2m) - y_u` of the
    /// candidates from `start`, and into `suffix_g[idx]` the sum of the `q - 1` smallest terms
    /// after `idx`; the same suffix sums of the star terms into `suffix_f`. A child adding
    /// candidate `idx` bounds every group of its subtree by `base + g(idx) + suffix_g[idx]`
    /// and, for groups whose medoid is the anchor, by `star_base + f(idx) + suffix_f[idx]`.
    fn child_bounds(&self, start: usize, q: usize, sc: &mut Scratch) {
        let m = self.m as f64;
        let len = self.cands.len();
        sc.g.clear();
        for idx in start..len {
            let u = self.cands[idx];
            sc.g.push(self.to_t[idx] / m + self.geo.nn(u, q - 1) / (2.0 * m) - self.y[u]);
        }
        suffix_smallest(&sc.g, q - 1, &mut sc.suffix_g);
        suffix_smallest(&self.star[start..], q - 1, &mut sc.suffix_f);
    }

    /// Bound of the child adding candidate `idx` (node from `start`): the larger of the
    /// pair-sum bound and the star bound (P09 B2, B3).
    #[inline]
    fn child_bound(
        &self,
        base: f64,
        star_base: f64,
        start: usize,
        idx: usize,
        sc: &Scratch,
    ) -> f64 {
        let i = idx - start;
        let pair = base + sc.g[i] + sc.suffix_g[i];
        let star = star_base + self.star[idx] + sc.suffix_f[i];
        pair.max(star)
    }

    /// Add record `c` to the cut counts; returns the penalty it adds (cuts reaching two).
    fn enter_cuts(&mut self, c: usize) -> f64 {
        let mut add = 0.0;
        for &ci in self.cuts.of(c) {
            let cnt = &mut self.cut_count[ci as usize];
            *cnt += 1;
            if *cnt == 2 {
                add += self.cuts.weights[ci as usize];
            }
        }
        add
    }

    fn leave_cuts(&mut self, c: usize) {
        for &ci in self.cuts.of(c) {
            self.cut_count[ci as usize] -= 1;
        }
    }

    /// With branching decisions: whether adding candidate `c` (at position `idx`) can still
    /// lead to a compatible group: no apart partner of `c` is a member, and every together
    /// partner of `c` or of a member is a member or a candidate after `idx` (the children
    /// skip the candidates before `idx`).
    fn pairs_allow_child(&self, c: usize, idx: usize) -> bool {
        let Some(pc) = self.pairs else {
            return true;
        };
        if pc.apart_of(c).iter().any(|j| self.members.contains(j)) {
            return false;
        }
        let reachable = |j: u32| {
            j as usize == c
                || self.members.contains(&j)
                || (self.pos[j as usize] != usize::MAX && self.pos[j as usize] > idx)
        };
        pc.together_of(c).iter().all(|&j| reachable(j))
            && self
                .members
                .iter()
                .all(|&mb| pc.together_of(mb as usize).iter().all(|&j| reachable(j)))
    }

    /// Node with pair sum `p`, dual sum `yt`, star sum `star_base` and cut penalty `pen` of
    /// the members fixed so far.
    fn dfs(&mut self, p: f64, yt: f64, star_base: f64, pen: f64, start: usize) {
        let q = self.m - self.members.len();
        self.nodes += 1;
        if q == 0 {
            if self
                .pairs
                .is_some_and(|c| !c.allows_unsorted(&self.members))
            {
                return; // not a group of this branch-and-price node
            }
            let rc = p / self.m as f64 - yt + pen;
            if rc < self.inc {
                self.inc = rc;
            }
            if rc < 0.0 && (rc <= self.inc || self.columns.len() < 20 * self.budget.max_columns) {
                let mut g = self.members.clone();
                g.sort_unstable();
                self.columns.push((rc, g));
                if self.columns.len() >= self.budget.stop_after_columns {
                    self.out_of_budget = true;
                }
            }
            return;
        }
        if self.cands.len() - start < q {
            return;
        }
        // The penalty of the fixed members is a lower bound on that of every completion.
        let base = p / self.m as f64 - yt + pen;
        let star_node = star_base + pen;
        let mut sc = Scratch::default();
        self.child_bounds(start, q, &mut sc);
        let bound = (start..self.cands.len())
            .map(|idx| self.child_bound(base, star_node, start, idx, &sc))
            .fold(f64::INFINITY, f64::min);
        if bound >= self.inc {
            return;
        }
        if self.out_of_budget
            || self.nodes >= self.budget.nodes
            || (self.nodes.is_multiple_of(256) && Instant::now() >= self.budget.deadline)
        {
            self.out_of_budget = true;
            self.open_min = self.open_min.min(bound);
            return;
        }
        for idx in start..=self.cands.len() - q {
            // `inc` may have dropped since: re-test each child against it.
            let child = self.child_bound(base, star_node, start, idx, &sc);
            if child >= self.inc {
                continue;
            }
            if self.out_of_budget {
                self.open_min = self.open_min.min(child);
                continue;
            }
            let c = self.cands[idx];
            if self.pairs.is_some() && !self.pairs_allow_child(c, idx) {
                continue; // no compatible group in this subtree
            }
            let (pc, yc) = (p + self.to_t[idx], yt + self.y[c]);
            // Saved and restored (not subtracted back) so that no rounding drift builds up.
            let saved = self.to_t[idx + 1..].to_vec();
            for j in idx + 1..self.cands.len() {
                self.to_t[j] += self.geo.d(c, self.cands[j]);
            }
            self.members.push(c as u32);
            let pen_c = if self.cuts.is_empty() {
                pen
            } else {
                pen + self.enter_cuts(c)
            };
            self.dfs(pc, yc, star_base + self.star[idx], pen_c, idx + 1);
            if !self.cuts.is_empty() {
                self.leave_cuts(c);
            }
            self.members.pop();
            self.to_t[idx + 1..].copy_from_slice(&saved);
        }
    }
}

/// Exact pricing by branch and bound (see the module doc): a proven lower bound on
/// `min(0, min_S rc(S))` over groups of `k..2k-1` records, exact when nothing was cut.
pub fn exact_rc_bound(geo: &Geometry, y: &[f64], budget: ExactBudget) -> ExactPricing {
    exact_rc_bound_cuts(geo, y, &CutDuals::none(), budget)
}

/// [`exact_rc_bound`] for the reduced cost with subset-row cuts,
/// `rc(S) = P(S)/|S| - y(S) + pen(S)` (module doc; proofs/P14).
pub fn exact_rc_bound_cuts(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
) -> ExactPricing {
    exact_search(geo, y, cuts, None, budget, None)
}

/// [`exact_rc_bound_cuts`] over the groups compatible with the branching decisions `pairs`
/// (all groups when None; module doc, proofs/P17): a proven lower bound on
/// `min(0, min rc(S))` over those groups, exact when nothing was cut, and only compatible
/// groups as columns.
pub fn exact_rc_bound_pairs(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    pairs: Option<&PairConstraints>,
    budget: ExactBudget,
) -> ExactPricing {
    exact_search(geo, y, cuts, pairs, budget, None)
}

/// Per-anchor exact pricing (proofs/P20): the search of [`exact_rc_bound_cuts`] with the
/// incumbent reset to `threshold` (<= 0) at every anchor, so that on return `per_anchor[r]`
/// (length n, overwritten) is a proven lower bound on `min(threshold, rc(S))` over the groups
/// `S` whose medoid is `r` (the groups the search covers at anchor `r`, P09 B2.1). Slower than
/// the shared incumbent (an anchor is never pruned by another anchor's groups); the returned
/// [`ExactPricing`] is the usual global result (`rc_lower_bound = min_r per_anchor[r]`).
pub fn exact_rc_bound_anchors(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
    threshold: f64,
    per_anchor: &mut Vec<f64>,
) -> ExactPricing {
    let threshold = threshold.min(0.0);
    per_anchor.clear();
    per_anchor.resize(geo.n, threshold);
    exact_search(geo, y, cuts, None, budget, Some((threshold, per_anchor)))
}

/// Per-anchor bookkeeping of [`exact_rc_bound_anchors`]: fold the finished anchor `r`'s
/// minimum (its incumbent and cut nodes) into `per_anchor[r]` and into the global incumbent
/// and open minimum (`global`), then reset the search for the next anchor.
fn flush_anchor(
    s: &mut Search<'_>,
    anchors: &mut Option<(f64, &mut Vec<f64>)>,
    global: &mut (f64, f64),
    r: usize,
) {
    if let Some((threshold, per_anchor)) = anchors.as_mut() {
        let v = s.inc.min(s.open_min);
        per_anchor[r] = per_anchor[r].min(v);
        global.0 = global.0.min(s.inc);
        global.1 = global.1.min(s.open_min);
        s.inc = *threshold;
        s.open_min = f64::INFINITY;
    }
}

/// The search behind [`exact_rc_bound_cuts`] and [`exact_rc_bound_anchors`] (`anchors`:
/// per-anchor threshold and minima, see there; `pairs`: the branching decisions of
/// [`exact_rc_bound_pairs`]).
fn exact_search(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    pairs: Option<&PairConstraints>,
    budget: ExactBudget,
    mut anchors: Option<(f64, &mut Vec<f64>)>,
) -> ExactPricing {
    let n = geo.n;
    let mut sorted_y: Vec<f64> = y.to_vec();
    sorted_y.sort_unstable_by(|a, b| b.total_cmp(a));
    let mut s = Search {
        geo,
        y,
        cuts,
        cut_count: vec![0; cuts.len()],
        m: 0,
        cands: Vec::new(),
        to_t: Vec::new(),
        star: Vec::new(),
        members: Vec::new(),
        inc: anchors.as_ref().map_or(0.0, |a| a.0),
        open_min: f64::INFINITY,
        nodes: 0,
        budget,
        out_of_budget: false,
        columns: Vec::new(),
        pairs,
        pos: if pairs.is_some() {
            vec![usize::MAX; n]
        } else {
            Vec::new()
        },
    };
    // Radii use a relative slack so that rounding cannot exclude a record (see P09).
    let slack = 1.0 + 1e-9;
    // Absolute slack of the star tests, far above their rounding error (see P09 B3).
    let star_slack = 1e-9
        * (geo.max_dist * (2 * geo.k) as f64
            + sorted_y
                .iter()
                .take(2 * geo.k)
                .map(|v| v.abs())
                .sum::<f64>());
    let mut cy: Vec<f64> = Vec::with_capacity(n);
    // Per-anchor mode: global incumbent and open minimum over the anchors flushed so far.
    let mut global = (s.inc, f64::INFINITY);
    for m in geo.k..=(2 * geo.k - 1).min(n) {
        s.m = m;
        if m == 1 {
            // Singletons: rc({r}) = -y_r, evaluated directly.
            for (r, &yr) in y.iter().enumerate() {
                if pairs.is_some_and(|c| !c.allows(&[r as u32])) {
                    continue;
                }
                if let Some((_, per_anchor)) = anchors.as_mut() {
                    per_anchor[r] = per_anchor[r].min(-yr);
                }
                if -yr < s.inc {
                    s.inc = -yr;
                }
                if -yr < 0.0 {
                    s.columns.push((-yr, vec![r as u32]));
                }
            }
            if let Some((threshold, _)) = anchors.as_ref() {
                global.0 = global.0.min(s.inc);
                s.inc = *threshold;
            }
            continue;
        }
        let top_m: f64 = sorted_y[..m].iter().sum();
        for r in 0..n {
            if r > 0 {
                flush_anchor(&mut s, &mut anchors, &mut global, r - 1);
            }
            if top_m + s.inc <= 0.0 {
                break;
            }
            let radius = 2.0 * (top_m + s.inc) * slack;
            s.cands.clear();
            s.cands
                .extend((0..n).filter(|&j| j != r && geo.d(r, j) <= radius));
            if s.cands.len() < m - 1 {
                continue;
            }
            // Tighter radius from the duals of the candidates themselves.
            cy.clear();
            cy.extend(s.cands.iter().map(|&j| -y[j]));
            let top = -sum_smallest(&mut cy, m - 1);
            let lim = y[r] + top + s.inc;
            if lim <= 0.0 {
                continue;
            }
            let radius = 2.0 * lim * slack;
            s.cands.retain(|&j| geo.d(r, j) <= radius);
            if s.cands.len() < m - 1 {
                continue;
            }
            // Star test (P09 B3): a group with medoid r and rc < inc has
            // -y_r + sum_{b != r} f(b) < inc, f(b) = D_rb / 2 - y_b.
            let star_of = |j: usize| geo.d(r, j) / 2.0 - y[j];
            cy.clear();
            cy.extend(s.cands.iter().map(|&j| star_of(j)));
            let f_m2 = sum_smallest(&mut cy, m - 2);
            let smallest_rest = cy[m - 2..].iter().copied().fold(f64::INFINITY, f64::min);
            if -y[r] + f_m2 + smallest_rest >= s.inc + star_slack {
                continue;
            }
            // A member b needs f(b) + (the m - 2 smallest f) < inc + y_r.
            let f_lim = s.inc + y[r] - f_m2 + star_slack;
            s.cands.retain(|&j| star_of(j) < f_lim);
            if s.cands.len() < m - 1 {
                continue;
            }
            let mf = m as f64;
            if s.out_of_budget {
                // Budget spent: only the root bound of this anchor (no sort, no search).
                cy.clear();
                cy.extend(
                    s.cands
                        .iter()
                        .map(|&j| geo.d(r, j) / mf + geo.nn(j, m - 2) / (2.0 * mf) - y[j]),
                );
                let pair = -y[r] + sum_smallest(&mut cy, m - 1);
                cy.clear();
                cy.extend(s.cands.iter().map(|&j| star_of(j)));
                let star = -y[r] + sum_smallest(&mut cy, m - 1);
                let root = pair.max(star);
                if root < s.inc {
                    s.open_min = s.open_min.min(root);
                }
                continue;
            }
            // Promising candidates first.
            let key = |j: usize| geo.d(r, j) / mf + geo.nn(j, m - 2) / (2.0 * mf) - y[j];
            s.cands
                .sort_unstable_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
            s.to_t.clear();
            s.to_t.extend(s.cands.iter().map(|&j| geo.d(r, j)));
            s.star.clear();
            s.star.extend(s.cands.iter().map(|&j| star_of(j)));
            s.members.clear();
            s.members.push(r as u32);
            if pairs.is_some() {
                for (p, &j) in s.cands.iter().enumerate() {
                    s.pos[j] = p;
                }
            }
            let pen_r = s.enter_cuts(r); // 0: one record fills no cut
            s.dfs(0.0, y[r], -y[r], pen_r, 0);
            s.leave_cuts(r);
            if pairs.is_some() {
                for &j in &s.cands {
                    s.pos[j] = usize::MAX;
                }
            }
        }
        // The last anchor of this size (anchors skipped by the break above keep their
        // threshold: no group with medoid there has rc below it).
        flush_anchor(&mut s, &mut anchors, &mut global, n - 1);
    }
    if anchors.is_some() {
        s.inc = global.0;
        s.open_min = global.1;
    }
    let mut columns = std::mem::take(&mut s.columns);
    columns.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    columns.dedup_by(|a, b| a.1 == b.1);
    columns.truncate(budget.max_columns);
    ExactPricing {
        rc_lower_bound: s.inc.min(s.open_min).min(0.0),
        exact: !s.out_of_budget,
        columns,
        nodes: s.nodes,
    }
}
