//! # Missing values (`run --missing refuse|ignore`)
//!
//! `refuse` (the default) stops the loader at the first empty or `NA` cell of a chosen
//! column, naming file, row and column. `ignore` reads such a cell as missing (NaN in
//! [`Instance::raw`], 0 in [`Instance::z`], never read unmasked) and then:
//!
//! - **standardisation** uses each column's observed values (mean, population sd); a
//!   column with fewer than two observed values or constant over them, and a record with
//!   every chosen value missing, are errors naming file, row and column;
//! - **distances** (`crate::geometry::pool::nan_sq_dist`) run over the columns observed in both
//!   vectors and are rescaled by d / d_ab (d_ab such columns; no common column: infinitely
//!   far), the convention of Gower's coefficient and R's `cluster::daisy`, which sdcMicro's
//!   `recordLinkage(na_action = "ignore")` uses. sdcMicro's MDAV (C++ `Mdav.h`) differs: a
//!   column missing in exactly one of the two adds the column's squared standardised range,
//!   so a record with holes is far from every complete one (`docs/missing-values.md`);
//! - **centroids** per column over the group's observed cells, and **SSE** over observed
//!   cells only: SSE = sum over groups g, columns j, observed members i of (z_ij - c_gj)^2,
//!   SST likewise around the column means (= the number of observed cells), IL = 100 SSE /
//!   SST. The group's observed mean minimises its column's masked SSE, so this is the
//!   objective microaggregation minimises. A [`crate::partition::Partition`] of such an instance keeps these
//!   statistics ([`figures::group_stats`]), so the records, the observers and the release read the
//!   masked SSE like any other;
//! - **methods**: the registry entries declared `runs_on_missing_cells`
//!   (`crate::method::MethodInfo::runs_on_missing_cells`), run by the one executor with its time limit,
//!   step budget and observers: the MDAV-lineage initializers mdav, mdav-generic, mdav1,
//!   mdav-a1, mdav-single, mdav-nc, cbfs and cbfs-nn (the lineage engine with each method's
//!   rules, the masked distance and centroids: [`crate::init::lineage::rule_method`],
//!   [`crate::geometry::masked_scan`]; on complete data they give the unmasked groups), and
//!   the `descent` refiner (its engine on the masked SSE, [`crate::objective::masked`]).
//!   Every other method, refiner and bound assumes complete data (its incremental SSE, its bound proof) and is refused with
//!   a message ([`refuse_unsupported`]), never run on the zero-filled z-scores;
//! - **release** (`fill_or_keep`): a missing cell stays missing in the released file (its
//!   bytes copied), as sdcMicro's `mdav()` does (`dat[TF] <- NA`); `--missing-release fill`
//!   writes the group's released value (aggregated over its observed values) instead, and a
//!   group with no observed value in the column keeps the hole.
//!
//! ## Complexity
//! Loading O(n d); the masked methods O(n^2 d / k) (NC growth O(n^2 d); a scan per query,
//! no kd-tree); SSE O(n d).
//!
//! ## References
//! Gower (1971), Biometrics 27(4) (distances over the observed variables); Kaufman &
//! Rousseeuw (1990), Finding Groups in Data (`daisy`); Templ, Kowarik & Meindl (2015),
//! J. Statistical Software 67(4) (sdcMicro; `src/Mdav.h`, `R/mdav.R` at commit cf32510).

pub mod figures;

pub(crate) use figures::{group_stats, il_released};

use crate::data::instance::Scaled;
use crate::data::{Instance, RawCopy};
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub(crate) use crate::data::missing_cells::is_missing_text;
pub use crate::data::missing_cells::MissingPolicy;

/// What the released file holds where the input had a missing cell.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MissingRelease {
    /// The input's cell, byte for byte (sdcMicro's choice).
    #[default]
    Keep,
    /// The group's released value over its observed values (the hole stays when the group
    /// has none).
    Fill,
}

/// What a run record says about missing values.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct MissingRecord {
    /// `ignore` (a run with missing cells only exists under that policy).
    pub policy: String,
    /// Missing cells in the run's columns, in all and per column.
    pub cells: usize,
    pub per_column: Vec<usize>,
    /// Records with at least one missing cell.
    pub records: usize,
    /// `keep` or `fill`, when a file was released.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub release: Option<String>,
}

impl Instance {
    /// True when cell (i, j) was missing (only under `--missing ignore`).
    #[inline]
    pub fn is_missing(&self, i: usize, j: usize) -> bool {
        self.raw[i * self.d + j].is_nan()
    }

    /// The record of missing cells, None for complete data.
    pub fn missing_record(&self, release: Option<MissingRelease>) -> Option<MissingRecord> {
        if self.raw.is_empty() {
            // Freed by [`Instance::drop_raw`], which is only done on complete data.
            return None;
        }
        let mut per_column = vec![0; self.d];
        let mut records = 0;
        for i in 0..self.n {
            let mut any = false;
            for (j, count) in per_column.iter_mut().enumerate() {
                if self.is_missing(i, j) {
                    *count += 1;
                    any = true;
                }
            }
            records += usize::from(any);
        }
        let cells: usize = per_column.iter().sum();
        (cells > 0).then(|| MissingRecord {
            policy: "ignore".into(),
            cells,
            per_column,
            records,
            release: release.map(|r| match r {
                MissingRelease::Keep => "keep".into(),
                MissingRelease::Fill => "fill".into(),
            }),
        })
    }

    /// Standardise `raw` (row-major, n x d) where NaN marks a missing cell: each column
    /// over its observed values; z = 0 at a missing cell; SST over observed cells. With no
    /// NaN this is [`Instance::from_raw`].
    pub fn from_raw_missing(
        name: impl Into<String>,
        source: impl Into<String>,
        columns: Vec<String>,
        raw: Vec<f64>,
        sha256: String,
    ) -> Result<Self> {
        Self::standardise_missing(name, source, columns, raw, sha256, RawCopy::Keep)
    }

    /// As [`Instance::from_raw_missing`]; with no NaN this is [`Instance::standardise`] with
    /// `copy`; with one the original values are kept whatever `copy` says (they mark the
    /// missing cells).
    pub(crate) fn standardise_missing(
        name: impl Into<String>,
        source: impl Into<String>,
        columns: Vec<String>,
        raw: Vec<f64>,
        sha256: String,
        copy: RawCopy,
    ) -> Result<Self> {
        if !raw.iter().any(|v| v.is_nan()) {
            return Instance::standardise(name, source, columns, raw, sha256, copy);
        }
        let source = source.into();
        let d = columns.len();
        let n = raw.len() / d.max(1);
        let err = |location: String, message: String| Error::Data {
            file: source.clone(),
            location,
            message,
        };
        if let Some(i) = (0..n).find(|&i| raw[i * d..(i + 1) * d].iter().all(|v| v.is_nan())) {
            return Err(err(
                format!("row {}", i + 1),
                "every chosen column is missing: the record has nothing to group by; \
                 drop the row or choose other --columns"
                    .into(),
            ));
        }
        // Standardise the observed values of each column as a complete column of their own
        // (the same code, so an observed cell gets the bits it would get without the holes
        // of the others), then put them back in place.
        let mut observed_rows: Vec<Vec<usize>> = vec![Vec::new(); d];
        for i in 0..n {
            for (j, rows) in observed_rows.iter_mut().enumerate() {
                if !raw[i * d + j].is_nan() {
                    rows.push(i);
                }
            }
        }
        let mut z = vec![0.0; n * d];
        let mut mean = vec![0.0; d];
        let mut std = vec![0.0; d];
        let mut sst = 0.0;
        for j in 0..d {
            let rows = &observed_rows[j];
            let here = format!("column '{}' ({})", columns[j], j + 1);
            if rows.len() < 2 {
                return Err(err(
                    here,
                    format!(
                        "{} observed value(s): a column needs at least two to be standardised; \
                         leave it out with --columns",
                        rows.len()
                    ),
                ));
            }
            let values: Vec<f64> = rows.iter().map(|&i| raw[i * d + j]).collect();
            let one = Instance::from_raw(
                "column",
                source.clone(),
                vec![columns[j].clone()],
                values,
                String::new(),
            )
            .map_err(|e| match e {
                Error::Data { message, .. } => err(
                    here.clone(),
                    format!("{message} (over its observed values)"),
                ),
                other => other,
            })?;
            for (t, &i) in rows.iter().enumerate() {
                z[i * d + j] = one.z[t];
            }
            mean[j] = one.mean[0];
            std[j] = one.std[0];
            sst += one.sst;
        }
        Ok(Instance::assemble(
            name.into(),
            source,
            columns,
            raw,
            Scaled { z, mean, std, sst },
            sha256,
        ))
    }
}

/// Masked SSE of one group (`group_stats`).
pub fn group_sse(inst: &Instance, members: &[usize]) -> f64 {
    group_stats(inst, members).1
}

/// Masked SSE of a labelling (labels 0..g).
pub fn sse(inst: &Instance, labels: &[usize]) -> f64 {
    groups_of(labels).iter().map(|m| group_sse(inst, m)).sum()
}

/// Members of each label, in row order.
pub fn groups_of(labels: &[usize]) -> Vec<Vec<usize>> {
    let g = labels.iter().copied().max().map_or(0, |m| m + 1);
    let mut members = vec![Vec::new(); g];
    for (i, &l) in labels.iter().enumerate() {
        members[l].push(i);
    }
    members
}

/// The refusal of a pipeline `spec` whose stage `stage` assumes complete data, naming the
/// registered methods that run on missing cells.
pub(crate) fn refuse_unsupported(spec: &str, stage: &str) -> Error {
    let (mut inits, mut refiners) = (Vec::new(), Vec::new());
    for m in crate::registry::registry()
        .iter()
        .filter(|m| m.missing_cells)
    {
        match m.kind() {
            crate::method::MethodKind::Initializer => inits.push(m.name),
            crate::method::MethodKind::Refiner => refiners.push(format!("+{}", m.name)),
        }
    }
    Error::usage(format!(
        "--missing ignore: the data have missing cells and '{spec}' assumes complete data \
         ('{stage}': its SSE bookkeeping, distances or bound); with missing values use \
         --method {} (each optionally followed by {}; docs/missing-values.md), or leave the \
         columns with holes out with --columns",
        inits.join(", "),
        refiners.join(" or ")
    ))
}

/// The released values with the missing-cell policy applied: a missing input cell gets NaN
/// (the writer copies its bytes) unless `fill`, then the group's value.
pub(crate) fn fill_or_keep(inst: &Instance, released: &mut [f64], release: MissingRelease) {
    if release == MissingRelease::Keep {
        for (v, x) in released.iter_mut().zip(&inst.raw) {
            if x.is_nan() {
                *v = f64::NAN;
            }
        }
    }
}

/// The records complete in every run column: the rows the measures are taken over when
/// cells are missing (the record says how many were left out).
pub(crate) fn complete_rows(inst: &Instance) -> Vec<usize> {
    (0..inst.n)
        .filter(|&i| (0..inst.d).all(|j| !inst.is_missing(i, j)))
        .collect()
}

/// The measures of a released file whose input had missing cells: taken over the records
/// complete in every run column (`Measures::n` says how many; the run record's
/// `missing.records` how many were left out; `drisk_k` that of dRisk), since record linkage, interval disclosure
/// and the covariances are defined on complete records.
pub(crate) fn measure_complete_rows(
    inst: &Instance,
    y: &[f64],
    drisk_k: f64,
) -> Result<crate::measure::Measures> {
    let rows = complete_rows(inst);
    if rows.len() < 2 {
        return Err(Error::usage(format!(
            "--measures: {} of {} records are complete in the run's columns; the measures \
             need at least two",
            rows.len(),
            inst.n
        )));
    }
    let d = inst.d;
    let sub = crate::data::sub_instance(inst, &rows, "complete records");
    let ys: Vec<f64> = rows
        .iter()
        .flat_map(|&i| y[i * d..(i + 1) * d].iter().copied())
        .collect();
    crate::measure::measure(&sub, &ys, drisk_k)
}

impl MissingRecord {
    /// The text line of `microagg run`.
    pub fn line(&self) -> String {
        format!(
            "  missing values: {} cell(s) in {} record(s) left out of distances, centroids and \
             SSE (--missing {}; per column {:?}){}\n",
            self.cells,
            self.records,
            self.policy,
            self.per_column,
            match self.release.as_deref() {
                Some("fill") => "; released filled with their group's value",
                Some(_) => "; released as missing",
                None => "",
            }
        )
    }
}
