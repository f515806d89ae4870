//! # TFRP-NC (TFRP phase-1 selection, nearest-to-centroid growth)
//!
//! TFRP's phase 1 ([`crate::init::lineage::tfrp`]) with NC growth: the records farthest from the fixed
//! maximum and minimum reference points (alternately) start the groups, and each grows by
//! repeatedly adding the remaining record nearest to the group's current centroid until it
//! has k records. Same frame and leftover rule as `tfrp` ([`TfrpReading::CHOSEN`]). Ties go
//! to the lowest record index.
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

use crate::error::Result;
use crate::init::lineage::growth::Growth;
use crate::init::lineage::tfrp::{tfrp_groups, TfrpReading};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

pub struct TfrpNc;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "tfrp-nc",
        "TFRP phase-1 selection (farthest from the fixed min/max reference points) with NC growth",
        "Chang, Li & Huang 2007; Khomnotai et al. 2018 (TFRP-NC)",
        |_: NoParams| TfrpNc,
    )
    .deterministic()
}

impl Initializer for TfrpNc {
    fn name(&self) -> &str {
        "tfrp-nc"
    }

    fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let groups = tfrp_groups(inst, k, Growth::NearestToCentroid, TfrpReading::CHOSEN);
        crate::init::finish("tfrp-nc", inst, k, &groups)
    }
}
