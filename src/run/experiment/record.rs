//! # Run record files
//!
//! Reading and writing the run records ([`crate::record`]) of an experiment. One JSON object
//! per run, one per line (`*.jsonl` in the output directory): the effective
//! configuration (pipeline stages with defaults filled in, k, time limit, seeds, bounds),
//! the instance's identity (spec, name, shape, sha256), the crate version and git commit,
//! per-stage results, the final SSE/IL and, when bounds were asked for, the best bound and
//! the gap. Timing lives only in fields named `seconds`, so two runs of a suite can be
//! compared by dropping those ([`strip_timing`]). Files are kept sorted by run index, so a
//! finished output is byte-stable; records of shards merge by concatenation ([`read_dir`]
//! sorts and rejects conflicting duplicates).
//!
//! ## Complexity
//! Linear in the number of records.
//!
//! ## References
//! None.

use crate::error::{Error, Result};
use serde_json::Value;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};

pub use crate::record::{BoundResult, Record, RunSeeds, StageParams, StageResult};

/// Read every `*.jsonl` file of a directory: records sorted by index, duplicates of the same
/// run (e.g. a resumed shard) removed when identical apart from timing, rejected otherwise.
pub fn read_dir(dir: &Path) -> Result<Vec<Record>> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| Error::io(dir, e))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut by_id: BTreeMap<String, Record> = BTreeMap::new();
    for f in &files {
        for r in read_file(f)? {
            if let Some(prev) = by_id.get(&r.run_id) {
                if strip_timing(&to_value(prev)) != strip_timing(&to_value(&r)) {
                    return Err(Error::usage(format!(
                        "{}: run '{}' has two different records (different suites or builds in one directory?)",
                        dir.display(),
                        r.run_id
                    )));
                }
                continue;
            }
            by_id.insert(r.run_id.clone(), r);
        }
    }
    let mut all: Vec<Record> = by_id.into_values().collect();
    sort(&mut all);
    Ok(all)
}

/// Records of one file (missing file: none). A last line cut short (a crash while it was
/// appended) is skipped with a warning on stderr; a bad line elsewhere is an error.
pub(crate) fn read_file(path: &Path) -> Result<Vec<Record>> {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(Error::io(path, e)),
    };
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        // A line cut short by a crash is skipped only when it is the last one.
        match serde_json::from_str::<Record>(line) {
            Ok(r) => out.push(r),
            Err(e) if i + 1 == text.lines().count() && !text.ends_with('\n') => {
                crate::output::note(&format!(
                    "warning: {}: line {}: incomplete last record skipped ({e}); a study was \
                     probably cut short while writing it (--resume reruns that run)",
                    path.display(),
                    i + 1
                ));
            }
            Err(e) => {
                return Err(Error::Data {
                    file: path.display().to_string(),
                    location: format!("line {}", i + 1),
                    message: format!("not a run record: {e}"),
                })
            }
        }
    }
    Ok(out)
}

/// Sort by run index, then run id (indices are unique within a suite).
pub(crate) fn sort(records: &mut [Record]) {
    records.sort_by(|a, b| a.index.cmp(&b.index).then_with(|| a.run_id.cmp(&b.run_id)));
}

/// One JSON line.
pub(crate) fn to_line(r: &Record) -> String {
    serde_json::to_string(r).expect("records serialise")
}

pub fn to_value(r: &Record) -> Value {
    serde_json::to_value(r).expect("records serialise")
}

/// Append one record (used while running, so an interrupted study can be resumed).
pub(crate) fn append(path: &Path, r: &Record) -> Result<()> {
    let mut f = std::fs::OpenOptions::new()
        .create(true)
        .append(true)
        .open(path)
        .map_err(|e| Error::io(path, e))?;
    writeln!(f, "{}", to_line(r)).map_err(|e| Error::io(path, e))
}

/// Rewrite a file with its records sorted (atomically, via a temporary file).
pub(crate) fn write_sorted(path: &Path, records: &mut [Record]) -> Result<()> {
    sort(records);
    let mut text = String::new();
    for r in records.iter() {
        text.push_str(&to_line(r));
        text.push('\n');
    }
    crate::output::write_atomic(path, text.as_bytes())
}

/// A record's JSON with every timing field (`seconds`) removed, at any depth.
pub fn strip_timing(v: &Value) -> Value {
    match v {
        Value::Object(m) => Value::Object(
            m.iter()
                .filter(|(k, _)| k.as_str() != "seconds")
                .map(|(k, v)| (k.clone(), strip_timing(v)))
                .collect(),
        ),
        Value::Array(a) => Value::Array(a.iter().map(strip_timing).collect()),
        other => other.clone(),
    }
}
