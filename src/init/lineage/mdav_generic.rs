//! # MDAV-generic (the 3k-loop form)
//!
//! While at least 3k records remain, form two groups per round as MDAV does (the record r
//! farthest from the centroid and the record farthest from r, each with its k - 1 nearest).
//! Then, if at least 2k remain, one more group around the record farthest from the centroid;
//! the last k..2k-1 records form the final group. This is the form of sdcMicro and mu-Argus.
//! Ties go to the lowest record index.
//!
//! ## Complexity
//! O(n^2 d / k) time, O(n d) memory.
//!
//! ## References
//! Domingo-Ferrer & Torra (2005), Data Mining and Knowledge Discovery 11(2), Algorithm
//! "MDAV-generic". Chettri & Borah (2012), Algorithm-2 and Table 1 row "MDAV-gen".

use crate::init::lineage::engine::{Grow, Leftover, Rules, Selection};
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The engine rules of `mdav-generic` (also run by the masked engine, `src/base/missing/`).
pub(crate) const RULES: Rules = Rules {
    selection: Selection::MdavPair,
    grow: Grow::NearestToSeedPoint,
    rounds_while: 3,
    then_one_if: Some(2),
    leftover: Leftover::EachToNearestCentroid,
};

/// The `mdav-generic` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "mdav-generic",
    rules: RULES,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MDAV-generic: two groups per round while >= 3k remain, one more if >= 2k, the rest one group (sdcMicro's form)",
        "Domingo-Ferrer & Torra 2005; Chettri & Borah 2012 Algorithm-2",
        |_: NoParams| METHOD,
    )
    .deterministic()
    .runs_on_missing_cells()
}
