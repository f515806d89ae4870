//! # Descent operators
//!
//! The moves [`LocalSearch`](super::local_search::LocalSearch) descends over, each an
//! [`Operator`] in its own file, dispatched per record: for a record i and each candidate
//! group h among the groups of its nearest neighbours, every operator of the
//! [`Phase::Group`] kind proposes its improving moves of i involving h ([`Best::offer`]);
//! the first (or best) one is applied. A record with no improving move waits for the
//! [`Phase::Escape`] operators, which run at a local optimum of the others (the 3-cycle).
//! Operators follow PyVRP's contract: evaluate (exact delta, may stop early), apply,
//! name, counters.
//!
//! - [`shift::ShiftOp`]: the record into h; `swap::SwapOp`: the record with a member of
//!   h, one dot product per partner; [`cycle3::Cycle3`]: a 3-cycle through two neighbour
//!   groups (escape phase).
//!
//! [`builtin`] registers them as parts (`ils.operators = [{ shift = {} }, ..]`); a user's
//! crate adds its own to the [`Registry`](crate::registry::Registry).
//!
//! ## Complexity
//! See each operator; the dispatch is one virtual call per (record, candidate group,
//! operator).
//!
//! ## References
//! - Wouda, N. A., Lan, L. and Kool, W. (2024). PyVRP: a high-performance VRP solver
//!   package. INFORMS Journal on Computing 36(4), 943-955 (operator contract).
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.

pub mod cycle3;
pub mod shift;
pub mod swap;

use super::kit::OperatorInfo;
use super::moves::{Counters, Move, MoveLog};
use super::neighbours::Neighbours;
use crate::data::Instance;
use crate::objective::GroupSums;
use crate::params::NoParams;
use crate::partition::Partition;

/// What an operator reads while it evaluates: the partition, the data, k, the neighbour
/// lists, |x|^2 of every record (so a distance term costs one dot product), the
/// improvement threshold and the objective's group sums (its deltas: the SSE's from the
/// partition when they are [`GroupSums::Plain`]).
pub struct View<'a> {
    pub p: &'a Partition,
    pub inst: &'a Instance,
    pub k: usize,
    pub nb: &'a Neighbours,
    pub norms: &'a [f64],
    pub eps: f64,
    pub sums: &'a GroupSums,
}

/// When the descent asks an operator.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// For every (record, candidate group) pair ([`Operator::scan_group`]).
    Group,
    /// For a record without an improving group move, once the queue is empty
    /// ([`Operator::escape`]).
    Escape,
}

/// The best improving move found so far for one record, and which operator proposed it.
#[derive(Debug, Clone, Default)]
pub struct Best {
    pub found: Option<(f64, Move)>,
    /// Index of the proposing operator in the descent's list.
    pub op: usize,
    current: usize,
    eps: f64,
}

impl Best {
    pub fn new(eps: f64) -> Self {
        Best {
            eps,
            ..Default::default()
        }
    }

    /// Offer a move of change `delta`: kept when it improves (below minus the threshold)
    /// and beats the best so far (ties keep the earlier one). True when kept.
    #[inline]
    pub fn offer(&mut self, delta: f64, mv: Move) -> bool {
        if delta < -self.eps && self.found.is_none_or(|b| delta < b.0) {
            self.found = Some((delta, mv));
            self.op = self.current;
            true
        } else {
            false
        }
    }

    pub(crate) fn set_current(&mut self, op: usize) {
        self.current = op;
    }
}

/// A descent operator.
pub trait Operator: Send {
    fn name(&self) -> &'static str;
    fn counters(&self) -> Counters;
    fn phase(&self) -> Phase {
        Phase::Group
    }
    /// [`Phase::Group`]: offer the improving moves of record `i` involving group `h` (not
    /// i's own, not empty) to `best`; with `first`, return true as soon as one was kept.
    fn scan_group(
        &mut self,
        _v: &View,
        _i: usize,
        _h: usize,
        _first: bool,
        _best: &mut Best,
    ) -> bool {
        false
    }
    /// [`Phase::Escape`]: the best improving move around record `i`, with its delta.
    fn escape(&mut self, _v: &View, _i: usize) -> Option<(f64, Move)> {
        None
    }
    /// Apply a move this operator proposed, through `log` (so that it can be undone).
    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog);
}

/// The operators of this folder, as registry parts.
pub fn builtin() -> Vec<OperatorInfo> {
    vec![
        OperatorInfo::with_params("shift", "move the record into the candidate group", |_: NoParams| {
            Box::new(shift::ShiftOp::default())
        }),
        OperatorInfo::with_params(
            "swap",
            "exchange the record with a member of the candidate group (one dot product per partner)",
            |_: NoParams| Box::new(swap::SwapOp::default()),
        ),
        OperatorInfo::with_params(
            "cycle3",
            "at a shift/swap optimum: the record into a neighbour group, a member of it into a third group, a member of that into the record's group",
            |_: NoParams| Box::new(cycle3::Cycle3::default()),
        ),
    ]
}

/// Squared norm, summed in order.
#[inline]
pub(crate) fn sq_norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum()
}

/// Dot product with four independent partial sums, so the compiler can keep them in one
/// SIMD register (a single running sum must be added in order). The rounding differs from
/// a sequential sum only in the last bits; it is used to select moves, never to update
/// the cached SSE.
#[inline]
pub(crate) fn dot(a: &[f64], b: &[f64]) -> f64 {
    let (ca, cb) = (a.chunks_exact(4), b.chunks_exact(4));
    let tail: f64 = ca
        .remainder()
        .iter()
        .zip(cb.remainder())
        .map(|(x, y)| x * y)
        .sum();
    let mut acc = [0.0f64; 4];
    for (x, y) in ca.zip(cb) {
        for ((s, u), v) in acc.iter_mut().zip(x).zip(y) {
            *s += u * v;
        }
    }
    (acc[0] + acc[2]) + (acc[1] + acc[3]) + tail
}
