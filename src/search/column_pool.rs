//! # Column pool
//!
//! The distinct groups (sorted member lists) a search has visited, in order of first
//! visit, for a set-partitioning merge over them (`microagg_solvers::merge::solve_pool`,
//! used by `ils` with `merge_pool`). Distinctness is checked on a 64-bit hash of the member
//! list (SipHash with fixed keys, so the pool is the same on every run); a collision can only
//! drop a group from the pool, never add a wrong one.
//!
//! ## Complexity
//! O(m log m) per offered group of m records (sort and hash); memory 4 m + 8 bytes per
//! stored group plus the hash set.

use crate::partition::Partition;
use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};

/// Distinct groups of sizes `k..=2k-1`, in order of first visit.
#[derive(Debug, Default)]
pub(crate) struct ColumnPool {
    groups: Vec<Vec<u32>>,
    seen: HashSet<u64>,
    scratch: Vec<u32>,
}

impl ColumnPool {
    /// Offer group `g` of `p`; kept if its size is in `k..2k` and it is new.
    pub fn offer(&mut self, p: &Partition, g: usize, k: usize) {
        let m = p.members(g);
        if m.len() < k || m.len() >= 2 * k {
            return;
        }
        self.scratch.clear();
        self.scratch.extend(m.iter().map(|&i| i as u32));
        self.scratch.sort_unstable();
        let mut h = DefaultHasher::new();
        self.scratch.hash(&mut h);
        if self.seen.insert(h.finish()) {
            self.groups.push(self.scratch.clone());
        }
    }

    /// The stored groups, in order of first visit.
    pub fn groups(&self) -> &[Vec<u32>] {
        &self.groups
    }

    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Forget every group.
    pub fn clear(&mut self) {
        self.groups.clear();
        self.seen.clear();
    }
}
