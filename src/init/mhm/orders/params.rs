//! # Parameters of the order heuristics
//!
//! The user-facing parameters of the orders in [`super`]: [`ColumnParams`] (the column
//! `mhm-var` and `proj-var` sort by, a [`ColumnRef`] by name or 1-based index) and
//! [`GroupPathParams`] (how `mhm-mdav`, `mhm-md` and `mhm-cbfs` sequence their groups,
//! [`PathKind`]).
//!
//! ## Complexity
//! O(d) to resolve a column by name.
//!
//! ## References
//! See [`super`].

use super::{GroupOrderReading, Sequence};
use crate::data::Instance;
use crate::error::{Error, Result};

/// A column given by name or by 1-based index.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(untagged)]
pub(crate) enum ColumnRef {
    /// 1-based column index.
    Index(usize),
    /// Column name as in the data file's header.
    Name(String),
}

/// Parameters of `mhm-var` and `proj-var`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct ColumnParams {
    pub column: ColumnRef,
}

impl Default for ColumnParams {
    fn default() -> Self {
        ColumnParams {
            column: ColumnRef::Index(1),
        }
    }
}

impl crate::params::Params for ColumnParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "column",
        "the variable to sort by: a column name (string, as in the header) or a 1-based index (number); default 1, the first column",
    )];

    fn check(&self) -> std::result::Result<(), String> {
        match &self.column {
            ColumnRef::Index(0) => Err("column index is 1-based: 0 is not a column".into()),
            ColumnRef::Name(s) if s.is_empty() => Err("column name is empty".into()),
            _ => Ok(()),
        }
    }
}

impl ColumnRef {
    /// The 0-based column of `inst`; the error names the instance's columns.
    pub fn resolve(&self, method: &str, inst: &Instance) -> Result<usize> {
        let found = match self {
            ColumnRef::Index(j) => (1..=inst.d).contains(j).then(|| j - 1),
            ColumnRef::Name(name) => inst.columns.iter().position(|c| c == name),
        };
        found.ok_or_else(|| {
            Error::usage(format!(
                "{method}: column {} not found in '{}' (d = {}; columns: {})",
                match self {
                    ColumnRef::Index(j) => j.to_string(),
                    ColumnRef::Name(s) => format!("'{s}'"),
                },
                inst.name,
                inst.d,
                inst.columns.join(", ")
            ))
        })
    }
}

/// How `mhm-mdav`, `mhm-md` and `mhm-cbfs` sequence the heuristic's groups.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum PathKind {
    /// Groups in creation order, records as added ([`GroupOrderReading::CHOSEN`]).
    Creation,
    /// IMHM's path through the groups ([`Sequence::Chain`]).
    Chain,
}

/// Parameters of `mhm-mdav`, `mhm-md` and `mhm-cbfs`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(default, deny_unknown_fields)]
pub(crate) struct GroupPathParams {
    pub path: PathKind,
}

impl Default for GroupPathParams {
    fn default() -> Self {
        GroupPathParams {
            path: PathKind::Creation,
        }
    }
}

impl crate::params::Params for GroupPathParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "path",
        "how the heuristic's groups become one order: \"creation\" (default: groups in creation order, records in the order they were added, a leftover of < k records at the end of its nearest group) or \"chain\" (IMHM's Construct_Path: from the group of the record farthest from the centroid, next the group whose centroid is nearest to any of its records)",
    )];
}

impl GroupPathParams {
    /// The reading this parameter selects.
    pub fn reading(&self) -> GroupOrderReading {
        match self.path {
            PathKind::Creation => GroupOrderReading::CHOSEN,
            PathKind::Chain => GroupOrderReading {
                sequence: Sequence::Chain,
                ..GroupOrderReading::CHOSEN
            },
        }
    }
}
