//! # Splitting large groups with MDAV (shared by mst, fcm, ga and pcl)
//!
//! Several published methods end with groups of 2k or more records and hand them to a
//! fixed-size method (MST partitioning; fuzzy c-means when its repair collapses a set), or
//! use a fixed-size partition as a start (the genetic algorithm's blocks and its seed
//! chromosome, PCL's starting centroids). This module runs MDAV (the published-values form of
//! [`crate::init::lineage::mdav`]: two groups per round while at least 2k records remain, a leftover of
//! k..2k-1 records is one group, a leftover of fewer than k records joins the nearest
//! centroids record by record) on a subset of the records.
//!
//! ## Complexity
//! O(m^2 d / k) time for a subset of m records, O(m d) memory.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), Data Mining and Knowledge Discovery 11(2) (MDAV);
//! Laszlo & Mukherjee (2005), IEEE TKDE 17(7) (use of a fixed-size method on large groups).

use crate::data::Instance;
use crate::geometry::spatial::Backend;
use crate::init::lineage::engine::{self, Rules};

/// MDAV groups (minimum size `k`) of the records `ids` (at least `k` of them).
pub fn mdav_groups(inst: &Instance, ids: Vec<usize>, k: usize) -> Vec<Vec<usize>> {
    // A split is a step of a larger method: the engine does not stop inside it.
    engine::groups_unstoppable(inst, Some(ids), k, Rules::MDAV, Backend::Auto)
}

/// Every group of at least `2k` records replaced by its MDAV groups; others kept as they are
/// (order kept; the records of each group sorted ascending for determinism downstream).
pub(crate) fn split_large(inst: &Instance, groups: Vec<Vec<usize>>, k: usize) -> Vec<Vec<usize>> {
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
