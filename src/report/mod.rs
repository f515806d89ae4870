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

pub mod anytime;
pub mod curves;
pub mod export;
mod layout;
pub mod plots;
pub mod style;
pub mod summary;
pub mod tables;

use crate::error::{Error, Result};
use crate::experiment::record;
use std::path::{Path, PathBuf};

pub use summary::best_per_case;
pub use tables::{per_run_csv, render, summarize, CaseRow, Format};

/// The table of a results directory, and the figures written.
pub fn report(dir: &Path, format: Format) -> Result<(String, Vec<PathBuf>)> {
    let (table, figures) = report_table(dir, format, false)?;
    Ok((table, figures?))
}

/// The table of a results directory (with `per_run`, one CSV row per run record instead of
/// the summary; CSV only), and the outcome of writing its figures separately: a folder that
/// takes no files (read-only) still gives its table.
pub fn report_table(
    dir: &Path,
    format: Format,
    per_run: bool,
) -> Result<(String, Result<Vec<PathBuf>>)> {
    if per_run && format != Format::Csv {
        return Err(Error::usage("--per-run needs --format csv"));
    }
    let records = record::read_dir(dir)?;
    if records.is_empty() {
        return Err(Error::usage(format!(
            "{}: no run records (*.jsonl) found",
            dir.display()
        )));
    }
    let rows = summarize(&records)?;
    let figures = plots::write_figures(&records, &dir.join("figures"));
    let table = if per_run {
        per_run_csv(&records)
    } else {
        render(&rows, format)
    };
    Ok((table, figures))
}
