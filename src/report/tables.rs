//! # Result tables
//!
//! Summarises run records per (instance, k, pipeline): number of runs, best / mean / sample
//! standard deviation of IL, best SSE, mean time, the best lower bound (as IL) and the gap of
//! the best run to it, and the values published for the same instance, method and k in the
//! instance manifest (`instances/manifest.toml`, `[[published]]`) side by side. Rendered as
//! Markdown, CSV or a LaTeX `booktabs` table. Rows follow the order of the suite (run index).
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
pub const KEYS: [&str; 16] = [
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
pub fn render_columns(
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
    let widths: Vec<usize> = (0..cols.len())
        .map(|j| {
            body.iter()
                .map(|c| c[j].len())
                .chain([headers[j].len()])
                .max()
                .unwrap_or(1)
                .max(3) // a Markdown delimiter cell needs hyphens besides its colon
        })
        .collect();
    let line = |c: &[String]| {
        let parts: Vec<String> = c
            .iter()
            .enumerate()
            .map(|(j, s)| {
                if left(cols[j]) {
                    format!("{s:<w$}", w = widths[j])
                } else {
                    format!("{s:>w$}", w = widths[j])
                }
            })
            .collect();
        format!("| {} |\n", parts.join(" | "))
    };
    let mut s = line(&headers);
    let rule: Vec<String> = widths
        .iter()
        .enumerate()
        .map(|(j, w)| {
            if left(cols[j]) {
                format!(":{}", "-".repeat(w.saturating_sub(1)))
            } else {
                format!("{}:", "-".repeat(w.saturating_sub(1)))
            }
        })
        .collect();
    s.push_str(&format!("| {} |\n", rule.join(" | ")));
    for c in &body {
        s.push_str(&line(c));
    }
    s.push_str("\nIL = 100 SSE/SST in percent (lower is better; the case's best in bold); sd over seeds (a deterministic pipeline runs once per case: runs 1, no sd); time = mean seconds per run; gap = 100 (best SSE - bound)/bound, against the best certified bound known (bound = the method that produced it; library = the benchmark library's stored certificate, verified); gap known = 100 (best SSE - best-known SSE)/best-known SSE.\n");
    for (i, src) in sources.iter().enumerate() {
        s.push_str(&format!("[{}] Published: {src}.\n", i + 1));
    }
    s
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Header of the summary CSV (also the names `--columns` takes with `--format csv`).
pub const CSV_HEADER: [&str; 23] = [
    "instance",
    "instance_name",
    "n",
    "d",
    "k",
    "pipeline",
    "method",
    "runs",
    "best_il",
    "mean_il",
    "sd_il",
    "best_sse",
    "mean_seconds",
    "bound_sse",
    "bound_il",
    "gap",
    "published_il",
    "published_sse",
    "published_source",
    "bound_name",
    "bound_source",
    "best_known_sse",
    "gap_best_known",
];

fn csv(rows: &[CaseRow], cols: &[usize]) -> String {
    let o = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x}"));
    let pick = |f: &[String]| cols.iter().map(|&j| f[j].clone()).collect::<Vec<_>>();
    let header: Vec<String> = CSV_HEADER.iter().map(|h| h.to_string()).collect();
    let mut s = pick(&header).join(",");
    s.push('\n');
    for r in rows {
        let f = [
            csv_field(&r.instance),
            csv_field(&r.instance_name),
            r.n.to_string(),
            r.d.to_string(),
            r.k.to_string(),
            csv_field(&r.pipeline),
            csv_field(&r.method),
            r.runs.to_string(),
            format!("{}", r.best_il),
            format!("{}", r.mean_il),
            o(r.sd_il),
            format!("{}", r.best_sse),
            format!("{}", r.mean_seconds),
            o(r.bound_sse),
            o(r.bound_il),
            o(r.gap),
            o(r.published_il),
            o(r.published_sse),
            csv_field(r.published_source.as_deref().unwrap_or("")),
            csv_field(r.bound_name.as_deref().unwrap_or("")),
            csv_field(r.bound_source.as_deref().unwrap_or("")),
            o(r.best_known_sse),
            o(r.gap_best_known),
        ];
        s.push_str(&pick(&f).join(","));
        s.push('\n');
    }
    s
}

/// Largest integer every f64 holds exactly: seeds above it are written as quoted strings, so
/// that a reader parsing numbers as doubles cannot round them.
const EXACT_IN_F64: u64 = 1 << 53;

fn seed_field(seed: u64) -> String {
    if seed > EXACT_IN_F64 {
        format!("\"{seed}\"")
    } else {
        seed.to_string()
    }
}

/// Header of [`per_run_csv`].
pub const PER_RUN_HEADER: [&str; 29] = [
    "suite",
    "index",
    "run_id",
    "instance",
    "instance_name",
    "instance_sha256",
    "n",
    "d",
    "k",
    "pipeline",
    "method",
    "seed_base",
    "seed_run",
    "replicate",
    "time_limit",
    "stages",
    "stage_ils",
    "sse",
    "il",
    "groups",
    "min_group_size",
    "max_group_size",
    "bound_method",
    "bound_sse",
    "bound_il",
    "bound_certified",
    "gap",
    "seconds",
    "git_commit",
];

/// One row per run record, flat columns (empty = missing). Stage names are joined by `+`,
/// the IL after each stage by `;`. Seeds above 2^53 are quoted strings.
pub fn per_run_csv(records: &[Record]) -> String {
    let o = |v: Option<f64>| v.map_or(String::new(), |x| format!("{x}"));
    let mut s = PER_RUN_HEADER.join(",");
    s.push('\n');
    for r in records {
        let b = r.best_bound.as_ref();
        let stages: Vec<&str> = r.stages.iter().map(|x| x.name.as_str()).collect();
        let stage_ils: Vec<String> = r.stages.iter().map(|x| format!("{}", x.il)).collect();
        let f = [
            csv_field(&r.suite),
            r.index.to_string(),
            csv_field(&r.run_id),
            csv_field(&r.instance),
            csv_field(&r.instance_name),
            csv_field(&r.instance_sha256),
            r.n.to_string(),
            r.d.to_string(),
            r.k.to_string(),
            csv_field(&r.pipeline),
            csv_field(&r.method),
            seed_field(r.seeds.base),
            seed_field(r.seeds.run),
            r.seeds.replicate.to_string(),
            o(r.time_limit),
            csv_field(&stages.join("+")),
            csv_field(&stage_ils.join(";")),
            format!("{}", r.sse),
            format!("{}", r.il),
            r.groups.to_string(),
            r.min_group_size.to_string(),
            r.max_group_size.to_string(),
            csv_field(b.map_or("", |b| b.name.as_str())),
            o(b.map(|b| b.sse)),
            o(b.map(|b| b.il)),
            b.map_or(String::new(), |b| b.certified.to_string()),
            o(r.gap),
            format!("{}", r.seconds),
            csv_field(&r.git_commit),
        ];
        s.push_str(&f.join(","));
        s.push('\n');
    }
    s
}

fn tex_escape(s: &str) -> String {
    let mut out = String::new();
    for c in s.chars() {
        match c {
            '\\' => out.push_str("\\textbackslash{}"),
            '&' | '%' | '$' | '#' | '_' | '{' | '}' => {
                out.push('\\');
                out.push(c);
            }
            '~' => out.push_str("\\textasciitilde{}"),
            '^' => out.push_str("\\textasciicircum{}"),
            _ => out.push(c),
        }
    }
    out
}

/// LaTeX headers of the 16 columns.
const TEX_HEADERS: [&str; 16] = [
    "Instance",
    "$n$",
    "$k$",
    "Pipeline",
    "Runs",
    "Best IL",
    "Mean IL",
    "SD",
    "Best SSE",
    "Time (s)",
    "Bound IL",
    "Bound",
    "Gap (\\%)",
    "Gap known (\\%)",
    "Publ.\\ IL",
    "Publ.\\ SSE",
];

fn latex(rows: &[CaseRow], cols: &[usize]) -> String {
    let mut s = String::new();
    s.push_str("% Requires \\usepackage{booktabs}. Generated by `microagg report`.\n");
    let align: String = cols
        .iter()
        .map(|&j| if left(j) { 'l' } else { 'r' })
        .collect();
    s.push_str(&format!("\\begin{{tabular}}{{{align}}}\n\\toprule\n"));
    let heads: Vec<&str> = cols.iter().map(|&j| TEX_HEADERS[j]).collect();
    s.push_str(&format!("{} \\\\\n\\midrule\n", heads.join(" & ")));
    let mut prev: Option<(&str, usize)> = None;
    for (r, best) in rows.iter().zip(best_marks(rows)) {
        // A rule between instances keeps long tables readable.
        if let Some((inst, _)) = prev {
            if inst != r.instance {
                s.push_str("\\midrule\n");
            }
        }
        prev = Some((&r.instance, r.k));
        let c = marked_cells(r, best, |s| format!("\\textbf{{{s}}}"));
        let fields = [
            tex_escape(&c[0]),
            c[1].clone(),
            c[2].clone(),
            format!("\\texttt{{{}}}", tex_escape(&c[3])),
            c[4].clone(),
            c[5].clone(),
            c[6].clone(),
            c[7].clone(),
            c[8].clone(),
            c[9].clone(),
            c[10].clone(),
            c[11].clone(),
            c[12].clone(),
            c[13].clone(),
            c[14].clone(),
            c[15].clone(),
        ];
        let fields: Vec<&str> = cols.iter().map(|&j| fields[j].as_str()).collect();
        s.push_str(&fields.join(" & "));
        s.push_str(" \\\\\n");
    }
    s.push_str("\\bottomrule\n\\end{tabular}\n");
    s.push_str("% Bold: the lowest best IL and mean IL of each case.\n");
    s.push_str("% A deterministic pipeline (no random number drawn) runs once per case.\n");
    for src in sources(rows) {
        s.push_str(&format!("% Published: {}\n", src));
    }
    s
}

#[cfg(test)]
mod tests;
