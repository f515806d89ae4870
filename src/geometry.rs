//! # Geometry: spatial queries on the standardised records
//!
//! What the constructive heuristics and the neighbourhood search ask of space, answered
//! exactly (the same records, ties to the lowest id, whatever the backend): the working set
//! of unassigned records and its distance pass ([`pool`]), the queries on a shrinking set
//! ([`remaining`]) with their backends, a scan, a filtered single-precision scan
//! ([`filter_scan`]), a kd-tree with deletions ([`kdtree`]) and ball buckets
//! ([`buckets`]), chosen by n and d ([`spatial`]), and on data with missing cells a scan
//! by the masked distance ([`masked_scan`]); the farthest pair of a set
//! ([`diameter`]); a path through groups (`group_path`); and every record's nearest records ([`neighbours`], from the static
//! all-kNN tree of [`knn`] on large instances).
//!
//! ## Complexity
//! See each module: a scan is O(m d) per query over m remaining records; the trees answer
//! in about O(log m) node visits in low d and degrade towards a scan as d grows.
//!
//! ## References
//! Friedman, Bentley & Finkel (1977), ACM TOMS 3(3) (kd-trees); Arya & Mount (1993),
//! Proc. IEEE DCC (incremental distance); measured backends in `studies/study-engine.txt`.

pub mod buckets;
pub mod diameter;
pub mod filter_scan;
pub(crate) mod group_path;
pub mod kdtree;
pub mod knn;
pub(crate) mod masked_scan;
pub mod neighbours;
pub mod pool;
pub mod remaining;
pub mod spatial;

/// Test draws of the geometry room's unit tests: a xorshift64 stream from `seed` (made
/// odd), and uniform values in [0, 1) from its top 53 bits.
#[cfg(test)]
pub(crate) mod test_draw {
    /// The xorshift64 stream (13, 7, 17) from `seed | 1`.
    pub(crate) fn xorshift(seed: u64) -> impl FnMut() -> u64 {
        let mut s = seed | 1;
        move || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            s
        }
    }

    /// Uniform values in [0, 1) from the top 53 bits of [`xorshift`]`(seed)`.
    pub(crate) fn unit(seed: u64) -> impl FnMut() -> f64 {
        let mut bits = xorshift(seed);
        move || (bits() >> 11) as f64 / (1u64 << 53) as f64
    }
}
