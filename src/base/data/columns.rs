//! # Choosing a file's columns
//!
//! The header checks and the roles of a CSV file's columns: the numeric attributes
//! (`--columns`, default all), the strata columns (`--strata`, text labels) and the
//! sampling-weights column (`--weights`). A column has one role; asking for two is an error
//! naming the column.
//!
//! ## Complexity
//! O(h c) for a header of h names and c chosen columns.

use super::csv_file::FileErrors;
use crate::error::{Error, Result};
use std::collections::HashSet;

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

    pub(crate) fn is_all(&self) -> bool {
        matches!(self, ColumnSelection::All)
    }

    /// Resolve to column positions (0-based) in a header.
    pub(super) fn resolve(&self, header: &[String], file: &str) -> Result<Vec<usize>> {
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

/// Every column name present and distinct.
fn check_header_names(header: &[String], errs: &FileErrors) -> Result<()> {
    let mut seen = HashSet::new();
    for (j, h) in header.iter().enumerate() {
        if h.is_empty() {
            return Err(errs.data(
                format!("header, column {}", j + 1),
                "empty column name".into(),
            ));
        }
        if !seen.insert(h.as_str()) {
            return Err(errs.data(
                format!("header, column {}", j + 1),
                format!("duplicate column name '{h}'"),
            ));
        }
    }
    Ok(())
}

/// The roles of a file's columns: each a 0-based position in the header.
pub(super) struct Roles {
    /// The strata columns (`--strata`), in the order named.
    pub strata: Vec<usize>,
    /// The numeric attributes, in the order chosen.
    pub selected: Vec<usize>,
    /// The sampling-weights column (`--weights`).
    pub weights: Option<usize>,
}

/// The weights column (`weights`), the strata columns (`strata`) and the numeric columns
/// (`columns`; all: every column that is neither), checked: no column in two roles, at
/// least one numeric column besides the others.
pub(super) fn pick_columns(
    header: &[String],
    columns: &ColumnSelection,
    strata: &[String],
    weights: Option<&str>,
    errs: &FileErrors,
) -> Result<Roles> {
    check_header_names(header, errs)?;
    let weights = weights
        .map(|w| weights_column(header, w, errs))
        .transpose()?;
    let strata = strata_columns(header, strata, errs)?;
    if let Some(w) = weights.filter(|w| strata.contains(w)) {
        return Err(twice(
            header,
            w,
            "the weights column (--weights)",
            "a strata column (--strata)",
            errs,
        ));
    }
    let selected: Vec<usize> = match columns {
        ColumnSelection::All => (0..header.len())
            .filter(|j| !strata.contains(j) && weights != Some(*j))
            .collect(),
        list => {
            let sel = list
                .resolve(header, errs.file)
                .map_err(|e| errs.with_hint(e))?;
            if let Some(&j) = sel.iter().find(|&&j| weights == Some(j)) {
                return Err(twice(
                    header,
                    j,
                    "the weights column (--weights)",
                    "an attribute (--columns)",
                    errs,
                ));
            }
            if let Some(&j) = sel.iter().find(|j| strata.contains(j)) {
                return Err(errs.data(
                    format!("header, column {}", j + 1),
                    format!(
                        "column '{}' is a strata column (--strata): it labels strata and \
                         cannot also be a numeric attribute (--columns)",
                        header[j]
                    ),
                ));
            }
            sel
        }
    };
    if selected.is_empty() && !(strata.is_empty() && weights.is_none()) {
        let others = if strata.is_empty() {
            "the weights column"
        } else {
            "the strata columns"
        };
        return Err(errs.data(
            "header".into(),
            format!("no numeric columns are left besides {others}"),
        ));
    }
    Ok(Roles {
        strata,
        selected,
        weights,
    })
}

/// The error for column `j` asked to be `role` and `other` at once.
fn twice(header: &[String], j: usize, role: &str, other: &str, errs: &FileErrors) -> Error {
    errs.data(
        format!("header, column {}", j + 1),
        format!(
            "column '{}' is {role}: it cannot also be {other}",
            header[j]
        ),
    )
}

/// The strata columns (`--strata`) by name or 1-based position; errors say `(--strata)`.
fn strata_columns(header: &[String], strata: &[String], errs: &FileErrors) -> Result<Vec<usize>> {
    if strata.is_empty() {
        return Ok(Vec::new());
    }
    ColumnSelection::List(strata.to_vec())
        .resolve(header, errs.file)
        .map_err(|e| e.map_data(|location, message| (format!("{location} (--strata)"), message)))
        .map_err(|e| errs.with_hint(e))
}

/// The weights column (`--weights`): by name, or by 1-based position when the token is a
/// number that is not a name.
fn weights_column(header: &[String], item: &str, errs: &FileErrors) -> Result<usize> {
    let item = item.trim();
    if let Some(p) = header.iter().position(|h| h == item) {
        return Ok(p);
    }
    match item.parse::<usize>() {
        Ok(p) if p >= 1 && p <= header.len() => Ok(p - 1),
        _ => Err(errs.data(
            "header (--weights)".into(),
            format!(
                "no weights column '{item}'; the file has: {}",
                header.join(", ")
            ),
        )),
    }
}
