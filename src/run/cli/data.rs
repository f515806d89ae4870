//! # Data options
//!
//! [`DataArgs`]: `--data`, `--columns`, `--k`, `--delimiter` and `--weights`, shared by
//! every command that reads an instance, and how they load it. Commands that do not use
//! sampling weights load with [`DataArgs::load`], which refuses `--weights` (never ignores
//! it); `run` and `check` use [`DataArgs::load_weighted`]. [`OneColumnArg`] (`--column`) is
//! flattened only into the commands whose methods can work on one attribute: `run`
//! (univariate) and `check`, which re-reads the data of a run's labels.
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
pub(crate) struct DataArgs {
    /// Data: a CSV file path, an instance id (tarragona, census, eia), or a generator spec
    /// (uniform:n=1000,d=5,seed=1; gauss:n=..,d=..,clusters=5; heavy:n=..,d=..; sim1; sim2:seed=3;
    /// sim3).
    #[arg(long)]
    pub data: String,
    /// Columns to use, by name or 1-based position, comma-separated (default: all).
    #[arg(long, default_value = "")]
    pub columns: String,
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
        self.load_weighted_columns(&self.selection())
    }

    /// [`Self::load_weighted`] with the columns chosen by the caller (e.g. by
    /// [`OneColumnArg::selection`]).
    pub(crate) fn load_weighted_columns(
        &self,
        columns: &ColumnSelection,
    ) -> Result<data::Instance> {
        match &self.weights {
            Some(weights) => data::load_weighted(&self.data, columns, self.delimiter()?, weights),
            None => data::load_with(&self.data, columns, self.delimiter()?),
        }
    }

    /// The input file, when `--data` names one (for refusing to overwrite it).
    pub(crate) fn input_file(&self) -> Option<PathBuf> {
        let p = Path::new(&self.data);
        p.is_file().then(|| output::canonical(p)).flatten()
    }

    /// The columns `--columns` chooses.
    pub fn selection(&self) -> ColumnSelection {
        ColumnSelection::parse(&self.columns)
    }
}

/// `--column`: one attribute, for the commands whose methods can work on one.
#[derive(clap::Args, Clone)]
#[command(next_help_heading = "Data")]
pub(crate) struct OneColumnArg {
    /// One column, by name or 1-based position (for one-attribute methods such as univariate).
    #[arg(long, conflicts_with = "columns")]
    pub column: Option<String>,
}

impl OneColumnArg {
    /// The columns to load: the one `--column`, else those of `data`'s `--columns`.
    pub fn selection(&self, data: &DataArgs) -> ColumnSelection {
        match &self.column {
            Some(c) => ColumnSelection::List(vec![c.trim().to_string()]),
            None => data.selection(),
        }
    }
}
