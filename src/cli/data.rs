//! # Data options
//!
//! [`DataArgs`]: `--data`, `--columns` / `--column`, `--k`, `--delimiter` and `--weights`,
//! shared by every command that reads an instance, and how they load it. Commands that do
//! not use sampling weights load with [`DataArgs::load`], which refuses `--weights` (never
//! ignores it); `run` and `check` use [`DataArgs::load_weighted`].
//!
//! ## Complexity
//! That of loading the instance (linear in the file).
//!
//! ## References
//! None.

use crate::data::{self, ColumnSelection};
use crate::error::{Error, Result};
use crate::output;
use std::path::{Path, PathBuf};

#[derive(clap::Args, Clone)]
#[command(next_help_heading = "Data")]
pub struct DataArgs {
    /// Data: a CSV file path, an instance id (tarragona, census, eia), or a generator spec
    /// (uniform:n=1000,d=5,seed=1; gauss:n=..,d=..,clusters=5; sim1; sim2:seed=3; sim3).
    #[arg(long)]
    pub data: String,
    /// Columns to use, by name or 1-based position, comma-separated (default: all).
    #[arg(long, default_value = "", conflicts_with = "column")]
    pub columns: String,
    /// One column, by name or 1-based position (for one-attribute methods such as univariate).
    #[arg(long)]
    pub column: Option<String>,
    /// Minimum group size (k >= 2).
    #[arg(long)]
    pub k: usize,
    /// Field delimiter of CSV files: one character, e.g. ';' or '\t' (default ',').
    #[arg(long, default_value = ",")]
    pub delimiter: String,
    /// Sampling weights: a column of the CSV file (name or 1-based position), read as one
    /// weight per record, each finite and > 0; not an attribute. Reports the weighted IL
    /// (docs/weights.md says what each method does with weights). `run`, `check`, `measure`,
    /// `bound` (nn, colgen), `verify-bound` (weighted certificates) and `solve-exact` (subset DP) only.
    #[arg(long, value_name = "COLUMN")]
    pub weights: Option<String>,
}

impl DataArgs {
    pub fn delimiter(&self) -> Result<u8> {
        match self.delimiter.as_str() {
            "\\t" | "\t" | "tab" => Ok(b'\t'),
            d if d.len() == 1 && d.is_ascii() && d != "\"" && d != "\n" => Ok(d.as_bytes()[0]),
            d => Err(Error::usage(format!(
                "--delimiter '{d}': expected one ASCII character such as ',' ';' or '\\t'"
            ))),
        }
    }

    /// Load the instance for a command without sampling weights: `--weights` is refused.
    pub fn load(&self) -> Result<data::Instance> {
        if self.weights.is_some() {
            return Err(Error::usage(
                "--weights applies to `run`, `check`, `measure`, `bound` (nn, colgen), `verify-bound` (weighted certificates) and `solve-exact` \
                 (subset DP); this command has no weighted version (docs/weights.md)",
            ));
        }
        data::load_with(&self.data, &self.selection(), self.delimiter()?)
    }

    /// Load the instance with its sampling weights when `--weights` is given.
    pub fn load_weighted(&self) -> Result<data::Instance> {
        match &self.weights {
            Some(column) => {
                data::load_weighted(&self.data, &self.selection(), self.delimiter()?, column)
            }
            None => data::load_with(&self.data, &self.selection(), self.delimiter()?),
        }
    }

    /// The input file, when `--data` names one (for refusing to overwrite it).
    pub fn input_file(&self) -> Option<PathBuf> {
        let p = Path::new(&self.data);
        p.is_file().then(|| output::canonical(p)).flatten()
    }

    pub fn selection(&self) -> ColumnSelection {
        match &self.column {
            Some(c) => ColumnSelection::List(vec![c.trim().to_string()]),
            None => ColumnSelection::parse(&self.columns),
        }
    }
}
