//! # Reports
//!
//! `microagg report <DIR>`: reads every `*.jsonl` record file of a directory (shards merge by
//! concatenation), prints the summary table ([`tables`], optionally only some columns) with
//! Wilcoxon signed-rank tests between the pipelines after it ([`wilcoxon`], Markdown and
//! LaTeX), and writes figures (`plots`) in one style ([`style::FigureStyle`]) as SVG, PNG and
//! PDF ([`export`]) into `DIR/figures/`.
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
pub(crate) mod plots;
pub mod style;
pub(crate) mod summary;
pub mod tables;
pub mod wilcoxon;

use crate::error::{Error, Result};
use crate::experiment::record;
use std::path::{Path, PathBuf};

pub(crate) use summary::best_per_case;
pub(crate) use tables::per_run_csv;
pub use tables::{render, summarize, CaseRow, Format};

/// What `microagg report` makes of a results directory.
#[derive(Debug, Clone, Default)]
pub struct ReportOptions {
    pub format: Format,
    /// One CSV row per run record instead of the summary (CSV only).
    pub per_run: bool,
    /// Only these table columns, in this order (None: all).
    pub columns: Option<Vec<String>>,
    pub style: style::FigureStyle,
}

/// The table of a results directory, and the figures written.
pub fn report(dir: &Path, format: Format) -> Result<(String, Vec<PathBuf>)> {
    let (table, figures) = report_table(dir, format, false)?;
    Ok((table, figures?))
}

/// The table of a results directory (with `per_run`, one CSV row per run record instead of
/// the summary; CSV only), and the outcome of writing its figures separately: a folder that
/// takes no files (read-only) still gives its table.
pub(crate) fn report_table(
    dir: &Path,
    format: Format,
    per_run: bool,
) -> Result<(String, Result<Vec<PathBuf>>)> {
    let opts = ReportOptions {
        format,
        per_run,
        ..Default::default()
    };
    let (table, figures, _) = report_with(dir, &opts)?;
    Ok((table, figures))
}

/// `report_table` with every option; also returns notes on figures not drawn and why.
pub fn report_with(
    dir: &Path,
    opts: &ReportOptions,
) -> Result<(String, Result<Vec<PathBuf>>, Vec<String>)> {
    if opts.per_run && opts.format != Format::Csv {
        return Err(Error::usage("--per-run needs --format csv"));
    }
    if opts.per_run && opts.columns.is_some() {
        return Err(Error::usage(
            "--columns chooses columns of the summary table, not of --per-run",
        ));
    }
    opts.style.check().map_err(Error::usage)?;
    let records = record::read_dir(dir)?;
    if records.is_empty() {
        return Err(Error::usage(format!(
            "{}: no run records (*.jsonl) found",
            dir.display()
        )));
    }
    let rows = summarize(&records)?;
    // A bad column name is refused before any figure is written.
    let mut table = if opts.per_run {
        per_run_csv(&records)
    } else {
        tables::render_columns(&rows, opts.format, opts.columns.as_deref())?
    };
    if !opts.per_run {
        let pairs = wilcoxon::pairs(&records);
        match opts.format {
            _ if pairs.is_empty() => {}
            Format::Markdown => table.push_str(&wilcoxon::markdown(&pairs)),
            Format::Latex => table.push_str(&wilcoxon::latex(&pairs)),
            Format::Csv => {}
        }
    }
    let figures = plots::write_figures(&records, &dir.join("figures"), &opts.style);
    let notes = plots::time_profile_skipped(&records).into_iter().collect();
    Ok((table, figures, notes))
}
