//! # Dissolve move
//!
//! Empty a group: each of its records joins the nearest other group (smallest squared
//! distance to the centroid, ties to the lower slot), as TFRP2's decomposition and the
//! Decompose function of Khomnotai et al. (2018) do. Candidate groups are all non-empty
//! groups, or, given neighbour lists, the groups of the record's neighbours (all groups
//! when none of them lies outside the dissolved group). The exact delta groups the records
//! by target and uses the union identity of P30:
//! delta = sum_h [SSE(S_h) + b_h m_h / (b_h + m_h) ||c_h - s_h||^2] - SSE(g).
//! Target groups only grow, so feasibility holds.
//!
//! ## Complexity
//! O(s G' d) evaluation for s records and G' candidate groups; O(s d) application.
//!
//! ## References
//! - Chang, C.-C., Li, Y.-C. and Huang, W.-H. (2007). TFRP: an efficient microaggregation
//!   algorithm for statistical disclosure control. Journal of Systems and Software 80(11),
//!   1866-1878.
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.

use super::{union_increase, Counters, MoveLog};
use crate::data::Instance;
use crate::geometry::neighbours::Neighbours;
use crate::partition::{group_stats, sq_dist, Partition};

pub const NAME: &str = "dissolve";

/// Where each record of the dissolved group goes, and the exact change in SSE.
#[derive(Debug, Clone)]
pub struct DissolvePlan {
    pub group: usize,
    /// (record, target group), sorted by target then record.
    pub targets: Vec<(usize, usize)>,
    pub delta: f64,
}

/// The dissolve operator with its counters.
#[derive(Debug, Clone, Default)]
pub struct Dissolve {
    pub counters: Counters,
}

/// Nearest non-empty group to `x` other than `exclude` among all slots.
pub(crate) fn nearest_group(p: &Partition, x: &[f64], exclude: usize) -> Option<usize> {
    let mut best: Option<(f64, usize)> = None;
    for h in 0..p.slots() {
        if h == exclude || p.size(h) == 0 {
            continue;
        }
        let dist = sq_dist(x, p.centroid(h));
        if best.is_none_or(|(bd, _)| dist < bd) {
            best = Some((dist, h));
        }
    }
    best.map(|b| b.1)
}

/// Nearest group to record `i` other than `exclude` among its neighbours' groups, falling
/// back to all groups.
pub(crate) fn nearest_group_local(
    p: &Partition,
    inst: &Instance,
    nb: &Neighbours,
    i: usize,
    exclude: usize,
) -> Option<usize> {
    let x = inst.row(i);
    let mut best: Option<(f64, usize)> = None;
    for &j in nb.of(i) {
        let h = p.group_of(j as usize);
        if h == exclude {
            continue;
        }
        let dist = sq_dist(x, p.centroid(h));
        if best.is_none_or(|(bd, bh)| dist < bd || (dist == bd && h < bh)) {
            best = Some((dist, h));
        }
    }
    best.map(|b| b.1).or_else(|| nearest_group(p, x, exclude))
}

impl Dissolve {
    /// Plan dissolving group `g`; None when `g` is empty or the only group.
    pub fn evaluate(
        &mut self,
        p: &Partition,
        inst: &Instance,
        g: usize,
        nb: Option<&Neighbours>,
    ) -> Option<DissolvePlan> {
        self.counters.evaluations += 1;
        if p.size(g) == 0 {
            return None;
        }
        let mut targets = Vec::with_capacity(p.size(g));
        for &i in p.members(g) {
            let h = match nb {
                Some(nb) => nearest_group_local(p, inst, nb, i, g),
                None => nearest_group(p, inst.row(i), g),
            }?;
            targets.push((i, h));
        }
        targets.sort_by_key(|&(i, h)| (h, i));
        let mut delta = -p.group_sse(g);
        let mut start = 0;
        while start < targets.len() {
            let h = targets[start].1;
            let end = start + targets[start..].iter().take_while(|t| t.1 == h).count();
            let added: Vec<usize> = targets[start..end].iter().map(|t| t.0).collect();
            let (s, sse) = group_stats(inst, &added);
            delta += union_increase(p.size(h), p.centroid(h), added.len(), &s, sse);
            start = end;
        }
        Some(DissolvePlan {
            group: g,
            targets,
            delta,
        })
    }

    pub fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        plan: &DissolvePlan,
        log: &mut MoveLog,
    ) {
        self.counters.applications += 1;
        for &(i, h) in &plan.targets {
            log.shift(p, inst, i, h);
        }
    }
}
