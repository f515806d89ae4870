//! # Release: the file a statistical office publishes
//!
//! After the partition is optimised for the SSE, the released file is built from it:
//! [`aggregate`] computes each group's released value (mean, median, trimmed mean,
//! sdcMicro's one-step, an observed mode), [`whole_file`] writes every input column back, replacing only the microaggregated ones
//! (in the input's order, delimiter, header and quoting; optionally rounded to the input's
//! decimals), [`raw_csv`] reads CSV records without decoding them so that untouched cells
//! are copied byte for byte.
//!
//! ## Complexity
//! Linear in the size of the file.
//!
//! ## References
//! Shafranovich (2005), RFC 4180: Common Format and MIME Type for CSV Files.

pub mod aggregate;
pub mod raw_csv;
pub mod whole_file;

pub use aggregate::Aggregation;

use crate::data::Instance;
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The options of the released file (`run --masked-out`).
#[derive(clap::Args, Clone, Debug, Default)]
pub struct ReleaseArgs {
    /// With --masked-out: the released statistic of each group and column: mean (the SSE
    /// optimum's), median, trimmed[:ALPHA] (default 0.1), onestep (sdcMicro's) or onemode
    /// (an observed value: the group's mode, ties to the value nearest the mean). The
    /// partition is optimised for the SSE whatever the choice.
    #[arg(long, value_name = "AGG")]
    pub aggregate: Option<String>,
    /// With --masked-out: round each released column to the most decimals its input cells
    /// have (integers stay integers); the IL of the rounded values is reported.
    #[arg(long)]
    pub round_to_input: bool,
    /// With --masked-out: add the utility and risk measures of the released file to the
    /// record (as `microagg measure`; record linkage costs O(n^2 d)).
    #[arg(long)]
    pub measures: bool,
}

impl ReleaseArgs {
    /// Before the run: the options parse, and they are only given with a released file.
    pub fn check(&self, masked_out: bool) -> Result<Aggregation> {
        let agg = self
            .aggregate
            .as_deref()
            .map_or(Ok(Aggregation::Mean), Aggregation::parse)?;
        if !masked_out {
            for (given, option) in [
                (self.aggregate.is_some(), "--aggregate"),
                (self.round_to_input, "--round-to-input"),
                (self.measures, "--measures"),
            ] {
                if given {
                    return Err(Error::usage(format!(
                        "{option} applies to the released file: give --masked-out FILE"
                    )));
                }
            }
        }
        Ok(agg)
    }
}

/// What the run record says about the released file.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct ReleaseRecord {
    /// The released file; empty when none was written (layout `none`).
    pub file: String,
    /// `whole` (every input column, the run's replaced), `columns` (generated data) or
    /// `none` (experiment records with `measures = true`: the group means the partition
    /// implies, measured but not written).
    pub layout: String,
    pub aggregation: String,
    pub rounded_to_input: bool,
    /// Decimals per released column when rounded.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub decimals: Option<Vec<usize>>,
    /// IL of the values written: 100 sum ((x - y) / sigma)^2 / SST over the run's columns
    /// (sigma: population standard deviations of the input), the run's IL for unrounded
    /// means.
    pub il_released: f64,
    /// With `--weights`: the weighted IL of the values written (weights w_i on both sums,
    /// about the weighted column means; `docs/weights.md`); the group means written are
    /// then weighted means.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub il_released_weighted: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub measures: Option<crate::measure::Measures>,
}

/// Build and write the released file for `labels`, and describe it.
pub fn release(
    out: &Path,
    inst: &Instance,
    delimiter: u8,
    labels: &[usize],
    args: &ReleaseArgs,
    missing: crate::missing::MissingRelease,
) -> Result<ReleaseRecord> {
    let agg = args.check(true)?;
    let values = released(inst, labels, agg, missing)?;
    let (written, layout) = write_release(out, inst, delimiter, &values, args)?;
    let mut record = describe(inst, &written.values, agg, args.measures)?;
    record.file = out.display().to_string();
    record.layout = layout.to_string();
    record.rounded_to_input = args.round_to_input;
    record.decimals = written.decimals;
    Ok(record)
}

/// The released values of `labels` (original units, row-major n x d, unrounded) and their
/// record with layout `none` (nothing written): what the Python package returns as
/// `Result.released`. The same values and figures as [`release`] without rounding.
pub fn release_in_memory(
    inst: &Instance,
    labels: &[usize],
    agg: Aggregation,
    missing: crate::missing::MissingRelease,
    measures: bool,
) -> Result<(Vec<f64>, ReleaseRecord)> {
    let values = released(inst, labels, agg, missing)?;
    let record = describe(inst, &values, agg, measures)?;
    Ok((values, record))
}

/// Each record's group aggregate, with the missing-cell policy applied: on data with holes
/// (`--missing ignore`) the group values are over observed cells and a missing cell stays
/// missing (NaN) unless filled.
fn released(
    inst: &Instance,
    labels: &[usize],
    agg: Aggregation,
    missing: crate::missing::MissingRelease,
) -> Result<Vec<f64>> {
    let mut values = aggregate::released_values(inst, labels, agg)?;
    if inst.has_missing() {
        crate::missing::fill_or_keep(inst, &mut values, missing);
    }
    Ok(values)
}

/// The record of released values `y` (as written): IL over the observed cells, the
/// weighted IL with weights, the measures on request (over the complete rows when cells
/// are missing). File, layout and rounding are the caller's (here: none).
fn describe(inst: &Instance, y: &[f64], agg: Aggregation, measures: bool) -> Result<ReleaseRecord> {
    let holes = inst.has_missing();
    let measures = match (measures, holes) {
        (false, _) => None,
        (true, false) => Some(crate::measure::measure(inst, y, crate::measure::DRISK_K)?),
        (true, true) => Some(crate::missing::measure_complete_rows(inst, y)?),
    };
    let il_released = if holes {
        crate::missing::il_released(inst, y)
    } else {
        crate::measure::utility::il_sse(&inst.raw, y, inst.d)
    };
    Ok(ReleaseRecord {
        file: String::new(),
        layout: "none".into(),
        aggregation: agg.name(),
        rounded_to_input: false,
        decimals: None,
        il_released,
        il_released_weighted: inst.weights.as_ref().map(|w| match holes {
            true => crate::weighted::masked::il_released_weighted(inst, y, &w.values),
            false => crate::measure::utility::il_sse_weighted(&inst.raw, y, inst.d, &w.values),
        }),
        measures,
    })
}

/// Write the released values: the whole input file with the instance's columns replaced
/// when the data came from a CSV file (`inst.source` is that file), else the columns alone.
pub fn write_release(
    out: &Path,
    inst: &Instance,
    delimiter: u8,
    released: &[f64],
    args: &ReleaseArgs,
) -> Result<(whole_file::Written, &'static str)> {
    let input = Path::new(&inst.source);
    if input.is_file() {
        let w = whole_file::write_whole_file(
            out,
            input,
            delimiter,
            inst,
            released,
            args.round_to_input,
        )?;
        Ok((w, "whole"))
    } else {
        if args.round_to_input {
            return Err(Error::usage(format!(
                "--round-to-input: '{}' is not a file, there are no input decimals to round to",
                inst.source
            )));
        }
        Ok((whole_file::write_columns(out, inst, released)?, "columns"))
    }
}
