//! # Reading sampling weights from a CSV column
//!
//! `--weights COLUMN`: the instance of the other (or the chosen) columns with the column's
//! values attached as [`Weights`] (rules and errors in [`super::weights`]), optionally with
//! its strata columns and missing cells (`run --strata`, `--missing ignore`:
//! [`load_weighted_split`]). The file is read a second time, streamed, for the weight column.
//!
//! ## Complexity
//! O(n) time and memory besides the instance.
//!
//! ## References
//! None.

use super::csv_file::{ColumnSelection, StrataColumns};
use super::instance::Instance;
use super::missing_cells::MissingPolicy;
use super::weights::{check_weight, total_of, Weights};
use crate::error::{Error, Result};
use std::path::Path;

/// Load `--data` with `--weights COLUMN`: the instance of the other (or the chosen) columns
/// with its weights attached. Generators have no columns to read weights from.
pub fn load_weighted(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    weights_column: &str,
) -> Result<Instance> {
    load_weighted_split(
        spec,
        columns,
        delimiter,
        &[],
        MissingPolicy::Refuse,
        weights_column,
    )
    .map(|(inst, _)| inst)
}

/// As [`load_weighted`], also reading the `strata` columns (`run --strata`) and with a
/// missing-value policy (`run --missing`): the loader of [`super::load_missing`] with the
/// weights attached. With every column selected, the weights column and the strata columns
/// are left out of the attributes; the weights column cannot be a strata column.
pub fn load_weighted_split(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    missing: MissingPolicy,
    weights_column: &str,
) -> Result<(Instance, Option<StrataColumns>)> {
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
    let strata_at: Vec<usize> = strata
        .iter()
        .filter_map(|s| resolve_column(&header, s, &file).ok())
        .collect();
    if strata_at.contains(&wcol) {
        return Err(Error::Data {
            file,
            location: format!("header, column {}", wcol + 1),
            message: format!(
                "column '{}' is the weights column (--weights): it cannot also be a strata \
                 column (--strata)",
                header[wcol]
            ),
        });
    }
    let selection = match &columns {
        ColumnSelection::All => ColumnSelection::List(
            header
                .iter()
                .enumerate()
                .filter(|&(j, _)| j != wcol && !strata_at.contains(&j))
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
    let (mut inst, strata) = super::load_missing(spec, &selection, delimiter, strata, missing)?;
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
    Ok((inst, strata))
}

fn reader(path: &Path, delimiter: u8) -> Result<csv::Reader<std::io::BufReader<std::fs::File>>> {
    let f = std::fs::File::open(path).map_err(|e| Error::io(path, e))?;
    Ok(csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(std::io::BufReader::with_capacity(1 << 16, f)))
}

/// The header of a CSV file (names trimmed); errors name the file.
pub(crate) fn read_header(path: &Path, delimiter: u8) -> Result<Vec<String>> {
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
