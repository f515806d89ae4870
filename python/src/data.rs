//! # Data
//!
//! `Data`: the library's `Instance` (z-scored records with their original values, column
//! names and a sha256 that enters the seed derivation), built either from an array (raw
//! float64 values, row-major) or from a `--data` spec exactly as the CLI loads it (a CSV
//! path, a CASC instance id, a generator spec), so that a spec gives the CLI's labels for
//! the same method and seed. An array's sha256 is that of its values, as for the CLI's
//! generated data, so a generated instance read back as an array gets the same seeds too.
//!
//! ## Complexity
//! O(n d): one copy of the values in, the library's z-scoring.
//!
//! ## References
//! None.

use crate::errors::{to_py, usage};
use microagg::data::{self, ColumnSelection, Instance, Weights};
use microagg::missing::MissingPolicy;
use pyo3::prelude::*;
use pyo3::types::PyBytes;
use std::sync::Arc;

/// Records to microaggregate (the library's standardised instance).
#[pyclass(frozen, module = "microagg._core")]
pub struct Data {
    pub inst: Arc<Instance>,
}

#[pymethods]
impl Data {
    /// From `raw`: n*d float64 values, native byte order, row-major. With `missing`
    /// (`run --missing ignore`) a NaN is a missing cell (standardised over the observed
    /// values, `docs/missing-values.md`); without, NaN is an error naming row and column.
    #[staticmethod]
    #[pyo3(signature = (raw, n, d, columns, name, missing=false))]
    fn from_array(
        py: Python<'_>,
        raw: &[u8],
        n: usize,
        d: usize,
        columns: Vec<String>,
        name: &str,
        missing: bool,
    ) -> PyResult<Data> {
        if columns.len() != d || raw.len() != n.saturating_mul(d).saturating_mul(8) {
            return Err(usage(
                py,
                format!(
                    "{name}: {} bytes and {} column names for an array of {n} x {d} float64 values",
                    raw.len(),
                    columns.len()
                ),
            ));
        }
        let values: Vec<f64> = raw
            .chunks_exact(8)
            .map(|b| f64::from_ne_bytes(b.try_into().expect("8 bytes")))
            .collect();
        let sha = microagg::data::instance::sha256_of_values(&values);
        let inst = if missing {
            Instance::from_raw_missing(name, name, columns, values, sha)
        } else {
            Instance::from_raw(name, name, columns, values, sha)
        }
        .map_err(|e| to_py(py, e))?;
        Ok(Data {
            inst: Arc::new(inst),
        })
    }

    /// As the CLI's `--data SPEC --columns COLUMNS --delimiter DELIMITER`, with
    /// `--missing ignore` when `missing` and `--weights COLUMN` when `weights` (both: the
    /// weighted figures over the observed cells, docs/weights.md "Weights and missing
    /// values"; loaded by the CLI's loader, `load_weighted_split`).
    #[staticmethod]
    #[pyo3(signature = (spec, columns=None, delimiter=",", missing=false, weights=None))]
    fn load(
        py: Python<'_>,
        spec: &str,
        columns: Option<&str>,
        delimiter: &str,
        missing: bool,
        weights: Option<String>,
    ) -> PyResult<Data> {
        let delimiter = match delimiter.as_bytes() {
            [b] if b.is_ascii() && *b != b'"' && *b != b'\n' => *b,
            _ => {
                return Err(usage(
                    py,
                    format!("delimiter {delimiter:?}: expected one ASCII character"),
                ))
            }
        };
        let selection = columns.map_or(ColumnSelection::All, ColumnSelection::parse);
        let spec = spec.to_string();
        let policy = if missing {
            MissingPolicy::Ignore
        } else {
            MissingPolicy::Refuse
        };
        let inst = py
            .detach(move || match weights {
                Some(w) => data::load_weighted_split(&spec, &selection, delimiter, &[], policy, &w)
                    .map(|r| r.0),
                None => data::load_missing(&spec, &selection, delimiter, &[], policy).map(|r| r.0),
            })
            .map_err(|e| to_py(py, e))?;
        Ok(Data {
            inst: Arc::new(inst),
        })
    }

    #[getter]
    fn n(&self) -> usize {
        self.inst.n
    }
    #[getter]
    fn d(&self) -> usize {
        self.inst.d
    }
    #[getter]
    fn name(&self) -> &str {
        &self.inst.name
    }
    #[getter]
    fn source(&self) -> &str {
        &self.inst.source
    }
    #[getter]
    fn columns(&self) -> Vec<String> {
        self.inst.columns.clone()
    }
    #[getter]
    fn sha256(&self) -> &str {
        &self.inst.sha256
    }
    #[getter]
    fn sst(&self) -> f64 {
        self.inst.sst
    }

    /// The same records with sampling weights `values` (one per record, finite, > 0)
    /// named `column` (as `--weights COLUMN`; `docs/weights.md`; with missing cells the
    /// weighted figures are over the observed cells).
    fn with_weights(&self, py: Python<'_>, column: &str, values: Vec<f64>) -> PyResult<Data> {
        if values.len() != self.inst.n {
            return Err(usage(
                py,
                format!(
                    "weights: {} values for {} records",
                    values.len(),
                    self.inst.n
                ),
            ));
        }
        let w = Weights::new(column, values).map_err(|e| to_py(py, e))?;
        let mut inst = (*self.inst).clone();
        inst.weights = Some(w);
        Ok(Data {
            inst: Arc::new(inst),
        })
    }

    /// The sampling weights, or None.
    #[getter]
    fn weights(&self) -> Option<Vec<f64>> {
        self.inst.weights.as_ref().map(|w| w.values.clone())
    }

    /// True when a cell is missing (loaded with `missing=True`).
    #[getter]
    fn has_missing(&self) -> bool {
        self.inst.has_missing()
    }

    /// `Data('tarragona', n=834, d=13, columns=['A', 'B', ...], sha256='1f2e3d4c...')`,
    /// with the weights' column and `missing cells` when there are any.
    fn __repr__(&self) -> String {
        let inst = &self.inst;
        let shown: Vec<String> = inst.columns.iter().take(6).map(|c| quoted(c)).collect();
        let more = if inst.columns.len() > 6 { ", ..." } else { "" };
        let sha: String = inst.sha256.chars().take(12).collect();
        let mut extra = String::new();
        if let Some(w) = &inst.weights {
            extra += &format!(", weights={}", quoted(&w.column));
        }
        if inst.has_missing() {
            extra += ", missing cells";
        }
        format!(
            "Data({}, n={}, d={}, columns=[{}{more}], sha256='{sha}...'{extra})",
            quoted(&inst.name),
            inst.n,
            inst.d,
            shown.join(", ")
        )
    }

    /// The original values (n*d float64, native byte order, row-major).
    fn raw<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        f64_bytes(py, &self.inst.raw)
    }
}

/// `text` as a Python string literal in single quotes.
fn quoted(text: &str) -> String {
    format!("'{}'", text.replace('\\', "\\\\").replace('\'', "\\'"))
}

/// `values` as native-endian float64 bytes.
pub fn f64_bytes<'py>(py: Python<'py>, values: &[f64]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = values.iter().flat_map(|v| v.to_ne_bytes()).collect();
    PyBytes::new(py, &bytes)
}

/// Labels as native-endian int64 bytes.
pub fn label_bytes<'py>(py: Python<'py>, labels: &[usize]) -> Bound<'py, PyBytes> {
    let bytes: Vec<u8> = labels
        .iter()
        .flat_map(|&l| (l as i64).to_ne_bytes())
        .collect();
    PyBytes::new(py, &bytes)
}

/// Labels from native-endian int64 bytes; negative labels are usage errors.
pub fn labels_from_bytes(py: Python<'_>, bytes: &[u8]) -> PyResult<Vec<usize>> {
    if !bytes.len().is_multiple_of(8) {
        return Err(usage(py, "labels: not a whole number of int64 values"));
    }
    bytes
        .chunks_exact(8)
        .enumerate()
        .map(|(i, b)| {
            let l = i64::from_ne_bytes(b.try_into().expect("8 bytes"));
            usize::try_from(l)
                .map_err(|_| usage(py, format!("labels: row {}: label {l} is negative", i + 1)))
        })
        .collect()
}
