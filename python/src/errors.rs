//! # Errors
//!
//! Library errors become the exceptions defined in `microagg/_errors.py`, with the
//! library's message unchanged: data problems (file, row, column named) as `DataError`,
//! bad arguments as `UsageError`, infeasible labels as `InfeasibleError`, solver failures as
//! `AlgorithmError`, a run stopped before it had a partition as `Interrupted`.
//!
//! ## Complexity
//! O(1).
//!
//! ## References
//! None.

use microagg::Error;
use pyo3::prelude::*;
use pyo3::types::PyType;

/// The Python exception class `name` of `microagg._errors`, raised with `message`.
pub fn raise(py: Python<'_>, name: &str, message: String) -> PyErr {
    let class = py
        .import("microagg._errors")
        .and_then(|m| m.getattr(name))
        .and_then(|c| c.cast_into::<PyType>().map_err(PyErr::from));
    match class {
        Ok(class) => PyErr::from_type(class, message),
        // The package is broken (the module is missing); still report the message.
        Err(e) => e,
    }
}

/// The Python exception for a library error.
pub fn to_py(py: Python<'_>, e: Error) -> PyErr {
    let class = match &e {
        Error::Io { .. } | Error::Data { .. } | Error::Instance { .. } => "DataError",
        Error::Usage(_) => "UsageError",
        Error::Infeasible(_) => "InfeasibleError",
        Error::Algorithm { .. } | Error::BrokenPipe => "AlgorithmError",
        Error::Interrupted(_) => "Interrupted",
    };
    raise(py, class, e.to_string())
}

/// A usage error with `message`.
pub fn usage(py: Python<'_>, message: impl Into<String>) -> PyErr {
    raise(py, "UsageError", message.into())
}
