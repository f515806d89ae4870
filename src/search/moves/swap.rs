//! # Swap move
//!
//! Exchange the groups of two records; sizes do not change, so it is always feasible. It
//! matters because MDAV-like starts leave nearly every group at exactly k records, where
//! no shift is allowed. Delta (P02): sum over the two groups of ||y - m||^2 - ||x - m||^2 -
//! ||x - y||^2 / a.
//!
//! ## Complexity
//! O(d) per evaluation and application.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{Counters, MoveLog};
use crate::data::Instance;
use crate::partition::Partition;

pub const NAME: &str = "swap";

/// The swap operator with its counters.
#[derive(Debug, Clone, Default)]
pub struct Swap {
    pub counters: Counters,
}

impl Swap {
    /// Exact change in SSE of exchanging `i` and `j`, or None if they share a group.
    #[inline]
    pub fn evaluate(&mut self, p: &Partition, inst: &Instance, i: usize, j: usize) -> Option<f64> {
        self.counters.evaluations += 1;
        if p.group_of(i) == p.group_of(j) {
            return None;
        }
        Some(p.swap_delta(inst, i, j))
    }

    pub fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        i: usize,
        j: usize,
        log: &mut MoveLog,
    ) {
        self.counters.applications += 1;
        log.swap(p, inst, i, j);
    }
}
