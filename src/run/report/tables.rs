//! # Result tables
//!
//! Summarises run records per (instance, k, pipeline): number of runs, best / mean / sample
//! standard deviation of IL, best SSE, mean time, the best lower bound (as IL) and the gap of
//! the best run to it, and the values published for the same instance, method and k in the
//! instance manifest (`instances/manifest.toml`, `[[published]]`) side by side. Rendered as
//! Markdown, CSV (`csv_rows.rs`, also the per-run table) or a LaTeX `booktabs` table
//! (`latex.rs`). Rows follow the order of the suite (run index).
//!
//! ## Complexity
//! O(records log records).
//!
//! ## References
//! S. Fear, booktabs LaTeX package (table style), CTAN.

use crate::data::manifest::Manifest;
use crate::error::{Error, Result};
use crate::experiment::bounds::gap_percent;
use crate::experiment::record::Record;
use csv_rows::csv;
pub use csv_rows::PER_RUN_HEADER;
pub(crate) use csv_rows::{per_run_csv, CSV_HEADER};
use latex::latex;

mod csv_rows;
mod latex;

/// Output format of `microagg report`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Format {
    #[default]
    Markdown,
    Csv,
    Latex,
}

impl Format {
    pub fn parse(s: &str) -> Result<Format> {
        match s {
            "md" | "markdown" => Ok(Format::Markdown),
            "csv" => Ok(Format::Csv),
            "latex" | "tex" => Ok(Format::Latex),
            other => Err(Error::usage(format!(
                "--format '{other}': expected md, csv or latex"
            ))),
        }
    }
}

/// One row: a case (instance, k) and a pipeline, over its replicates.
#[derive(Debug, Clone, PartialEq)]
pub struct CaseRow {
    pub instance: String,
    pub instance_name: String,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub pipeline: String,
    pub method: String,
    pub runs: usize,
    pub best_il: f64,
    pub mean_il: f64,
    /// Sample standard deviation (None for a single run).
    pub sd_il: Option<f64>,
    pub best_sse: f64,
    pub mean_seconds: f64,
    /// Best lower bound of the case (SSE and IL) and the gap of the best run to it (percent).
    pub bound_sse: Option<f64>,
    pub bound_il: Option<f64>,
    pub gap: Option<f64>,
    /// The method that produced that bound (`library` for the stored certificate) and its
    /// source in words.
    pub bound_name: Option<String>,
    pub bound_source: Option<String>,
    /// The case's best-known SSE (benchmark library) and the gap of the best run to it.
    pub best_known_sse: Option<f64>,
    pub gap_best_known: Option<f64>,
    /// Published values for (instance, method, k).
    pub published_il: Option<f64>,
    pub published_sse: Option<f64>,
    pub published_source: Option<String>,
}

/// Rows in the order the cases first appear in the (sorted) records.
pub fn summarize(records: &[Record]) -> Result<Vec<CaseRow>> {
    let manifest = Manifest::embedded()?;
    let mut keys: Vec<(String, usize, String)> = Vec::new();
    let mut groups: Vec<Vec<&Record>> = Vec::new();
    for r in records {
        let key = (r.instance.clone(), r.k, r.pipeline.clone());
        match keys.iter().position(|k| *k == key) {
            Some(i) => groups[i].push(r),
            None => {
                keys.push(key);
                groups.push(vec![r]);
            }
        }
    }
    let mut rows = Vec::new();
    for g in groups {
        let first = g[0];
        let ils: Vec<f64> = g.iter().map(|r| r.il).collect();
        let m = ils.len() as f64;
        let mean_il = ils.iter().sum::<f64>() / m;
        let sd_il = (ils.len() > 1)
            .then(|| (ils.iter().map(|x| (x - mean_il).powi(2)).sum::<f64>() / (m - 1.0)).sqrt());
        let best = g
            .iter()
            .min_by(|a, b| a.sse.total_cmp(&b.sse))
            .expect("groups are not empty");
        // The best bound of the case over every record (all carry the same bounds).
        let bound = g
            .iter()
            .filter_map(|r| r.best_bound.as_ref())
            .max_by(|a, b| a.sse.total_cmp(&b.sse));
        let published = manifest.published(&first.instance_name, &first.method, first.k);
        rows.push(CaseRow {
            instance: first.instance.clone(),
            instance_name: first.instance_name.clone(),
            n: first.n,
            d: first.d,
            k: first.k,
            pipeline: first.pipeline.clone(),
            method: first.method.clone(),
            runs: g.len(),
            best_il: best.il,
            mean_il,
            sd_il,
            best_sse: best.sse,
            mean_seconds: g.iter().map(|r| r.seconds).sum::<f64>() / m,
            bound_sse: bound.map(|b| b.sse),
            bound_il: bound.map(|b| b.il),
            gap: bound.and_then(|b| gap_percent(best.sse, b.sse)),
            bound_name: bound.map(|b| b.name.clone()),
            bound_source: bound.map(|b| b.source.clone()),
            best_known_sse: best.best_known_sse,
            gap_best_known: best
                .best_known_sse
                .and_then(|known| gap_percent(best.sse, known)),
            published_il: published.and_then(|p| p.0),
            published_sse: published.and_then(|p| p.1),
            published_source: published.map(|p| p.2.to_string()),
        });
    }
    Ok(rows)
}

const HEADERS: [&str; 16] = [
    "instance",
    "n",
    "k",
    "pipeline",
    "runs",
    "best IL %",
    "mean IL %",
    "sd IL",
    "best SSE",
    "time s",
    "bound IL %",
    "bound",
    "gap %",
    "gap known %",
    "publ. IL %",
    "publ. SSE",
];

fn opt(v: Option<f64>, decimals: usize) -> String {
    v.map_or_else(|| "-".to_string(), |x| format!("{x:.decimals$}"))
}

/// Per row: (best IL is the case's lowest, mean IL is the case's lowest). Ties are all
/// marked; values are compared exactly, not as printed.
fn best_marks(rows: &[CaseRow]) -> Vec<(bool, bool)> {
    let lowest = |r: &CaseRow, f: fn(&CaseRow) -> f64| {
        rows.iter()
            .filter(|o| o.instance == r.instance && o.k == r.k)
            .all(|o| f(r) <= f(o))
    };
    rows.iter()
        .map(|r| (lowest(r, |r| r.best_sse), lowest(r, |r| r.mean_il)))
        .collect()
}

/// Cells with the case's best values wrapped by `mark` (Markdown `**`, LaTeX `\textbf`).
fn marked_cells(r: &CaseRow, best: (bool, bool), mark: fn(&str) -> String) -> [String; 16] {
    let mut c = cells(r);
    if best.0 {
        c[5] = mark(&c[5]);
    }
    if best.1 {
        c[6] = mark(&c[6]);
    }
    c
}

fn cells(r: &CaseRow) -> [String; 16] {
    [
        r.instance.clone(),
        r.n.to_string(),
        r.k.to_string(),
        r.pipeline.clone(),
        r.runs.to_string(),
        format!("{:.4}", r.best_il),
        format!("{:.4}", r.mean_il),
        opt(r.sd_il, 4),
        format!("{:.4}", r.best_sse),
        format!("{:.3}", r.mean_seconds),
        opt(r.bound_il, 4),
        r.bound_name.clone().unwrap_or_else(|| "-".into()),
        opt(r.gap, 3),
        opt(r.gap_best_known, 3),
        opt(r.published_il, 4),
        opt(r.published_sse, 4),
    ]
}

/// Distinct sources of the published values shown, in order of first use.
fn sources(rows: &[CaseRow]) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for s in rows.iter().filter_map(|r| r.published_source.clone()) {
        if !out.contains(&s) {
            out.push(s);
        }
    }
    out
}

/// The names `report --columns` takes for the Markdown and LaTeX tables, one per column of
/// [`HEADERS`] (each is also the CSV header of the same value).
pub(crate) const KEYS: [&str; 16] = [
    "instance",
    "n",
    "k",
    "pipeline",
    "runs",
    "best_il",
    "mean_il",
    "sd_il",
    "best_sse",
    "mean_seconds",
    "bound_il",
    "bound_name",
    "gap",
    "gap_best_known",
    "published_il",
    "published_sse",
];

/// The indices of the columns named in `names` (in that order) among `available`; an
/// unknown name is an error listing the available ones.
fn pick(names: &[String], available: &[&str]) -> Result<Vec<usize>> {
    if names.is_empty() {
        return Err(Error::usage("--columns: name at least one column"));
    }
    names
        .iter()
        .map(|n| {
            available.iter().position(|a| a == n).ok_or_else(|| {
                Error::usage(format!(
                    "--columns: unknown column '{n}'; available: {}",
                    available.join(",")
                ))
            })
        })
        .collect()
}

/// Render rows in a format.
pub fn render(rows: &[CaseRow], format: Format) -> String {
    render_columns(rows, format, None).expect("every column is known")
}

/// Render rows in a format, with only the `columns` named (None: all), in their order.
pub(crate) fn render_columns(
    rows: &[CaseRow],
    format: Format,
    columns: Option<&[String]>,
) -> Result<String> {
    let all = |n: usize| (0..n).collect::<Vec<usize>>();
    Ok(match format {
        Format::Markdown => markdown(rows, &columns.map_or(Ok(all(16)), |c| pick(c, &KEYS))?),
        Format::Csv => csv(
            rows,
            &columns.map_or(Ok(all(CSV_HEADER.len())), |c| pick(c, &CSV_HEADER))?,
        ),
        Format::Latex => latex(rows, &columns.map_or(Ok(all(16)), |c| pick(c, &KEYS))?),
    })
}

/// Columns aligned left (text): instance, pipeline, bound.
fn left(j: usize) -> bool {
    matches!(j, 0 | 3 | 11)
}

/// The published IL cell with the number of its source's footnote (`16.9326 [1]`), so that
/// every published value names where it comes from.
fn with_footnote(cell: &str, r: &CaseRow, sources: &[String]) -> String {
    match &r.published_source {
        Some(src) => {
            let n = sources
                .iter()
                .position(|s| s == src)
                .expect("a listed source")
                + 1;
            format!("{cell} [{n}]")
        }
        None => cell.to_string(),
    }
}

/// A Markdown table with aligned columns: `headers`, a delimiter row, then `body`; column
/// `j` is left-aligned when `left(j)`, else right-aligned. Each column is as wide as its
/// widest cell in characters, and at least 3 (a delimiter cell needs hyphens besides its
/// colon).
pub(crate) fn aligned_markdown(
    headers: &[String],
    body: &[Vec<String>],
    left: impl Fn(usize) -> bool,
) -> String {
    let width = |s: &str| s.chars().count();
    let widths: Vec<usize> = (0..headers.len())
        .map(|j| {
            body.iter()
                .map(|c| width(&c[j]))
                .chain([width(&headers[j]), 3])
                .max()
                .unwrap_or(3)
        })
        .collect();
    let line = |c: &[String]| {
        let parts: Vec<String> = c
            .iter()
            .enumerate()
            .map(|(j, s)| {
                if left(j) {
                    format!("{s:<w$}", w = widths[j])
                } else {
                    format!("{s:>w$}", w = widths[j])
                }
            })
            .collect();
        format!("| {} |\n", parts.join(" | "))
    };
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(j, w)| {
            let dashes = "-".repeat(w - 1);
            if left(j) {
                format!(":{dashes}")
            } else {
                format!("{dashes}:")
            }
        })
        .collect();
    let mut s = line(headers);
    s.push_str(&format!("| {} |\n", rule.join(" | ")));
    for c in body {
        s.push_str(&line(c));
    }
    s
}

fn markdown(rows: &[CaseRow], cols: &[usize]) -> String {
    let sources = sources(rows);
    let body: Vec<Vec<String>> = rows
        .iter()
        .zip(best_marks(rows))
        .map(|(r, b)| {
            let mut c = marked_cells(r, b, |s| format!("**{s}**"));
            c[14] = with_footnote(&c[14], r, &sources);
            c
        })
        .map(|c| cols.iter().map(|&j| c[j].clone()).collect())
        .collect();
    let headers: Vec<String> = cols.iter().map(|&j| HEADERS[j].to_string()).collect();
    let mut s = aligned_markdown(&headers, &body, |j| left(cols[j]));
    s.push_str("\nIL = 100 SSE/SST in percent (lower is better; the case's best in bold); sd over seeds (a deterministic pipeline runs once per case: runs 1, no sd); time = mean seconds per run; gap = 100 (best SSE - bound)/bound, against the best certified bound known (bound = the method that produced it; library = the benchmark library's stored certificate, verified); gap known = 100 (best SSE - best-known SSE)/best-known SSE.\n");
    for (i, src) in sources.iter().enumerate() {
        s.push_str(&format!("[{}] Published: {src}.\n", i + 1));
    }
    s
}

#[cfg(test)]
mod tests;
