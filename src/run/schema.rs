//! # The run record's JSON Schema
//!
//! `microagg run --json` prints one of two records: a [`Record`] (an unsplit run, also
//! every experiment record and the Python package's `Result.record`) or a `SplitRecord`
//! (a run split by `--strata`, `--blocks` or `--part`). [`run_record`] is the JSON Schema
//! of either, generated from the types with `schemars` (`anyOf` of the two, each in
//! `$defs`) and shipped as [`SCHEMA_FILE`]; `tests/run/record_schema.rs` keeps the file current
//! and validates real records of both kinds against it.
//!
//! ## Complexity
//! Linear in the size of the types' schemas.
//!
//! ## References
//! JSON Schema draft 2020-12 (json-schema.org); schemars crate documentation.

use crate::parts::SplitRecord;
use crate::record::Record;
use schemars::JsonSchema;
use serde_json::Value;

/// Where the schema is shipped, relative to the repository root.
pub const SCHEMA_FILE: &str = "schema/run-record.json";

/// A record of `microagg run --json`: an unsplit run's `Record` (also every experiment
/// record), or a split run's `SplitRecord` (`--strata`, `--blocks`, `--part`).
#[derive(JsonSchema)]
#[schemars(untagged)]
#[allow(dead_code)] // a type for its schema only (both boxed: no value is ever built)
enum RunRecord<'a> {
    Run(Box<Record>),
    Split(Box<SplitRecord<'a>>),
}

/// The JSON Schema of a run record (pretty-printed as in [`SCHEMA_FILE`]).
pub fn run_record() -> Value {
    serde_json::to_value(schemars::schema_for!(RunRecord<'static>)).expect("schemas serialise")
}
