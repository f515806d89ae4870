//! # Part files and `combine`
//!
//! A part file is a labels file with one header line, `#microagg-part {json}`
//! ([`PartHeader`]), then one line per row of the whole file: the row's label within the
//! part, or `-` for a row of another part. [`combine`] checks that the files are the parts
//! of one run, each once, every row labelled once and every group of at least k rows, and
//! writes one labels file numbered by first appearance
//! ([`crate::labels::first_appearance_labels`]), as the unsplit run numbers its labels.
//!
//! ## Complexity
//! O(n) per file read and for the join.
//!
//! ## References
//! None.

use crate::error::{Error, Result};
use crate::output;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

pub use crate::labels::first_appearance_labels;

/// The header of a part file: what identifies the run, and which part this is.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub(crate) struct PartHeader {
    pub part: usize,
    pub parts: usize,
    pub n: usize,
    pub k: usize,
    pub pipeline: String,
    pub params: serde_json::Value,
    pub seed: u64,
    pub split: String,
    pub instance_sha256: String,
    /// `--weights`: the weights column and the sha256 of its values
    /// ([`PartHeader::weights_of`]); absent for an unweighted run (whose header is then
    /// the one written before weights were split).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<String>,
}

impl PartHeader {
    /// What identifies a run's weights in its part files: `COLUMN sha256-of-the-values`.
    pub(crate) fn weights_of(w: &crate::data::Weights) -> String {
        format!(
            "{} {}",
            w.column,
            crate::data::instance::sha256_of_values(&w.values)
        )
    }
}

const PART_TAG: &str = "#microagg-part ";

/// Write a part file (atomically).
pub(crate) fn write_part(path: &Path, header: &PartHeader, labels: &[Option<usize>]) -> Result<()> {
    let mut out = String::with_capacity(labels.len() * 4 + 256);
    out.push_str(PART_TAG);
    out.push_str(&serde_json::to_string(header).expect("header serialises"));
    out.push('\n');
    for l in labels {
        match l {
            Some(l) => out.push_str(&l.to_string()),
            None => out.push('-'),
        }
        out.push('\n');
    }
    output::write_atomic(path, out.as_bytes())
}

/// Read a part file; errors name the file and line.
pub(crate) fn read_part(path: &Path) -> Result<(PartHeader, Vec<Option<usize>>)> {
    use std::io::BufRead;
    let file_name = path.display().to_string();
    let err = |location: String, message: String| Error::Data {
        file: file_name.clone(),
        location,
        message,
    };
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    let mut lines = std::io::BufReader::new(f).lines();
    let first = lines
        .next()
        .transpose()
        .map_err(|e| Error::io(path, e))?
        .unwrap_or_default();
    let first = first.trim_start_matches(crate::labels::BYTE_ORDER_MARK);
    let json = first.strip_prefix(PART_TAG).ok_or_else(|| {
        err(
            "line 1".into(),
            "not a part file: the first line should start with '#microagg-part' (written by \
             `run --part I/N --labels-out FILE`)"
                .into(),
        )
    })?;
    let header: PartHeader = serde_json::from_str(json)
        .map_err(|e| err("line 1".into(), format!("bad part header: {e}")))?;
    let mut labels = Vec::with_capacity(header.n);
    for (i, line) in lines.enumerate() {
        let line = line.map_err(|e| Error::io(path, e))?;
        let t = line.trim();
        if t.is_empty() {
            continue;
        }
        labels.push(if t == "-" {
            None
        } else {
            Some(t.parse::<usize>().map_err(|_| {
                err(
                    format!("line {}", i + 2),
                    format!("'{t}' is neither a label nor '-'"),
                )
            })?)
        });
    }
    if labels.len() != header.n {
        return Err(err(
            "file".into(),
            format!("{} rows, the header says n = {}", labels.len(), header.n),
        ));
    }
    Ok((header, labels))
}

/// What `combine` produced.
#[derive(Debug, Clone, Serialize)]
pub struct CombineSummary {
    pub parts: usize,
    pub n: usize,
    pub groups: usize,
    pub min_group_size: usize,
    pub split: String,
}

/// Join the part files of one split run into one labels file (labels numbered by first
/// appearance along the rows, as the unsplit run numbers them).
pub(crate) fn combine(files: &[PathBuf], out: &Path) -> Result<CombineSummary> {
    if files.is_empty() {
        return Err(Error::usage("combine: no part files given"));
    }
    let mut read: Vec<(PathBuf, PartHeader, Vec<Option<usize>>)> = Vec::new();
    for f in files {
        let (h, l) = read_part(f)?;
        read.push((f.clone(), h, l));
    }
    let (first_file, first, _) = &read[0];
    let same_run = |h: &PartHeader| {
        PartHeader {
            part: first.part,
            ..h.clone()
        } == *first
    };
    for (f, h, _) in &read[1..] {
        if !same_run(h) {
            return Err(Error::usage(format!(
                "combine: {} and {} are parts of different runs (header {} vs {})",
                first_file.display(),
                f.display(),
                serde_json::to_string(first).expect("serialises"),
                serde_json::to_string(h).expect("serialises")
            )));
        }
    }
    let mut owner: Vec<Option<&Path>> = vec![None; first.parts];
    for (f, h, _) in &read {
        if let Some(other) = owner[h.part - 1].replace(f) {
            return Err(Error::usage(format!(
                "combine: {} and {} are both part {}/{}",
                other.display(),
                f.display(),
                h.part,
                h.parts
            )));
        }
    }
    let missing: Vec<String> = (0..first.parts)
        .filter(|&p| owner[p].is_none())
        .map(|p| format!("{}/{}", p + 1, first.parts))
        .collect();
    if !missing.is_empty() {
        return Err(Error::usage(format!(
            "combine: part(s) {} missing",
            missing.join(", ")
        )));
    }
    let n = first.n;
    // Group key: (part, label in the part) -> one list of rows.
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut row_owner: Vec<Option<usize>> = vec![None; n];
    for (pi, (f, _, labels)) in read.iter().enumerate() {
        let mut local: Vec<usize> = Vec::new();
        for (i, l) in labels.iter().enumerate() {
            let Some(l) = *l else { continue };
            if let Some(other) = row_owner[i].replace(pi) {
                return Err(Error::usage(format!(
                    "combine: row {} is labelled by both {} and {}",
                    i + 1,
                    read[other].0.display(),
                    f.display()
                )));
            }
            if l >= local.len() {
                local.resize(l + 1, usize::MAX);
            }
            if local[l] == usize::MAX {
                local[l] = groups.len();
                groups.push(Vec::new());
            }
            groups[local[l]].push(i);
        }
    }
    if let Some(i) = row_owner.iter().position(Option::is_none) {
        return Err(Error::usage(format!(
            "combine: row {} is labelled by no part",
            i + 1
        )));
    }
    let groups: Vec<Vec<usize>> = groups.into_iter().filter(|g| !g.is_empty()).collect();
    let min_size = groups.iter().map(Vec::len).min().unwrap_or(0);
    if min_size < first.k {
        return Err(Error::Infeasible(format!(
            "combine: a group has {min_size} < k = {} records",
            first.k
        )));
    }
    let labels: Vec<usize> = first_appearance_labels(n, &groups)
        .into_iter()
        .map(|l| l.expect("every row is labelled"))
        .collect();
    crate::labels::write_labels(out, &labels)?;
    Ok(CombineSummary {
        parts: first.parts,
        n,
        groups: groups.len(),
        min_group_size: min_size,
        split: first.split.clone(),
    })
}
