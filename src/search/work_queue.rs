//! # The descent's work queue and candidate groups
//!
//! `WorkQueue`: the records whose neighbourhood may have changed, each queued once, first
//! in first out; after an applied move the descent queues every member of the groups it
//! touched again. `NeighbourGroups`: the distinct groups of a record's nearest
//! neighbours, the candidate groups of its moves. Used by
//! [`super::local_search::LocalSearch`] and the 3-cycle operator.
//!
//! ## Complexity
//! O(1) per queue operation; collecting the neighbour groups of a record is O(m) for m
//! neighbours (one mark per group, no scan of the list); re-queueing after a move is
//! O(|A| + |B|) for the two groups touched.
//!
//! ## References
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.

use crate::geometry::neighbours::Neighbours;
use crate::partition::Partition;
use std::collections::VecDeque;

/// Records whose neighbourhood may have changed, each queued at most once, first in first
/// out.
#[derive(Debug, Clone)]
pub(crate) struct WorkQueue {
    queued: Vec<bool>,
    queue: VecDeque<usize>,
}

impl WorkQueue {
    pub fn new(n: usize) -> Self {
        WorkQueue {
            queued: vec![false; n],
            queue: VecDeque::new(),
        }
    }

    /// Queue record `i` (once).
    pub fn push(&mut self, i: usize) {
        if !self.queued[i] {
            self.queued[i] = true;
            self.queue.push_back(i);
        }
    }

    pub fn pop(&mut self) -> Option<usize> {
        let i = self.queue.pop_front()?;
        self.queued[i] = false;
        Some(i)
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// Number of records queued.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// Queue every member of `groups` (their neighbourhoods changed), in member order.
    pub(crate) fn requeue(&mut self, p: &Partition, groups: &[usize]) {
        for &grp in groups {
            for pos in 0..p.size(grp) {
                self.push(p.members(grp)[pos]);
            }
        }
    }
}

/// The distinct groups of a record's nearest neighbours other than its own, in the order
/// of the neighbour list.
#[derive(Debug, Clone, Default)]
pub(crate) struct NeighbourGroups {
    pub groups: Vec<usize>,
    /// Per group slot, the `stamp` of the last collection that saw it.
    mark: Vec<u32>,
    stamp: u32,
}

impl NeighbourGroups {
    /// Collect the groups of `i`'s neighbours into `self.groups`.
    pub fn collect(&mut self, p: &Partition, nb: &Neighbours, i: usize) {
        let g = p.group_of(i);
        self.groups.clear();
        // A group is new when its mark is not the current stamp (no scan of the list).
        if self.mark.len() < p.slots() {
            self.mark.resize(p.slots(), 0);
        }
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.mark.fill(0);
            self.stamp = 1;
        }
        self.mark[g] = self.stamp;
        for &j in nb.of(i) {
            let h = p.group_of(j as usize);
            if self.mark[h] != self.stamp {
                self.mark[h] = self.stamp;
                self.groups.push(h);
            }
        }
    }
}
