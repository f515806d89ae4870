//! # MD (maximum distance)
//!
//! While at least 2k records remain: find the two remaining records r, s farthest apart and
//! form two groups, r with its k - 1 nearest remaining records and then s with its k - 1
//! nearest remaining records. A leftover of k..2k-1 records forms one group; a leftover of
//! fewer than k records is handed out record by record, each to the group whose centroid is
//! nearest (centroids taken before any of them joins). This is the description of Kabir et
//! al. (2010, 2015); MDAV is the same algorithm with the cheaper choice of
//! r (farthest from the centroid) and s (farthest from r). Ties go to the lowest record index;
//! if s is among r's k - 1 nearest (possible only with ties, e.g. duplicate rows) the second
//! group is formed around the remaining record farthest from r.
//!
//! ## Complexity
//! The farthest pair is kept by [`crate::geometry::diameter::Diameter`]: O(t m d) per round for the t
//! records whose farthest partner must be recomputed (O(m^2 d) per round in the worst case,
//! O(n^3 d / k) in all, the published O(n^3)); the k-nearest passes are O(n^2 d / k). O(n d)
//! memory.
//!
//! ## References
//! Domingo-Ferrer & Mateo-Sanz (2002), "Practical data-oriented microaggregation for
//! statistical disclosure control", IEEE TKDE 14(1), pp. 189-201. Kabir, Wang & Bertino
//! (2010), "A pairwise-systematic microaggregation for statistical disclosure control",
//! ICDM 2010 (description of MD in section II).

use crate::data::Instance;
use crate::geometry::diameter::Diameter;
use crate::geometry::pool::Pool;
use crate::init::lineage::engine::{Grow, Leftover, Rules, Selection};
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The engine rules of `md` (also run by the masked engine, `src/base/missing/`).
pub(crate) const RULES: Rules = Rules {
    selection: Selection::DiameterPair,
    grow: Grow::NearestToSeedPoint,
    rounds_while: 2,
    then_one_if: None,
    leftover: Leftover::EachToNearestCentroid,
};

/// The `md` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "md",
    rules: RULES,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "MD (maximum distance): two groups per round around the two remaining records farthest apart, while >= 2k remain",
        "Domingo-Ferrer & Mateo-Sanz 2002",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

/// Take the group of `seed` (seed and its k - 1 nearest) from both pool and diameter set.
pub(crate) fn take_group_of(
    inst: &Instance,
    pool: &mut Pool,
    diam: &mut Diameter,
    seed: usize,
    k: usize,
) -> Vec<usize> {
    let group = pool.take_nearest(inst.row(seed), k);
    for &i in &group {
        diam.remove(i);
    }
    group
}
