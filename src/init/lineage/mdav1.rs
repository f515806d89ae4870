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

use crate::error::Result;
use crate::init::lineage::engine::{self, Grow, Leftover, Rules, Selection};
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::NoParams;
use crate::partition::Partition;

/// The engine rules of `mdav1` (also run by the masked engine, `src/missing/`).
pub const RULES: Rules = Rules {
    selection: Selection::MdavPair,
    grow: Grow::NearestToSeedPoint,
    rounds_while: 2,
    then_one_if: Some(1),
    leftover: Leftover::EachToNearestCentroid,
};

pub struct Mdav1;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "mdav1",
        "MDAV-1: MDAV loop while >= 2k remain, one more k-group if >= k remain, then each leftover record joins its nearest group",
        "Lin et al. 2010; Chettri & Borah 2012 Algorithm-3",
        |_: NoParams| Mdav1,
    )
    .deterministic()
}

impl Initializer for Mdav1 {
    fn name(&self) -> &str {
        "mdav1"
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let groups = engine::groups("mdav1", inst, k, RULES, ctx.stop())?;
        crate::init::finish("mdav1", inst, k, &groups)
    }
}
