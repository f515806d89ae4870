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
