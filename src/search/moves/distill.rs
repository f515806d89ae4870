//! # Distill move
//!
//! Form a new group of k records taken from groups larger than k: the seed record and its
//! nearest neighbours, each donor group giving at most (size - k) records so every donor
//! stays feasible. Exact delta (P30): the new group's SSE minus, per donor of size a and
//! centroid c losing a set R of m records (centroid r), SSE(R) + a m / (a - m) ||c - r||^2.
//!
//! ## Complexity
//! O(m + k d) evaluation for m neighbours; O(k d) application.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{fresh_slot, Counters, MoveLog};
use crate::data::Instance;
use crate::geometry::neighbours::Neighbours;
use crate::partition::{group_stats, sq_dist, Partition};

pub const NAME: &str = "distill";

/// The records of the new group and the exact change in SSE.
#[derive(Debug, Clone)]
pub struct DistillPlan {
    pub records: Vec<usize>,
    pub delta: f64,
}

/// The distill operator with its counters.
#[derive(Debug, Clone, Default)]
pub struct Distill {
    pub counters: Counters,
}

impl Distill {
    /// Plan a new group around `seed`; None when too few spare records are near it.
    pub fn evaluate(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        seed: usize,
        nb: &Neighbours,
    ) -> Option<DistillPlan> {
        self.counters.evaluations += 1;
        // (group, records taken) for the donors so far; few entries, linear scans.
        let mut taken: Vec<(usize, Vec<usize>)> = Vec::new();
        let mut records = Vec::with_capacity(k);
        let candidates = std::iter::once(seed).chain(nb.of(seed).iter().map(|&j| j as usize));
        for i in candidates {
            if records.len() == k {
                break;
            }
            let g = p.group_of(i);
            let entry = match taken.iter().position(|t| t.0 == g) {
                Some(pos) => pos,
                None => {
                    taken.push((g, Vec::new()));
                    taken.len() - 1
                }
            };
            if p.size(g) - taken[entry].1.len() > k {
                taken[entry].1.push(i);
                records.push(i);
            }
        }
        if records.len() < k {
            return None;
        }
        let mut delta = group_stats(inst, &records).1;
        for (g, removed) in &taken {
            if removed.is_empty() {
                continue;
            }
            let (r, sse_r) = group_stats(inst, removed);
            let (a, m) = (p.size(*g) as f64, removed.len() as f64);
            delta -= sse_r + a * m / (a - m) * sq_dist(p.centroid(*g), &r);
        }
        Some(DistillPlan { records, delta })
    }

    /// Apply; `spare` holds possibly empty slots to reuse. Returns the new group's slot.
    pub fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        plan: &DistillPlan,
        spare: &mut Vec<usize>,
        log: &mut MoveLog,
    ) -> usize {
        self.counters.applications += 1;
        let slot = fresh_slot(p, spare);
        for &i in &plan.records {
            log.shift(p, inst, i, slot);
        }
        slot
    }
}
