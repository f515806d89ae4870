//! # Errors
//!
//! One error type for the workbench. Data errors name the file, the row (1-based data row;
//! the header is line 1 of the file, so data row r is file line r + 1) and the column, so a
//! user can find the offending cell without guessing.

use std::path::PathBuf;

/// Everything that can go wrong in the workbench, with enough context to act on it.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A file could not be opened or read.
    #[error("{path}: {message}")]
    Io { path: PathBuf, message: String },

    /// A bad cell, row or header in an input file.
    #[error("{file}: {location}: {message}")]
    Data {
        file: String,
        /// e.g. "row 12 (line 13), column 'SALES' (3)" or "header".
        location: String,
        message: String,
    },

    /// An instance id that does not resolve, or a file that fails its checksum.
    #[error("instance '{id}': {message}")]
    Instance { id: String, message: String },

    /// Bad command-line or configuration input (unknown method, bad k, bad parameter, ...).
    #[error("{0}")]
    Usage(String),

    /// A labelling that violates the k-anonymity constraint or does not fit the data.
    #[error("infeasible: {0}")]
    Infeasible(String),

    /// An algorithm failed on valid input (a bug or a numerical breakdown); never silent.
    #[error("{method}: {message}")]
    Algorithm { method: String, message: String },

    /// A run stopped by Ctrl-C or its time limit before it had a result to return.
    #[error("interrupted: {0}")]
    Interrupted(String),

    /// Standard output was closed by its reader (`microagg list | head -1`): the command
    /// line ends quietly, as other Unix tools do.
    #[error("standard output closed")]
    BrokenPipe,
}

impl Error {
    pub fn usage(msg: impl Into<String>) -> Self {
        Error::Usage(msg.into())
    }

    /// An algorithm (or solver kernel) `method` failed with `err`.
    pub fn algorithm(method: impl Into<String>, err: impl std::fmt::Display) -> Self {
        Error::Algorithm {
            method: method.into(),
            message: err.to_string(),
        }
    }

    pub fn io(path: impl Into<PathBuf>, err: impl std::fmt::Display) -> Self {
        Error::Io {
            path: path.into(),
            message: err.to_string(),
        }
    }

    /// A data error with its location and message rewritten by `f`; other errors as they are.
    pub(crate) fn map_data(self, f: impl FnOnce(String, String) -> (String, String)) -> Self {
        match self {
            Error::Data {
                file,
                location,
                message,
            } => {
                let (location, message) = f(location, message);
                Error::Data {
                    file,
                    location,
                    message,
                }
            }
            other => other,
        }
    }
}

pub type Result<T, E = Error> = std::result::Result<T, E>;
