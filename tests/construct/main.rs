//! Integration tests of the initializers: conformance of every registered one, the
//! MDAV-lineage engine on its backends, and the published-value suites (MDAV, MHM,
//! Chettri & Borah Table 1, Khomnotai et al. Tables 2-4), each kept whole in its module.
//! The slower published-row check is ignored by default:
//! `cargo test --release --test construct -- --ignored decompose_shrink_rows::`.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares.

#[path = "../common/mod.rs"]
mod common;
mod conformance;
mod decompose_shrink_published;
mod decompose_shrink_rows;
mod decompose_shrink_tables;
mod engine_backends;
mod heuristics_5b;
mod imhm;
mod lineage_sanity;
mod mdav2k_table1;
mod mdav_published;
mod mhm_orders;
mod mhm_published;
mod univariate_adapter;
