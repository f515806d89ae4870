//! # microagg
//!
//! An optimization workbench for multivariate microaggregation: partition n records
//! (z-scored numeric attributes) into groups of at least k records minimising the
//! within-group sum of squared errors (SSE); information loss IL = 100 * SSE / SST.
//!
//! - [`data`]: CSV loading, named CASC instances, synthetic generators, standardisation;
//! - [`partition`]: the incremental [`Partition`](partition::Partition) every algorithm uses;
//! - [`init`]: constructive heuristics; [`search`]: the refinement framework;
//! - [`geometry`]: the spatial queries they share (nearest, farthest, neighbour lists,
//!   diameter, one spatial index with its backends); [`parallel`]: the one thread pool;
//! - [`method`]: the contracts of methods; [`registry`]: the one list of them (the only
//!   module that imports every algorithm); [`pipeline`]: `init+refiner+...` runs;
//! - [`labels`]: labels files, the independent feasibility/SSE check and masked output;
//! - [`bound`]: the registered lower bounds; [`exact`]: exact solves from MDAV's start;
//! - [`render`]: the text and JSON of one result as the command line prints it
//!   ([`cli`] only parses and dispatches; [`cli::main_with`] runs it over a user's
//!   [`registry::Registry`]).
//! - [`release`]: the released file (aggregations, the whole input file back, rounding);
//!   [`measure`]: its utility and disclosure risk;
//! - [`record`]: the run record; [`schema`]: the JSON Schema of `run --json`'s records.
//!
//! Exact and bounding kernels on plain arrays live in the `microagg-solvers` crate.

// NaN-aware checks such as `!(x > 0.0)` are deliberate: they reject NaN too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

pub mod bench;
pub mod blocks;
pub mod bnp_certificate;
pub mod bound;
pub mod certificate;
pub mod cli;
pub mod data;
pub mod docs;
pub mod error;
pub mod exact;
pub mod experiment;
pub mod geometry;
pub mod init;
pub mod interrupt;
pub mod labels;
pub mod library;
pub mod measure;
pub mod method;
pub mod missing;
pub mod objective;
pub mod output;
pub mod parallel;
pub mod params;
pub mod partition;
pub mod parts;
pub mod pipeline;
pub mod progress;
pub mod record;
pub mod registry;
pub mod release;
pub mod render;
pub mod report;
pub mod rng;
pub mod schema;
pub mod search;
pub mod strata;
pub mod weighted;

/// Branch-and-price on the command line, kept at its public path; it lives in the bound
/// registry's folder (`bound/bnp.rs`), whose `bnp` entry runs it.
pub use bound::bnp;

pub use error::{Error, Result};
