//! # MDAV, Algorithm-1 of Chettri & Borah (leftover joins as a block)
//!
//! MDAV's two-groups-per-round loop while at least 2k records remain (the record r farthest
//! from the centroid of the remaining records with its k - 1 nearest, then the record
//! farthest from r with its k - 1 nearest). A leftover of k..2k-1 records forms one group. A
//! leftover of fewer than k records joins, all together, the group whose centroid is nearest
//! to the centroid of the leftover (Algorithm-1, step 4). The record-by-record form of the
//! leftover step is [`crate::init::lineage::mdav`]. Ties go to the lowest record index (lowest group index
//! for the nearest centroid).
//!
//! Table 1 of the paper (row "MDAV") is reproduced to the printed precision on all twelve
//! cases (Tarragona to the paper's single-precision rounding, see `tests/construct/mdav2k_table1.rs`).
//!
//! ## Complexity
//! O(n^2 d / k) time (three O(m d) passes per round over the m remaining records), O(n d)
//! memory.
//!
//! ## References
//! Chettri & Borah (2012), "MDAV2k: a variable-size microaggregation technique for privacy
//! preservation", CS & IT 04 (ITCS/SIP/JSE-2012), pp. 105-118, Algorithm-1 and Table 1.
//! Domingo-Ferrer, Solanas & Martinez-Balleste (2006), "Privacy in statistical databases:
//! k-anonymity through microaggregation", IEEE Granular Computing 2006.

use crate::init::lineage::engine::{Grow, Leftover, Rules, Selection};
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The engine rules of `mdav-a1` (also run by the masked engine, `src/base/missing/`).
pub(crate) const RULES: Rules = Rules {
    selection: Selection::MdavPair,
    grow: Grow::NearestToSeedPoint,
    rounds_while: 2,
    then_one_if: None,
    leftover: Leftover::BlockToNearestCentroid,
};

/// The `mdav-a1` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "mdav-a1",
    rules: RULES,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MDAV as Algorithm-1 of Chettri & Borah: two groups per round while >= 2k remain; a leftover < k joins, as a block, the group nearest to its centroid",
        "Chettri & Borah 2012 Algorithm-1; Domingo-Ferrer, Solanas & Martinez-Balleste 2006",
        |_: NoParams| METHOD,
    )
    .deterministic()
    .runs_on_missing_cells()
}
