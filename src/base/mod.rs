//! # Base: the data and what every algorithm works on
//!
//! The room every other one builds on: the standardised data ([`data`]), the incremental
//! [`partition::Partition`], the objective the search minimises ([`objective`], with the
//! weighted SSE in [`weighted`] and missing cells in [`missing`]), labels files and their
//! independent check ([`labels`]), the contracts of methods ([`method`]) with their typed
//! parameters ([`params`]), and the run's plumbing: one RNG type ([`rng`]), interrupts
//! ([`interrupt`]) and progress on stderr ([`progress`]). Nothing here imports an
//! algorithm.
//!
//! ## Complexity
//! See each module.
//!
//! ## References
//! See each module.

pub mod data;
pub(crate) mod interrupt;
pub mod labels;
pub mod method;
pub mod missing;
pub mod objective;
pub mod params;
pub mod partition;
pub mod progress;
pub mod rng;
pub mod weighted;
