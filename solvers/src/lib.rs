//! # microagg-solvers
//!
//! Exact and bounding kernels for microaggregation on plain arrays (`&[f64]`, n, d, k).
//! This crate knows nothing of the workbench (`microagg`); the workbench depends on it.
//!
//! Records are stored row-major: record `i` occupies `x[i*d .. (i+1)*d]`.
//!
//! Modules: [`assignment`] (size-constrained assignment LP of records to fixed centres,
//! HiGHS, sparse candidates with exact pricing and warm starts), [`bounds`] (certified lower
//! bounds on the optimal SSE), [`sse`] (two-pass reference SSE), [`univariate`] (exact univariate
//! microaggregation: O(n) SMAWK, O(nk) DP, brute force), [`segmentation`] (optimal
//! segmentation of a given order of multivariate records, the MHM / IMHM engine),
//! [`exact`] (exact optimum for small instances: subset DP, set-partitioning MIP),
//! [`error`] (the shared error type), [`deadline`] (one deadline and stop flag for a whole
//! bound); inside the crate, `total_order` (floats as heap keys).
//!
//! ## Complexity
//! See each module.
//!
//! ## References
//! See each module.

pub mod assignment;
pub mod bnp;
pub mod bounds;
pub mod deadline;
pub mod error;
pub mod exact;
pub mod merge;
pub mod models;
pub mod rc_dive;
pub mod segmentation;
pub mod sse;
pub mod univariate;

mod total_order;

#[cfg(test)]
mod test_draw;

pub use error::SolverError;
pub use segmentation::{fixed_cut, segment_order, Segmentation};
pub use univariate::{
    sorting_order, univariate_brute_force, univariate_dp, univariate_optimal, univariate_smawk,
    Partition,
};
