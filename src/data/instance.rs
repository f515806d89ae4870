//! # Instance
//!
//! A standardised, row-major record matrix with its sum of squares (SST) and provenance.
//!
//! ## Complexity
//! Construction is O(n d) (two passes per column for the mean and the standard deviation).

use crate::error::{Error, Result};
use sha2::{Digest, Sha256};

/// Records after z-scoring, plus what is needed to go back to the original units.
#[derive(Debug, Clone)]
pub struct Instance {
    /// Short name: manifest id, file stem, or synthetic spec.
    pub name: String,
    /// Where the data came from (path or generator spec).
    pub source: String,
    /// Column names, in order.
    pub columns: Vec<String>,
    pub n: usize,
    pub d: usize,
    /// Standardised values, row-major: record i is `z[i*d..(i+1)*d]`.
    pub z: Vec<f64>,
    /// Original values, row-major (for the masked output in original units).
    pub raw: Vec<f64>,
    /// Column means and population standard deviations of the original values.
    pub mean: Vec<f64>,
    pub std: Vec<f64>,
    /// Total sum of squares of the standardised data around its centroid (about n * d).
    pub sst: f64,
    /// sha256 of the source file's bytes (CSV) or of the generated values (synthetic).
    pub sha256: String,
}

impl Instance {
    /// Standardise `raw` (row-major, n x d). Fails on a constant column, naming it.
    pub fn from_raw(
        name: impl Into<String>,
        source: impl Into<String>,
        columns: Vec<String>,
        raw: Vec<f64>,
        sha256: String,
    ) -> Result<Self> {
        let name = name.into();
        let source = source.into();
        let d = columns.len();
        if d == 0 {
            return Err(Error::Data {
                file: source,
                location: "header".into(),
                message: "no columns selected".into(),
            });
        }
        let n = raw.len() / d;
        if n == 0 {
            return Err(Error::Data {
                file: source,
                location: "data".into(),
                message: "no data rows (header only)".into(),
            });
        }
        let mut mean = vec![0.0; d];
        let mut std = vec![0.0; d];
        for j in 0..d {
            let m = (0..n).map(|i| raw[i * d + j]).sum::<f64>() / n as f64;
            let var = (0..n).map(|i| (raw[i * d + j] - m).powi(2)).sum::<f64>() / n as f64;
            mean[j] = m;
            std[j] = var.sqrt();
            // A column is constant when every value equals the first: zero variance exactly,
            // or a variance that is pure rounding noise of the mean.
            let first = raw[j];
            if (0..n).all(|i| raw[i * d + j] == first) || !(std[j] > 0.0) {
                return Err(Error::Data {
                    file: source,
                    location: format!("column '{}' ({})", columns[j], j + 1),
                    message: format!(
                        "constant column (every value is {first}): zero variance, it cannot be \
                         standardised; leave it out with --columns"
                    ),
                });
            }
        }
        let mut z = vec![0.0; n * d];
        for i in 0..n {
            for j in 0..d {
                z[i * d + j] = (raw[i * d + j] - mean[j]) / std[j];
            }
        }
        let sst = total_sum_of_squares(&z, n, d);
        Ok(Instance {
            name,
            source,
            columns,
            n,
            d,
            z,
            raw,
            mean,
            std,
            sst,
            sha256,
        })
    }

    /// Standardised record i.
    #[inline]
    pub fn row(&self, i: usize) -> &[f64] {
        &self.z[i * self.d..(i + 1) * self.d]
    }

    /// Checks the group-size parameter against this instance: 2 <= k <= n.
    pub fn check_k(&self, k: usize) -> Result<()> {
        if k < 2 {
            return Err(Error::usage(format!(
                "k = {k}: k must be at least 2 (k = 1 leaves every record unprotected)"
            )));
        }
        if k > self.n {
            return Err(Error::usage(format!(
                "k = {k} is larger than the number of records n = {} of '{}': no group of k records exists",
                self.n, self.name
            )));
        }
        Ok(())
    }

    /// Information loss in percent for a given SSE.
    pub fn il(&self, sse: f64) -> f64 {
        100.0 * sse / self.sst
    }
}

/// Sum of squared deviations from the column means, two-pass (no cancellation).
pub fn total_sum_of_squares(z: &[f64], n: usize, d: usize) -> f64 {
    let mut total = 0.0;
    for j in 0..d {
        let m = (0..n).map(|i| z[i * d + j]).sum::<f64>() / n as f64;
        total += (0..n).map(|i| (z[i * d + j] - m).powi(2)).sum::<f64>();
    }
    total
}

/// Hex sha256 of bytes.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// Hex sha256 of f64 values (little-endian bytes), used to fingerprint generated data.
pub fn sha256_of_values(values: &[f64]) -> String {
    let mut h = Sha256::new();
    for v in values {
        h.update(v.to_le_bytes());
    }
    h.finalize().iter().map(|b| format!("{b:02x}")).collect()
}
