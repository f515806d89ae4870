//! # microagg-solvers
//!
//! Exact and bounding kernels for microaggregation on plain arrays (`&[f64]`, n, d, k).
//! This crate knows nothing of the workbench (`microagg`); the workbench depends on it.
//!
//! Records are stored row-major: record `i` occupies `x[i*d .. (i+1)*d]`.

pub mod sse;
