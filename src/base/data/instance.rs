//! # Instance
//!
//! A standardised, row-major record matrix with its sum of squares (SST) and provenance.
//!
//! ## Complexity
//! Construction is O(n d) (three passes per column: the mean, its compensated residual, and
//! the standard deviation).
//!
//! ## References
//! - Chan, Golub & LeVeque (1983), Algorithms for computing the sample variance: analysis
//!   and recommendations, The American Statistician 37(3) (the two-pass formula with its
//!   correction term).
//! - Knuth, TAOCP vol. 2, 4.2.2 (TwoSum); Neumaier (1974), Rundungsfehleranalyse einiger
//!   Verfahren zur Summation endlicher Summen, ZAMM 54 (compensated summation).

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
    /// Sampling weights (`--weights COLUMN`), when given; see `super::weights`.
    pub weights: Option<super::weights::Weights>,
    /// Some cell of `raw` is missing (NaN, `--missing ignore`): the objective is the masked
    /// SSE ([`crate::missing`]). Read once when the instance is assembled, so that
    /// [`Instance::has_missing`] costs nothing.
    holes: bool,
}

/// Whether standardising keeps a copy of the original values ([`Instance::raw`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum RawCopy {
    /// Keep them: released files, weights, missing cells and some stages read them.
    #[default]
    Keep,
    /// Standardise in place and keep none: the instance of [`Instance::drop_raw`], with the
    /// same z-scores bit for bit, but the two copies never coexist (the load's peak is one
    /// matrix and two columns instead of two matrices: 80 MB less at n = 10^6, d = 10). For
    /// a `run` that reads only the z-scores (see [`Instance::drop_raw`]).
    Discard,
}

impl Instance {
    /// Standardise `raw` (row-major, n x d), keeping it. Fails on a constant column, naming
    /// it.
    pub fn from_raw(
        name: impl Into<String>,
        source: impl Into<String>,
        columns: Vec<String>,
        raw: Vec<f64>,
        sha256: String,
    ) -> Result<Self> {
        Self::standardise(name, source, columns, raw, sha256, RawCopy::Keep)
    }

    /// As [`Instance::from_raw`]; with [`RawCopy::Discard`] the z-scores overwrite `raw`
    /// column by column (each column is copied out before it is overwritten) and `raw` is
    /// left empty.
    pub fn standardise(
        name: impl Into<String>,
        source: impl Into<String>,
        columns: Vec<String>,
        mut raw: Vec<f64>,
        sha256: String,
        copy: RawCopy,
    ) -> Result<Self> {
        let keep_raw = copy == RawCopy::Keep;
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
        if n == 1 {
            return Err(Error::Data {
                file: source,
                location: "data".into(),
                message: "only 1 data row: microaggregation needs at least k >= 2 records \
                          (n = 1 < k)"
                    .into(),
            });
        }
        let mut mean = vec![0.0; d];
        let mut std = vec![0.0; d];
        let mut z = if keep_raw {
            vec![0.0; n * d]
        } else {
            Vec::new()
        };
        let mut column = vec![0.0; n];
        for j in 0..d {
            for i in 0..n {
                column[i] = raw[i * d + j];
            }
            let here = || format!("column '{}' ({})", columns[j], j + 1);
            if let Some(i) = column.iter().position(|v| !v.is_finite()) {
                return Err(Error::Data {
                    file: source,
                    location: format!("row {}, {}", i + 1, here()),
                    message: format!("value {} is NaN or infinite", column[i]),
                });
            }
            let first = column[0];
            if column.iter().all(|&v| v == first) {
                return Err(Error::Data {
                    file: source,
                    location: here(),
                    message: format!(
                        "constant column (every value is {first}): zero variance, it cannot be \
                         standardised; leave it out with --columns"
                    ),
                });
            }
            let scaled = standardise_column(&column).ok_or_else(|| Error::Data {
                file: source.clone(),
                location: here(),
                message: "the values differ by less than double precision can resolve at \
                          their magnitude: the column cannot be standardised; rescale it or \
                          leave it out with --columns"
                    .into(),
            })?;
            mean[j] = scaled.mean;
            std[j] = scaled.std;
            let out = if keep_raw { &mut z } else { &mut raw };
            for i in 0..n {
                out[i * d + j] = scaled.z[i];
            }
        }
        drop(column);
        if !keep_raw {
            z = std::mem::take(&mut raw);
        }
        let sst = total_sum_of_squares(&z, n, d);
        // Standardised columns have SST = n d up to rounding; anything else is a bug that
        // must not reach an output as NaN or a wrong IL.
        if !(sst.is_finite() && sst > 0.0) || z.iter().any(|v| !v.is_finite()) {
            return Err(Error::Data {
                file: source,
                location: "data".into(),
                message: format!("standardisation failed (SST = {sst}); please report this file"),
            });
        }
        Ok(Instance::assemble(
            name,
            source,
            columns,
            raw,
            Scaled { z, mean, std, sst },
            sha256,
        ))
    }

    /// The instance of `raw` (row-major, one value per column and record) and its
    /// standardisation, without weights (set [`Instance::weights`] after). The one place the
    /// fields are put together, so that n and d cannot disagree with the data.
    pub(crate) fn assemble(
        name: String,
        source: String,
        columns: Vec<String>,
        raw: Vec<f64>,
        scaled: Scaled,
        sha256: String,
    ) -> Instance {
        let d = columns.len();
        let holes = raw.iter().any(|v| v.is_nan());
        Instance {
            name,
            source,
            columns,
            // From z: `raw` is empty when the values were standardised in place.
            n: scaled.z.len() / d.max(1),
            d,
            z: scaled.z,
            raw,
            mean: scaled.mean,
            std: scaled.std,
            sst: scaled.sst,
            sha256,
            weights: None,
            holes,
        }
    }

    /// Free the original values (`raw`, 8 n d bytes) for a run that reads only the
    /// z-scores from here on: complete data (no missing cell), no released file, no
    /// weights, no stage that reads them ([`crate::pipeline::Pipeline::reads_raw`]). At
    /// n = 10^6, d = 10 that is 80 MB of a `run --method mdav`'s peak. Afterwards `raw` is
    /// empty: [`Instance::has_missing`] is false and the missing-cell record is None.
    pub fn drop_raw(&mut self) {
        debug_assert!(
            !self.has_missing(),
            "raw values marking missing cells are needed"
        );
        self.raw = Vec::new();
        self.holes = false;
    }

    /// True when any cell is missing (`--missing ignore`); O(1), read when the instance
    /// was assembled.
    pub fn has_missing(&self) -> bool {
        self.holes
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

    /// The objective a partition of this instance is scored by: the SSE, weighted when it
    /// carries sampling weights that are not all equal, over the observed cells when it has
    /// missing cells (O(n): the weights are compared; nothing is allocated).
    pub fn objective(&self) -> crate::objective::Objective<'_> {
        use crate::objective::Objective;
        let unequal = self.weights.as_ref().filter(|w| !w.all_equal());
        match (self.has_missing(), unequal) {
            (true, Some(w)) => Objective::MaskedWeighted(&w.values),
            (true, None) => Objective::Masked,
            (false, Some(w)) => Objective::Weighted(&w.values),
            (false, None) => Objective::Plain,
        }
    }

    /// Information loss in percent for a given SSE.
    pub fn il(&self, sse: f64) -> f64 {
        100.0 * sse / self.sst
    }
}

/// Standardised values (row-major, as the raw values) with the column means and standard
/// deviations used and their total sum of squares.
pub(crate) struct Scaled {
    pub z: Vec<f64>,
    pub mean: Vec<f64>,
    pub std: Vec<f64>,
    pub sst: f64,
}

/// A column standardised without overflow or underflow: z-scores, and the mean and
/// population standard deviation in original units (the latter may be infinite when the
/// spread itself exceeds the largest double; it is informative only).
struct Standardised {
    z: Vec<f64>,
    mean: f64,
    std: f64,
}

/// 2^e with max |v| * 2^-e in [0.5, 1) (None for an all-zero slice).
pub(crate) fn power_of_two_scale(values: &[f64]) -> Option<i32> {
    let m = values.iter().fold(0.0f64, |a, v| a.max(v.abs()));
    if m == 0.0 {
        return None;
    }
    // frexp: m = f 2^e with f in [0.5, 1); for subnormal m, scale up first.
    let (m, extra) = if m < f64::MIN_POSITIVE {
        (m * 2f64.powi(64), -64)
    } else {
        (m, 0)
    };
    let bits = m.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32 - 1022;
    Some(exp + extra)
}

/// Multiply by 2^e exactly (two steps, so that neither factor overflows or underflows).
pub(crate) fn ldexp(x: f64, e: i32) -> f64 {
    let half = e / 2;
    x * 2f64.powi(half) * 2f64.powi(e - half)
}

/// Standardise one non-constant column. Both the values and their deviations from the mean
/// are first scaled by powers of two so that their largest magnitude lies in [0.5, 1):
/// such a scaling is exact, so wherever the textbook formula (x - mean) / sqrt(mean of
/// squared deviations) neither overflows nor underflows this gives the same bits, and
/// elsewhere (values near 1e300 or 1e-300) it still gives the correct z-scores. The
/// textbook mean (a plain sum) is checked by [`mean_residual`] and corrected where its
/// error would change the variance (offset columns such as 1e15 + N(0, 1)). `None` when
/// the scaled values collapse to one value (differences below double precision).
fn standardise_column(x: &[f64]) -> Option<Standardised> {
    let n = x.len() as f64;
    let e = power_of_two_scale(x)?;
    let y: Vec<f64> = x.iter().map(|&v| ldexp(v, -e)).collect();
    let mean_y = y.iter().sum::<f64>() / n;
    let mut dev: Vec<f64> = y.iter().map(|&v| v - mean_y).collect();
    let mut f = power_of_two_scale(&dev)?;
    let mut scaled: Vec<f64> = dev.iter().map(|&v| ldexp(v, -f)).collect();
    let mut var = scaled.iter().map(|v| v.powi(2)).sum::<f64>() / n;
    let residual = mean_residual(&y, mean_y);
    // Deviations from a mean that is off by r have a mean square of var + r^2: keep the
    // textbook result (and its bits) when r^2 is below the rounding of var, otherwise
    // subtract r from the deviations. A shift of a whole column changes no SSE, only the
    // standard deviation it is divided by.
    let r = ldexp(residual, -f);
    let mean_y = if r * r > var * f64::EPSILON / 2.0 {
        dev.iter_mut().for_each(|v| *v -= residual);
        f = power_of_two_scale(&dev)?;
        scaled = dev.iter().map(|&v| ldexp(v, -f)).collect();
        var = scaled.iter().map(|v| v.powi(2)).sum::<f64>() / n;
        mean_y + residual
    } else {
        mean_y
    };
    let sd = var.sqrt();
    if !(sd > 0.0 && sd.is_finite()) {
        return None;
    }
    Some(Standardised {
        z: scaled.iter().map(|&v| v / sd).collect(),
        mean: ldexp(mean_y, e),
        std: ldexp(sd, e + f),
    })
}

/// The mean of `y - mean` for a computed `mean` of `y`: how far a plain-sum mean is off.
/// Each difference is split exactly into its rounded value and rounding error (TwoSum) and
/// all of them are added with Neumaier's compensated sum, so the result is accurate to a
/// few units in the last place of the true residual, whatever the offset of the data.
fn mean_residual(y: &[f64], mean: f64) -> f64 {
    let mut sum = 0.0f64;
    let mut compensation = 0.0f64;
    let mut add = |t: f64| {
        let s = sum + t;
        compensation += if sum.abs() >= t.abs() {
            (sum - s) + t
        } else {
            (t - s) + sum
        };
        sum = s;
    };
    for &v in y {
        let (d, err) = two_sum(v, -mean);
        add(d);
        add(err);
    }
    (sum + compensation) / y.len() as f64
}

/// `a + b` as the rounded sum and its exact rounding error (Knuth's TwoSum).
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let a1 = s - b;
    let b1 = s - a1;
    (s, (a - a1) + (b - b1))
}

/// Sum of squared deviations from the column means, two-pass (no cancellation).
pub(crate) fn total_sum_of_squares(z: &[f64], n: usize, d: usize) -> f64 {
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

/// The rows of `inst` as an instance of their own: the same z-scores (not re-standardised),
/// named after `unit`, with a checksum (and so stage seeds) derived from the data's and the
/// unit's name.
pub fn sub_instance(inst: &Instance, rows: &[usize], unit: &str) -> Instance {
    let d = inst.d;
    let mut z = Vec::with_capacity(rows.len() * d);
    let mut raw = Vec::with_capacity(rows.len() * d);
    for &i in rows {
        z.extend_from_slice(&inst.z[i * d..(i + 1) * d]);
        // No raw copy when the whole file has none (loaded with [`RawCopy::Discard`]).
        if !inst.raw.is_empty() {
            raw.extend_from_slice(&inst.raw[i * d..(i + 1) * d]);
        }
    }
    let sst = total_sum_of_squares(&z, rows.len(), d);
    let mut sub = Instance::assemble(
        format!("{} [{unit}]", inst.name),
        inst.source.clone(),
        inst.columns.clone(),
        raw,
        Scaled {
            z,
            mean: inst.mean.clone(),
            std: inst.std.clone(),
            sst,
        },
        sha256_hex(format!("{}/{unit}", inst.sha256).as_bytes()),
    );
    sub.weights = inst.weights.as_ref().map(|w| w.subset(rows));
    sub
}
