//! # TFRP-NC (TFRP phase-1 selection, nearest-to-centroid growth)
//!
//! TFRP's phase 1 ([`crate::init::lineage::tfrp`]) with NC growth: the records farthest from the fixed
//! maximum and minimum reference points (alternately) start the groups, and each grows by
//! repeatedly adding the remaining record nearest to the group's current centroid until it
//! has k records. Same frame and leftover rule as `tfrp`
//! ([`crate::init::lineage::tfrp::TfrpReading::CHOSEN`]). Ties go to the lowest record
//! index.
//!
//! ## Published values
//! Khomnotai et al. (2018) Tables 2-4, row TFRP-NC: 17 of 18 cells reproduced to the
//! printed 3 decimals; Tarragona k = 20 gives 47.69312 against the printed 47.654 (see
//! [`crate::init::lineage::tfrp`] for the readings tried). Checked by `tests/construct/decompose_shrink_tables.rs`.
//!
//! ## Complexity
//! O(n^2 d) time (k - 1 passes per group), O(n d) memory.
//!
//! ## References
//! Chang, Li & Huang (2007), Journal of Systems and Software 80(11):1866-1878. Khomnotai,
//! Lin, Peng & Santra (2018), Symmetry 10(7):262, section 5.2 (the NC variant).

use crate::init::lineage::growth::Growth;
use crate::init::lineage::tfrp::TfrpMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The `tfrp-nc` initializer.
pub const METHOD: TfrpMethod = TfrpMethod {
    name: "tfrp-nc",
    growth: Growth::NearestToCentroid,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "TFRP phase-1 selection (farthest from the fixed min/max reference points) with NC growth",
        "Chang, Li & Huang 2007; Khomnotai et al. 2018 (TFRP-NC)",
        |_: NoParams| METHOD,
    )
    .deterministic()
}
