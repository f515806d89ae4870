//! # Group growth rules (NN and NC) and leftover placement
//!
//! The fixed-size heuristics of the MDAV lineage differ in how they pick the first record of
//! a group and in how they grow it to k records. This module holds the two growth rules,
//! shared by `mdav-nc`, `cbfs`, `cbfs-nn`, `tfrp`, `tfrp-nc` (and the candidate groups of
//! `gsms`, which are NN groups):
//!
//! - **NN** (nearest neighbours): the first record and its k - 1 nearest remaining records.
//! - **NC** (nearest to centroid): start from the first record; repeatedly add the remaining
//!   record nearest to the group's current centroid, updating the centroid, until k records.
//!
//! and the placement of a leftover of fewer than k records once no new group can be formed.
//! Ties go to the lowest record index (the [`Pool`] rule).
//!
//! ## Complexity
//! NN: one O(m d) distance pass over the m pooled records plus the k-selection. NC: k - 1
//! passes, O(k m d). Leftover placement: O(g d) per record for g groups.
//!
//! ## References
//! Khomnotai, Lin, Peng & Santra (2018), "Iterative Group Decomposition for Refining
//! Microaggregation Solutions", Symmetry 10(7):262, section 3.1 (names NN and NC).
//! Laszlo & Mukherjee (2005), IEEE TKDE 17(7) (NC growth in CBFS).

use crate::data::Instance;
use crate::geometry::pool::{group_centroids, nearest_centroid, Pool};

/// How a group grows from its first record.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Growth {
    /// The first record and its k - 1 nearest remaining records.
    NearestNeighbours,
    /// Repeatedly the remaining record nearest to the group's current centroid.
    NearestToCentroid,
}

/// Remove the record at pool position `seed_pos` and grow it into a group of `k` records
/// (fewer if the pool runs out). The first id returned is the seed.
pub(crate) fn grow(
    inst: &Instance,
    pool: &mut Pool,
    seed_pos: usize,
    k: usize,
    growth: Growth,
) -> Vec<usize> {
    let seed = pool.point_at(seed_pos);
    match growth {
        Growth::NearestNeighbours => {
            pool.distances_to(&seed);
            let first = pool.remove_at(seed_pos);
            let mut group = Vec::with_capacity(k);
            group.push(first);
            group.extend(pool.take_nearest_by_current_distances(k - 1));
            group
        }
        Growth::NearestToCentroid => {
            let first = pool.remove_at(seed_pos);
            let mut group = Vec::with_capacity(k);
            group.push(first);
            grow_to_centroid(inst, &mut group, &seed, k, |centroid| {
                (!pool.is_empty()).then(|| pool.take_nearest(centroid, 1)[0])
            });
            group
        }
    }
}

/// Grow `group` (holding its seed, at point `seed`) to `k` records, each time adding the
/// record `take_nearest` returns for the group's running centroid (per column the sum of
/// the observed members' values over their count), until `k` or until it returns none.
/// One rule for the pool path ([`grow`]) and the MDAV-lineage engine, so both compute the
/// same centroids bit for bit; NaN-aware for the masked engine ([`crate::geometry::masked_scan`]), with no
/// NaN the sums over the members scaled by 1 / len.
pub(crate) fn grow_to_centroid(
    inst: &Instance,
    group: &mut Vec<usize>,
    seed: &[f64],
    k: usize,
    mut take_nearest: impl FnMut(&[f64]) -> Option<usize>,
) {
    let mut sum: Vec<f64> = seed
        .iter()
        .map(|v| if v.is_nan() { 0.0 } else { *v })
        .collect();
    let mut count: Vec<usize> = seed.iter().map(|v| usize::from(!v.is_nan())).collect();
    let mut centroid = seed.to_vec();
    while group.len() < k {
        let Some(next) = take_nearest(&centroid) else {
            break;
        };
        group.push(next);
        for ((s, n), &v) in sum.iter_mut().zip(count.iter_mut()).zip(inst.row(next)) {
            if !v.is_nan() {
                *s += v;
                *n += 1;
            }
        }
        for ((c, s), &n) in centroid.iter_mut().zip(&sum).zip(&count) {
            *c = if n == 0 {
                f64::NAN
            } else {
                s * (1.0 / n as f64)
            };
        }
    }
}

/// Each leftover record joins the group whose centroid, taken before any leftover joins, is
/// nearest to it (ties: lowest group index). This is the rule of the `mdav` published form.
pub(crate) fn join_each_to_nearest_centroid(
    inst: &Instance,
    groups: &mut [Vec<usize>],
    leftover: &[usize],
) {
    let centroids = group_centroids(inst, groups);
    for &i in leftover {
        let g = nearest_centroid(&centroids, inst.d, inst.row(i));
        groups[g].push(i);
    }
}

/// Close a run of groups: the records left (fewer than k) each join the group whose
/// centroid is nearest ([`join_each_to_nearest_centroid`]); with no group formed, they are
/// the one group.
pub(crate) fn add_leftover(inst: &Instance, groups: &mut Vec<Vec<usize>>, leftover: Vec<usize>) {
    if leftover.is_empty() {
        return;
    }
    if groups.is_empty() {
        groups.push(leftover);
    } else {
        join_each_to_nearest_centroid(inst, groups, &leftover);
    }
}

/// Where a leftover of fewer than k records goes (the readings compared with the tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Leftover {
    /// Each record to the group with the nearest centroid, centroids fixed beforehand.
    EachToNearestCentroid,
    /// Each record in id order to the group with the nearest centroid, updated as it joins.
    EachToNearestUpdatedCentroid,
    /// Each record to the group of its nearest already grouped record.
    EachToGroupOfNearestRecord,
}

/// Place a leftover of fewer than k records by the given rule (ties: lowest index).
pub(crate) fn place_leftover(
    inst: &Instance,
    groups: &mut [Vec<usize>],
    leftover: &[usize],
    rule: Leftover,
) {
    match rule {
        Leftover::EachToNearestCentroid => join_each_to_nearest_centroid(inst, groups, leftover),
        Leftover::EachToNearestUpdatedCentroid => {
            for &i in leftover {
                let centroids = group_centroids(inst, groups);
                let g = nearest_centroid(&centroids, inst.d, inst.row(i));
                groups[g].push(i);
            }
        }
        Leftover::EachToGroupOfNearestRecord => {
            let owner: Vec<(usize, usize)> = groups
                .iter()
                .enumerate()
                .flat_map(|(g, m)| m.iter().map(move |&j| (j, g)))
                .collect();
            let mut best_groups = Vec::with_capacity(leftover.len());
            for &i in leftover {
                let mut best = (f64::INFINITY, usize::MAX, 0);
                for &(j, g) in &owner {
                    let dist = crate::partition::sq_dist(inst.row(i), inst.row(j));
                    if dist < best.0 || (dist == best.0 && j < best.1) {
                        best = (dist, j, g);
                    }
                }
                best_groups.push(best.2);
            }
            for (&i, g) in leftover.iter().zip(best_groups) {
                groups[g].push(i);
            }
        }
    }
}
