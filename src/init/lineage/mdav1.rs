//! # MDAV-1
//!
//! MDAV's two-groups-per-round loop while at least 2k records remain; then, if at least k
//! remain, one more group of k around the record farthest from their centroid; the fewer
//! than k records still left each join the group whose centroid is nearest to it (centroids
//! taken before any of them joins). Ties go to the lowest record index.
//!
//! ## Complexity
//! O(n^2 d / k) time, O(n d) memory.
//!
//! ## References
//! Lin, Wen, Hsieh & Chang (2010), "Density-based microaggregation for statistical
//! disclosure control", Expert Systems with Applications 37(4) (MDAV-1). Chettri & Borah
//! (2012), Algorithm-3 ("MDAV1") and Table 1 row 2.

use crate::init::lineage::engine::{Grow, Leftover, Rules, Selection};
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The engine rules of `mdav1` (also run by the masked engine, `src/base/missing/`).
pub(crate) const RULES: Rules = Rules {
    selection: Selection::MdavPair,
    grow: Grow::NearestToSeedPoint,
    rounds_while: 2,
    then_one_if: Some(1),
    leftover: Leftover::EachToNearestCentroid,
};

/// The `mdav1` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "mdav1",
    rules: RULES,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MDAV-1: MDAV loop while >= 2k remain, one more k-group if >= k remain, then each leftover record joins its nearest group",
        "Lin et al. 2010; Chettri & Borah 2012 Algorithm-3",
        |_: NoParams| METHOD,
    )
    .deterministic()
    .runs_on_missing_cells()
}
