//! # Local search (the descent engine)
//!
//! [`LocalSearch`]: a queue-driven first- or best-improvement descent over a list of
//! operators ([`Operator`], `search/operators/`: shift, swap and the 3-cycle by default)
//! with candidate groups taken from each record's nearest neighbours. A work queue holds the records whose neighbourhood may have
//! changed; after an applied move the members of the groups it touched are queued again
//! (`super::work_queue`).
//! For record i in group g and each distinct group h of its neighbours, the candidates are
//! shifting i to h (when g keeps k records) and swapping i with each member of h; the
//! operators are dispatched per record and candidate group, in list order, and every swap
//! partner and 3-cycle term costs one dot product (P02, "One dot product per candidate").
//! With an escape operator in the list (the 3-cycle), a record with no improving group
//! move waits in a second queue; at a local optimum of the group operators its best
//! improving escape move is applied.
//!
//! Moves are evaluated against an [`Objective`]: [`LocalSearch::new`] and
//! `LocalSearch::with_operators` descend on the SSE (the partition's cached centroids,
//! P02); `LocalSearch::on_objective` on the instance's own objective, which for unequal
//! sampling weights is the weighted SSE (the shift and swap deltas of P40 Lemma W5 over
//! [`GroupSums`], refreshed from the members of the two groups of every applied move) and
//! on data with missing cells the masked SSE (P42; the engine then sweeps: once the queue
//! is empty every record is queued again, in record order, until a sweep applies no move);
//! 3-cycles have neither delta and are refused there. The `descent` refiner
//! (`descent.rs`), ILS and the perturbations use it.
//!
//! ## Complexity
//! Per record examined, O(m + G_nb s d) for m neighbours spread over G_nb groups of size s:
//! with m = 30 and k = 3 about 10 groups, 40 O(d) evaluations. A 3-cycle search adds
//! O((G_nb s + m + 64) d) (64 = 8 x 8 closing pairs); the measured effect on the ILS
//! iteration rate is in studies/study-ils-moves.txt. With weights an applied move costs
//! O((|A| + |B|) d) more, to refresh the weighted sums of its two groups.
//!
//! ## References
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.
//! - Ahuja, R. K., Orlin, J. B. and Sharma, D. (2000). Very large-scale neighborhood
//!   search. International Transactions in Operational Research 7(4-5), 301-317 (cyclic
//!   exchanges).

use super::moves::{Move, MoveLog};
use super::operators::{cycle3::Cycle3, shift::ShiftOp, sq_norm, swap::SwapOp};
use super::operators::{Best, Operator, Phase, View};
use super::work_queue::{NeighbourGroups, WorkQueue};
use crate::data::Instance;
use crate::geometry::neighbours::Neighbours;
use crate::method::Stats;
use crate::objective::{GroupSums, Objective};
use crate::partition::Partition;

/// Improvement threshold: a move counts only if it lowers the SSE by more than this
/// (relative to SST / n), so rounding noise cannot cycle.
pub const IMPROVE_EPS: f64 = 1e-10;

/// Queue-driven descent over a list of operators and neighbour lists.
pub struct LocalSearch {
    ops: Vec<Box<dyn Operator>>,
    /// Indices in `ops` of the group-phase and escape-phase operators.
    group_ops: Vec<usize>,
    escape_ops: Vec<usize>,
    pub best_improvement: bool,
    work: WorkQueue,
    /// Records with no improving group move, waiting for the escape operators (searched
    /// when `work` is empty, so at a local optimum of the group operators).
    escape_queued: Vec<bool>,
    escape_queue: Vec<usize>,
    near: NeighbourGroups,
    terms: MoveTerms,
    /// Sweep mode (on the masked SSE, [`LocalSearch::is_masked`]): once the queues are
    /// empty, every record is queued again until a sweep applies no move.
    sweep: Sweep,
}

/// What the operators read to evaluate a move beyond the partition: the records' squared
/// norms, the improvement threshold and the objective's group sums.
struct MoveTerms {
    /// |x|^2 of every record, so that a swap or 3-cycle term costs one dot product.
    norms: Vec<f64>,
    eps: f64,
    /// The objective's per-group sums the deltas read (none for the SSE).
    sums: GroupSums,
}

impl MoveTerms {
    /// The operators' view of partition `p` of `inst` with groups of at least `k` records
    /// and the neighbour lists `nb`.
    fn view<'a>(
        &'a self,
        p: &'a Partition,
        inst: &'a Instance,
        k: usize,
        nb: &'a Neighbours,
    ) -> View<'a> {
        View {
            p,
            inst,
            k,
            nb,
            norms: &self.norms,
            eps: self.eps,
            sums: &self.sums,
        }
    }
}

/// The state of the sweep mode ([`LocalSearch::on_objective`] on the masked SSE).
#[derive(Debug, Clone, Copy, Default)]
struct Sweep {
    /// A move was applied since every record was last queued.
    moved: bool,
    /// The last `run` found nothing to examine (a sweep applied no move).
    done: bool,
}

/// The SSE decrease a move must exceed: `IMPROVE_EPS` x SST / n, raised if needed above
/// the rounding error of the one-dot-product evaluation, 72 (d + 5) 2^-53 max |x|^2 (P02),
/// so that no move whose true delta is not negative is ever taken and the descent cannot
/// cycle. On the CASC files the rounding term is 6 to 46 times smaller and the first one
/// applies.
fn improvement_threshold(inst: &Instance, norms: &[f64]) -> f64 {
    let max_norm = norms.iter().copied().fold(0.0, f64::max);
    let rounding = 72.0 * (inst.d as f64 + 5.0) * (f64::EPSILON / 2.0) * max_norm;
    (IMPROVE_EPS * inst.sst / inst.n.max(1) as f64).max(rounding)
}

/// The default operators: shift, swap and, with `cycles`, the 3-cycle.
pub(crate) fn default_operators(cycles: bool) -> Vec<Box<dyn Operator>> {
    let mut ops: Vec<Box<dyn Operator>> =
        vec![Box::new(ShiftOp::default()), Box::new(SwapOp::default())];
    if cycles {
        ops.push(Box::new(Cycle3::default()));
    }
    ops
}

impl LocalSearch {
    /// The descent over shift, swap and, with `cycles`, the 3-cycle.
    pub fn new(inst: &Instance, best_improvement: bool, cycles: bool) -> Self {
        Self::with_operators(inst, best_improvement, default_operators(cycles))
    }

    /// The descent over `ops` (group operators in list order, then escape operators).
    pub(crate) fn with_operators(
        inst: &Instance,
        best_improvement: bool,
        ops: Vec<Box<dyn Operator>>,
    ) -> Self {
        let norms: Vec<f64> = (0..inst.n).map(|i| sq_norm(inst.row(i))).collect();
        let of = |phase| {
            (0..ops.len())
                .filter(|&o| ops[o].phase() == phase)
                .collect()
        };
        LocalSearch {
            group_ops: of(Phase::Group),
            escape_ops: of(Phase::Escape),
            ops,
            best_improvement,
            work: WorkQueue::new(inst.n),
            escape_queued: vec![false; inst.n],
            escape_queue: Vec::new(),
            near: NeighbourGroups::default(),
            terms: MoveTerms {
                eps: improvement_threshold(inst, &norms),
                norms,
                sums: GroupSums::Plain,
            },
            sweep: Sweep::default(),
        }
    }

    /// The descent over shift, swap and, with `cycles`, the 3-cycle, on the instance's
    /// objective ([`Instance::objective`]) from partition `p`. Refused: the 3-cycle on the
    /// weighted or masked SSE (it has no delta there; the message says why).
    pub(crate) fn on_objective(
        inst: &Instance,
        p: &Partition,
        best_improvement: bool,
        cycles: bool,
    ) -> Result<Self, String> {
        let mut ls = Self::new(inst, best_improvement, cycles);
        let objective = inst.objective();
        if objective == Objective::Plain {
            return Ok(ls);
        }
        if cycles {
            let why = match objective {
                Objective::Masked | Objective::MaskedWeighted(_) => {
                    "descent cycles=true: the 3-cycle has no masked delta; leave out cycles \
                     with --missing ignore"
                }
                _ => {
                    "descent.cycles=true with --weights: the 3-cycle has no weighted delta: \
                     the weighted descent has shift and swap moves only"
                }
            };
            return Err(why.into());
        }
        let sums = GroupSums::new(objective, inst, p);
        ls.terms.eps = match objective {
            Objective::Weighted(w) | Objective::MaskedWeighted(w) => {
                crate::objective::weighted::improvement_threshold(
                    inst,
                    w,
                    &ls.terms.norms,
                    IMPROVE_EPS,
                )
            }
            // The masked SST (observed cells) over n, as the masked deltas are sums of
            // observed terms only.
            _ => IMPROVE_EPS * inst.sst / inst.n as f64,
        };
        ls.terms.sums = sums;
        Ok(ls)
    }

    /// True when the descent minimises the SSE the partition keeps (plain or masked), so
    /// the partition's SSE ranks its states; false on the weighted SSE.
    pub(crate) fn minimises_sse(&self) -> bool {
        matches!(self.terms.sums, GroupSums::Plain | GroupSums::Masked(_))
    }

    /// True on data with missing cells (the masked SSE, weighted or not). A masked move
    /// changes its groups' observed counts, which the moves of records in other groups
    /// read: the descent then sweeps to a local optimum.
    pub(crate) fn is_masked(&self) -> bool {
        matches!(
            self.terms.sums,
            GroupSums::Masked(_) | GroupSums::MaskedWeighted(_)
        )
    }

    pub fn push(&mut self, i: usize) {
        self.work.push(i);
    }

    /// Records waiting in the work queue (not counting the escape queue).
    pub fn queued(&self) -> usize {
        self.work.len()
    }

    /// Nothing left to examine: both queues empty, or in sweep mode, the last run found a
    /// sweep that applied no move.
    pub fn is_idle(&self) -> bool {
        if self.is_masked() {
            return self.sweep.done;
        }
        self.work.is_empty() && self.escape_queue.is_empty()
    }

    /// True when the list holds an escape operator (the 3-cycle).
    pub(crate) fn escapes(&self) -> bool {
        !self.escape_ops.is_empty()
    }

    /// Examine up to `budget` queued records (then records waiting for the escape
    /// operators); returns the number of moves applied.
    pub fn run(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        log: &mut MoveLog,
        budget: usize,
    ) -> usize {
        let mut applied = 0;
        let mut left = budget;
        while left > 0 {
            if let Some(i) = self.work.pop() {
                left -= 1;
                let Some((op, mv)) = self.improving_move(p, inst, k, nb, i) else {
                    continue;
                };
                let touched = touched_groups(p, mv);
                self.apply_move(p, inst, op, mv, log);
                self.work.requeue(p, &touched[..touched_len(mv)]);
                applied += 1;
                self.sweep.moved = true;
            } else if let Some(i) = self.escape_queue.pop() {
                // A local optimum of the group operators: the best escape move of the next
                // record waiting for one.
                left -= 1;
                self.escape_queued[i] = false;
                if self.try_escape(p, inst, k, nb, i, log) {
                    applied += 1;
                    self.sweep.moved = true;
                }
            } else if !self.sweep_again(inst.n) {
                break;
            }
        }
        applied
    }

    /// In sweep mode with a move since the last sweep began, queue every record again (in
    /// record order); false otherwise (then, in sweep mode, the descent is done).
    fn sweep_again(&mut self, n: usize) -> bool {
        if !self.is_masked() {
            return false;
        }
        if !self.sweep.moved {
            self.sweep.done = true;
            return false;
        }
        self.sweep.moved = false;
        (0..n).for_each(|i| self.work.push(i));
        true
    }

    /// Add the operators' counters to `stats`.
    pub(crate) fn add_stats(&self, stats: &mut Stats) {
        for op in &self.ops {
            let c = op.counters();
            stats.operator(op.name(), c.evaluations, c.applications);
        }
    }

    /// The SSE decrease below which a move does not count as improving.
    pub fn improvement_eps(&self) -> f64 {
        self.terms.eps
    }

    /// The best improving move of record `i` by the group operators into or with one of
    /// `groups`, with the proposing operator's index; with `first`, the first improving
    /// one found. Groups equal to i's own or empty are skipped.
    #[allow(clippy::too_many_arguments)]
    pub fn best_move(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        i: usize,
        groups: &[usize],
        first: bool,
    ) -> Best {
        let view = self.terms.view(p, inst, k, nb);
        let g = p.group_of(i);
        let mut best = Best::new(self.terms.eps);
        for &h in groups {
            if h == g || p.size(h) == 0 {
                continue;
            }
            for &o in &self.group_ops {
                best.set_current(o);
                if self.ops[o].scan_group(&view, i, h, first, &mut best) {
                    return best;
                }
            }
        }
        best
    }

    /// Apply move `mv` proposed by operator `op` (no re-queueing), then refresh the
    /// objective's sums of the groups it touched.
    pub fn apply_move(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        op: usize,
        mv: Move,
        log: &mut MoveLog,
    ) {
        if matches!(self.terms.sums, GroupSums::Plain) {
            self.ops[op].apply(p, inst, mv, log);
            return;
        }
        let touched = touched_groups(p, mv);
        self.ops[op].apply(p, inst, mv, log);
        self.terms
            .sums
            .refresh(inst, p, &touched[..touched_len(mv)]);
    }

    /// Apply the best improving escape move around `a`, if any.
    fn try_escape(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        a: usize,
        log: &mut MoveLog,
    ) -> bool {
        let view = self.terms.view(p, inst, k, nb);
        let found = self
            .escape_ops
            .iter()
            .find_map(|&o| self.ops[o].escape(&view, a).map(|(_, mv)| (o, mv)));
        let Some((o, mv)) = found else {
            return false;
        };
        let touched = touched_groups(p, mv);
        self.apply_move(p, inst, o, mv, log);
        self.work.requeue(p, &touched[..touched_len(mv)]);
        true
    }
}

/// The groups a move touches, before it is applied (the first `touched_len` entries).
fn touched_groups(p: &Partition, mv: Move) -> [usize; 3] {
    match mv {
        Move::Shift { record, to } => [p.group_of(record), to, to],
        Move::Swap { a, b } => [p.group_of(a), p.group_of(b), 0],
        Move::Cycle { a, b, c } => [p.group_of(a), p.group_of(b), p.group_of(c)],
        Move::Other { a, b, to } => [p.group_of(a), p.group_of(b), to],
        other => unreachable!("a descent applies record moves, not {other:?}"),
    }
}

fn touched_len(mv: Move) -> usize {
    match mv {
        Move::Shift { .. } | Move::Swap { .. } => 2,
        _ => 3,
    }
}

impl LocalSearch {
    /// An improving move of record `i` into or with a group of its neighbours (first or
    /// best, by the strategy), with the proposing operator's index. A record without one
    /// waits for the escape operators.
    fn improving_move(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        i: usize,
    ) -> Option<(usize, Move)> {
        self.near.collect(p, nb, i);
        let groups = std::mem::take(&mut self.near.groups);
        let best = self.best_move(p, inst, k, nb, i, &groups, !self.best_improvement);
        self.near.groups = groups;
        if best.found.is_none() && self.escapes() && !self.escape_queued[i] {
            self.escape_queued[i] = true;
            self.escape_queue.push(i);
        }
        best.found.map(|(_, mv)| (best.op, mv))
    }
}
