//! # Swap operator
//!
//! The record exchanged with each member of the candidate group. Every partner costs one
//! dot product: with |y - mg|^2 - |y - mh|^2 = 2 y.(mh - mg) + |mg|^2 - |mh|^2 and
//! |x - y|^2 = |x|^2 + |y|^2 - 2 x.y, the delta (P02) of partner y is
//! c0 + y.w - inv |y|^2 with w = 2 (mh - mg) + 2 inv x, computed once per group (P02, "One
//! dot product per candidate"). On the weighted or masked SSE each partner's delta is that of the
//! objective's group sums (P40 Lemma W5, P42; O(d)).
//!
//! ## Complexity
//! O(d) per group for the weights, then O(d) per partner.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{dot, Best, Operator, View};
use crate::data::Instance;
use crate::objective::GroupSums;
use crate::partition::{sq_dist, Partition};
use crate::search::moves::swap::Swap;
use crate::search::moves::{Counters, Move, MoveLog};

/// The swap operator of the descent, with its per-group weight vector.
#[derive(Debug, Clone, Default)]
pub(crate) struct SwapOp {
    pub swap: Swap,
    w: Vec<f64>,
}

impl Operator for SwapOp {
    fn name(&self) -> &'static str {
        crate::search::moves::swap::NAME
    }
    fn counters(&self) -> Counters {
        self.swap.counters
    }
    #[inline]
    fn scan_group(&mut self, v: &View, i: usize, h: usize, first: bool, best: &mut Best) -> bool {
        if !matches!(v.sums, GroupSums::Plain) {
            self.swap.counters.evaluations += v.p.size(h) as u64;
            return v.p.members(h).iter().any(|&j| {
                let delta = v.sums.swap_delta(v.inst, v.p, i, j);
                best.offer(delta, Move::Swap { a: i, b: j }) && first
            });
        }
        let (p, inst) = (v.p, v.inst);
        let g = p.group_of(i);
        let x = inst.row(i);
        let (mg, mh) = (p.centroid(g), p.centroid(h));
        let (inv_a, inv_b) = (1.0 / p.size(g) as f64, 1.0 / p.size(h) as f64);
        let inv = inv_a + inv_b;
        self.w.clear();
        self.w.extend(
            mh.iter()
                .zip(mg)
                .zip(x)
                .map(|((b, a), xv)| 2.0 * (b - a) + 2.0 * inv * xv),
        );
        let centroid_norms: f64 = mg.iter().zip(mh).map(|(a, b)| a * a - b * b).sum();
        let c0 = sq_dist(x, mh) - sq_dist(x, mg) + centroid_norms - inv * v.norms[i];
        self.swap.counters.evaluations += p.size(h) as u64;
        for &j in p.members(h) {
            let delta = c0 + dot(inst.row(j), &self.w) - inv * v.norms[j];
            if best.offer(delta, Move::Swap { a: i, b: j }) && first {
                return true;
            }
        }
        false
    }
    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        let Move::Swap { a, b } = mv else {
            unreachable!("the swap operator applies swaps, not {mv:?}")
        };
        self.swap.apply(p, inst, a, b, log);
    }
}
