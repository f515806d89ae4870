//! # Reports
//!
//! `microagg report <DIR>`: reads every `*.jsonl` record file of a directory (shards merge by
//! concatenation), prints the summary table ([`tables`]) and writes figures ([`plots`]) as SVG,
//! PNG and PDF ([`export`]) into `DIR/figures/`.
//!
//! ## Complexity
//! O(records log records).
//!
//! ## References
//! None.

pub mod export;
pub mod plots;
pub mod style;
pub mod tables;

use crate::error::{Error, Result};
use crate::experiment::record;
use std::path::{Path, PathBuf};

pub use tables::{render, summarize, CaseRow, Format};

/// The table of a results directory, and the figures written.
pub fn report(dir: &Path, format: Format) -> Result<(String, Vec<PathBuf>)> {
    let records = record::read_dir(dir)?;
    if records.is_empty() {
        return Err(Error::usage(format!(
            "{}: no run records (*.jsonl) found",
            dir.display()
        )));
    }
    let rows = summarize(&records)?;
    let figures = plots::write_figures(&records, &dir.join("figures"))?;
    Ok((render(&rows, format), figures))
}
