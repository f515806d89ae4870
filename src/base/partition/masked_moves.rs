//! # Applied moves on data with missing cells
//!
//! A shift or swap on an instance with missing cells recomputes the masked centroid and SSE
//! of the two groups it touches from their members (`crate::missing::group_stats`, two
//! passes per column), so nothing drifts and the centroids stay the observed means the
//! masked deltas read (`crate::objective::masked`, proofs/P42). A shift removes the record
//! from its group's member list in order (not by swap-removal): the descent re-queues the
//! members of a changed group in member order, and that order decides which local optimum
//! it reaches.
//!
//! ## Complexity
//! O((|A| + |B|) d) per move for groups A and B.
//!
//! ## References
//! Gower (1971), Biometrics 27(4) (statistics over the observed variables).

use super::{stats_from_scratch, Partition};
use crate::data::Instance;

impl Partition {
    /// [`Partition::apply_shift`] on an instance with missing cells (`i` not in `to`).
    /// Out of line and cold, so the O(d) path of complete data stays as it was.
    #[cold]
    #[inline(never)]
    pub(super) fn apply_masked_shift(&mut self, inst: &Instance, i: usize, to: usize) {
        let from = self.labels[i];
        let at = self.position[i];
        self.members[from].remove(at);
        for (q, &r) in self.members[from].iter().enumerate().skip(at) {
            self.position[r] = q;
        }
        self.labels[i] = to;
        self.position[i] = self.members[to].len();
        self.members[to].push(i);
        self.refresh_groups(inst, [from, to]);
        self.count_move(inst);
    }

    /// [`Partition::apply_swap`] on an instance with missing cells (`i`, `j` in different
    /// groups): each takes the other's place in the member lists.
    #[cold]
    #[inline(never)]
    pub(super) fn apply_masked_swap(&mut self, inst: &Instance, i: usize, j: usize) {
        let (ga, gb) = (self.labels[i], self.labels[j]);
        self.exchange(i, j);
        self.refresh_groups(inst, [ga, gb]);
        self.count_move(inst);
    }

    /// Recompute the masked centroid and SSE of `groups` from their members.
    fn refresh_groups(&mut self, inst: &Instance, groups: [usize; 2]) {
        let d = self.d;
        for g in groups {
            let (c, sse) = stats_from_scratch(inst, &self.members[g]);
            self.centroid[g * d..(g + 1) * d].copy_from_slice(&c);
            self.total_sse += sse - self.group_sse[g];
            self.group_sse[g] = sse;
        }
    }
}
