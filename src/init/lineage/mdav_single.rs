//! # MDAV-single-group (Algorithm-4 of Chettri & Borah)
//!
//! One group per round: while at least 3k records remain, the record farthest from the
//! centroid of the remaining records forms a group with its k - 1 nearest remaining records.
//! Then, if at least 2k remain, one more such group; the last k..2k-1 records form the final
//! group. It is MDAV-generic with the second group of each round (around the record farthest
//! from r) dropped, so the centroid is recomputed before every group. Ties go to the lowest
//! record index.
//!
//! ## Complexity
//! O(n^2 d / k) time (two O(m d) passes per group over the m remaining records), O(n d)
//! memory.
//!
//! ## References
//! Chettri & Borah (2012), "MDAV2k: a variable-size microaggregation technique for privacy
//! preservation", CS & IT 04, pp. 105-118, Algorithm-4 and Table 1 row 4. Laszlo & Mukherjee
//! (2005), "Minimum spanning tree partitioning algorithm for microaggregation", IEEE TKDE
//! 17(7) (the one-group-per-round idea, centroid-based fixed size).

use crate::init::lineage::engine::{Grow, Leftover, Rules, Selection};
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The engine rules of `mdav-single` (also run by the masked engine, `src/base/missing/`).
pub(crate) const RULES: Rules = Rules {
    selection: Selection::FarthestFromCentroid,
    grow: Grow::NearestToSeedPoint,
    rounds_while: 3,
    then_one_if: Some(2),
    leftover: Leftover::EachToNearestCentroid,
};

/// The `mdav-single` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "mdav-single",
    rules: RULES,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MDAV-single-group: one group (farthest from the centroid + k-1 nearest) per round while >= 3k remain, one more if >= 2k, the rest one group",
        "Chettri & Borah 2012 Algorithm-4",
        |_: NoParams| METHOD,
    )
    .deterministic()
    .runs_on_missing_cells()
}
