//! # Split move
//!
//! Cut a group of 2k or more records into groups of k..2k-1 the CBFS way (as in
//! SplitLargeGroups of Khomnotai et al. 2018): while at least 2k records remain, start a
//! new group at the remaining record farthest from the remaining centroid and grow it by
//! the record nearest to its own centroid until it has k; the last k..2k-1 records stay
//! together. `carve` is the general form used by ILS (given group sizes). A split never
//! raises the SSE (a refinement of a group; P30).
//!
//! ## Complexity
//! O(s^2 d) for a group of s records (O(s k d) per new group, s / k groups).
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2005). Minimum spanning tree partitioning algorithm for
//!   microaggregation. IEEE TKDE 17(7), 902-911 (CBFS).
//! - Khomnotai, L., Lin, J.-L., Peng, Z.-Q. and Santra, A. S. (2018). Iterative group
//!   decomposition for refining microaggregation solutions. Symmetry 10(7), 262.

use super::{fresh_slot, Counters, MoveLog};
use crate::data::Instance;
use crate::partition::{group_stats, sq_dist, Partition};
use crate::rng::Rng;
use rand::Rng as _;

pub const NAME: &str = "split";

/// The new groups and the exact change in SSE.
#[derive(Debug, Clone)]
pub struct SplitPlan {
    pub group: usize,
    pub groups: Vec<Vec<usize>>,
    pub delta: f64,
}

/// The split operator with its counters.
#[derive(Debug, Clone, Default)]
pub struct Split {
    pub counters: Counters,
}

fn centroid_of(inst: &Instance, records: &[usize]) -> Vec<f64> {
    group_stats(inst, records).0
}

/// Position in `records` of the record farthest from `point` (ties: lowest record index).
fn farthest(inst: &Instance, records: &[usize], point: &[f64]) -> usize {
    let mut best = (f64::NEG_INFINITY, usize::MAX, 0);
    for (pos, &i) in records.iter().enumerate() {
        let d = sq_dist(inst.row(i), point);
        if d > best.0 || (d == best.0 && i < best.1) {
            best = (d, i, pos);
        }
    }
    best.2
}

/// Grow a group from `records[start]` by repeatedly taking the remaining record nearest to
/// the group's running centroid, until it has `size` records; removes them from `records`.
pub(crate) fn grow_from(
    inst: &Instance,
    records: &mut Vec<usize>,
    start: usize,
    size: usize,
) -> Vec<usize> {
    let d = inst.d;
    let first = records.swap_remove(start);
    let mut group = vec![first];
    let mut c = inst.row(first).to_vec();
    while group.len() < size && !records.is_empty() {
        let mut best = (f64::INFINITY, usize::MAX, 0);
        for (pos, &i) in records.iter().enumerate() {
            let dist = sq_dist(inst.row(i), &c);
            if dist < best.0 || (dist == best.0 && i < best.1) {
                best = (dist, i, pos);
            }
        }
        let i = records.swap_remove(best.2);
        group.push(i);
        let inv = 1.0 / group.len() as f64;
        for (m, v) in c.iter_mut().zip(inst.row(i)).take(d) {
            *m += (v - *m) * inv;
        }
    }
    group
}

/// Cut `records` into groups of the given sizes (summing to its length): each group starts
/// at the record farthest from the centroid of what remains, or, given an RNG, at a
/// uniformly random remaining record.
pub(crate) fn carve(
    inst: &Instance,
    records: &[usize],
    sizes: &[usize],
    mut rng: Option<&mut Rng>,
) -> Vec<Vec<usize>> {
    let mut rest = records.to_vec();
    let mut groups = Vec::with_capacity(sizes.len());
    for (g, &s) in sizes.iter().enumerate() {
        if g + 1 == sizes.len() {
            rest.sort_unstable();
            groups.push(std::mem::take(&mut rest));
            break;
        }
        let start = match rng.as_deref_mut() {
            Some(r) => r.random_range(0..rest.len()),
            None => farthest(inst, &rest, &centroid_of(inst, &rest)),
        };
        groups.push(grow_from(inst, &mut rest, start, s));
    }
    groups
}

impl Split {
    /// Plan splitting group `g`; None when it has fewer than 2k records.
    pub fn evaluate(
        &mut self,
        p: &Partition,
        inst: &Instance,
        k: usize,
        g: usize,
    ) -> Option<SplitPlan> {
        self.counters.evaluations += 1;
        let s = p.size(g);
        if k == 0 || s < 2 * k {
            return None;
        }
        let parts = s / k;
        let mut sizes = vec![k; parts];
        sizes[parts - 1] += s - parts * k;
        let mut members = p.members(g).to_vec();
        members.sort_unstable();
        let groups = carve(inst, &members, &sizes, None);
        let delta = groups.iter().map(|m| group_stats(inst, m).1).sum::<f64>() - p.group_sse(g);
        Some(SplitPlan {
            group: g,
            groups,
            delta,
        })
    }

    /// Apply: the first new group keeps the slot, the others get fresh ones.
    pub fn apply(
        &mut self,
        p: &mut Partition,
        inst: &Instance,
        plan: &SplitPlan,
        spare: &mut Vec<usize>,
        log: &mut MoveLog,
    ) {
        self.counters.applications += 1;
        for part in plan.groups.iter().skip(1) {
            let slot = fresh_slot(p, spare);
            for &i in part {
                log.shift(p, inst, i, slot);
            }
        }
    }
}
