//! Integration tests of the released file: measures of utility and risk, strata and split
//! runs, sampling weights, and missing values.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares.

#[path = "../common/mod.rs"]
mod common;
mod holes;
mod missing;
mod release;
mod strata;
mod weights;
mod weights_missing;
mod weights_split;
