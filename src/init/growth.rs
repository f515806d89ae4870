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

use super::pool::{group_centroids, nearest_centroid, Pool};
use crate::data::Instance;

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
pub fn grow(
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
            let mut sum = seed.clone();
            let mut centroid = seed;
            while group.len() < k && !pool.is_empty() {
                let next = pool.take_nearest(&centroid, 1)[0];
                group.push(next);
                sum.iter_mut()
                    .zip(inst.row(next))
                    .for_each(|(s, v)| *s += v);
                let inv = 1.0 / group.len() as f64;
                centroid
                    .iter_mut()
                    .zip(&sum)
                    .for_each(|(c, s)| *c = s * inv);
            }
            group
        }
    }
}

/// Each leftover record joins the group whose centroid, taken before any leftover joins, is
/// nearest to it (ties: lowest group index). This is the rule of the `mdav` published form.
pub fn join_each_to_nearest_centroid(
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
