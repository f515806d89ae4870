//! # Branch-and-bound nodes of the exact pricing
//!
//! The depth-first search of [`super`] below one anchor and size: per node the pair-sum
//! bound and the star bound of every child (P09 B2, B3) from suffix sums of the smallest
//! candidate terms, the subset-row cut penalty of the members fixed so far (P14) and the
//! branching-decision checks (P17). Leaves evaluate the reduced cost exactly and collect
//! negative groups as columns.
//!
//! ## Complexity
//! O(|candidates| q) per node for the child bounds (sorted insertion into the q smallest),
//! nodes bounded by the budget and deadline.
//!
//! ## References
//! proofs/P09 (part B), proofs/P14, proofs/P17 (our own design; see [`super`]).

use super::Search;

/// Into `suffix[pos]` the sum of the `q1` smallest of `v[pos + 1..]` (infinite when fewer
/// remain). Each sum is taken afresh over the `q1` values it names (ascending), never kept as
/// a running total with values subtracted back: its rounding error is then relative to those
/// `q1` values alone, whatever passed through before (proofs/P09, "The least reduced cost of
/// one search").
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
            if best.len() > q1 {
                best.pop();
            }
            sum = best.iter().sum();
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
            || self.budget.deadline.interrupted()
            || (self.nodes.is_multiple_of(256) && self.budget.deadline.passed())
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
