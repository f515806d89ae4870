//! # Choosing the spatial backend of the remaining records
//!
//! [`open`] hands the MDAV-lineage engine ([`crate::init::lineage::engine`]) its [`Remaining`] records
//! behind the scan ([`Scan`]), the exact kd-tree ([`KdRemaining`]), the exact ball
//! buckets ([`BucketRemaining`]) or a filtered scan (exact answers from reduced passes:
//! 16-bit fixed point, [`FixedScan`], 8-bit, [`ByteScan`], 8-bit over large pools and
//! 16-bit after, [`TieredScan`], or `f32`, [`FilterScan`]); all give identical answers
//! (`proofs/P16-exact-spatial-queries.md`), so the choice, by n and d ([`by_size`]: tree
//! for d <= 4 from 5 000 / 20 000 records, else the tiered filtered scan from
//! `BYTE_FROM` records (which reads only its 16-bit copy on far-spread data:
//! `super::filter_scan::BYTE_MAX_SPREAD`), the 16-bit one from 2 048, else the scan) or
//! forced by `MICROAGG_SPATIAL` (`scan`, `tree`, `buckets`, `filter`, `fixed`, `byte`,
//! `tiered`), only changes the time. It sits above the backends so that none imports
//! another.
//!
//! ## Complexity
//! O(1) to choose; building the tree is O(m log m d) (see [`super::kdtree`]), the buckets
//! O(m^(5/4) d) (see [`super::buckets`]).
//!
//! ## References
//! None.

use super::buckets::BucketRemaining;
use super::filter_scan::{ByteScan, FilterScan, FixedScan, TieredScan, BYTE_FROM};
use super::kdtree::KdRemaining;
use super::remaining::{Remaining, Scan};
use crate::data::Instance;

/// True when the kd-tree answers faster than the scan for `m` records of dimension `d`.
/// Measured with `studies/probes/examples/remaining_crossover.rs` (MDAV, k = 5, Gaussian mixtures, one
/// thread; figures in `studies/study-engine.txt`): scan/tree time 1.0 at
/// n = 5 000, d = 2; 2.6 at 2 x 10^4, d = 2; 1.3 at 2 x 10^4, d = 4; 3.9 at 10^5, d = 4;
/// 1.9 at 10^5, d = 6; 0.35 at 2 x 10^4, d = 8; 0.5 at 10^5, d = 10. Beyond d = 6 the
/// tree's farthest queries (from MDAV's r, a hull record) visit most leaves; at d = 5..6 the
/// filtered scan (`use_filter`) beats it.
pub fn use_tree(m: usize, d: usize) -> bool {
    match d {
        0..=2 => m >= 5_000,
        3..=4 => m >= 20_000,
        _ => false,
    }
}

/// True when the ball buckets ([`BucketRemaining`]) are chosen: never by size any more.
/// At d = 10 they beat the `f64` scan from 2 x 10^5 records, but the filtered scan
/// ([`FilterScan`]) beats them there by 2.6x (5.8 s against 15.0 s CPU at 2 x 10^5,
/// `studies/study-engine.txt` section "24-mdav"); they stay available through
/// `MICROAGG_SPATIAL=buckets`.
pub(crate) fn use_buckets(_m: usize, _d: usize) -> bool {
    false
}

/// True when a filtered scan is chosen where [`use_tree`] does not hold: from
/// [`FILTER_MIN`] records. Measured (MDAV, k = 5, Gaussian mixtures, one thread, CPU
/// seconds, `studies/study-engine.txt` sections "24-mdav"): the `f32` filter
/// ([`FilterScan`]) against the `f64` scan 3.48 -> 1.68 s at 10^5, d = 10; against the
/// tree 2.15 -> 1.05 s at 10^5, d = 6 and 0.78 -> 0.36 s at 6 x 10^4, d = 6 (the tree keeps
/// d <= 4: 0.71 s against 0.82 s at 10^5, d = 4). The fixed-point filter ([`FixedScan`],
/// the one chosen) against the `f32` one: 1.46 -> 0.60 s at 10^5, d = 10; whole EIA
/// process (4 092 records, d = 11) 15.6 -> 13.4 ms at k = 3 and 12.2 -> 10.8 ms at
/// k = 10 (the `f64` scan 16.3 / 11.9 ms).
pub(crate) fn use_filter(m: usize, _d: usize) -> bool {
    m >= FILTER_MIN
}

/// Fewest records for the filtered scan (see [`use_filter`]).
pub(crate) const FILTER_MIN: usize = 2048;

/// The backend [`Backend::Auto`] picks for `m` records of dimension `d`.
pub fn by_size(m: usize, d: usize) -> Backend {
    if use_tree(m, d) {
        Backend::Tree
    } else if use_buckets(m, d) {
        Backend::Buckets
    } else if m >= BYTE_FROM {
        Backend::Tiered
    } else if use_filter(m, d) {
        Backend::Fixed
    } else {
        Backend::Scan
    }
}

/// Which implementation [`open`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// By n and d ([`by_size`]).
    Auto,
    Scan,
    Tree,
    /// Ball buckets ([`BucketRemaining`]).
    Buckets,
    /// The scan with single-precision passes and exact answers ([`FilterScan`]; the plain
    /// scan where the data do not suit it).
    Filter,
    /// The scan with 16-bit fixed-point passes and exact answers ([`FixedScan`]; the
    /// single-precision one, then the plain scan, where the data do not suit it).
    Fixed,
    /// The scan with 8-bit fixed-point passes and exact answers ([`ByteScan`]; the 16-bit
    /// one, then the single-precision one, then the plain scan, where the data do not
    /// suit it).
    Byte,
    /// The 8-bit passes over large pools, 16-bit ones after ([`TieredScan`]; the 16-bit
    /// one, then ..., where the data do not suit it).
    Tiered,
    /// The scan with the masked distance, for NaN-marked missing cells
    /// (`crate::geometry::masked_scan::MaskedScan`; never chosen by [`Backend::Auto`]).
    Masked,
}

/// The backend named by the environment variable `MICROAGG_SPATIAL` (`scan`, `tree`,
/// `buckets`, `filter`, `fixed`, `byte`, `tiered`;
/// anything else or unset: automatic). For comparisons and benchmarks: the answers are the
/// same either way, only the time differs.
pub(crate) fn forced_backend() -> Option<Backend> {
    match std::env::var("MICROAGG_SPATIAL").as_deref() {
        Ok("scan") => Some(Backend::Scan),
        Ok("tree") => Some(Backend::Tree),
        Ok("buckets") => Some(Backend::Buckets),
        Ok("filter") => Some(Backend::Filter),
        Ok("fixed") => Some(Backend::Fixed),
        Ok("byte") => Some(Backend::Byte),
        Ok("tiered") => Some(Backend::Tiered),
        _ => None,
    }
}

/// The remaining records `ids` of `inst` behind the chosen backend.
pub fn open<'a>(inst: &'a Instance, ids: Vec<usize>, backend: Backend) -> Box<dyn Remaining + 'a> {
    let chosen = match backend {
        Backend::Auto => forced_backend().unwrap_or_else(|| by_size(ids.len(), inst.d)),
        other => other,
    };
    match chosen {
        Backend::Tree => Box::new(KdRemaining::new(inst, ids)),
        Backend::Buckets => Box::new(BucketRemaining::new(inst, ids)),
        Backend::Fixed => match FixedScan::try_new(inst, ids.clone()) {
            Some(fixed) => Box::new(fixed),
            None => single_or_scan(inst, ids),
        },
        Backend::Byte => match ByteScan::try_new(inst, ids.clone()) {
            Some(byte) => Box::new(byte),
            None => match FixedScan::try_new(inst, ids.clone()) {
                Some(fixed) => Box::new(fixed),
                None => single_or_scan(inst, ids),
            },
        },
        Backend::Tiered => match TieredScan::try_new(inst, ids.clone()) {
            Some(tiered) => Box::new(tiered),
            None => match FixedScan::try_new(inst, ids.clone()) {
                Some(fixed) => Box::new(fixed),
                None => single_or_scan(inst, ids),
            },
        },
        Backend::Filter => single_or_scan(inst, ids),
        Backend::Masked => Box::new(crate::geometry::masked_scan::MaskedScan::new(inst, ids)),
        _ => Box::new(Scan::new(inst, ids)),
    }
}

/// The single-precision filtered scan, or the plain scan for data single precision cannot
/// hold.
fn single_or_scan<'a>(inst: &'a Instance, ids: Vec<usize>) -> Box<dyn Remaining + 'a> {
    match FilterScan::try_new(inst, ids.clone()) {
        Some(filter) => Box::new(filter),
        None => Box::new(Scan::new(inst, ids)),
    }
}
