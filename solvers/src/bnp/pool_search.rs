//! # Exhaustive search of a column pool
//!
//! Every partition of the records into groups of a finite pool whose computed reduced costs
//! sum to at most a budget (proofs/P19 Part B), met by a depth-first exact-cover search:
//!
//! - **Bound.** Each group's reduced cost is shared equally by its members; `h_i`, the least
//!   share of record `i` over the pool groups that avoid the records covered so far, bounds
//!   what covering `i` costs, so `acc + sum_{i uncovered} h_i` is at most the reduced cost of
//!   every completion. A node above the budget is pruned. The same bound removes, before the
//!   search, every group `S` with `rc(S) - sum_{i in S} h_i` above the budget's slack (to a
//!   fixpoint: removals raise `h`).
//! - **Branching.** On the uncovered record with the fewest groups that fit (avoid the covered
//!   records and keep the bound within the budget); one child per such group, cheapest first.
//! - **Budget.** `budget(U) = (U - base)(1 + 4u) + slack` for the certified upper bound `U`
//!   on the best partition met so far (`base <= sum y + sum sigma`, rounded down; `slack`
//!   covers the rounding of the computed reduced costs and shares, P19); it only shrinks.
//! - **Leaves.** The SSE of each partition met is recomputed from the data with a certified
//!   interval ([`crate::exact::certify`]).
//!
//! ## Complexity
//! Exponential in the worst case; per node O(sum of the uncovered records' group lists · 2k).
//! Bounded by a node budget and a deadline (then the search is incomplete and proves
//! nothing).
//!
//! ## References
//! Knuth, D. E. (2000). Dancing links. In Millennial Perspectives in Computer Science,
//! Palgrave, 187-214 (exact cover by depth-first search on the item with fewest options; our
//! version adds the reduced-cost bound above and needs no linked lists).

use crate::deadline::Deadline;
use crate::exact::certify::{partition_sse_lower, partition_sse_upper, U};
use crate::sse::partition_sse;

/// Outcome of [`search_pool`].
#[derive(Debug, Clone, PartialEq)]
pub struct PoolSearch {
    /// Groups left after the reduced-cost filter at the root.
    pub columns_kept: usize,
    /// Search nodes (leaves included).
    pub nodes: u64,
    /// True when neither the node budget nor the deadline cut the search.
    pub complete: bool,
    /// Partitions met within the budget.
    pub partitions: u64,
    /// `min(U_final, least certified lower SSE of the partitions met)`: with `complete`, a
    /// lower bound on the SSE of every partition of pool groups (P19 Part C).
    pub least_lower: f64,
    /// The partition of least certified upper SSE met (labels, computed SSE, upper bound).
    pub best: Option<(Vec<usize>, f64, f64)>,
}

struct State<'a> {
    x: &'a [f64],
    d: usize,
    n: usize,
    rc: Vec<f64>,
    members: Vec<Vec<u32>>,
    /// `share[c] = rc[c] / |c|`.
    share: Vec<f64>,
    /// Per record: the kept groups holding it, least share first.
    by_record: Vec<Vec<u32>>,
    covered: Vec<bool>,
    uncovered: usize,
    chosen: Vec<u32>,
    base: f64,
    slack: f64,
    upper: f64,
    budget: f64,
    out: PoolSearch,
    max_nodes: u64,
    deadline: Deadline<'a>,
}

/// The budget on the sum of computed reduced costs for partitions of certified SSE <= `upper`.
fn budget_of(upper: f64, base: f64, slack: f64) -> f64 {
    ((upper - base) * (1.0 + 4.0 * U)).next_up() + slack
}

/// Every partition of the `n` records (data `x`, `d` columns) into groups of `columns`
/// (computed reduced cost, sorted members) whose reduced costs sum to at most
/// `budget_of(U)`, `U` = `upper` or the least certified upper SSE met so far (module doc).
#[allow(clippy::too_many_arguments)]
pub(super) fn search_pool(
    x: &[f64],
    n: usize,
    d: usize,
    columns: &[(f64, Vec<u32>)],
    base: f64,
    slack: f64,
    upper: f64,
    max_nodes: u64,
    deadline: Deadline,
) -> PoolSearch {
    let mut s = State {
        x,
        d,
        n,
        rc: columns.iter().map(|c| c.0).collect(),
        members: columns.iter().map(|c| c.1.clone()).collect(),
        share: columns.iter().map(|c| c.0 / c.1.len() as f64).collect(),
        by_record: vec![Vec::new(); n],
        covered: vec![false; n],
        uncovered: n,
        chosen: Vec::new(),
        base,
        slack,
        upper,
        budget: budget_of(upper, base, slack),
        out: PoolSearch {
            columns_kept: 0,
            nodes: 0,
            complete: true,
            partitions: 0,
            least_lower: upper,
            best: None,
        },
        max_nodes,
        deadline,
    };
    let mut keep = vec![true; columns.len()];
    // Reduced-cost filter at the root, to a fixpoint.
    loop {
        s.index(&keep);
        let Some(h) = s.shares() else {
            s.out.columns_kept = 0;
            return s.out; // a record in no group: no partition of pool groups
        };
        let total: f64 = h.iter().sum();
        let room = s.budget - total;
        let mut removed = 0;
        for (c, kept) in keep.iter_mut().enumerate() {
            if *kept && s.rc[c] - s.members[c].iter().map(|&i| h[i as usize]).sum::<f64>() > room {
                *kept = false;
                removed += 1;
            }
        }
        if removed == 0 {
            break;
        }
    }
    s.out.columns_kept = keep.iter().filter(|&&k| k).count();
    s.dfs(0.0);
    s.out
}

impl State<'_> {
    /// Rebuild the per-record lists from the kept groups.
    fn index(&mut self, keep: &[bool]) {
        for l in &mut self.by_record {
            l.clear();
        }
        for (c, m) in self.members.iter().enumerate() {
            if keep[c] {
                for &i in m {
                    self.by_record[i as usize].push(c as u32);
                }
            }
        }
        let share = &self.share;
        for l in &mut self.by_record {
            l.sort_unstable_by(|&a, &b| share[a as usize].total_cmp(&share[b as usize]));
        }
    }

    fn fits(&self, c: u32) -> bool {
        self.members[c as usize]
            .iter()
            .all(|&i| !self.covered[i as usize])
    }

    /// Per record the least share over the groups that avoid the covered records (0 for
    /// covered records); None when an uncovered record has no such group.
    fn shares(&self) -> Option<Vec<f64>> {
        let mut h = vec![0.0; self.n];
        for (i, hi) in h.iter_mut().enumerate() {
            if self.covered[i] {
                continue;
            }
            let first = self.by_record[i].iter().find(|&&c| self.fits(c))?;
            *hi = self.share[*first as usize];
        }
        Some(h)
    }

    fn dfs(&mut self, acc: f64) {
        self.out.nodes += 1;
        if self.out.nodes > self.max_nodes
            || (self.out.nodes.is_multiple_of(1024) && self.deadline.passed())
        {
            self.out.complete = false;
        }
        if !self.out.complete {
            return;
        }
        if self.uncovered == 0 {
            self.leaf();
            return;
        }
        let Some(h) = self.shares() else {
            return;
        };
        let total: f64 = h.iter().sum();
        if acc + total > self.budget {
            return;
        }
        let room = self.budget - acc - total;
        // The uncovered record with the fewest groups that fit.
        let mut pick: Option<(usize, Vec<u32>)> = None;
        for i in 0..self.n {
            if self.covered[i] {
                continue;
            }
            let most = pick.as_ref().map_or(usize::MAX, |p| p.1.len());
            let mut fit = Vec::new();
            for &c in &self.by_record[i] {
                if self.fits(c)
                    && self.rc[c as usize]
                        - self.members[c as usize]
                            .iter()
                            .map(|&j| h[j as usize])
                            .sum::<f64>()
                        <= room
                {
                    fit.push(c);
                    if fit.len() >= most {
                        break;
                    }
                }
            }
            if fit.is_empty() {
                return; // record i cannot be covered within the budget
            }
            if fit.len() < most {
                pick = Some((i, fit));
            }
        }
        let (_, mut fit) = pick.expect("an uncovered record");
        fit.sort_unstable_by(|&a, &b| self.rc[a as usize].total_cmp(&self.rc[b as usize]));
        for c in fit {
            // Re-tested: the budget may have shrunk since (a better partition was met).
            // Partial sums alone prove nothing (reduced costs may be negative): the shares
            // of the records left must be counted.
            let rest = total
                - self.members[c as usize]
                    .iter()
                    .map(|&j| h[j as usize])
                    .sum::<f64>();
            let next = acc + self.rc[c as usize];
            if next + rest > self.budget {
                continue;
            }
            self.set(c, true);
            self.chosen.push(c);
            self.dfs(next);
            self.chosen.pop();
            self.set(c, false);
            if !self.out.complete {
                return;
            }
        }
    }

    fn set(&mut self, c: u32, cover: bool) {
        for &i in &self.members[c as usize] {
            self.covered[i as usize] = cover;
        }
        if cover {
            self.uncovered -= self.members[c as usize].len();
        } else {
            self.uncovered += self.members[c as usize].len();
        }
    }

    /// A partition within the budget: recompute its SSE with a certified interval.
    fn leaf(&mut self) {
        let mut labels = vec![0usize; self.n];
        for (g, &c) in self.chosen.iter().enumerate() {
            for &i in &self.members[c as usize] {
                labels[i as usize] = g;
            }
        }
        // Numbered by first appearance, so that the certified values (sums in group order)
        // depend on the partition only, not on the order the search chose its groups.
        let labels = crate::merge::canonical(&labels);
        let lower = partition_sse_lower(self.x, self.d, &labels);
        let upper = partition_sse_upper(self.x, self.d, &labels);
        self.out.partitions += 1;
        self.out.least_lower = self.out.least_lower.min(lower);
        if self.out.best.as_ref().is_none_or(|b| upper < b.2) {
            let sse = partition_sse(self.x, self.d, &labels);
            self.out.best = Some((labels, sse, upper));
        }
        if upper < self.upper {
            // Only partitions at most this good matter from now on.
            self.upper = upper;
            self.budget = budget_of(upper, self.base, self.slack);
            self.out.least_lower = self.out.least_lower.min(upper);
        }
    }
}
