//! # DBFS (diameter-based fixed-size microaggregation)
//!
//! One group per round: while at least k records remain, find the two remaining records
//! farthest apart (the diameter of the remaining set) and form a group from one endpoint x
//! and its k - 1 nearest remaining records. The fewer than k records left at the end each
//! join the group whose centroid is nearest (centroids taken before any of them joins), so
//! several groups may exceed k. It is Laszlo & Mukherjee's diameter-based counterpart of
//! their centroid-based fixed-size method (CBFS), which seeds each group with the record
//! farthest from the centroid instead. Which endpoint seeds the group is not fixed by the
//! descriptions we have; we take the endpoint farther from the centroid of the remaining
//! records (the more extreme one; ties the lower index). Ties otherwise go to the lowest
//! record index.
//!
//! ## Complexity
//! The diameter is kept by [`crate::geometry::diameter::Diameter`] (worst case O(m^2 d) per round,
//! usually a few O(m d) passes); plus one centroid pass and one k-nearest pass per group:
//! O(n^2 d / k) beyond the diameter work. O(n d) memory.
//!
//! ## References
//! Laszlo & Mukherjee (2005), "Minimum spanning tree partitioning algorithm for
//! microaggregation", IEEE TKDE 17(7), pp. 902-911 (the fixed-size heuristics D and C).
//! Kabir, Wang & Bertino (2010), ICDM (description in section II).

use crate::data::Instance;
use crate::geometry::diameter::Diameter;
use crate::geometry::pool::Pool;
use crate::init::lineage::growth::add_leftover;
use crate::init::lineage::md::take_group_of;
use crate::init::GroupsMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;
use crate::partition::sq_dist;

/// The `dbfs` initializer.
pub const METHOD: GroupsMethod = GroupsMethod {
    name: "dbfs",
    groups: dbfs_groups,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "DBFS: one k-group per round around an endpoint of the diameter of the remaining records; leftovers join nearest groups",
        "Laszlo & Mukherjee 2005",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

/// The groups of `dbfs` (before the feasibility check).
pub(crate) fn dbfs_groups(inst: &Instance, k: usize) -> Vec<Vec<usize>> {
    let mut pool = Pool::new(inst);
    let mut diam = Diameter::new(inst);
    let mut groups = Vec::new();
    while pool.len() >= k {
        let seed = if pool.len() == 1 {
            pool.ids()[0]
        } else {
            let (a, b) = diam.farthest_pair().expect("at least two records remain");
            let c = pool.centroid();
            let (da, db) = (sq_dist(inst.row(a), &c), sq_dist(inst.row(b), &c));
            if da > db || (da == db && a < b) {
                a
            } else {
                b
            }
        };
        groups.push(take_group_of(inst, &mut pool, &mut diam, seed, k));
    }
    add_leftover(inst, &mut groups, pool.take_all());
    groups
}
