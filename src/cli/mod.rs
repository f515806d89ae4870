//! # The command line
//!
//! One module per command or group of commands; each holds the command's arguments (a
//! `clap::Args` struct) and a function that validates them, calls the library and writes
//! what [`microagg::render`] makes of the result. `main.rs` only parses and dispatches.
//!
//! - [`run`] holds `run` (a pipeline, optionally split, with an optional bound);
//! - [`bound`] holds `bound` and `verify-bound`;
//! - [`exact`] holds `solve-exact`;
//! - [`labels`] holds `check` and `combine`;
//! - [`study`] holds `experiment`, `report`, `demo` and `bench`;
//! - [`list`] holds `list` (methods and bounds);
//! - [`docs`] holds the hidden `docs` (the site's generated reference pages);
//! - [`data`] holds the data options every data command shares;
//! - [`values`] holds the value parsers and value enums of closed choices, among them the one
//!   `--time-limit` parser.
//!
//! ## Complexity
//! That of the command run.
//!
//! ## References
//! None.

pub mod bound;
pub mod data;
pub mod docs;
pub mod exact;
pub mod labels;
pub mod library;
pub mod list;
pub mod run;
pub mod study;
pub mod values;

use microagg::interrupt;
use std::process::ExitCode;

/// The status of a command that a signal stopped after it wrote its results.
pub fn interrupted_status() -> ExitCode {
    ExitCode::from(interrupt::exit_status())
}

/// Success, or the interrupted status when a signal arrived during the command.
pub fn finished_status() -> ExitCode {
    if interrupt::requested() {
        interrupted_status()
    } else {
        ExitCode::SUCCESS
    }
}
