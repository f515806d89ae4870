//! # Sampling weights
//!
//! `--weights COLUMN` reads one column of the CSV file as the records' sampling weights
//! (not as an attribute: with every column selected it is left out, and naming it in
//! `--columns` is an error). Every weight must be a finite number > 0: an empty cell, a
//! non-numeric, NaN, infinite, negative or zero weight is an error naming the file, the row
//! (data row r is line r + 1) and the column, and so is a total that overflows. Zero weights
//! are refused (not dropped): a record of weight 0 counts for nothing in the weighted SSE and
//! a group of such records has no weighted mean, so the release would be undefined; a zero
//! total is therefore impossible.
//!
//! The weighted definitions (`docs/weights.md`, `proofs/P40-weighted-sse.md`): weighted
//! centroid `c_w(G) = sum w_i x_i / sum w_i`, weighted SSE `sum_G sum_{i in G} w_i ||x_i -
//! c_w(G)||^2`, weighted SST `sum_i w_i ||x_i - c_w(all)||^2`, weighted IL `100 SSE_w /
//! SST_w`, all on the instance's z-scores, which keep the unweighted moments (the
//! standardisation, and with it the geometry every method sees, does not change with
//! `--weights`). With unit weights every quantity here performs the unweighted
//! computation's floating-point operations in the same order, so it is bit-identical to it.
//!
//! ## Complexity
//! Reading: O(n) time and memory besides the instance (the file is read a second time,
//! streamed). Weighted SSE and SST: O(n d).
//!
//! ## References
//! Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Wiley, Section 2.2 (weighted
//! estimators of totals and means). sdcMicro `R/microaggregation.R` (weighted group means).

use super::csv_file::ColumnSelection;
use super::instance::Instance;
use crate::error::{Error, Result};
use crate::partition::sq_dist;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The sampling weights of an instance's records.
#[derive(Debug, Clone, PartialEq)]
pub struct Weights {
    /// The column they were read from (its header name).
    pub column: String,
    /// One weight per record, in input order; each finite and > 0.
    pub values: Vec<f64>,
    /// Their sum (finite, > 0).
    pub total: f64,
}

impl Weights {
    /// Weights from values already checked by the caller (finite, > 0, finite sum); for tests
    /// and the library. Fails like the file reader, without a file.
    pub fn new(column: impl Into<String>, values: Vec<f64>) -> Result<Self> {
        let column = column.into();
        for (i, &w) in values.iter().enumerate() {
            check_weight(w, &w.to_string()).map_err(|message| Error::Data {
                file: "weights".into(),
                location: format!("record {}, column '{column}'", i + 1),
                message,
            })?;
        }
        let total = total_of(&values).map_err(|message| Error::Data {
            file: "weights".into(),
            location: format!("column '{column}'"),
            message,
        })?;
        Ok(Weights {
            column,
            values,
            total,
        })
    }

    /// Every weight the same: the weighted SSE is then that weight times the SSE, and the
    /// unweighted optimum is the weighted one.
    pub fn all_equal(&self) -> bool {
        self.values.windows(2).all(|w| w[0] == w[1])
    }

    /// The weights of some rows (a part of a split run).
    pub fn subset(&self, rows: &[usize]) -> Weights {
        let values: Vec<f64> = rows.iter().map(|&i| self.values[i]).collect();
        Weights {
            column: self.column.clone(),
            total: values.iter().sum(),
            values,
        }
    }
}

/// A weight is finite and > 0, or the reason it is not.
fn check_weight(w: f64, cell: &str) -> std::result::Result<(), String> {
    if !w.is_finite() {
        Err(format!("weight '{cell}' is NaN or infinite"))
    } else if w < 0.0 {
        Err(format!(
            "negative weight '{cell}': sampling weights must be > 0"
        ))
    } else if w == 0.0 {
        Err(format!(
            "zero weight '{cell}': weights must be > 0 (a record of weight 0 counts for \
             nothing in the weighted SSE and a group of such records has no weighted mean); \
             drop the row or give it a positive weight"
        ))
    } else {
        Ok(())
    }
}

fn total_of(values: &[f64]) -> std::result::Result<f64, String> {
    let total: f64 = values.iter().sum();
    if total.is_finite() && total > 0.0 {
        Ok(total)
    } else {
        Err(format!(
            "the weights sum to {total}: the total must be finite and > 0; rescale them"
        ))
    }
}

/// Load `--data` with `--weights COLUMN`: the instance of the other (or the chosen) columns
/// with its weights attached. Generators have no columns to read weights from.
pub fn load_weighted(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    weights_column: &str,
) -> Result<Instance> {
    if super::synthetic::try_generate(spec)?.is_some() {
        return Err(Error::usage(format!(
            "--weights: '{spec}' is a generator; weights come from a column of a CSV file"
        )));
    }
    let (path, delimiter, columns) = match super::manifest::Manifest::embedded()?.find(spec) {
        Some(entry) => {
            let cols = if columns.is_all() {
                entry.default_columns()
            } else {
                columns.clone()
            };
            (entry.resolve()?, b',', cols)
        }
        None => (Path::new(spec).to_path_buf(), delimiter, columns.clone()),
    };
    let file = path.display().to_string();
    let header = read_header(&path, delimiter)?;
    let wcol = resolve_column(&header, weights_column, &file)?;
    let selection = match &columns {
        ColumnSelection::All => ColumnSelection::List(
            header
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != wcol)
                .map(|(_, h)| h.clone())
                .collect(),
        ),
        ColumnSelection::List(items) => {
            for item in items {
                if resolve_column(&header, item, &file).ok() == Some(wcol) {
                    return Err(Error::Data {
                        file,
                        location: format!("header, column {}", wcol + 1),
                        message: format!(
                            "column '{}' is the weights column (--weights): it cannot also be \
                             an attribute (--columns)",
                            header[wcol]
                        ),
                    });
                }
            }
            columns.clone()
        }
    };
    let mut inst = super::load_with(spec, &selection, delimiter)?;
    let values = read_weight_column(&path, delimiter, &header, wcol)?;
    if values.len() != inst.n {
        return Err(Error::Data {
            file,
            location: format!("column '{}'", header[wcol]),
            message: format!(
                "{} weights for {} records (please report this file)",
                values.len(),
                inst.n
            ),
        });
    }
    let total = total_of(&values).map_err(|message| Error::Data {
        file: file.clone(),
        location: format!("column '{}' ({})", header[wcol], wcol + 1),
        message,
    })?;
    inst.weights = Some(Weights {
        column: header[wcol].clone(),
        values,
        total,
    });
    Ok(inst)
}

fn reader(path: &Path, delimiter: u8) -> Result<csv::Reader<std::io::BufReader<std::fs::File>>> {
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    Ok(csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(std::io::BufReader::with_capacity(1 << 16, f)))
}

fn read_header(path: &Path, delimiter: u8) -> Result<Vec<String>> {
    let mut r = reader(path, delimiter)?;
    let h = r.headers().map_err(|e| Error::Data {
        file: path.display().to_string(),
        location: "header".into(),
        message: e.to_string(),
    })?;
    Ok(h.iter().map(|s| s.trim().to_string()).collect())
}

/// A column by name, or by 1-based position when the token is a number that is not a name.
fn resolve_column(header: &[String], item: &str, file: &str) -> Result<usize> {
    let item = item.trim();
    if let Some(p) = header.iter().position(|h| h == item) {
        return Ok(p);
    }
    match item.parse::<usize>() {
        Ok(p) if p >= 1 && p <= header.len() => Ok(p - 1),
        _ => Err(Error::Data {
            file: file.into(),
            location: "header (--weights)".into(),
            message: format!(
                "no weights column '{item}'; the file has: {}",
                header.join(", ")
            ),
        }),
    }
}

/// Stream the file once more and read column `j` as weights.
fn read_weight_column(path: &Path, delimiter: u8, header: &[String], j: usize) -> Result<Vec<f64>> {
    let file = path.display().to_string();
    let mut r = reader(path, delimiter)?;
    let mut record = csv::StringRecord::new();
    let mut values = Vec::new();
    let mut row = 0usize;
    loop {
        let more = r.read_record(&mut record).map_err(|e| Error::Data {
            file: file.clone(),
            location: format!("row {} (line {})", row + 1, row + 2),
            message: e.to_string(),
        })?;
        if !more {
            break;
        }
        row += 1;
        let line = record.position().map_or(row as u64 + 1, |p| p.line());
        let here = format!(
            "row {row} (line {line}), column '{}' ({})",
            header[j],
            j + 1
        );
        let err = |message: String| Error::Data {
            file: file.clone(),
            location: here.clone(),
            message,
        };
        let cell = record
            .get(j)
            .ok_or_else(|| err("ragged row: no weights cell".into()))?
            .trim();
        if cell.is_empty() {
            return Err(err("empty cell: missing weight (--weights)".into()));
        }
        let w: f64 = cell
            .parse()
            .map_err(|_| err(format!("non-numeric weight '{cell}'")))?;
        check_weight(w, cell).map_err(err)?;
        values.push(w);
    }
    Ok(values)
}

/// Weighted centroid and weighted SSE of `members` (row indices of the row-major `z` with
/// `d` columns): `c = sum w_i z_i / sum w_i`, `sum w_i ||z_i - c||^2`, two passes. With unit
/// weights the operations are those of the unweighted group SSE, in the same order.
pub fn weighted_group_stats(z: &[f64], d: usize, w: &[f64], members: &[usize]) -> (Vec<f64>, f64) {
    let mut c = vec![0.0; d];
    if members.is_empty() {
        return (c, 0.0);
    }
    let mut total = 0.0;
    for &i in members {
        total += w[i];
        c.iter_mut()
            .zip(&z[i * d..(i + 1) * d])
            .for_each(|(m, v)| *m += w[i] * v);
    }
    let inv = 1.0 / total;
    c.iter_mut().for_each(|m| *m *= inv);
    let sse = members
        .iter()
        .map(|&i| w[i] * sq_dist(&z[i * d..(i + 1) * d], &c))
        .sum();
    (c, sse)
}

/// Weighted SST of the z-scores about the weighted grand mean, column by column (two
/// passes): `sum_j sum_i w_i (z_ij - m_j)^2`, `m_j = sum_i w_i z_ij / sum_i w_i`.
pub fn weighted_sst(inst: &Instance, w: &[f64]) -> f64 {
    let (n, d, z) = (inst.n, inst.d, &inst.z);
    let total: f64 = w.iter().sum();
    let mut sst = 0.0;
    for j in 0..d {
        let m = (0..n).map(|i| w[i] * z[i * d + j]).sum::<f64>() / total;
        sst += (0..n)
            .map(|i| w[i] * (z[i * d + j] - m).powi(2))
            .sum::<f64>();
    }
    sst
}

/// Weighted SSE of a labelling (groups in label order, members in record order).
pub fn weighted_sse_of_labels(inst: &Instance, w: &[f64], labels: &[usize]) -> f64 {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    members
        .iter()
        .map(|m| weighted_group_stats(&inst.z, inst.d, w, m).1)
        .sum()
}

/// The weighted figures of a partition, as `run --json` (the record's `weights`) and
/// `check --json` report them.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct WeightedIl {
    /// The weights column (`--weights`).
    pub column: String,
    /// Sum of the weights.
    pub total: f64,
    /// Weighted SSE: sum over groups of sum w_i ||z_i - weighted centroid||^2.
    pub sse: f64,
    /// Weighted SST: sum w_i ||z_i - weighted grand mean||^2 (z-scores with unweighted
    /// moments).
    pub sst: f64,
    /// Weighted IL = 100 sse / sst (percent).
    pub il: f64,
    /// What the method minimised: `weighted` (`univariate` alone: the weighted SSE over
    /// partitions into sorted runs, globally optimal only when all weights are equal) or
    /// `unweighted` (the SSE; the weighted IL is only reported). Absent in `check`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub objective: Option<String>,
}

impl WeightedIl {
    /// The weighted figures of `weighted_sse` on `inst` (which must carry weights).
    pub fn of(inst: &Instance, weighted_sse: f64, objective: Option<&str>) -> Option<Self> {
        let w = inst.weights.as_ref()?;
        let sst = weighted_sst(inst, &w.values);
        Some(WeightedIl {
            column: w.column.clone(),
            total: w.total,
            sse: weighted_sse,
            sst,
            il: 100.0 * weighted_sse / sst,
            objective: objective.map(str::to_string),
        })
    }
}
