//! # Weighted shift and swap descent
//!
//! The engine of `descent` when the instance carries sampling weights that are not all
//! equal (`--weights`): the same queue-driven granular descent as [`super::local_search`]
//! (candidate groups from each record's nearest neighbours; shift a record to a neighbour
//! group when its own keeps k records, swap it with a member of that group; first or best
//! improving move of the record; after a move the members of both groups are queued
//! again; the loop of [`super::descent_loop`]), but every delta is that of the **weighted** SSE with **weighted** centroids
//! (`proofs/P40-weighted-sse.md`, Lemma W5): for a group `G` (total weight `W`, weighted
//! centroid `c`) that gains record `b` and loses record `a`,
//!
//! `Δ = w_b ||b - c||^2 - w_a ||a - c||^2 - ||w_b (b - c) - w_a (a - c)||^2 / (W - w_a + w_b)`
//!
//! (a shift is the case without `a` on the receiving side and without `b` on the giving
//! side). Group membership and sizes live in the [`Partition`] (its unweighted statistics
//! are kept too, so the stage reports the unweighted SSE of the weighted descent's
//! partition); the weighted totals and centroids live here and are recomputed from the
//! members of the two groups after every applied move (two passes, no drift).
//!
//! A move is applied only when its computed delta is below `-threshold`,
//! `threshold = max(IMPROVE_EPS SST_w / n, 72 (d + 5) u max_i w_i ||z_i||^2)` (the weighted
//! analogue of the unweighted descent's), so rounding noise cannot cycle and the descent
//! ends at a local optimum of the weighted SSE in its granular neighbourhood.
//!
//! ## Complexity
//! Per record examined O(m + G_nb s d) as the unweighted descent (m neighbours over G_nb
//! groups of size s); an applied move costs O((|A| + |B|) d) for the recomputation.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26 (the unweighted descent).
//! - Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Section 2.2 (weighted means).

use super::descent_loop::{descend, MoveEvaluation, NeighbourGroups, WorkQueue};
use super::local_search::IMPROVE_EPS;
use super::moves::{Move, MoveLog};
use crate::data::Instance;
use crate::geometry::neighbours::Neighbours;
use crate::partition::Partition;
use crate::weighted::weighted_group_stats;

/// The weighted statistics of the groups and the work queue.
#[derive(Debug, Clone)]
pub struct WeightedLocalSearch {
    w: Vec<f64>,
    d: usize,
    /// Per group slot: total weight, weighted centroid (d values), weighted SSE.
    total: Vec<f64>,
    centroid: Vec<f64>,
    sse: Vec<f64>,
    work: WorkQueue,
    near: NeighbourGroups,
    best_improvement: bool,
    threshold: f64,
    /// Moves evaluated and applied (for the stage's statistics).
    pub evaluations: u64,
    pub shifts: u64,
    pub swaps: u64,
}

impl WeightedLocalSearch {
    /// The engine for partition `p` of `inst` with weights `w` (one per record, > 0).
    pub fn new(inst: &Instance, p: &Partition, w: &[f64], best_improvement: bool) -> Self {
        let d = inst.d;
        let slots = p.slots();
        let mut s = WeightedLocalSearch {
            w: w.to_vec(),
            d,
            total: vec![0.0; slots],
            centroid: vec![0.0; slots * d],
            sse: vec![0.0; slots],
            work: WorkQueue::new(inst.n),
            near: NeighbourGroups::default(),
            best_improvement,
            threshold: 0.0,
            evaluations: 0,
            shifts: 0,
            swaps: 0,
        };
        for g in 0..slots {
            s.refresh(inst, p, g);
        }
        let sst_w = crate::weighted::weighted_sst(inst, w);
        let max_wnorm = (0..inst.n)
            .map(|i| w[i] * inst.row(i).iter().map(|v| v * v).sum::<f64>())
            .fold(0.0, f64::max);
        let rounding = 72.0 * (d as f64 + 5.0) * (f64::EPSILON / 2.0) * max_wnorm;
        s.threshold = (IMPROVE_EPS * sst_w / inst.n.max(1) as f64).max(rounding);
        s
    }

    /// The weighted SSE of the partition, from the per-group values (each recomputed by two
    /// passes after its last change).
    pub fn weighted_sse(&self) -> f64 {
        self.sse.iter().sum()
    }

    /// Add the counters of the weighted moves (`weighted_shift_*`, `weighted_swap_*`).
    pub fn add_stats(&self, stats: &mut crate::method::Stats) {
        stats.add("weighted_evaluations", self.evaluations);
        stats.add("weighted_shift_applications", self.shifts);
        stats.add("weighted_swap_applications", self.swaps);
    }

    /// Queue record `i` (once).
    pub fn push(&mut self, i: usize) {
        self.work.push(i);
    }

    pub fn is_idle(&self) -> bool {
        self.work.is_empty()
    }

    /// Recompute group `g`'s weighted total, centroid and SSE from its members.
    fn refresh(&mut self, inst: &Instance, p: &Partition, g: usize) {
        let members = p.members(g);
        let (c, sse) = weighted_group_stats(&inst.z, self.d, &self.w, members);
        self.total[g] = members.iter().map(|&i| self.w[i]).sum();
        self.centroid[g * self.d..(g + 1) * self.d].copy_from_slice(&c);
        self.sse[g] = sse;
    }

    /// Change of group `g`'s weighted SSE when it gains record `gain` and loses record
    /// `lose` (either may be absent): P40 Lemma W5.
    pub fn group_delta(
        &self,
        inst: &Instance,
        g: usize,
        gain: Option<usize>,
        lose: Option<usize>,
    ) -> f64 {
        let c = &self.centroid[g * self.d..(g + 1) * self.d];
        let (wb, wa) = (
            gain.map_or(0.0, |b| self.w[b]),
            lose.map_or(0.0, |a| self.w[a]),
        );
        let new_total = self.total[g] - wa + wb;
        if new_total <= 0.0 {
            // Only when the weights differ by more than the precision (a lone record's
            // removal is handled by the caller): no trustworthy delta, never chosen.
            return f64::INFINITY;
        }
        let (mut gain_sq, mut lose_sq, mut cross_sq) = (0.0, 0.0, 0.0);
        for (t, &ct) in c.iter().enumerate() {
            let db = gain.map_or(0.0, |b| inst.row(b)[t] - ct);
            let da = lose.map_or(0.0, |a| inst.row(a)[t] - ct);
            gain_sq += db * db;
            lose_sq += da * da;
            let v = wb * db - wa * da;
            cross_sq += v * v;
        }
        wb * gain_sq - wa * lose_sq - cross_sq / new_total
    }

    /// Delta of shifting record `i` to group `to`.
    pub fn shift_delta(&self, inst: &Instance, p: &Partition, i: usize, to: usize) -> f64 {
        let from = p.group_of(i);
        if from == to {
            return 0.0;
        }
        let removal = if p.size(from) > 1 {
            self.group_delta(inst, from, None, Some(i))
        } else {
            -self.sse[from]
        };
        removal + self.group_delta(inst, to, Some(i), None)
    }

    /// Delta of swapping records `i` and `j` (different groups).
    pub fn swap_delta(&self, inst: &Instance, p: &Partition, i: usize, j: usize) -> f64 {
        let (a, b) = (p.group_of(i), p.group_of(j));
        if a == b {
            return 0.0;
        }
        self.group_delta(inst, a, Some(j), Some(i)) + self.group_delta(inst, b, Some(i), Some(j))
    }

    /// Examine up to `budget` queued records, applying improving moves to `p`; returns the
    /// number of moves applied (the weighted moves are not logged: nothing undoes them).
    pub fn run(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        budget: usize,
    ) -> usize {
        descend(self, p, inst, k, nb, &mut MoveLog::new(), budget)
    }
}

impl MoveEvaluation for WeightedLocalSearch {
    fn queue(&mut self) -> &mut WorkQueue {
        &mut self.work
    }

    /// Per neighbour group: the shift (when i's group keeps k records), then the swaps with
    /// its members in member order.
    fn improving_move(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        nb: &Neighbours,
        i: usize,
    ) -> Option<(usize, Move)> {
        let can_shift = p.size(p.group_of(i)) > k;
        self.near.collect(p, nb, i);
        let mut best: Option<(f64, Move)> = None;
        for gi in 0..self.near.groups.len() {
            let h = self.near.groups[gi];
            let shift = can_shift.then_some(Move::Shift { record: i, to: h });
            let swaps = p.members(h).iter().map(|&m| Move::Swap { a: i, b: m });
            for mv in shift.into_iter().chain(swaps) {
                self.evaluations += 1;
                let delta = match mv {
                    Move::Shift { to, .. } => self.shift_delta(inst, p, i, to),
                    Move::Swap { b, .. } => self.swap_delta(inst, p, i, b),
                    _ => unreachable!("only shifts and swaps are proposed"),
                };
                if delta < -self.threshold && best.is_none_or(|(b, _)| delta < b) {
                    best = Some((delta, mv));
                    if !self.best_improvement {
                        return Some((0, mv));
                    }
                }
            }
        }
        best.map(|(_, mv)| (0, mv))
    }

    /// Apply the move to the partition, then recompute the weighted statistics of both
    /// groups from their members.
    fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        _op: usize,
        mv: Move,
        _log: &mut MoveLog,
    ) {
        let (from, to) = match mv {
            Move::Shift { record, to } => {
                let from = p.group_of(record);
                p.apply_shift(inst, record, to);
                self.shifts += 1;
                (from, to)
            }
            Move::Swap { a, b } => {
                let (from, to) = (p.group_of(a), p.group_of(b));
                p.apply_swap(inst, a, b);
                self.swaps += 1;
                (from, to)
            }
            other => unreachable!("the weighted descent applies shifts and swaps, not {other:?}"),
        };
        self.refresh(inst, p, from);
        self.refresh(inst, p, to);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every delta equals the recomputed change of the weighted SSE (two passes from the
    /// members, an independent path), on random shifts and swaps of random partitions.
    #[test]
    fn deltas_equal_the_recomputed_change() {
        let mut rng = ChaCha8Rng::seed_from_u64(40);
        for case in 0..200 {
            let n = rng.random_range(6..30);
            let d = rng.random_range(1..4);
            let rows: Vec<Vec<f64>> = (0..n)
                .map(|_| (0..d).map(|_| rng.random_range(-3.0..3.0)).collect())
                .collect();
            let raw: Vec<f64> = rows.iter().flatten().copied().collect();
            let cols = (1..=d).map(|j| format!("x{j}")).collect();
            let inst = crate::data::Instance::from_raw("t", "t", cols, raw, "test".into()).unwrap();
            let w: Vec<f64> = (0..n)
                .map(|_| 10f64.powf(rng.random_range(-3.0..3.0)))
                .collect();
            let groups = rng.random_range(2..=(n / 2).max(2));
            let labels: Vec<usize> = (0..n)
                .map(|i| {
                    if i < groups {
                        i
                    } else {
                        rng.random_range(0..groups)
                    }
                })
                .collect();
            let p = Partition::from_labels(&inst, labels).unwrap();
            let s = WeightedLocalSearch::new(&inst, &p, &w, false);
            let before = crate::weighted::weighted_sse_of_labels(&inst, &w, p.labels());
            assert!((s.weighted_sse() - before).abs() <= 1e-9 * before.max(1e-12));
            let i = rng.random_range(0..n);
            let j = rng.random_range(0..n);
            let (gi, gj) = (p.group_of(i), p.group_of(j));
            if gi == gj {
                continue;
            }
            // Shift i to j's group (also when i's group empties).
            let mut q = p.clone();
            q.apply_shift(&inst, i, gj);
            let after = crate::weighted::weighted_sse_of_labels(&inst, &w, q.labels());
            let delta = s.shift_delta(&inst, &p, i, gj);
            let scale = before.max(after).max(1e-9);
            assert!(
                (delta - (after - before)).abs() <= 1e-9 * scale,
                "case {case}: shift delta {delta} vs {}",
                after - before
            );
            // Swap i and j.
            let mut q = p.clone();
            q.apply_swap(&inst, i, j);
            let after = crate::weighted::weighted_sse_of_labels(&inst, &w, q.labels());
            let delta = s.swap_delta(&inst, &p, i, j);
            assert!(
                (delta - (after - before)).abs() <= 1e-9 * before.max(after).max(1e-9),
                "case {case}: swap delta {delta} vs {}",
                after - before
            );
        }
    }
}
