//! Integration tests of the command line and the experiment runner, mostly against the
//! built binary: the CLI contract and its faults, signals, progress, reproducibility and
//! determinism, the run record's schema, reports and figures, the benchmark library, the
//! documentation the program prints, and the agency workflow of the docs.
//!
//! One test binary, a module per topic; `common` holds the helpers every binary shares.

mod bench_peer;
mod cli;
mod cli_faults;
#[path = "../common/mod.rs"]
mod common;
mod determinism;
mod docs_site;
mod experiment_repro;
mod library;
mod progress;
mod readme_agency;
mod record_schema;
mod report_figures;
mod signals;
