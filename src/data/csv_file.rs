//! # CSV loader
//!
//! Reads a comma-separated file with one header row into an [`Instance`]. Columns are chosen
//! by name or by 1-based position (default: all). Nothing is fixed silently: an empty file, a
//! header without rows, a ragged row, an empty or non-numeric cell, NaN or an infinite value,
//! a duplicate or unknown column name and a constant column are errors that name the file,
//! the row (data row r is line r + 1 of the file) and the column.
//!
//! ## Complexity
//! O(n d) time and memory.

use super::instance::{sha256_hex, Instance};
use crate::error::{Error, Result};
use std::collections::HashSet;
use std::path::Path;

/// Which columns of a file to use.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum ColumnSelection {
    /// Every column of the file.
    #[default]
    All,
    /// Columns by name, or by 1-based position when the token is a number that is not a
    /// column name.
    List(Vec<String>),
}

impl ColumnSelection {
    /// Parse a comma-separated list (`"SALES,3,NET.PROFIT"`); empty means all.
    pub fn parse(spec: &str) -> Self {
        let items: Vec<String> = spec
            .split(',')
            .map(|s| s.trim().to_string())
            .filter(|s| !s.is_empty())
            .collect();
        if items.is_empty() {
            ColumnSelection::All
        } else {
            ColumnSelection::List(items)
        }
    }

    pub fn is_all(&self) -> bool {
        matches!(self, ColumnSelection::All)
    }

    /// Resolve to column positions (0-based) in a header.
    fn resolve(&self, header: &[String], file: &str) -> Result<Vec<usize>> {
        match self {
            ColumnSelection::All => Ok((0..header.len()).collect()),
            ColumnSelection::List(items) => {
                let mut out = Vec::with_capacity(items.len());
                for item in items {
                    let pos = if let Some(p) = header.iter().position(|h| h == item) {
                        p
                    } else if let Ok(p) = item.parse::<usize>() {
                        if p == 0 || p > header.len() {
                            return Err(Error::Data {
                                file: file.into(),
                                location: "header".into(),
                                message: format!(
                                    "column position {p} is out of range: the file has {} columns (positions are 1-based)",
                                    header.len()
                                ),
                            });
                        }
                        p - 1
                    } else {
                        return Err(Error::Data {
                            file: file.into(),
                            location: "header".into(),
                            message: format!(
                                "unknown column '{item}'; the file has: {}",
                                header.join(", ")
                            ),
                        });
                    };
                    if out.contains(&pos) {
                        return Err(Error::Data {
                            file: file.into(),
                            location: "header".into(),
                            message: format!("column '{}' selected twice", header[pos]),
                        });
                    }
                    out.push(pos);
                }
                Ok(out)
            }
        }
    }
}

/// Load a comma-separated file from disk.
pub fn load_csv(path: &Path, columns: &ColumnSelection) -> Result<Instance> {
    load_csv_with(path, columns, b',')
}

/// Load a CSV file from disk with the given field delimiter (`--delimiter`).
pub fn load_csv_with(path: &Path, columns: &ColumnSelection, delimiter: u8) -> Result<Instance> {
    let bytes = std::fs::read(path).map_err(|e| {
        if e.kind() == std::io::ErrorKind::NotFound {
            Error::io(path, "file not found")
        } else {
            Error::io(path, e)
        }
    })?;
    let name = path
        .file_stem()
        .map(|s| s.to_string_lossy().into_owned())
        .unwrap_or_else(|| path.display().to_string());
    parse_csv_with(
        &bytes,
        &path.display().to_string(),
        &name,
        columns,
        delimiter,
    )
}

/// Parse comma-separated bytes; `file` is used in error messages, `name` becomes the
/// instance name.
pub fn parse_csv(
    bytes: &[u8],
    file: &str,
    name: &str,
    columns: &ColumnSelection,
) -> Result<Instance> {
    parse_csv_with(bytes, file, name, columns, b',')
}

/// Parse CSV bytes with the given field delimiter. When a comma-separated read fails on a
/// file whose first line holds semicolons (or tabs), the error suggests `--delimiter`.
pub fn parse_csv_with(
    bytes: &[u8],
    file: &str,
    name: &str,
    columns: &ColumnSelection,
    delimiter: u8,
) -> Result<Instance> {
    let first_line = bytes.split(|&b| b == b'\n').next().unwrap_or_default();
    let hint = [b';', b'\t']
        .into_iter()
        .find(|&c| c != delimiter && first_line.contains(&c) && !first_line.contains(&delimiter))
        .map_or(String::new(), |c| {
            format!(
                " (the header holds no '{}' but does hold '{}': try --delimiter '{}')",
                delimiter as char,
                (c as char).escape_default(),
                (c as char).escape_default()
            )
        });
    let data_err = |location: String, message: String| Error::Data {
        file: file.into(),
        location,
        message: format!("{message}{hint}"),
    };
    if bytes.iter().all(|b| b.is_ascii_whitespace()) {
        return Err(data_err(
            "file".into(),
            "empty file: expected a header row and data rows".into(),
        ));
    }
    let mut reader = csv::ReaderBuilder::new()
        .has_headers(true)
        .flexible(true)
        .delimiter(delimiter)
        .from_reader(bytes);
    let header: Vec<String> = reader
        .headers()
        .map_err(|e| data_err("header".into(), e.to_string()))?
        .iter()
        .map(|h| h.trim().to_string())
        .collect();
    let mut seen = HashSet::new();
    for (j, h) in header.iter().enumerate() {
        if h.is_empty() {
            return Err(data_err(
                format!("header, column {}", j + 1),
                "empty column name".into(),
            ));
        }
        if !seen.insert(h.as_str()) {
            return Err(data_err(
                format!("header, column {}", j + 1),
                format!("duplicate column name '{h}'"),
            ));
        }
    }
    let selected = columns.resolve(&header, file).map_err(|e| match e {
        Error::Data {
            file,
            location,
            message,
        } => Error::Data {
            file,
            location,
            message: format!("{message}{hint}"),
        },
        other => other,
    })?;
    let names: Vec<String> = selected.iter().map(|&j| header[j].clone()).collect();

    let mut raw = Vec::new();
    let mut record = csv::StringRecord::new();
    let mut row = 0usize;
    loop {
        let more = reader
            .read_record(&mut record)
            .map_err(|e| data_err(format!("row {} (line {})", row + 1, row + 2), e.to_string()))?;
        if !more {
            break;
        }
        row += 1;
        let line = record.position().map_or(row as u64 + 1, |p| p.line());
        let here = |j: usize| {
            format!(
                "row {row} (line {line}), column '{}' ({})",
                header.get(j).map_or("?", |s| s.as_str()),
                j + 1
            )
        };
        if record.len() != header.len() {
            return Err(data_err(
                format!("row {row} (line {line})"),
                format!(
                    "ragged row: {} fields, the header has {}",
                    record.len(),
                    header.len()
                ),
            ));
        }
        for &j in &selected {
            let cell = record[j].trim();
            if cell.is_empty() {
                return Err(data_err(here(j), "empty cell (missing value)".into()));
            }
            let v: f64 = cell
                .parse()
                .map_err(|_| data_err(here(j), format!("non-numeric value '{cell}'")))?;
            if !v.is_finite() {
                return Err(data_err(
                    here(j),
                    format!("value '{cell}' is NaN or infinite"),
                ));
            }
            raw.push(v);
        }
    }
    if row == 0 {
        return Err(data_err("file".into(), "no data rows (header only)".into()));
    }
    Instance::from_raw(name, file, names, raw, sha256_hex(bytes)).map_err(|e| match e {
        Error::Data {
            file,
            location,
            message,
        } => Error::Data {
            file,
            location,
            message: format!("{message}{hint}"),
        },
        other => other,
    })
}
