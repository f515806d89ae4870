//! # Merge move
//!
//! Join group `from` into group `into`. The SSE never falls (P30: the increase is
//! a b / (a + b) ||m_a - m_b||^2 >= 0), so merge serves perturbation and group-count
//! changes, not descent.
//!
//! ## Complexity
//! O(d) evaluation, O(s d) application for a group of s records.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{Counters, MoveLog};
use crate::data::Instance;
use crate::partition::Partition;

pub const NAME: &str = "merge";

/// The merge operator with its counters.
#[derive(Debug, Clone, Default)]
pub struct Merge {
    pub counters: Counters,
}

impl Merge {
    /// Exact change in SSE of merging `from` into `into`, or None for the same or an empty group.
    pub fn evaluate(&mut self, p: &Partition, into: usize, from: usize) -> Option<f64> {
        self.counters.evaluations += 1;
        if into == from || p.size(into) == 0 || p.size(from) == 0 {
            return None;
        }
        Some(super::union_increase(
            p.size(into),
            p.centroid(into),
            p.size(from),
            p.centroid(from),
            0.0,
        ))
    }

    pub fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        into: usize,
        from: usize,
        log: &mut MoveLog,
    ) {
        self.counters.applications += 1;
        let members = p.members(from).to_vec();
        for i in members {
            log.shift(p, inst, i, into);
        }
    }
}
