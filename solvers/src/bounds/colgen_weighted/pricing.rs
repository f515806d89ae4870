//! # Pricing of the weighted column generation: weighted group costs and the exact
//! per-anchor search
//!
//! A group `S` (`k..2k-1` records) costs its weighted SSE
//! `SSE_w(S) = sum_{a<b in S} w_a w_b D_ab / W_S` (P40 W1(c)); its reduced cost at duals `y`
//! is `rc(S) = SSE_w(S) - y(S)`.
//!
//! **Exact search** ([`WeightedPricing::anchor_values`], proofs/P43 Lemmas L4-L5). A
//! *weighted medoid* of `S` is a member `r` minimising `sum_{b in S} w_b D_rb`; the
//! `w`-weighted mean of these sums over the members is `2 SSE_w(S)`, so the medoid's sum is
//! at most that and `rc(S) >= -y_r + sum_{b in S, b != r} f_r(b)` with
//! `f_r(b) = w_b D_rb / 2 - y_b` (the weighted star bound). For every anchor `r` and size
//! `m` the search enumerates the `(m - 1)`-subsets of the other records in ascending order
//! of `f_r`, pruning a branch as soon as its star bound (the chosen values plus the next
//! ones in that order) reaches the incumbent, which starts at the threshold `tau <= 0` for
//! every (anchor, size). Every group whose medoid is `r` is thus evaluated or pruned with
//! a star bound at least the final incumbent, so that incumbent (or, when the node budget
//! or the deadline cuts the search, the smaller of it and the root star bound) is a lower
//! bound `L_r` on the reduced cost of every group with medoid `r`, up to the rounding
//! margin [`WeightedPricing::rc_margin`].
//!
//! **Heuristic** ([`WeightedPricing::heuristic`]): for every anchor, every subset of its
//! `width` records of least `f_r` (all sizes), the most negative group per anchor.
//!
//! ## Complexity
//! O(n d) per anchor for `f_r`, plus the search (one leaf costs O(k^2 d)); no n x n matrix.
//! The heuristic: O(n (d + C(width, 2k - 2) k^2 d)) per call.
//!
//! ## References
//! The unweighted star bound: proofs/P09 B3; the anchored bound: proofs/P20; weighted
//! identities: proofs/P40.

use crate::bounds::UNIT_ROUNDOFF;
use crate::sse::sq_dist;
use std::time::Instant;

/// The data a weighted pricing search reads, with the scale of its rounding margin.
pub struct WeightedPricing<'a> {
    x: &'a [f64],
    w: &'a [f64],
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// An upper bound on every pairwise squared distance (bounding box, rounded up).
    pub dmax: f64,
    /// Sum of the `2k - 1` largest weights.
    pub wtop: f64,
}

/// What the exact per-anchor search proved.
#[derive(Debug, Clone, PartialEq)]
pub struct AnchorSearch {
    /// `per_anchor[r]`: computed lower bound (before [`WeightedPricing::rc_margin`]) on the
    /// reduced cost of every group of `k..2k-1` records whose weighted medoid is `r`;
    /// at most `tau`.
    pub per_anchor: Vec<f64>,
    /// The most negative group met at each (anchor, size) below `tau`, with its computed
    /// reduced cost (members ascending).
    pub negatives: Vec<(Vec<u32>, f64)>,
    /// No (anchor, size) was cut by the node budget or the deadline.
    pub exact: bool,
    /// Search nodes (subsets extended) over all anchors.
    pub nodes: u64,
}

/// Limits of one exact search: nodes per (anchor, size), and a deadline after which the
/// remaining anchors keep their root star bound.
#[derive(Debug, Clone, Copy)]
pub struct SearchLimits {
    pub nodes_per_anchor: u64,
    pub deadline: Option<Instant>,
}

impl SearchLimits {
    /// No limit: the search runs to the end.
    pub const NONE: SearchLimits = SearchLimits {
        nodes_per_anchor: u64::MAX,
        deadline: None,
    };
}

impl<'a> WeightedPricing<'a> {
    /// The pricing data of the `n` records of `x` (row-major, `d` columns, already checked)
    /// with weights `w` (finite, > 0, already checked) for groups of `k..2k-1` records.
    pub fn new(x: &'a [f64], n: usize, d: usize, k: usize, w: &'a [f64]) -> Self {
        let mut dmax = 0.0;
        for j in 0..d {
            let (lo, hi) = (0..n).fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), i| {
                (lo.min(x[i * d + j]), hi.max(x[i * d + j]))
            });
            if n > 0 {
                dmax += (hi - lo) * (hi - lo);
            }
        }
        // The box diagonal bounds every exact distance; the computed ones exceed theirs by
        // a relative (1 + u)^{3d}, and the sum above carries its own roundings: 1e-9 covers
        // both (the margin only scales with it).
        let dmax = dmax * (1.0 + 1e-9);
        let mut ws: Vec<f64> = w.to_vec();
        ws.sort_unstable_by(|a, b| b.total_cmp(a));
        let wtop = ws.iter().take(2 * k - 1).sum::<f64>() * (1.0 + 1e-12);
        WeightedPricing {
            x,
            w,
            n,
            d,
            k,
            dmax,
            wtop,
        }
    }

    fn row(&self, i: usize) -> &[f64] {
        &self.x[i * self.d..(i + 1) * self.d]
    }

    /// Largest group size searched: `min(2k - 1, n)`.
    pub fn top_size(&self) -> usize {
        (2 * self.k - 1).min(self.n)
    }

    /// Weighted SSE of `members` by the pairwise formula (P40 W1(c)): nonnegative terms.
    pub fn group_cost(&self, members: &[u32]) -> f64 {
        let mut pairs = 0.0;
        let mut total = 0.0;
        for (p, &a) in members.iter().enumerate() {
            let a = a as usize;
            total += self.w[a];
            for &b in &members[p + 1..] {
                let b = b as usize;
                pairs += self.w[a] * self.w[b] * sq_dist(self.row(a), self.row(b));
            }
        }
        pairs / total
    }

    /// Reduced cost `SSE_w(S) - y(S)`.
    pub fn reduced_cost(&self, members: &[u32], y: &[f64]) -> f64 {
        self.group_cost(members) - members.iter().map(|&i| y[i as usize]).sum::<f64>()
    }

    /// Absolute rounding margin of every computed reduced cost, star bound and node bound
    /// at duals `y` and threshold `tau` (proofs/P43 "Floating point"): each is a sum of at
    /// most `ops` roundings over terms of total magnitude at most
    /// `scale = wtop dmax + (sum of the 2k largest |y_i|) + |tau|`; a factor 4 covers the
    /// comparison chain, and `1e-300` any underflow.
    pub fn rc_margin(&self, y: &[f64], tau: f64) -> f64 {
        let mut abs_y: Vec<f64> = y.iter().map(|v| v.abs()).collect();
        abs_y.sort_unstable_by(|a, b| b.total_cmp(a));
        let top: f64 = abs_y.iter().take(2 * self.k).sum();
        let scale = self.wtop * self.dmax + top + tau.abs();
        let ops = (3 * self.d + 8 * self.k * self.k + 32) as f64;
        4.0 * ops * UNIT_ROUNDOFF * scale + 1e-300
    }

    /// `f_r(c) = w_c D_rc / 2 - y_c` for every `c != r`, ascending (ties by index).
    fn star_terms(&self, r: usize, y: &[f64], out: &mut Vec<(f64, u32)>) {
        out.clear();
        let xr = self.row(r);
        for c in (0..self.n).filter(|&c| c != r) {
            let f = self.w[c] * sq_dist(xr, self.row(c)) / 2.0 - y[c];
            out.push((f, c as u32));
        }
        out.sort_unstable_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    }

    /// The exact per-anchor search at duals `y` and threshold `tau <= 0` (see the module
    /// doc). Deterministic for given inputs and limits.
    pub fn anchor_values(&self, y: &[f64], tau: f64, limits: SearchLimits) -> AnchorSearch {
        let tau = tau.min(0.0);
        let mut per_anchor = vec![tau; self.n];
        let mut negatives = Vec::new();
        let mut exact = true;
        let mut nodes = 0u64;
        let mut terms = Vec::with_capacity(self.n);
        let mut kept: Vec<(f64, u32)> = Vec::new();
        let mut late = false;
        for r in 0..self.n {
            if !late {
                late = limits.deadline.is_some_and(|t| Instant::now() >= t);
            }
            self.star_terms(r, y, &mut terms);
            for m in self.k..=self.top_size() {
                let q = m - 1;
                // Root star bound: the q smallest f_r.
                let root = -y[r] + terms[..q].iter().map(|t| t.0).sum::<f64>();
                if root >= tau {
                    continue; // no group of this size with medoid r below tau
                }
                if late {
                    exact = false;
                    per_anchor[r] = per_anchor[r].min(root);
                    continue;
                }
                // Candidate filter with the q - 1 smallest over all (<= over the others).
                let rest: f64 = terms[..q.saturating_sub(1)].iter().map(|t| t.0).sum();
                let cut = tau + y[r] - rest;
                kept.clear();
                kept.extend(terms.iter().take_while(|t| t.0 < cut));
                let mut s = Search {
                    pricing: self,
                    y,
                    anchor: r,
                    q,
                    kept: &kept,
                    chosen: Vec::with_capacity(q + 1),
                    incumbent: tau,
                    best: None,
                    nodes: 0,
                    budget: limits.nodes_per_anchor,
                    cut: false,
                };
                s.extend(0, -y[r]);
                nodes += s.nodes;
                // Both the incumbent (uncut) and the root star bound are valid for the
                // groups with medoid r: the larger is kept, so a cut search (the smaller)
                // never proves more than the full one (certificates re-check the full one).
                let value = if s.cut {
                    exact = false;
                    s.incumbent.min(root)
                } else {
                    s.incumbent.max(root)
                };
                per_anchor[r] = per_anchor[r].min(value);
                if let Some(g) = s.best {
                    negatives.push((g, s.incumbent));
                }
            }
        }
        AnchorSearch {
            per_anchor,
            negatives,
            exact,
            nodes,
        }
    }

    /// Heuristic pricing at `y`: for every anchor, all subsets of its `width` records of
    /// least `f_r` with the anchor, of every size; the most negative group per anchor whose
    /// reduced cost is below `-tol`, most negative first.
    pub fn heuristic(&self, y: &[f64], width: usize, tol: f64) -> Vec<(Vec<u32>, f64)> {
        let mut out: Vec<(Vec<u32>, f64)> = Vec::new();
        let mut terms = Vec::with_capacity(self.n);
        for r in 0..self.n {
            self.star_terms(r, y, &mut terms);
            let near: Vec<u32> = terms.iter().take(width).map(|t| t.1).collect();
            let mut best: Option<(Vec<u32>, f64)> = None;
            for m in self.k..=self.top_size().min(near.len() + 1) {
                for_each_subset(near.len(), m - 1, &mut |idx| {
                    let mut g: Vec<u32> = idx.iter().map(|&i| near[i]).collect();
                    g.push(r as u32);
                    g.sort_unstable();
                    let rc = self.reduced_cost(&g, y);
                    if rc < -tol && best.as_ref().is_none_or(|b| rc < b.1) {
                        best = Some((g, rc));
                    }
                });
            }
            out.extend(best);
        }
        out.sort_by(|a, b| a.1.total_cmp(&b.1).then_with(|| a.0.cmp(&b.0)));
        out.dedup_by(|a, b| a.0 == b.0);
        out
    }
}

/// Calls `f` with every `q`-subset of `0..len` (ascending indices).
fn for_each_subset(len: usize, q: usize, f: &mut dyn FnMut(&[usize])) {
    fn rec(start: usize, len: usize, q: usize, cur: &mut Vec<usize>, f: &mut dyn FnMut(&[usize])) {
        if cur.len() == q {
            f(cur);
            return;
        }
        for i in start..len {
            if len - i < q - cur.len() {
                break;
            }
            cur.push(i);
            rec(i + 1, len, q, cur, f);
            cur.pop();
        }
    }
    if q <= len {
        rec(0, len, q, &mut Vec::with_capacity(q), f);
    }
}

/// One (anchor, size) branch and bound over the kept candidates (ascending `f_r`).
struct Search<'s, 'a> {
    pricing: &'s WeightedPricing<'a>,
    y: &'s [f64],
    anchor: usize,
    q: usize,
    kept: &'s [(f64, u32)],
    chosen: Vec<u32>,
    incumbent: f64,
    best: Option<Vec<u32>>,
    nodes: u64,
    budget: u64,
    cut: bool,
}

impl Search<'_, '_> {
    /// Extend the chosen members (star sum `star`, anchor's `-y_r` included) with
    /// candidates from position `from`.
    fn extend(&mut self, from: usize, star: f64) {
        let need = self.q - self.chosen.len();
        if need == 0 {
            let mut g = self.chosen.clone();
            g.push(self.anchor as u32);
            g.sort_unstable();
            let rc = self.pricing.reduced_cost(&g, self.y);
            if rc < self.incumbent {
                self.incumbent = rc;
                self.best = Some(g);
            }
            return;
        }
        let len = self.kept.len();
        for p in from..len {
            if len - p < need {
                break;
            }
            // Star bound of every completion through p: its value and the next need - 1.
            let bound = star + self.kept[p..p + need].iter().map(|t| t.0).sum::<f64>();
            // Later p have elementwise larger windows (ascending order): stop here.
            if bound >= self.incumbent {
                break;
            }
            if self.nodes >= self.budget {
                self.cut = true;
                return;
            }
            self.nodes += 1;
            self.chosen.push(self.kept[p].1);
            self.extend(p + 1, star + self.kept[p].0);
            self.chosen.pop();
            if self.cut {
                return;
            }
        }
    }
}
