//! # Clustering family
//!
//! Clustering methods constrained to groups of at least k: fuzzy c-means, k-Ward,
//! probability-constrained Lloyd, a genetic algorithm, minimum spanning trees, mu-Approx.
//!
//! ## Complexity
//! See each method's module.
//!
//! ## References
//! See each method's module.

pub mod fcm;
pub(crate) mod ga;
pub(crate) mod kward;
pub mod mst;
pub mod muapprox;
pub(crate) mod pcl;
