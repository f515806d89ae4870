//! # The descent's work queue and loop
//!
//! Both descents, over the SSE ([`super::local_search`]) and over the weighted SSE
//! ([`super::weighted_descent`]), run the same queue-driven loop: take the next queued
//! record, ask the engine for its improving shift or swap into one of the groups of its
//! nearest neighbours ([`MoveEvaluation::improving_move`]), apply it and queue again every
//! member of the two groups it touched. The engines differ only in how a move is evaluated
//! and applied, and in what they do once the queue is empty (the unweighted one may then
//! try 3-cycles, [`MoveEvaluation::when_idle`]).
//!
//! ## Complexity
//! O(1) per queue operation; collecting the neighbour groups of a record is O(m) for m
//! neighbours (one mark per group, no scan of the list); re-queueing after a move is
//! O(|A| + |B|) for the two groups touched.
//!
//! ## References
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.

use super::moves::{Move, MoveLog};
use crate::data::Instance;
use crate::geometry::neighbours::Neighbours;
use crate::partition::Partition;
use std::collections::VecDeque;

/// Records whose neighbourhood may have changed, each queued at most once, first in first
/// out.
#[derive(Debug, Clone)]
pub struct WorkQueue {
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
    pub fn requeue(&mut self, p: &Partition, groups: &[usize]) {
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
pub struct NeighbourGroups {
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

/// What the loop asks of a descent engine.
pub trait MoveEvaluation {
    /// The engine's work queue.
    fn queue(&mut self) -> &mut WorkQueue;

    /// An improving move of record `i` into or with a group of its neighbours (first or
    /// best, by the engine's strategy), with the index of the operator that proposed it.
    fn improving_move(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        i: usize,
    ) -> Option<(usize, Move)>;

    /// The groups `mv` touches, before it is applied (the first `.1` entries), which are
    /// queued again after it.
    fn touched(&self, p: &Partition, mv: Move) -> ([usize; 3], usize) {
        match mv {
            Move::Shift { record, to } => ([p.group_of(record), to, to], 2),
            Move::Swap { a, b } => ([p.group_of(a), p.group_of(b), 0], 2),
            other => unreachable!("this descent proposes shifts and swaps, not {other:?}"),
        }
    }

    /// Apply a move found by [`MoveEvaluation::improving_move`] (no re-queueing).
    fn apply(&mut self, p: &mut Partition, inst: &Instance, op: usize, mv: Move, log: &mut MoveLog);

    /// One further step once the queue is empty: `Some(applied)`, or `None` when the engine
    /// has nothing more to try.
    fn when_idle(
        &mut self,
        _p: &mut Partition,
        _inst: &Instance,
        _k: usize,
        _nb: &Neighbours,
        _log: &mut MoveLog,
    ) -> Option<bool> {
        None
    }
}

/// Examine up to `budget` queued records (and idle steps), applying improving moves to `p`;
/// returns the number of moves applied.
pub fn descend(
    engine: &mut impl MoveEvaluation,
    p: &mut Partition,
    inst: &Instance,
    k: usize,
    nb: &Neighbours,
    log: &mut MoveLog,
    budget: usize,
) -> usize {
    let mut applied = 0;
    for _ in 0..budget {
        if let Some(i) = engine.queue().pop() {
            let Some((op, mv)) = engine.improving_move(p, inst, k, nb, i) else {
                continue;
            };
            let (touched, len) = engine.touched(p, mv);
            engine.apply(p, inst, op, mv, log);
            engine.queue().requeue(p, &touched[..len]);
            applied += 1;
        } else if let Some(moved) = engine.when_idle(p, inst, k, nb, log) {
            applied += usize::from(moved);
        } else {
            break;
        }
    }
    applied
}
