//! # Data
//!
//! Loading records into an [`Instance`]: CSV files ([`csv_file`]), the named CASC benchmark
//! instances of the manifest ([`manifest`]) and seeded synthetic generators ([`synthetic`]).
//! [`load`] resolves a `--data` argument to one of the three.
//!
//! Every attribute is z-scored with the population standard deviation (ddof = 0), so that
//! SST = n * d up to rounding; information loss does not depend on that choice (scaling
//! every attribute by the same factor leaves partitions and SSE/SST unchanged).

pub mod csv_file;
pub mod instance;
pub mod manifest;
pub mod missing_cells;
pub mod synthetic;
pub mod weighted_csv;
pub mod weights;

pub use csv_file::{ColumnSelection, StrataColumns};
pub use instance::{sub_instance, Instance};
pub use weighted_csv::{load_weighted, load_weighted_split};
pub use weights::Weights;

use crate::error::Result;

/// Resolve a `--data` argument: a synthetic spec (`uniform:...`, `gauss:...`, `sim1:...`),
/// a manifest id (`tarragona`, `census`, `eia`), or a path to a CSV file.
pub fn load(spec: &str, columns: &ColumnSelection) -> Result<Instance> {
    load_with(spec, columns, b',')
}

/// As [`load`], with the field delimiter of CSV files (`--delimiter`).
pub fn load_with(spec: &str, columns: &ColumnSelection, delimiter: u8) -> Result<Instance> {
    refuse_delimiter_for_named(spec, delimiter)?;
    if let Some(inst) = synthetic::try_generate(spec)? {
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
            csv_file::load_csv(&path, &cols).map(|i| (i, ())),
        )?
        .0;
        inst.name = entry.id.clone();
        return Ok(inst);
    }
    csv_file::load_csv_with(std::path::Path::new(spec), columns, delimiter)
}

/// As [`load_with`], also reading the `strata` columns (`--strata`) as text labels of each
/// row's stratum; they are not numeric attributes. Generators have no strata columns.
pub fn load_with_strata(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
) -> Result<(Instance, Option<StrataColumns>)> {
    if strata.is_empty() {
        return load_with(spec, columns, delimiter).map(|inst| (inst, None));
    }
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
            csv_file::load_csv_strata(&path, &cols, b',', strata),
        )?;
        inst.name = entry.id.clone();
        return Ok((inst, s));
    }
    csv_file::load_csv_strata(std::path::Path::new(spec), columns, delimiter, strata)
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
/// files; generators and the CASC files have no missing values.
pub fn load_missing(
    spec: &str,
    columns: &ColumnSelection,
    delimiter: u8,
    strata: &[String],
    missing: missing_cells::MissingPolicy,
) -> Result<(Instance, Option<StrataColumns>)> {
    let path = std::path::Path::new(spec);
    if missing == missing_cells::MissingPolicy::Refuse
        || !path.is_file()
        || manifest::Manifest::embedded()?.find(spec).is_some()
    {
        return load_with_strata(spec, columns, delimiter, strata);
    }
    csv_file::load_csv_missing(path, columns, delimiter, strata, missing)
}
