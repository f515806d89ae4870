//! # Run: from a command to a record
//!
//! The room that turns a request into results: the one list of methods ([`registry`]),
//! `init+refiner+...` runs ([`pipeline`]), split runs over strata and blocks ([`parts`],
//! [`blocks`]), experiments over suites ([`experiment`]), run records and their JSON
//! Schema ([`record`], [`schema`]), files written safely ([`output`]), the text and JSON of
//! one result ([`render`]), reports and figures ([`report`]), benchmarks and the demo
//! ([`bench`]), the generated reference pages ([`docs`]) and the command line ([`cli`]).
//!
//! ## Complexity
//! See each module.
//!
//! ## References
//! See each module.

pub mod bench;
pub mod blocks;
pub mod cli;
pub(crate) mod docs;
pub mod experiment;
pub mod output;
pub mod parts;
pub mod pipeline;
pub mod record;
pub mod registry;
pub mod render;
pub mod report;
pub mod schema;
