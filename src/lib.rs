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
//! The source tree is a few rooms, each a folder: `base/` (data, partition, objective,
//! labels, method contracts, parameters, RNG, interrupts, progress), `init/` and `search/`
//! (construction and refinement) over `geometry/` and `parallel.rs`, `certify/` (bounds,
//! certificates, exact solves, the library), `release/` (the released file, its measures,
//! strata) and `run/` (registry, pipelines, split runs, experiments, records, reports,
//! rendering, the command line). The modules above are re-exported at the crate root.
//!
//! Exact and bounding kernels on plain arrays live in the `microagg-solvers` crate.

// NaN-aware checks such as `!(x > 0.0)` are deliberate: they reject NaN too.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

// The rooms of the source tree (docs/developer/architecture.md); the public API is what
// is re-exported below, at the paths users and the other crates know.
mod base;
mod certify;
pub mod error;
pub mod geometry;
pub mod init;
pub mod parallel;
pub mod release;
mod run;
pub mod search;

pub(crate) use base::interrupt;
pub use base::{
    data, labels, method, missing, objective, params, partition, progress, rng, weighted,
};
pub use certify::{bnp_certificate, bound, certificate, exact, library};
pub use release::{measure, strata};
pub(crate) use run::docs;
pub use run::{
    bench, blocks, cli, experiment, output, parts, pipeline, record, registry, render, report,
    schema,
};

/// Branch-and-price on the command line, kept at its public path; it lives in the bound
/// registry's folder (`bound/bnp.rs`), whose `bnp` entry runs it.
pub use bound::bnp;

pub use error::{Error, Result};
