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
pub mod synthetic;

pub use csv_file::ColumnSelection;
pub use instance::Instance;

use crate::error::Result;

/// Resolve a `--data` argument: a synthetic spec (`uniform:...`, `gauss:...`, `sim1:...`),
/// a manifest id (`tarragona`, `census`, `eia`), or a path to a CSV file.
pub fn load(spec: &str, columns: &ColumnSelection) -> Result<Instance> {
    load_with(spec, columns, b',')
}

/// As [`load`], with the field delimiter of CSV files (`--delimiter`).
pub fn load_with(spec: &str, columns: &ColumnSelection, delimiter: u8) -> Result<Instance> {
    if let Some(inst) = synthetic::try_generate(spec)? {
        if !columns.is_all() {
            return Err(crate::error::Error::usage(
                "--columns applies to CSV data, not to synthetic generators",
            ));
        }
        return Ok(inst);
    }
    if let Some(entry) = manifest::Manifest::embedded()?.find(spec) {
        let path = entry.resolve()?;
        let cols = if columns.is_all() {
            entry.default_columns()
        } else {
            columns.clone()
        };
        let mut inst = csv_file::load_csv(&path, &cols)?;
        inst.name = entry.id.clone();
        return Ok(inst);
    }
    csv_file::load_csv_with(std::path::Path::new(spec), columns, delimiter)
}
