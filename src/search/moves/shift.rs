//! # Shift move
//!
//! Move one record to another existing group. Allowed when the source group keeps at least
//! k records and the target is non-empty. Delta (P02): b/(b+1) ||x - m_to||^2 -
//! a/(a-1) ||x - m_from||^2.
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

pub const NAME: &str = "shift";

/// The shift operator with its counters.
#[derive(Debug, Clone, Default)]
pub struct Shift {
    pub counters: Counters,
}

impl Shift {
    /// Exact change in SSE of moving `i` to `to`, or None if not allowed under k.
    #[inline]
    pub fn evaluate(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        i: usize,
        to: usize,
    ) -> Option<f64> {
        self.counters.evaluations += 1;
        let from = p.group_of(i);
        if from == to || p.size(from) <= k || p.size(to) == 0 {
            return None;
        }
        Some(p.shift_delta(inst, i, to))
    }

    /// Count an evaluation of moving `i` to `to` and say whether it is allowed under k
    /// (for an objective whose delta the partition does not give).
    #[inline]
    pub(crate) fn evaluate_allowed(
        &mut self,
        p: &Partition,
        k: usize,
        i: usize,
        to: usize,
    ) -> bool {
        self.counters.evaluations += 1;
        let from = p.group_of(i);
        from != to && p.size(from) > k && p.size(to) != 0
    }

    pub fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        i: usize,
        to: usize,
        log: &mut MoveLog,
    ) {
        self.counters.applications += 1;
        log.shift(p, inst, i, to);
    }
}
