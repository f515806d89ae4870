//! # Choosing the spatial backend of the remaining records
//!
//! [`open`] hands the MDAV-lineage engine ([`super::engine`]) its [`Remaining`] records
//! behind the scan ([`Scan`]) or the exact kd-tree ([`KdRemaining`]); both give identical
//! answers (`proofs/P16-exact-spatial-queries.md`), so the choice, by n and d
//! ([`use_tree`]) or forced by `MICROAGG_SPATIAL`, only changes the time. It sits above both
//! backends so that neither imports the other.
//!
//! ## Complexity
//! O(1) to choose; building the tree is O(m log m) (see [`super::kdtree`]).
//!
//! ## References
//! None.

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

/// Which implementation [`open`] uses.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Backend {
    /// By n and d ([`use_tree`]).
    Auto,
    Scan,
    Tree,
}

/// The backend named by the environment variable `MICROAGG_SPATIAL` (`scan`, `tree`;
/// anything else or unset: automatic). For comparisons and benchmarks: the answers are the
/// same either way, only the time differs.
pub fn forced_backend() -> Option<Backend> {
    match std::env::var("MICROAGG_SPATIAL").as_deref() {
        Ok("scan") => Some(Backend::Scan),
        Ok("tree") => Some(Backend::Tree),
        _ => None,
    }
}

/// The remaining records `ids` of `inst` behind the chosen backend.
pub fn open<'a>(inst: &'a Instance, ids: Vec<usize>, backend: Backend) -> Box<dyn Remaining + 'a> {
    let tree = match backend {
        Backend::Auto => match forced_backend() {
            Some(Backend::Scan) => false,
            Some(Backend::Tree) => true,
            _ => use_tree(ids.len(), inst.d),
        },
        Backend::Scan => false,
        Backend::Tree => true,
    };
    if tree {
        Box::new(KdRemaining::new(inst, ids))
    } else {
        Box::new(Scan::new(inst, ids))
    }
}
