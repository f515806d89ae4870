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
//! Reading: O(n) time and memory besides the instance (the weights are read in the same
//! streamed pass as the attributes, `csv_file`). Weighted SSE and SST: O(n d).
//!
//! ## References
//! Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Wiley, Section 2.2 (weighted
//! estimators of totals and means). sdcMicro `R/microaggregation.R` (weighted group means).

use crate::error::{Error, Result};

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
pub(super) fn check_weight(w: f64, cell: &str) -> std::result::Result<(), String> {
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

pub(super) fn total_of(values: &[f64]) -> std::result::Result<f64, String> {
    let total: f64 = values.iter().sum();
    if total.is_finite() && total > 0.0 {
        Ok(total)
    } else {
        Err(format!(
            "the weights sum to {total}: the total must be finite and > 0; rescale them"
        ))
    }
}
