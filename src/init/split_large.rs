//! # Splitting large groups with MDAV (shared by mst, fcm, ga and pcl)
//!
//! Several published methods end with groups of 2k or more records and hand them to a
//! fixed-size method (MST partitioning; fuzzy c-means when its repair collapses a set), or
//! use a fixed-size partition as a start (the genetic algorithm's blocks and its seed
//! chromosome, PCL's starting centroids). This module runs MDAV (the published-values form of
//! [`super::mdav`]: two groups per round while at least 2k records remain, a leftover of
//! k..2k-1 records is one group, a leftover of fewer than k records joins the nearest
//! centroids record by record) on a subset of the records.
//!
//! ## Complexity
//! O(m^2 d / k) time for a subset of m records, O(m d) memory.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), Data Mining and Knowledge Discovery 11(2) (MDAV);
//! Laszlo & Mukherjee (2005), IEEE TKDE 17(7) (use of a fixed-size method on large groups).

use super::mdav::{join_nearest_centroids, two_group_rounds};
use super::pool::Pool;
use crate::data::Instance;

/// MDAV groups (minimum size `k`) of the records `ids` (at least `k` of them).
pub fn mdav_groups(inst: &Instance, ids: Vec<usize>, k: usize) -> Vec<Vec<usize>> {
    let mut pool = Pool::from_ids(inst, ids);
    let mut groups = two_group_rounds(&mut pool, k, 2 * k);
    if pool.len() >= k || groups.is_empty() {
        groups.push(pool.take_all());
    } else if !pool.is_empty() {
        let leftover = pool.take_all();
        join_nearest_centroids(inst, &mut groups, &leftover);
    }
    groups
}

/// Every group of at least `2k` records replaced by its MDAV groups; others kept as they are
/// (order kept; the records of each group sorted ascending for determinism downstream).
pub fn split_large(inst: &Instance, groups: Vec<Vec<usize>>, k: usize) -> Vec<Vec<usize>> {
    let mut out = Vec::with_capacity(groups.len());
    for mut g in groups {
        g.sort_unstable();
        if g.len() >= 2 * k {
            out.extend(mdav_groups(inst, g, k));
        } else {
            out.push(g);
        }
    }
    out
}
