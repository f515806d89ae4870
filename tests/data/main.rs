//! Integration tests of the data wing: loading and standardisation, the parsers of user
//! input under fuzzing, robustness under bad input and faults, the incremental partition,
//! and the release of the original values after loading.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares.

#[path = "../common/mod.rs"]
mod common;
mod data;
mod fuzz_parsers;
mod partition_props;
mod raw_dropped;
mod robustness;
