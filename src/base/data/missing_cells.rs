//! # Missing cells: the loader's policy and what counts as missing
//!
//! The two pieces of `run --missing` that the CSV loader needs, kept here at the bottom of
//! the crate so that loading does not import the masked methods of [`crate::missing`]
//! (which re-exports both).
//!
//! ## Complexity
//! O(length of the cell) per test.
//!
//! ## References
//! None.

use serde::{Deserialize, Serialize};

/// What the loader does with an empty or `NA` cell of a chosen column.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MissingPolicy {
    /// Stop at the first one, naming file, row and column.
    #[default]
    Refuse,
    /// Leave it out of distances, centroids and the SSE (MDAV only).
    Ignore,
}

/// The text of a missing cell: empty (after trimming) or `NA` (R's `write.csv`).
pub(crate) fn is_missing_text(cell: &str) -> bool {
    let t = cell.trim();
    t.is_empty() || t == "NA"
}
