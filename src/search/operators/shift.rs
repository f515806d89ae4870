//! # Shift operator
//!
//! The record into the candidate group, when its own group keeps k records; the exact
//! delta of [`Shift`](crate::search::moves::shift::Shift) (P02), or on the weighted or
//! masked SSE that of the objective's group sums (P40 Lemma W5, P42).
//!
//! ## Complexity
//! O(d) per evaluation and application.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{Best, Operator, View};
use crate::data::Instance;
use crate::objective::GroupSums;
use crate::partition::Partition;
use crate::search::moves::shift::Shift;
use crate::search::moves::{Counters, Move, MoveLog};

/// The shift operator of the descent.
#[derive(Debug, Clone, Default)]
pub struct ShiftOp {
    pub shift: Shift,
}

impl Operator for ShiftOp {
    fn name(&self) -> &'static str {
        crate::search::moves::shift::NAME
    }
    fn counters(&self) -> Counters {
        self.shift.counters
    }
    #[inline]
    fn scan_group(&mut self, v: &View, i: usize, h: usize, first: bool, best: &mut Best) -> bool {
        let delta = match v.sums {
            GroupSums::Plain => self.shift.evaluate(v.p, v.inst, v.k, i, h),
            sums => {
                let allowed = self.shift.evaluate_allowed(v.p, v.k, i, h);
                allowed.then(|| sums.shift_delta(v.inst, v.p, i, h))
            }
        };
        match delta {
            Some(delta) => best.offer(delta, Move::Shift { record: i, to: h }) && first,
            None => false,
        }
    }
    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        let Move::Shift { record, to } = mv else {
            unreachable!("the shift operator applies shifts, not {mv:?}")
        };
        self.shift.apply(p, inst, record, to, log);
    }
}
