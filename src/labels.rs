//! # Labels files, the independent check, masked output
//!
//! A labels file holds one non-negative integer group label per input row, in input order
//! (one per line). [`check_labels`] verifies a labelling independently of how it was made:
//! one label per record, every group of at least k records, and SSE/IL recomputed from
//! scratch (two passes per group, no cached statistics). [`write_masked`] writes the
//! microaggregated data in original units: every value replaced by its group's mean.

use crate::data::Instance;
use crate::error::{Error, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::io::Write;
use std::path::Path;

/// Read a labels file; errors name the file and line.
pub fn read_labels(path: &Path) -> Result<Vec<usize>> {
    let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
    let mut labels = Vec::new();
    let lines: Vec<&str> = text.lines().collect();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim();
        if t.is_empty() {
            // Only trailing blank lines are tolerated.
            if lines[i..].iter().all(|l| l.trim().is_empty()) {
                break;
            }
            return Err(Error::Data {
                file: path.display().to_string(),
                location: format!("line {}", i + 1),
                message: "empty line: expected one integer label per row".into(),
            });
        }
        let v: usize = t.parse().map_err(|_| Error::Data {
            file: path.display().to_string(),
            location: format!("line {}", i + 1),
            message: format!("'{t}' is not a non-negative integer label"),
        })?;
        labels.push(v);
    }
    Ok(labels)
}

/// Write one label per line.
pub fn write_labels(path: &Path, labels: &[usize]) -> Result<()> {
    let mut out = String::with_capacity(labels.len() * 4);
    for l in labels {
        out.push_str(&l.to_string());
        out.push('\n');
    }
    std::fs::write(path, out).map_err(|e| Error::io(path, e))
}

/// Result of checking a labelling.
#[derive(Debug, Clone, Serialize)]
pub struct CheckReport {
    pub feasible: bool,
    pub n: usize,
    pub k: usize,
    pub sse: f64,
    pub sst: f64,
    pub il: f64,
    pub groups: usize,
    pub min_group_size: usize,
    pub max_group_size: usize,
    /// Groups below k, as (label, size), at most 20 listed.
    pub undersized: Vec<(usize, usize)>,
}

/// Verify `labels` against the instance from scratch. A wrong label count is an error;
/// undersized groups make the report infeasible.
pub fn check_labels(inst: &Instance, k: usize, labels: &[usize]) -> Result<CheckReport> {
    if labels.len() != inst.n {
        return Err(Error::Infeasible(format!(
            "{} labels for {} records: every row needs exactly one label",
            labels.len(),
            inst.n
        )));
    }
    let mut groups: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (i, &l) in labels.iter().enumerate() {
        groups.entry(l).or_default().push(i);
    }
    let sse: f64 = groups
        .values()
        .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
        .sum();
    let sizes: Vec<usize> = groups.values().map(Vec::len).collect();
    let undersized: Vec<(usize, usize)> = groups
        .iter()
        .filter(|(_, m)| m.len() < k)
        .map(|(&l, m)| (l, m.len()))
        .take(20)
        .collect();
    Ok(CheckReport {
        feasible: undersized.is_empty(),
        n: inst.n,
        k,
        sse,
        sst: inst.sst,
        il: inst.il(sse),
        groups: groups.len(),
        min_group_size: sizes.iter().copied().min().unwrap_or(0),
        max_group_size: sizes.iter().copied().max().unwrap_or(0),
        undersized,
    })
}

/// Write the microaggregated data (original units) as CSV with the instance's header.
pub fn write_masked(path: &Path, inst: &Instance, labels: &[usize]) -> Result<()> {
    let d = inst.d;
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut sums = vec![0.0; g * d];
    let mut counts = vec![0usize; g];
    for (i, &l) in labels.iter().enumerate() {
        counts[l] += 1;
        for j in 0..d {
            sums[l * d + j] += inst.raw[i * d + j];
        }
    }
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&inst.columns)
        .map_err(|e| Error::io(path, e))?;
    for &l in labels {
        let row: Vec<String> = (0..d)
            .map(|j| (sums[l * d + j] / counts[l] as f64).to_string())
            .collect();
        w.write_record(&row).map_err(|e| Error::io(path, e))?;
    }
    let bytes = w.into_inner().map_err(|e| Error::io(path, e))?;
    let mut f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    f.write_all(&bytes).map_err(|e| Error::io(path, e))
}
