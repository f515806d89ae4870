//! # Data
//!
//! Loading records into an [`Instance`]: CSV files ([`csv_file`]), the named CASC benchmark
//! instances of the manifest ([`manifest`]) and seeded synthetic generators ([`synthetic`]).
//! [`load`] resolves a `--data` argument to one of the three.
//!
//! Every attribute is z-scored with the population standard deviation (ddof = 0), so that
//! SST = n * d up to rounding; information loss does not depend on that choice (scaling
//! every attribute by the same factor leaves partitions and SSE/SST unchanged).

mod columns;
pub mod csv_file;
pub mod instance;
pub mod manifest;
pub(crate) mod missing_cells;
pub mod synthetic;
pub(crate) mod weights;

pub use columns::ColumnSelection;
pub use csv_file::StrataColumns;
pub use instance::{sub_instance, Instance, RawCopy};
pub use weights::Weights;

use crate::error::Result;
use missing_cells::MissingPolicy;

/// How a file's values become an instance: what to do with a missing cell, whether to
/// keep the original values beside the z-scores, and which column holds sampling weights.
/// A [`MissingPolicy`] alone keeps the values and reads no weights.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct LoadOptions<'a> {
    pub missing: MissingPolicy,
    pub raw: RawCopy,
    /// `--weights`: the column (name or 1-based position) of sampling weights, attached to
    /// the instance as [`Weights`] and left out of the attributes (see [`weights`]).
    pub weights: Option<&'a str>,
}

impl LoadOptions<'_> {
    /// A run's options under `missing`: the original values are discarded when nothing
    /// reads them (`z_only`) and missing cells are refused (the data are then complete);
    /// otherwise kept.
    pub(crate) fn for_run(missing: MissingPolicy, z_only: bool) -> LoadOptions<'static> {
        let discard = z_only && missing == MissingPolicy::Refuse;
        LoadOptions {
            missing,
            raw: if discard {
                RawCopy::Discard
            } else {
                RawCopy::Keep
            },
            weights: None,
        }
    }

    /// These options with missing cells refused (generators and the CASC files have none).
    fn refusing_missing(self) -> Self {
        LoadOptions {
            missing: MissingPolicy::Refuse,
            ..self
        }
    }
}

impl From<MissingPolicy> for LoadOptions<'static> {
    fn from(missing: MissingPolicy) -> LoadOptions<'static> {
        LoadOptions {
            missing,
            ..LoadOptions::default()
        }
    }
}

/// Resolve a `--data` argument: a synthetic spec (`uniform:...`, `gauss:...`, `sim1:...`),
/// a manifest id (`tarragona`, `census`, `eia`), or a path to a CSV file.
pub fn load(spec: &str, columns: &ColumnSelection) -> Result<Instance> {
    load_with(spec, columns, b',')
}

/// As [`load`], with the field delimiter of CSV files (`--delimiter`).
pub fn load_with(spec: &str, columns: &ColumnSelection, delimiter: u8) -> Result<Instance> {
    load_copy(spec, columns, delimiter, LoadOptions::default())
}

/// As [`load_with`], keeping the original values or not and reading weights as `options`
/// say (missing cells refused).
fn load_copy(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    options: LoadOptions<'_>,
) -> Result<Instance> {
    refuse_delimiter_for_named(spec, delimiter)?;
    let options = options.refusing_missing();
    if let Some(inst) = synthetic::generate(spec, options.raw)? {
        if !columns.is_all() {
            return Err(crate::error::Error::usage(
                "--columns applies to CSV data, not to synthetic generators",
            ));
        }
        return Ok(inst);
    }
    if let Some(entry) = manifest::Manifest::embedded()?.find(spec) {
        let path = entry.locate()?;
        let cols = if columns.is_all() {
            entry.default_columns()
        } else {
            columns.clone()
        };
        let mut inst = checked(
            entry,
            &path,
            csv_file::load_csv_missing(&path, &cols, b',', &[], options),
        )?
        .0;
        inst.name = entry.id.clone();
        return Ok(inst);
    }
    let path = std::path::Path::new(spec);
    csv_file::load_csv_missing(path, columns, delimiter, &[], options).map(|l| l.0)
}

/// As [`load_with`], also reading the `strata` columns (`--strata`) as text labels of each
/// row's stratum; they are not numeric attributes. Generators have no strata columns.
pub fn load_with_strata(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
) -> Result<(Instance, Option<StrataColumns>)> {
    load_strata_copy(spec, columns, delimiter, strata, LoadOptions::default())
}

/// As [`load_with_strata`], keeping the original values or not and reading weights as
/// `options` say (missing cells refused).
fn load_strata_copy(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    options: LoadOptions<'_>,
) -> Result<(Instance, Option<StrataColumns>)> {
    if strata.is_empty() {
        return load_copy(spec, columns, delimiter, options).map(|inst| (inst, None));
    }
    let options = options.refusing_missing();
    refuse_delimiter_for_named(spec, delimiter)?;
    if synthetic::names_generator(spec) {
        return Err(crate::error::Error::usage(format!(
            "--strata: '{spec}' is a generator; strata columns come from a CSV file"
        )));
    }
    if let Some(entry) = manifest::Manifest::embedded()?.find(spec) {
        let path = entry.locate()?;
        let cols = if columns.is_all() {
            // The manifest's default columns, less those that label strata.
            match entry.default_columns() {
                ColumnSelection::List(names) => ColumnSelection::List(
                    names.into_iter().filter(|c| !strata.contains(c)).collect(),
                ),
                all => all,
            }
        } else {
            columns.clone()
        };
        let (mut inst, s) = checked(
            entry,
            &path,
            csv_file::load_csv_missing(&path, &cols, b',', strata, options),
        )?;
        inst.name = entry.id.clone();
        return Ok((inst, s));
    }
    let path = std::path::Path::new(spec);
    csv_file::load_csv_missing(path, columns, delimiter, strata, options)
}

/// A manifest file's load, checked against the manifest's sha256 with the digest the
/// reader computed while parsing (the file is read and hashed once). A failed parse reports
/// a wrong checksum first, as the separate check before the parse did.
fn checked<T>(
    entry: &manifest::InstanceEntry,
    path: &std::path::Path,
    loaded: Result<(Instance, T)>,
) -> Result<(Instance, T)> {
    match loaded {
        Ok((inst, extra)) => {
            entry.check_sha256(path, &inst.sha256)?;
            Ok((inst, extra))
        }
        Err(e) => {
            entry.resolve()?;
            Err(e)
        }
    }
}

/// `--delimiter` describes a CSV file; a generator or a named CASC instance (read with its
/// own format) would silently ignore it, so a delimiter other than ',' is refused there.
fn refuse_delimiter_for_named(spec: &str, delimiter: u8) -> Result<()> {
    if delimiter == b',' {
        return Ok(());
    }
    let named = if synthetic::names_generator(spec) {
        "a synthetic generator"
    } else if manifest::Manifest::embedded()?.find(spec).is_some() {
        "a named instance read with its own format"
    } else {
        return Ok(());
    };
    Err(crate::error::Error::usage(format!(
        "--delimiter '{}' applies to CSV files; '{spec}' is {named}",
        delimiter as char
    )))
}

/// As [`load_with_strata`] with a missing-value policy (`run --missing`): it applies to CSV
/// files; generators and the CASC files have no missing values. [`LoadOptions`] also say
/// whether to keep the original values (a run that reads only the z-scores keeps none).
pub fn load_missing<'a>(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    options: impl Into<LoadOptions<'a>>,
) -> Result<(Instance, Option<StrataColumns>)> {
    let options = options.into();
    refuse_weights_for_generator(spec, options)?;
    let path = std::path::Path::new(spec);
    if options.missing == MissingPolicy::Refuse
        || !path.is_file()
        || manifest::Manifest::embedded()?.find(spec).is_some()
    {
        return load_strata_copy(spec, columns, delimiter, strata, options);
    }
    csv_file::load_csv_missing(path, columns, delimiter, strata, options)
}

/// Load `--data` with `--weights COLUMN`: the instance of the other (or the chosen) columns
/// with the column's values attached as [`Weights`]. Generators have no columns to read
/// weights from.
pub fn load_weighted(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    weights_column: &str,
) -> Result<Instance> {
    load_weighted_split(
        spec,
        columns,
        delimiter,
        &[],
        MissingPolicy::Refuse,
        weights_column,
    )
    .map(|(inst, _)| inst)
}

/// As [`load_weighted`], also reading the `strata` columns (`run --strata`) and with a
/// missing-value policy (`run --missing`): [`load_missing`] with the weights column named.
/// The weights column is left out of the attributes and cannot be a strata column.
pub fn load_weighted_split(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    missing: MissingPolicy,
    weights_column: &str,
) -> Result<(Instance, Option<StrataColumns>)> {
    let options = LoadOptions {
        missing,
        weights: Some(weights_column),
        ..LoadOptions::default()
    };
    load_missing(spec, columns, delimiter, strata, options)
}

/// Weights come from a column of a file: a generator with `--weights` is refused.
fn refuse_weights_for_generator(spec: &str, options: LoadOptions<'_>) -> Result<()> {
    if options.weights.is_some() && synthetic::names_generator(spec) {
        return Err(crate::error::Error::usage(format!(
            "--weights: '{spec}' is a generator; weights come from a column of a CSV file"
        )));
    }
    Ok(())
}
