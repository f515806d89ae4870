//! # Solver errors
//!
//! One error type for every kernel of this crate that validates its input. Kernels reject
//! invalid input with a [`SolverError`] instead of panicking, so callers can report the
//! problem (which record, which parameter) to the user.
//!
//! ## Complexity
//! Not applicable (plain data).
//!
//! ## References
//! None.

/// Why a kernel refused its input.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum SolverError {
    /// The minimum group size `k` must be at least 1.
    #[error("minimum group size k must be at least 1")]
    ZeroGroupSize,
    /// Fewer records than the minimum group size: no partition with all groups of size `>= k`
    /// exists (this includes `n = 0`).
    #[error("infeasible: {n} record(s) cannot form groups of at least k = {k}")]
    Infeasible { n: usize, k: usize },
    /// A value is NaN or infinite; `index` is the position in the input slice.
    #[error("value at index {index} is NaN or infinite")]
    NonFinite { index: usize },
    /// The input must be sorted ascending, but `values[index] < values[index - 1]`.
    #[error(
        "input must be sorted ascending, but value {index} is smaller than value {}",
        .index - 1
    )]
    Unsorted { index: usize },
    /// A sampling weight is NaN, infinite, zero or negative; `index` is its position.
    #[error("weight at index {index} is not a finite positive number")]
    BadWeight { index: usize },
    /// The dimension `d` is zero or does not divide the length of the data slice.
    #[error("dimension d = {d} is zero or does not divide the data length {len}")]
    BadDimension { len: usize, d: usize },
    /// `order[position]` is out of range or repeats an earlier entry.
    #[error("order[{position}] = {record} is out of range or repeated")]
    BadOrder { position: usize, record: usize },
    /// Brute force was asked for more records than it can enumerate.
    #[error("brute force enumerates at most {max} records, got {n}")]
    TooLarge { n: usize, max: usize },
    /// An exact method was asked for more records than it handles (`method` names it).
    #[error(
        "{method} handles at most {max} records, got {n} (use a heuristic and a lower bound instead)"
    )]
    TooLargeFor {
        method: &'static str,
        n: usize,
        max: usize,
    },
    /// A neighbour list given to a bound is malformed: `record`'s list has the wrong length,
    /// an id out of range, the record itself, a repeated id, or distances out of order.
    #[error("bad neighbour list of record {record}: {message}")]
    BadNeighbours { record: usize, message: String },
    /// A bound certificate's cut data are malformed (`message` says which cut and why).
    #[error("bad cut: {message}")]
    BadCut { message: String },
    /// A branch-and-price certificate's branching decision is malformed.
    #[error("bad branching decision: {message}")]
    BadDecision { message: String },
    /// A dual vector given to a bound does not have one value per record.
    #[error("{len} duals for {n} records")]
    BadDuals { len: usize, n: usize },
    /// The LP/MIP backend (HiGHS) failed or returned an unusable answer.
    #[error("HiGHS: {message}")]
    Backend { message: String },
    /// A MIP solver other than HiGHS (`solver` names it) failed or is not in this build.
    #[error("{solver}: {message}")]
    Mip {
        solver: &'static str,
        message: String,
    },
}

impl SolverError {
    /// A [`SolverError::Backend`] with this message.
    pub(crate) fn backend(message: impl Into<String>) -> Self {
        SolverError::Backend {
            message: message.into(),
        }
    }
}

/// Set a HiGHS option, or a [`SolverError::Backend`] naming it.
pub(crate) fn set_highs_option<V: highs::HighsOptionValue>(
    model: &mut highs::Model,
    name: &str,
    value: V,
) -> Result<(), SolverError> {
    model
        .try_set_option(name, value)
        .map_err(|_| SolverError::backend(format!("could not set option {name}")))
}

/// Check row-major data `x` (n records, d columns) and group size k: `k >= 1`, `x.len() = n d`
/// with `d >= 1`, every value finite, `n >= k`. The common input contract of the kernels.
pub(crate) fn check_rows(x: &[f64], n: usize, d: usize, k: usize) -> Result<(), SolverError> {
    if k == 0 {
        return Err(SolverError::ZeroGroupSize);
    }
    if d == 0 || x.len() != n * d {
        return Err(SolverError::BadDimension { len: x.len(), d });
    }
    if let Some(index) = x.iter().position(|v| !v.is_finite()) {
        return Err(SolverError::NonFinite { index });
    }
    if n < k {
        return Err(SolverError::Infeasible { n, k });
    }
    Ok(())
}

/// Check sampling weights for `n` records: one each, finite and positive
/// ([`SolverError::BadWeight`] at the first bad one, or at `min(len, n)` for a wrong length).
pub(crate) fn check_weights(w: &[f64], n: usize) -> Result<(), SolverError> {
    if w.len() != n {
        return Err(SolverError::BadWeight {
            index: w.len().min(n),
        });
    }
    match w.iter().position(|&v| !(v.is_finite() && v > 0.0)) {
        Some(index) => Err(SolverError::BadWeight { index }),
        None => Ok(()),
    }
}
