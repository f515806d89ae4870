//! # Local search (the descent engine)
//!
//! [`LocalSearch`]: a queue-driven first- or best-improvement descent over the shift and
//! swap operators with candidate groups taken from each record's nearest neighbours, and
//! optionally 3-cycles. A work queue holds the records whose neighbourhood may have
//! changed; after an applied move the members of the groups it touched are queued again (the
//! loop of [`super::descent_loop`], shared with the weighted descent).
//! For record i in group g and each distinct group h of its neighbours, the candidates are
//! shifting i to h (when g keeps k records) and swapping i with each member of h; the
//! operators are dispatched per record, and every swap partner and 3-cycle term costs one
//! dot product (P02, "One dot product per candidate"). With `cycles`, a record with no
//! improving shift or swap waits in a second queue; at a shift/swap local optimum its best
//! improving 3-cycle is applied ([`LocalSearch::best_cycle`]). The `descent` refiner
//! (`descent.rs`), ILS and the perturbations use it.
//!
//! ## Complexity
//! Per record examined, O(m + G_nb s d) for m neighbours spread over G_nb groups of size s:
//! with m = 30 and k = 3 about 10 groups, 40 O(d) evaluations. A 3-cycle search adds
//! O((G_nb s + m + 64) d) (64 = 8 x 8 closing pairs); the measured effect on the ILS
//! iteration rate is in studies/study-ils-moves.txt.
//!
//! ## References
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.
//! - Ahuja, R. K., Orlin, J. B. and Sharma, D. (2000). Very large-scale neighborhood
//!   search. International Transactions in Operational Research 7(4-5), 301-317 (cyclic
//!   exchanges).

use super::descent_loop::{descend, MoveEvaluation, NeighbourGroups, WorkQueue};
use super::moves::{add_counters, shift::Shift, swap::Swap, Counters, Move, MoveLog, CYCLE};
use super::neighbours::Neighbours;
use crate::data::Instance;
use crate::method::Stats;
use crate::partition::{sq_dist, Partition};

/// Improvement threshold: a move counts only if it lowers the SSE by more than this
/// (relative to SST / n), so rounding noise cannot cycle.
pub const IMPROVE_EPS: f64 = 1e-10;

/// Queue-driven shift/swap descent over neighbour lists.
#[derive(Debug, Clone)]
pub struct LocalSearch {
    pub shift: Shift,
    pub swap: Swap,
    pub best_improvement: bool,
    work: WorkQueue,
    /// Records with no improving shift or swap, waiting for a 3-cycle search (only with
    /// `cycles`; searched when `queue` is empty, so at a shift/swap local optimum).
    cycle_queued: Vec<bool>,
    cycle_queue: Vec<usize>,
    near: NeighbourGroups,
    /// The swap evaluation's per-group weight vector (see `best_move`).
    w: Vec<f64>,
    /// |x|^2 of every record, so that a swap or 3-cycle term costs one dot product.
    norms: Vec<f64>,
    eps: f64,
    /// Also try 3-cycles (see [`LocalSearch::best_cycle`]) when a record has no improving
    /// shift or swap.
    pub cycles: bool,
    /// 3-cycle searches (one per record waiting in the cycle queue) and cycles applied.
    pub cycle: Counters,
    /// 3-cycle candidates: (delta of one group, record, its group).
    cyc_in: Vec<(f64, usize, usize)>,
    cyc_out: Vec<(f64, usize, usize)>,
    /// Per kept `cyc_out` entry: the closing term's weights (d each) and (constant,
    /// coefficient of |y|^2).
    close_w: Vec<f64>,
    close_c: Vec<(f64, f64)>,
}

/// Candidates kept on each side of a 3-cycle search (so at most this squared closing
/// evaluations per record).
const CYCLE_SIDE: usize = 8;

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

/// |v|^2, summed in order.
#[inline]
fn sq_norm(v: &[f64]) -> f64 {
    v.iter().map(|x| x * x).sum()
}

/// Dot product with four independent partial sums, so the compiler can keep them in one
/// SIMD register (a single running sum must be added in order). The rounding differs from
/// a sequential sum only in the last bits; it is used to select moves, never to update
/// the cached SSE.
#[inline]
fn dot(a: &[f64], b: &[f64]) -> f64 {
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

impl LocalSearch {
    pub fn new(inst: &Instance, best_improvement: bool) -> Self {
        let norms: Vec<f64> = (0..inst.n).map(|i| sq_norm(inst.row(i))).collect();
        LocalSearch {
            shift: Shift::default(),
            swap: Swap::default(),
            best_improvement,
            work: WorkQueue::new(inst.n),
            cycle_queued: vec![false; inst.n],
            cycle_queue: Vec::new(),
            near: NeighbourGroups::default(),
            w: Vec::new(),
            eps: improvement_threshold(inst, &norms),
            norms,
            cycles: false,
            cycle: Counters::default(),
            cyc_in: Vec::new(),
            cyc_out: Vec::new(),
            close_w: Vec::new(),
            close_c: Vec::new(),
        }
    }

    pub fn push(&mut self, i: usize) {
        self.work.push(i);
    }

    /// Records waiting in the work queue (not counting the 3-cycle queue).
    pub fn queued(&self) -> usize {
        self.work.len()
    }

    pub fn is_idle(&self) -> bool {
        self.work.is_empty() && self.cycle_queue.is_empty()
    }

    /// Examine up to `budget` queued records (then, with `cycles`, records waiting for a
    /// 3-cycle search); returns the number of moves applied.
    pub fn run(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        log: &mut MoveLog,
        budget: usize,
    ) -> usize {
        descend(self, p, inst, k, nb, log, budget)
    }

    /// Add the operators' counters (shift, swap, 3-cycle) to `stats`.
    pub fn add_stats(&self, stats: &mut Stats) {
        add_counters(stats, &self.shift);
        add_counters(stats, &self.swap);
        stats.operator(CYCLE, self.cycle.evaluations, self.cycle.applications);
    }

    /// The SSE decrease below which a move does not count as improving.
    pub fn improvement_eps(&self) -> f64 {
        self.eps
    }

    /// The best improving shift of record `i` into one of `groups` ([`Move::Shift`]), or swap
    /// with one of their members ([`Move::Swap`] with `a = i`), with its delta; with `first`,
    /// the first improving one found. Groups equal to i's own or empty are skipped.
    pub fn best_move(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        i: usize,
        groups: &[usize],
        first: bool,
    ) -> Option<(f64, Move)> {
        let g = p.group_of(i);
        let mut best: Option<(f64, Move)> = None;
        for &h in groups {
            if h == g || p.size(h) == 0 {
                continue;
            }
            if let Some(delta) = self.shift.evaluate(p, inst, k, i, h) {
                if delta < -self.eps && best.is_none_or(|b| delta < b.0) {
                    best = Some((delta, Move::Shift { record: i, to: h }));
                    if first {
                        return best;
                    }
                }
            }
            // Swap deltas (P02) with the terms of x hoisted: with
            // |y - mg|^2 - |y - mh|^2 = 2 y.(mh - mg) + |mg|^2 - |mh|^2 and
            // |x - y|^2 = |x|^2 + |y|^2 - 2 x.y, the delta of partner y is
            // c0 + y.w - inv |y|^2 with w = 2 (mh - mg) + 2 inv x:
            // one dot product per partner, not 5 distances (P02, last paragraph).
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
            let c0 = sq_dist(x, mh) - sq_dist(x, mg) + centroid_norms - inv * self.norms[i];
            self.swap.counters.evaluations += p.size(h) as u64;
            for &j in p.members(h) {
                let y = inst.row(j);
                let yw = dot(y, &self.w);
                let delta = c0 + yw - inv * self.norms[j];
                if delta < -self.eps && best.is_none_or(|b| delta < b.0) {
                    best = Some((delta, Move::Swap { a: i, b: j }));
                    if first {
                        return best;
                    }
                }
            }
        }
        best
    }

    /// Apply a move found by [`LocalSearch::best_move`] or [`LocalSearch::best_cycle`]
    /// through the shift and swap operators (no re-queueing).
    pub fn apply_move(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        match mv {
            Move::Shift { record, to } => self.shift.apply(p, inst, record, to, log),
            Move::Swap { a, b } => self.swap.apply(p, inst, a, b, log),
            Move::Cycle { a, b, c } => {
                // a <-> b puts a in B and b in A; b <-> c then puts b in C and c in A.
                self.swap.apply(p, inst, a, b, log);
                self.swap.apply(p, inst, b, c, log);
            }
            other => unreachable!("the descent applies shifts, swaps and 3-cycles, not {other:?}"),
        }
    }

    /// The best improving 3-cycle that moves record `a` (group A) into one of the groups B
    /// of its nearest neighbours, a member b of B into a third group C and a member c of C
    /// into A, among c in the nearest neighbours of `a`. Every size stays, so it is always
    /// feasible; it escapes swap optima when nearly every group has exactly k records
    /// (shifts blocked). The delta is the sum of three one-group exchange terms (P02).
    /// Pruned: only b whose exchange term for B is negative and c whose term for A is
    /// negative, the `CYCLE_SIDE` best of each. Returns the delta and [`Move::Cycle`];
    /// [`LocalSearch::apply_move`] applies it as the swaps (a, b) then (b, c).
    pub fn best_cycle(
        &mut self,
        p: &Partition,
        inst: &Instance,
        nb: &Neighbours,
        a: usize,
    ) -> Option<(f64, Move)> {
        let ga = p.group_of(a);
        self.near.collect(p, nb, a);
        let x = inst.row(a);
        self.cyc_in.clear();
        // E_B(b -> x) (P02) = |x - m|^2 - |b - m|^2 - |x - b|^2 / s
        //   = [|x - m|^2 - |m|^2 - |x|^2 / s] + b.(2 m + 2 x / s) - (1 + 1/s) |b|^2:
        // one dot product per member (weights in self.w).
        let xx = self.norms[a];
        for &h in &self.near.groups {
            let (m, s) = (p.centroid(h), p.size(h));
            let inv = 1.0 / s as f64;
            self.w.clear();
            self.w
                .extend(m.iter().zip(x).map(|(mv, xv)| 2.0 * mv + 2.0 * inv * xv));
            let mm = sq_norm(m);
            let c0 = sq_dist(x, m) - mm - xx * inv;
            for &b in p.members(h) {
                let bw = dot(inst.row(b), &self.w);
                let d = c0 + bw - (1.0 + inv) * self.norms[b];
                if d < 0.0 {
                    self.cyc_in.push((d, b, h));
                }
            }
        }
        if self.cyc_in.is_empty() {
            return None;
        }
        // E_A(x -> c) (P02) = |c - ma|^2 - |x - ma|^2 - |c - x|^2 / sa
        //   = [|ma|^2 - |x - ma|^2 - |x|^2 / sa] + c.(2 x / sa - 2 ma) + (1 - 1/sa) |c|^2.
        let (ma, sa) = (p.centroid(ga), p.size(ga));
        let inv_a = 1.0 / sa as f64;
        self.w.clear();
        self.w
            .extend(ma.iter().zip(x).map(|(mv, xv)| 2.0 * inv_a * xv - 2.0 * mv));
        let ma_norm = sq_norm(ma);
        let c0 = ma_norm - sq_dist(x, ma) - xx * inv_a;
        self.cyc_out.clear();
        for &j in nb.of(a) {
            let c = j as usize;
            let h = p.group_of(c);
            if h != ga {
                let d = c0 + dot(inst.row(c), &self.w) + (1.0 - inv_a) * self.norms[c];
                if d < 0.0 {
                    self.cyc_out.push((d, c, h));
                }
            }
        }
        let order = |u: &(f64, usize, usize), v: &(f64, usize, usize)| {
            u.0.total_cmp(&v.0).then(u.1.cmp(&v.1))
        };
        for side in [&mut self.cyc_in, &mut self.cyc_out] {
            side.sort_unstable_by(order);
            side.truncate(CYCLE_SIDE);
        }
        // Closing term E_C(c -> b) for record y = b, per kept c (group C, centroid m, size s):
        // |y - m|^2 - |c - m|^2 - |y - c|^2 / s
        //   = [|m|^2 - |c|^2 / s - |c - m|^2] + y.(2 c / s - 2 m) + (1 - 1/s) |y|^2,
        // so the brackets, weights and coefficients are computed once per c.
        let dim = inst.d;
        self.close_w.clear();
        self.close_c.clear();
        for &(_, c, gc) in &self.cyc_out {
            let (m, s) = (p.centroid(gc), p.size(gc));
            let inv = 1.0 / s as f64;
            let cr = inst.row(c);
            let m_norm = sq_norm(m);
            self.close_w
                .extend(m.iter().zip(cr).map(|(mv, cv)| 2.0 * inv * cv - 2.0 * mv));
            self.close_c
                .push((m_norm - self.norms[c] * inv - sq_dist(cr, m), 1.0 - inv));
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for &(db, b, gb) in &self.cyc_in {
            let y = inst.row(b);
            for (ci, &(da, c, gc)) in self.cyc_out.iter().enumerate() {
                if gc == gb {
                    continue;
                }
                let (k0, k1) = self.close_c[ci];
                let dc = k0 + dot(y, &self.close_w[ci * dim..(ci + 1) * dim]) + k1 * self.norms[b];
                let delta = da + db + dc;
                if delta < -self.eps && best.is_none_or(|t| delta < t.0) {
                    best = Some((delta, b, c));
                }
            }
        }
        best.map(|(delta, b, c)| (delta, Move::Cycle { a, b, c }))
    }

    /// Apply the best improving 3-cycle around `a`, if any, as two swaps.
    fn try_cycle(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        nb: &Neighbours,
        a: usize,
        log: &mut MoveLog,
    ) -> bool {
        self.cycle.evaluations += 1;
        let Some((_, mv)) = self.best_cycle(p, inst, nb, a) else {
            return false;
        };
        let Move::Cycle { b, c, .. } = mv else {
            unreachable!("best_cycle proposes 3-cycles")
        };
        self.cycle.applications += 1;
        let touched = [p.group_of(a), p.group_of(b), p.group_of(c)];
        self.apply_move(p, inst, mv, log);
        self.work.requeue(p, &touched);
        true
    }
}

impl MoveEvaluation for LocalSearch {
    fn queue(&mut self) -> &mut WorkQueue {
        &mut self.work
    }

    /// With `cycles`, a record without an improving shift or swap waits for a 3-cycle search.
    fn improving_move(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        i: usize,
    ) -> Option<Move> {
        self.near.collect(p, nb, i);
        let groups = std::mem::take(&mut self.near.groups);
        let best = self.best_move(p, inst, k, i, &groups, !self.best_improvement);
        self.near.groups = groups;
        if best.is_none() && self.cycles && !self.cycle_queued[i] {
            self.cycle_queued[i] = true;
            self.cycle_queue.push(i);
        }
        best.map(|(_, mv)| mv)
    }

    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        self.apply_move(p, inst, mv, log);
    }

    /// The best improving 3-cycle of the next record waiting for one.
    fn when_idle(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        nb: &Neighbours,
        log: &mut MoveLog,
    ) -> Option<bool> {
        let i = self.cycle_queue.pop()?;
        self.cycle_queued[i] = false;
        Some(self.try_cycle(p, inst, nb, i, log))
    }
}
