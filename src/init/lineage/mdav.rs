//! # MDAV (maximum distance to average vector), the published-values form
//!
//! While at least 2k records remain: take the record r farthest from the centroid of the
//! remaining records and group it with its k - 1 nearest remaining records; then take the
//! record s farthest from r and do the same. A leftover of k..2k-1 records forms one group; a
//! leftover of fewer than k records is handed out record by record, each to the group whose
//! centroid is nearest (centroids taken before any leftover is added).
//!
//! This is the form that reproduces all twelve MDAV values published for Tarragona, Census
//! and EIA at k = 3, 4, 5, 10 (see `../shared/instances/README.md`, "tail variant B"); the
//! textbook 3k-loop form is [`crate::init::lineage::mdav_generic`]. Ties go to the lowest record index.
//!
//! Built on the lineage engine ([`crate::init::lineage::engine`], [`Rules::MDAV`]).
//!
//! ## Complexity
//! O(n^2 d / k) time with the scan (each round three O(m d) passes over the m remaining
//! records: distances to the centroid, to r, to s; the centroid is kept as running sums),
//! less with the kd-tree the engine picks for large n and small d; O(n d) memory.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), "Ordinal, continuous and heterogeneous k-anonymity through
//! microaggregation", Data Mining and Knowledge Discovery 11(2). Domingo-Ferrer &
//! Mateo-Sanz (2002), IEEE TKDE 14(1). Chettri & Borah (2012), "An efficient
//! variable-size MDAV-based microaggregation", CS & IT (Table 1).

use crate::geometry::pool::Pool;
use crate::init::lineage::engine::Rules;
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The `mdav` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "mdav",
    rules: Rules::MDAV,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MDAV, two groups per round while >= 2k remain; leftover < k joins nearest groups record by record (reproduces the published values)",
        "Domingo-Ferrer & Torra 2005; Chettri & Borah 2012",
        |_: NoParams| METHOD,
    )
    .deterministic()
    .runs_on_missing_cells()
}

/// One group: the record farthest from the pool's centroid with its k - 1 nearest.
pub(crate) fn farthest_from_centroid_group(pool: &mut Pool, k: usize) -> Vec<usize> {
    let c = pool.centroid();
    pool.distances_to(&c);
    let r = pool.point_at(pool.argmax_distance());
    pool.take_nearest(&r, k)
}
