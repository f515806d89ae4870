//! # Branch-and-bound nodes of the exact pricing
//!
//! The depth-first search of [`super`] below one anchor and size: per node the pair-sum
//! bound and the star bound of every child (P09 B2, B3) from suffix sums of the smallest
//! candidate terms, the subset-row cut penalty of the members fixed so far (P14) and the
//! branching-decision checks (P17). Leaves evaluate the reduced cost exactly and collect
//! negative groups as columns.
//!
//! ## Complexity
//! O(|candidates| q) per node for the child bounds (sorted insertion into the q smallest) and
//! O(|candidates|) per child for its sums to the members; the star terms' suffix sums once
//! per anchor and q (shared by its nodes). Nodes bounded by the budget and deadline. No node
//! allocates: each depth keeps its scratch ([`Frame`]) for the whole search.
//!
//! ## References
//! proofs/P09 (part B), proofs/P14, proofs/P17 (our own design; see [`super`]).

use super::{keep_smallest, Search};

/// Into `suffix[pos]` the sum of the `q1` smallest of `v[pos + 1..]` (infinite when fewer
/// remain). Each sum is taken afresh over the `q1` values it names (ascending), never kept as
/// a running total with values subtracted back: its rounding error is then relative to those
/// `q1` values alone, whatever passed through before (proofs/P09, "The least reduced cost of
/// one search"). `suffix` has the length of `v`; `best` is scratch space (overwritten).
fn suffix_smallest(v: &[f64], q1: usize, suffix: &mut [f64], best: &mut Vec<f64>) {
    suffix.fill(f64::INFINITY);
    if q1 == 0 {
        suffix.iter_mut().for_each(|s| *s = 0.0);
        return;
    }
    // The q1 smallest seen so far (from the end), ascending.
    best.clear();
    let mut sum = 0.0;
    for pos in (0..v.len()).rev() {
        if best.len() == q1 {
            suffix[pos] = sum;
        }
        if keep_smallest(best, q1, v[pos]) {
            sum = best.iter().sum();
        }
    }
}

/// Scratch vectors of one depth of the search, kept in [`Search::frames`] and reused by
/// every node at that depth, so that no node allocates.
#[derive(Default)]
pub(super) struct Frame {
    g: Vec<f64>,
    suffix_g: Vec<f64>,
    /// The q - 1 smallest terms of a suffix (scratch of `suffix_smallest`).
    best: Vec<f64>,
    /// `to_t[idx] = sum_{t in T} D_t,cands[idx]` of this depth's node (its members `T`),
    /// written by the parent for the positions after the child's.
    pub(super) to_t: Vec<f64>,
}

impl Search<'_> {
    /// Per-candidate terms `g(u) = sum_{t in T} D_tu / m + NN_{q-1}(u) / (2m) - y_u` of the
    /// candidates from `start`, and into `suffix_g[idx]` the sum of the `q - 1` smallest terms
    /// after `idx`; the same suffix sums of the star terms, which depend on the anchor and `q`
    /// alone, into the anchor's row `q` of `star_suffix` (once per anchor and `q`). A child
    /// adding candidate `idx` bounds every group of its subtree by `base + g(idx) +
    /// suffix_g[idx]` and, for groups whose medoid is the anchor, by `star_base + f(idx) +
    /// star_suffix[q][idx]`.
    fn child_bounds(&mut self, start: usize, q: usize, sc: &mut Frame) {
        let m = self.m as f64;
        let len = self.cands.len();
        let nn_half = &self.nn_half[(q - 1) * len..q * len];
        sc.g.clear();
        sc.g.extend((start..len).map(|idx| sc.to_t[idx] / m + nn_half[idx] - self.cand_y[idx]));
        sc.suffix_g.resize(sc.g.len(), 0.0);
        suffix_smallest(&sc.g, q - 1, &mut sc.suffix_g, &mut sc.best);
        if !self.star_ready[q - 1] {
            // Over all candidates: the sum at a position names the same values whatever the
            // node's start, so every node of this anchor and q shares the row.
            let row = &mut self.star_suffix[(q - 1) * len..q * len];
            suffix_smallest(&self.star, q - 1, row, &mut sc.best);
            self.star_ready[q - 1] = true;
        }
    }

    /// Bound of the child adding candidate `idx` (node from `start`): the larger of the
    /// pair-sum bound and the star bound (P09 B2, B3).
    #[inline]
    fn child_bound(&self, base: f64, star_base: f64, start: usize, idx: usize, sc: &Frame) -> f64 {
        let i = idx - start;
        let q = self.m - self.members.len();
        let pair = base + sc.g[i] + sc.suffix_g[i];
        let star = star_base + self.star[idx] + self.star_suffix[(q - 1) * self.cands.len() + idx];
        pair.max(star)
    }

    /// Add record `c` to the cut counts (weighted by its multiplier numerator); returns the
    /// penalty it adds (`w_C` for each multiple of a cut's denominator its count reaches,
    /// P21 Part C).
    pub(super) fn enter_cuts(&mut self, c: usize) -> f64 {
        let mut add = 0.0;
        for &(ci, p) in self.cuts.of(c) {
            let cnt = &mut self.cut_count[ci as usize];
            let before = *cnt;
            *cnt += u16::from(p);
            let after = *cnt;
            add += self.cuts.penalty_step(ci, before, after);
        }
        add
    }

    pub(super) fn leave_cuts(&mut self, c: usize) {
        for &(ci, p) in self.cuts.of(c) {
            self.cut_count[ci as usize] -= u16::from(p);
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

    /// Keep the current members (sorted) as a column of reduced cost `rc`; out of budget
    /// once the columns reach `stop_after_columns`.
    fn keep_column(&mut self, rc: f64) {
        let mut g = self.members.clone();
        g.sort_unstable();
        self.columns.push((rc, g));
        if self.columns.len() >= self.budget.stop_after_columns {
            self.out_of_budget = true;
        }
    }

    /// Node with pair sum `p`, dual sum `yt`, star sum `star_base` and cut penalty `pen` of
    /// the members fixed so far.
    pub(super) fn dfs(&mut self, p: f64, yt: f64, star_base: f64, pen: f64, start: usize) {
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
            if self.enumerate {
                if rc < self.inc {
                    self.keep_column(rc);
                }
                return;
            }
            if rc < self.inc {
                self.inc = rc;
            }
            if rc < 0.0
                && (rc <= self.inc
                    || self.columns.len() < self.budget.max_columns.saturating_mul(20))
            {
                self.keep_column(rc);
            }
            return;
        }
        if self.cands.len() - start < q {
            return;
        }
        let depth = self.members.len();
        self.ensure_frame(depth + 1);
        // This depth's scratch, taken out for the node's lifetime (deeper nodes use theirs).
        let mut sc = std::mem::take(&mut self.frames[depth]);
        self.children(p, yt, star_base, pen, start, q, &mut sc);
        self.frames[depth] = sc;
    }

    /// Frames for depths up to `depth` exist.
    pub(super) fn ensure_frame(&mut self, depth: usize) {
        if self.frames.len() <= depth {
            self.frames.resize_with(depth + 1, Frame::default);
        }
    }

    /// True when the node's budget is spent (nodes, interrupt, or the deadline, checked every
    /// 256 nodes).
    fn budget_spent(&self) -> bool {
        self.out_of_budget
            || self.nodes >= self.budget.nodes
            || self.budget.deadline.interrupted()
            || (self.nodes.is_multiple_of(256) && self.budget.deadline.passed())
    }

    /// The children of a node (as [`Self::dfs`]) with its scratch `sc`. A node whose every
    /// child is bounded at or above the incumbent has nothing to search: each child is skipped
    /// in the loop, so the least child bound is needed only when the budget is spent (it is
    /// then what the node leaves open).
    #[allow(clippy::too_many_arguments)]
    fn children(
        &mut self,
        p: f64,
        yt: f64,
        star_base: f64,
        pen: f64,
        start: usize,
        q: usize,
        sc: &mut Frame,
    ) {
        // The penalty of the fixed members is a lower bound on that of every completion.
        let base = p / self.m as f64 - yt + pen;
        let star_node = star_base + pen;
        self.child_bounds(start, q, sc);
        if self.budget_spent() {
            let bound = (start..self.cands.len())
                .map(|idx| self.child_bound(base, star_node, start, idx, sc))
                .fold(f64::INFINITY, f64::min);
            if bound < self.inc {
                self.out_of_budget = true;
                self.open_min = self.open_min.min(bound);
            }
            return;
        }
        let len = self.cands.len();
        let depth = self.members.len();
        for idx in start..=len - q {
            // `inc` may have dropped since: re-test each child against it.
            let child = self.child_bound(base, star_node, start, idx, sc);
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
            let (pc, yc) = (p + sc.to_t[idx], yt + self.y[c]);
            // The child's sums are written afresh from this node's (never subtracted back),
            // so that no rounding drift builds up.
            let next = &mut self.frames[depth + 1].to_t;
            next.resize(len, 0.0);
            let after = (
                &mut next[idx + 1..],
                &sc.to_t[idx + 1..len],
                &self.cands[idx + 1..],
            );
            for ((t, &t_parent), &j) in after.0.iter_mut().zip(after.1).zip(after.2) {
                *t = t_parent + self.geo.d(c, j);
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
        }
    }
}
