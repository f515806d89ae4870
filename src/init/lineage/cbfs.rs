//! # CBFS (centroid-based fixed-size microaggregation), NC growth
//!
//! One group per round: take the record r farthest from the centroid of the remaining
//! records and grow it to k records by repeatedly adding the remaining record nearest to the
//! group's current centroid (NC growth, the original CBFS). Rounds continue while at least
//! k records remain; a leftover of fewer than k records is handed out record by record,
//! each to the group whose centroid is nearest (centroids taken before any leftover is
//! added). `cbfs-nn` ([`crate::init::lineage::cbfs_nn`]) is the same with NN growth. Ties go to the lowest
//! record index.
//!
//! ## Published values
//! Khomnotai et al. (2018) Tables 2-4 (`tests/construct/decompose_shrink_tables.rs`). Row CBFS-NC:
//! the chosen reading ([`CbfsReading::CHOSEN`]) reproduces all 18 cells to the printed 3
//! decimals; rounds while >= 2k remain with the last k..2k-1 records as one group gives 14,
//! and selecting from the centroid of all records (not of the remaining ones) at most 1.
//! Row CBFS-NN: see [`crate::init::lineage::cbfs_nn`]. Compare the readings with
//! `cargo run --release -p microagg-studies --example khomnotai_readings CBFS-NC`.
//!
//! ## Complexity
//! NC: O(n^2 d) time (k - 1 passes per group for growth plus one for selection, n / k
//! groups). NN: O(n^2 d / k). O(n d) memory.
//!
//! ## References
//! Laszlo & Mukherjee (2005), "Minimum spanning tree partitioning algorithm for
//! microaggregation", IEEE TKDE 17(7):902-911. Khomnotai, Lin, Peng & Santra (2018),
//! Symmetry 10(7):262, sections 3.1 and 5.2.

use crate::data::Instance;
use crate::geometry::pool::Pool;
use crate::geometry::spatial::Backend;
use crate::init::lineage::engine::{self, Grow, Leftover, Rules, Selection};
use crate::init::lineage::growth::{grow, join_each_to_nearest_centroid, Growth};
use crate::init::lineage::rule_method::RuleMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;

/// The engine rules of `cbfs` (also run by the masked engine, `src/base/missing/`).
pub(crate) const RULES: Rules = Rules {
    selection: Selection::FarthestFromCentroid,
    grow: Grow::NearestToCentroid,
    rounds_while: 1,
    then_one_if: None,
    leftover: Leftover::EachToNearestCentroid,
};

/// The `cbfs` initializer.
pub const METHOD: RuleMethod = RuleMethod {
    name: "cbfs",
    rules: RULES,
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "CBFS: record farthest from the remaining records' centroid, NC growth (the original CBFS)",
        "Laszlo & Mukherjee 2005 (IEEE TKDE 17:902); Khomnotai et al. 2018",
        |_: NoParams| METHOD,
    )
    .deterministic()
    .runs_on_missing_cells()
}

/// The readings of the CBFS description that were compared with the published tables.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CbfsReading {
    /// Select from the centroid of the remaining records (true) or of all records (false).
    pub centroid_of_remaining: bool,
    /// Rounds while >= k remain and a leftover < k joins the nearest groups (true), or
    /// rounds while >= 2k remain and the last k..2k-1 records form one group (false).
    pub distribute_leftover: bool,
}

impl CbfsReading {
    /// The reading used by `cbfs` and `cbfs-nn`.
    pub const CHOSEN: CbfsReading = CbfsReading {
        centroid_of_remaining: true,
        distribute_leftover: true,
    };
}

/// CBFS groups with the given growth rule and reading (the centroid of all records is a
/// reading the engine does not cover: it runs here on the scan).
pub fn cbfs_groups(
    inst: &Instance,
    k: usize,
    growth: Growth,
    reading: CbfsReading,
) -> Vec<Vec<usize>> {
    if reading.centroid_of_remaining {
        let rules = Rules {
            selection: Selection::FarthestFromCentroid,
            grow: growth.into(),
            rounds_while: if reading.distribute_leftover { 1 } else { 2 },
            then_one_if: None,
            leftover: Leftover::EachToNearestCentroid,
        };
        return engine::groups_unstoppable(inst, None, k, rules, Backend::Auto);
    }
    let mut pool = Pool::new(inst);
    let all_centroid = pool.centroid();
    let mut groups = Vec::new();
    let loop_while = if reading.distribute_leftover {
        k
    } else {
        2 * k
    };
    while pool.len() >= loop_while {
        pool.distances_to(&all_centroid);
        let r_pos = pool.argmax_distance();
        groups.push(grow(inst, &mut pool, r_pos, k, growth));
    }
    if pool.len() >= k || groups.is_empty() {
        groups.push(pool.take_all());
    } else if !pool.is_empty() {
        let leftover = pool.take_all();
        join_each_to_nearest_centroid(inst, &mut groups, &leftover);
    }
    groups
}
