//! # CSV output of the result tables
//!
//! The summary table as CSV with every value of a case row (empty = missing; `--columns`
//! picks among [`CSV_HEADER`]), and one flat row per run record ([`per_run_csv`]). Fields
//! with a comma, quote or line break are quoted (RFC 4180); seeds above 2^53 are written as
//! quoted strings so that a reader parsing numbers as doubles cannot round them.
//!
//! ## Complexity
//! O(rows x columns).
//!
//! ## References
//! Shafranovich, Y. (2005). RFC 4180: Common Format and MIME Type for Comma-Separated Values
//! (CSV) Files.

use super::CaseRow;
use crate::experiment::record::Record;

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Header of the summary CSV (also the names `--columns` takes with `--format csv`).
pub(crate) const CSV_HEADER: [&str; 23] = [
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

pub(super) fn csv(rows: &[CaseRow], cols: &[usize]) -> String {
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

pub(super) fn seed_field(seed: u64) -> String {
    if seed > EXACT_IN_F64 {
        format!("\"{seed}\"")
    } else {
        seed.to_string()
    }
}

/// Header of `per_run_csv`.
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
pub(crate) fn per_run_csv(records: &[Record]) -> String {
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
