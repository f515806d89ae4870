//! # 3-cycle operator
//!
//! At a shift/swap local optimum ([`Phase::Escape`]): move record `a` (group A) into one
//! of the groups B of its nearest neighbours, a member b of B into a third group C and a
//! member c of C, among the nearest neighbours of `a`, into A. Every size stays, so it is
//! always feasible; it escapes swap optima when nearly every group has exactly k records
//! (shifts blocked). The delta is the sum of three one-group exchange terms (P02), each
//! one dot product.
//!
//! ## Complexity
//! O((G_nb s + m + 64) d) per record for m neighbours over G_nb groups of size s (64 =
//! 8 x 8 closing pairs).
//!
//! ## References
//! - Ahuja, R. K., Orlin, J. B. and Sharma, D. (2000). Very large-scale neighborhood
//!   search. International Transactions in Operational Research 7(4-5), 301-317 (cyclic
//!   exchanges).

use super::{dot, sq_norm, Operator, Phase, View};
use crate::data::Instance;
use crate::partition::{sq_dist, Partition};
use crate::search::moves::{Counters, Move, MoveLog, CYCLE};
use crate::search::work_queue::NeighbourGroups;

/// Candidates kept on each side of a 3-cycle search (so at most this squared closing
/// evaluations per record).
const CYCLE_SIDE: usize = 8;

/// The 3-cycle operator with its buffers.
#[derive(Debug, Clone, Default)]
pub struct Cycle3 {
    /// 3-cycle searches (one per record waiting at a local optimum) and cycles applied.
    pub counters: Counters,
    near: NeighbourGroups,
    w: Vec<f64>,
    /// 3-cycle candidates: (delta of one group, record, its group).
    cyc_in: Vec<(f64, usize, usize)>,
    cyc_out: Vec<(f64, usize, usize)>,
    /// Per kept `cyc_out` entry: the closing term's weights (d each) and (constant,
    /// coefficient of |y|^2).
    close_w: Vec<f64>,
    close_c: Vec<(f64, f64)>,
}

impl Cycle3 {
    /// The best improving 3-cycle that moves record `a` (group A) into one of the groups B
    /// of its nearest neighbours, a member b of B into a third group C and a member c of C
    /// into A, among c in the nearest neighbours of `a`. Every size stays, so it is always
    /// feasible; it escapes swap optima when nearly every group has exactly k records
    /// (shifts blocked). The delta is the sum of three one-group exchange terms (P02).
    /// Pruned: only b whose exchange term for B is negative and c whose term for A is
    /// negative, the `CYCLE_SIDE` best of each. Returns the delta and [`Move::Cycle`];
    /// [`Operator::apply`] applies it as the swaps (a, b) then (b, c).
    pub fn best_cycle(&mut self, v: &View, a: usize) -> Option<(f64, Move)> {
        let (p, inst, nb) = (v.p, v.inst, v.nb);
        let ga = p.group_of(a);
        self.near.collect(p, nb, a);
        let x = inst.row(a);
        self.cyc_in.clear();
        // E_B(b -> x) (P02) = |x - m|^2 - |b - m|^2 - |x - b|^2 / s
        //   = [|x - m|^2 - |m|^2 - |x|^2 / s] + b.(2 m + 2 x / s) - (1 + 1/s) |b|^2:
        // one dot product per member (weights in self.w).
        let xx = v.norms[a];
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
                let d = c0 + bw - (1.0 + inv) * v.norms[b];
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
                let d = c0 + dot(inst.row(c), &self.w) + (1.0 - inv_a) * v.norms[c];
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
                .push((m_norm - v.norms[c] * inv - sq_dist(cr, m), 1.0 - inv));
        }
        let mut best: Option<(f64, usize, usize)> = None;
        for &(db, b, gb) in &self.cyc_in {
            let y = inst.row(b);
            for (ci, &(da, c, gc)) in self.cyc_out.iter().enumerate() {
                if gc == gb {
                    continue;
                }
                let (k0, k1) = self.close_c[ci];
                let dc = k0 + dot(y, &self.close_w[ci * dim..(ci + 1) * dim]) + k1 * v.norms[b];
                let delta = da + db + dc;
                if delta < -v.eps && best.is_none_or(|t| delta < t.0) {
                    best = Some((delta, b, c));
                }
            }
        }
        best.map(|(delta, b, c)| (delta, Move::Cycle { a, b, c }))
    }
}

impl Operator for Cycle3 {
    fn name(&self) -> &'static str {
        CYCLE
    }
    fn counters(&self) -> Counters {
        self.counters
    }
    fn phase(&self) -> Phase {
        Phase::Escape
    }
    fn escape(&mut self, v: &View, i: usize) -> Option<(f64, Move)> {
        self.counters.evaluations += 1;
        self.best_cycle(v, i)
    }
    fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
        let Move::Cycle { a, b, c } = mv else {
            unreachable!("the 3-cycle operator applies 3-cycles, not {mv:?}")
        };
        self.counters.applications += 1;
        // a <-> b puts a in B and b in A; b <-> c then puts b in C and c in A.
        log.swap(p, inst, a, b);
        log.swap(p, inst, b, c);
    }
}
