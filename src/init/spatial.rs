//! # Choosing the spatial backend of the remaining records
//!
//! [`open`] hands the MDAV-lineage engine ([`super::engine`]) its [`Remaining`] records
//! behind the scan ([`Scan`]), the exact kd-tree ([`KdRemaining`]) or the exact ball
//! buckets ([`BucketRemaining`]); all give identical answers
//! (`proofs/P16-exact-spatial-queries.md`), so the choice, by n and d ([`by_size`]) or
//! forced by `MICROAGG_SPATIAL` (`scan`, `tree`, `buckets`), only changes the time. It sits
//! above the backends so that none imports another.
//!
//! ## Complexity
//! O(1) to choose; building the tree is O(m log m d) (see [`super::kdtree`]), the buckets
//! O(m^(5/4) d) (see [`super::buckets`]).
//!
//! ## References
//! None.

use super::buckets::BucketRemaining;
use super::kdtree::KdRemaining;
use super::remaining::{Remaining, Scan};
use crate::data::Instance;

/// True when the kd-tree answers faster than the scan for `m` records of dimension `d`.
/// Measured with `examples/remaining_crossover.rs` (MDAV, k = 5, Gaussian mixtures, one
/// thread; figures in `proofs/certificates/study-engine.txt`): scan/tree time 1.0 at
/// n = 5 000, d = 2; 2.6 at 2 x 10^4, d = 2; 1.3 at 2 x 10^4, d = 4; 3.9 at 10^5, d = 4;
/// 1.9 at 10^5, d = 6; 0.35 at 2 x 10^4, d = 8; 0.5 at 10^5, d = 10. Beyond d = 6 the
/// tree's farthest queries (from MDAV's r, a hull record) visit most leaves.
pub fn use_tree(m: usize, d: usize) -> bool {
    match d {
        0..=2 => m >= 5_000,
        3..=4 => m >= 20_000,
        5..=6 => m >= 60_000,
        _ => false,
    }
}

/// True when the ball buckets ([`BucketRemaining`]) answer faster than the scan for `m`
/// records of dimension `d` where [`use_tree`] does not hold. Measured at d = 10 only (MDAV,
/// k = 5, Gaussian mixtures, one thread, `examples/remaining_crossover.rs`): the scan is
/// faster at 10^5 records, the buckets from 2 x 10^5 on (where the scan's passes no longer
/// fit the cache); other d are left to the scan.
pub fn use_buckets(m: usize, d: usize) -> bool {
    (7..=12).contains(&d) && m >= BUCKETS_MIN
}

/// Fewest records for the ball buckets (see [`use_buckets`]).
pub const BUCKETS_MIN: usize = 150_000;

/// The backend [`Backend::Auto`] picks for `m` records of dimension `d`.
pub fn by_size(m: usize, d: usize) -> Backend {
    if use_tree(m, d) {
        Backend::Tree
    } else if use_buckets(m, d) {
        Backend::Buckets
    } else {
        Backend::Scan
    }
}

/// Which implementation [`open`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// By n and d ([`use_tree`]).
    Auto,
    Scan,
    Tree,
    /// Ball buckets ([`BucketRemaining`]).
    Buckets,
    /// The scan with the masked distance, for NaN-marked missing cells
    /// ([`super::masked::MaskedScan`]; never chosen by [`Backend::Auto`]).
    Masked,
}

/// The backend named by the environment variable `MICROAGG_SPATIAL` (`scan`, `tree`,
/// `buckets`;
/// anything else or unset: automatic). For comparisons and benchmarks: the answers are the
/// same either way, only the time differs.
pub fn forced_backend() -> Option<Backend> {
    match std::env::var("MICROAGG_SPATIAL").as_deref() {
        Ok("scan") => Some(Backend::Scan),
        Ok("tree") => Some(Backend::Tree),
        Ok("buckets") => Some(Backend::Buckets),
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
        Backend::Masked => Box::new(super::masked::MaskedScan::new(inst, ids)),
        _ => Box::new(Scan::new(inst, ids)),
    }
}
