//! # Release: the file a statistical office publishes
//!
//! After the partition is optimised for the SSE, the released file is built from it:
//! [`aggregate`] computes each group's released value (mean, median, trimmed mean,
//! sdcMicro's one-step, an observed mode), [`whole_file`] writes every input column back, replacing only the microaggregated ones
//! (in the input's order, delimiter, header and quoting; optionally rounded to the input's
//! decimals), `raw_csv` reads CSV records without decoding them so that untouched cells
//! are copied byte for byte, [`roles`] gives the direct identifiers their treatment (dropped
//! by default, keyed hash or kept) and the rows their order (shuffled by default).
//! [`measure`] gives the released file's utility and disclosure risk, [`strata`] the
//! strata a release is split into.
//!
//! ## Complexity
//! Linear in the size of the file.
//!
//! ## References
//! Shafranovich (2005), RFC 4180: Common Format and MIME Type for CSV Files.

pub mod aggregate;
pub mod measure;
pub(crate) mod raw_csv;
pub mod roles;
pub mod strata;
pub mod whole_file;

pub use aggregate::Aggregation;
pub use roles::{IdentifierRelease, Identifiers, RowOrder};

use crate::data::Instance;
use crate::error::{Error, Result};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// The options of the released file (`run --masked-out`).
#[derive(clap::Args, Clone, Debug, Default)]
#[command(next_help_heading = "Released file")]
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
    /// With --masked-out: the direct identifiers (names, household or person ids,
    /// addresses; sdcMicro's identifiers, removed before release), comma-separated names or
    /// 1-based positions of input columns. Left out of the released file unless
    /// --identifier-release says otherwise; other columns are copied as read.
    #[arg(long, value_name = "COLUMNS")]
    pub identifiers: Option<String>,
    /// With --identifiers: drop them (default), hash them (each cell replaced by its
    /// HMAC-SHA256 under --hash-key-file: pseudonyms nobody can recompute without the key;
    /// a plain hash of an id is no protection, as anyone can hash every possible id) or
    /// keep them as read (a warning: the file then identifies its respondents).
    #[arg(long, value_enum, value_name = "HOW")]
    pub identifier_release: Option<roles::IdentifierRelease>,
    /// With --identifier-release hash: a file holding the secret key (at least 16 bytes, a
    /// final line end ignored; e.g. `openssl rand -hex 32 > key`). Keep it secret; the same
    /// key gives the same pseudonyms in every release, a new key unlinkable ones.
    #[arg(long, value_name = "FILE")]
    pub hash_key_file: Option<PathBuf>,
    /// With --masked-out: the order of the released rows: shuffled (default; a permutation
    /// derived from --seed and the input file's bytes: the same seed and file give the same
    /// file) or input. The input's order can re-identify records (files sorted by household
    /// id or address, by survey wave or interviewer route), so it is shuffled unless asked.
    #[arg(long, value_enum, value_name = "ORDER")]
    pub row_order: Option<roles::RowOrder>,
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
                (self.identifiers.is_some(), "--identifiers"),
                (self.identifier_release.is_some(), "--identifier-release"),
                (self.hash_key_file.is_some(), "--hash-key-file"),
                (self.row_order.is_some(), "--row-order"),
            ] {
                if given {
                    return Err(Error::usage(format!(
                        "{option} applies to the released file: give --masked-out FILE"
                    )));
                }
            }
        }
        let how = self.identifier_release.unwrap_or_default();
        if self.identifier_release.is_some() && self.identifiers.is_none() {
            return Err(Error::usage(format!(
                "--identifier-release {}: name the identifier columns with --identifiers",
                how.name()
            )));
        }
        match (how, &self.hash_key_file) {
            (IdentifierRelease::Hash, None) => Err(Error::usage(
                "--identifier-release hash needs --hash-key-file FILE: a plain (unkeyed) hash \
                 of an identifier is no protection, anyone can hash every possible id and look \
                 the released hashes up",
            )),
            (IdentifierRelease::Drop | IdentifierRelease::Keep, Some(_)) => Err(Error::usage(
                "--hash-key-file applies to --identifier-release hash",
            )),
            _ => Ok(agg),
        }
    }

    /// The direct identifiers as given, their treatment and its key (read from its file).
    pub fn identifiers(&self) -> Result<Identifiers> {
        let columns = self.identifiers.as_deref().map_or(Vec::new(), |s| {
            s.split(',')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect()
        });
        let key = self
            .hash_key_file
            .as_deref()
            .map(roles::read_key)
            .transpose()?;
        Ok(Identifiers {
            columns,
            release: self.identifier_release.unwrap_or_default(),
            key,
        })
    }

    /// Before the run: the identifier columns are in the input file's header and the key
    /// file can be read (a typo must not throw a long run away).
    pub(crate) fn check_input(&self, input: &Path, delimiter: u8) -> Result<()> {
        let ids = self.identifiers()?;
        if !ids.columns.is_empty() {
            let header = crate::data::csv_file::read_header(input, delimiter)?;
            roles::resolve(&header, &ids.columns, &input.display().to_string())?;
        }
        Ok(())
    }

    /// The released rows' order.
    pub fn row_order(&self) -> RowOrder {
        self.row_order.unwrap_or_default()
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
    /// The released rows' order: `shuffled` (a permutation from the run's seed and the
    /// input file's bytes) or `input`; absent when nothing was written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub row_order: Option<String>,
    /// The direct identifiers (`--identifiers`, header names) ...
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub identifiers: Vec<String>,
    /// ... and what the file holds of them: `drop`, `hash` (keyed) or `keep`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub identifier_release: Option<String>,
}

/// Build and write the released file for `labels`, and describe it. `seed` is the run's
/// (`--seed`): with shuffled rows it fixes their order ([`roles::release_order`]).
pub fn release(
    out: &Path,
    inst: &Instance,
    delimiter: u8,
    labels: &[usize],
    args: &ReleaseArgs,
    missing: crate::missing::MissingRelease,
    seed: u64,
) -> Result<ReleaseRecord> {
    let agg = args.check(true)?;
    let values = released(inst, labels, agg, missing)?;
    let protect = whole_file::Protection {
        identifiers: args.identifiers()?,
        order: match args.row_order() {
            RowOrder::Input => None,
            RowOrder::Shuffled => {
                let secret = roles::order_secret(&inst.source, &inst.sha256)?;
                Some(roles::release_order(inst.n, seed, &secret))
            }
        },
    };
    let (written, layout) = write_release(out, inst, delimiter, &values, args, &protect)?;
    let how = protect.identifiers.release;
    if how == IdentifierRelease::Keep && !written.identifiers.is_empty() {
        crate::output::note(&format!(
            "warning: --identifier-release keep: {} released as read; the file identifies \
             its respondents (drop them, or hash them with a secret key)",
            written.identifiers.join(", ")
        ));
    }
    let mut record = describe(inst, &written.values, agg, args.measures)?;
    record.file = out.display().to_string();
    record.layout = layout.to_string();
    record.rounded_to_input = args.round_to_input;
    record.decimals = written.decimals;
    record.row_order = Some(args.row_order().name().to_string());
    record.identifier_release = (!written.identifiers.is_empty()).then(|| how.name().into());
    record.identifiers = written.identifiers;
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
        (true, true) => Some(crate::missing::measure_complete_rows(
            inst,
            y,
            crate::measure::DRISK_K,
        )?),
    };
    let il_released = if holes {
        crate::missing::il_released(inst, y, None)
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
            true => crate::missing::il_released(inst, y, Some(&w.values)),
            false => crate::measure::utility::il_sse_weighted(&inst.raw, y, inst.d, &w.values),
        }),
        measures,
        row_order: None,
        identifiers: Vec::new(),
        identifier_release: None,
    })
}

/// Write the released values: the whole input file with the instance's columns replaced
/// when the data came from a CSV file (`inst.source` is that file), else the columns alone;
/// identifiers and row order as `protect` says.
pub(crate) fn write_release(
    out: &Path,
    inst: &Instance,
    delimiter: u8,
    released: &[f64],
    args: &ReleaseArgs,
    protect: &whole_file::Protection,
) -> Result<(whole_file::Written, &'static str)> {
    let input = Path::new(&inst.source);
    if input.is_file() {
        let w = whole_file::write_protected(
            out,
            input,
            delimiter,
            inst,
            released,
            args.round_to_input,
            protect,
        )?;
        Ok((w, "whole"))
    } else {
        if !protect.identifiers.columns.is_empty() {
            return Err(Error::usage(format!(
                "--identifiers: '{}' is not a file; generated data have only the run's columns",
                inst.source
            )));
        }
        if args.round_to_input {
            return Err(Error::usage(format!(
                "--round-to-input: '{}' is not a file, there are no input decimals to round to",
                inst.source
            )));
        }
        let order = protect.order.as_deref();
        Ok((
            whole_file::write_columns(out, inst, released, order)?,
            "columns",
        ))
    }
}
