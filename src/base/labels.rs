//! # Labels files, the independent check, masked output
//!
//! A labels file holds one non-negative integer group label per input row, in input order
//! (one per line). [`check_labels`] verifies a labelling independently of how it was made:
//! one label per record, every group of at least k records, and SSE/IL recomputed from
//! scratch (two passes per group, no cached statistics). [`masked_csv`] is the
//! microaggregated data in original units: every value replaced by its group's mean.
//! [`first_appearance_labels`] numbers groups by first appearance along the rows (split
//! runs, `combine` and the masked methods of [`crate::missing`] share it).

use crate::data::instance::{ldexp, power_of_two_scale};
use crate::data::Instance;
use crate::error::{Error, Result};
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// The UTF-8 byte order mark, skipped where it opens a labels or part file.
pub(crate) const BYTE_ORDER_MARK: char = '\u{feff}';

/// Read a labels file; errors name the file and line.
pub fn read_labels(path: &Path) -> Result<Vec<usize>> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    parse_labels(&bytes, &path.display().to_string())
}

/// Parse the text of a labels file; `file` is used in error messages.
pub fn parse_labels(bytes: &[u8], file: &str) -> Result<Vec<usize>> {
    let text = std::str::from_utf8(bytes).map_err(|e| Error::Data {
        file: file.into(),
        location: "file".into(),
        message: format!("not UTF-8 text ({e}): expected one integer label per line"),
    })?;
    // A UTF-8 byte order mark (as some editors save text) opens the text, not the first
    // label; CSV data skip it too.
    let text = text.strip_prefix(BYTE_ORDER_MARK).unwrap_or(text);
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
                file: file.into(),
                location: format!("line {}", i + 1),
                message: "empty line: expected one integer label per row".into(),
            });
        }
        let v: usize = t.parse().map_err(|_| Error::Data {
            file: file.into(),
            location: format!("line {}", i + 1),
            message: format!("'{t}' is not a non-negative integer label"),
        })?;
        labels.push(v);
    }
    Ok(labels)
}

/// Labels of `n` rows from groups, numbered by first appearance along the rows; rows in no
/// group get `None`.
pub fn first_appearance_labels(n: usize, groups: &[Vec<usize>]) -> Vec<Option<usize>> {
    let mut group_of = vec![usize::MAX; n];
    for (g, m) in groups.iter().enumerate() {
        for &i in m {
            group_of[i] = g;
        }
    }
    let mut renumber = vec![usize::MAX; groups.len()];
    let mut next = 0;
    group_of
        .into_iter()
        .map(|g| {
            (g != usize::MAX).then(|| {
                if renumber[g] == usize::MAX {
                    renumber[g] = next;
                    next += 1;
                }
                renumber[g]
            })
        })
        .collect()
}

/// Write one label per line (atomically: a crash or a full disk never leaves a fragment).
pub fn write_labels(path: &Path, labels: &[usize]) -> Result<()> {
    let mut out = String::with_capacity(labels.len() * 4);
    for l in labels {
        out.push_str(&l.to_string());
        out.push('\n');
    }
    crate::output::write_atomic(path, out.as_bytes())
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
    /// Groups below k, as (label, size), at most [`UNDERSIZED_LISTED`] listed.
    pub undersized: Vec<(usize, usize)>,
    /// How many groups are below k (all of them, listed or not).
    pub undersized_groups: usize,
    /// With `--weights`: the weighted SSE, SST and IL of the labels (`docs/weights.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<crate::weighted::WeightedIl>,
}

/// Undersized groups listed in a [`CheckReport`]; the count covers the rest.
pub const UNDERSIZED_LISTED: usize = 20;

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
    let undersized_groups = groups.values().filter(|m| m.len() < k).count();
    let undersized: Vec<(usize, usize)> = groups
        .iter()
        .filter(|(_, m)| m.len() < k)
        .map(|(&l, m)| (l, m.len()))
        .take(UNDERSIZED_LISTED)
        .collect();
    let weights = inst.weights.as_ref().and_then(|w| {
        // Same group order as the SSE above (labels ascending).
        let wsse: f64 = groups
            .values()
            .map(|m| crate::weighted::weighted_group_stats(&inst.z, inst.d, &w.values, m).1)
            .sum();
        crate::weighted::WeightedIl::of(inst, wsse, None)
    });
    Ok(CheckReport {
        weights,
        feasible: undersized_groups == 0,
        undersized_groups,
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

/// The microaggregated data as CSV bytes (the values of [`masked_values`], each written as
/// the shortest decimal that reads back as the same double).
pub fn masked_csv(inst: &Instance, labels: &[usize]) -> Result<Vec<u8>> {
    let d = inst.d;
    let values = masked_values(inst, labels)?;
    let mut w = csv::Writer::from_writer(Vec::new());
    let io = |e: csv::Error| Error::io("masked output", e);
    w.write_record(&inst.columns).map_err(io)?;
    for record in values.chunks_exact(d) {
        let row: Vec<String> = record.iter().map(|v| v.to_string()).collect();
        w.write_record(&row).map_err(io)?;
    }
    w.into_inner()
        .map_err(|e| Error::io("masked output", e.error()))
}

/// Per column, the power-of-two exponent that brings its largest magnitude below 1 (0 for
/// a column of zeros): the scaling [`masked_values`] and the weighted means take group
/// sums under, against overflow.
pub(crate) fn column_scales(inst: &Instance) -> Vec<i32> {
    let d = inst.d;
    (0..d)
        .map(|j| {
            let column: Vec<f64> = (0..inst.n).map(|i| inst.raw[i * d + j]).collect();
            power_of_two_scale(&column).unwrap_or(0)
        })
        .collect()
}

/// The microaggregated data in original units, row-major n x d: each record replaced by its
/// group's mean. Group means are taken of the values scaled by a power of two that brings
/// the column's largest magnitude below 1 (exact, so the means are those of the plain
/// formula wherever it does not overflow), so that sums of values near the largest double
/// cannot overflow. (Public for the Python package, which returns it as a DataFrame.)
pub fn masked_values(inst: &Instance, labels: &[usize]) -> Result<Vec<f64>> {
    let d = inst.d;
    let g = crate::partition::label_slots(inst, labels)?;
    let scale = column_scales(inst);
    let mut sums = vec![0.0; g * d];
    let mut counts = vec![0usize; g];
    for (i, &l) in labels.iter().enumerate() {
        counts[l] += 1;
        for j in 0..d {
            sums[l * d + j] += ldexp(inst.raw[i * d + j], -scale[j]);
        }
    }
    for l in 0..g {
        for j in 0..d {
            sums[l * d + j] = ldexp(sums[l * d + j] / counts[l].max(1) as f64, scale[j]);
        }
    }
    Ok(labels
        .iter()
        .flat_map(|&l| sums[l * d..(l + 1) * d].iter().copied())
        .collect())
}
