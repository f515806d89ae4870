//! What the probes share: the case they read (`--data`, `--k`) and how it is loaded.
//! Included by each probe as `mod common;` (a folder with `mod.rs` is not an example
//! target of its own).

use microagg::data::{load, ColumnSelection, Instance};

/// The data set and group size of a probe run.
#[derive(clap::Args, Debug)]
pub struct Case {
    /// A data set name (tarragona, census, eia, read from `MICROAGG_DATA`) or a generator
    /// spec, as `microagg --data` takes it.
    #[arg(long)]
    pub data: String,
    /// Minimum group size.
    #[arg(long)]
    pub k: usize,
}

impl Case {
    /// Every column of the data, z-scored.
    pub fn load(&self) -> Result<Instance, Box<dyn std::error::Error>> {
        Ok(load(&self.data, &ColumnSelection::All)?)
    }
}

/// A case and a stored certificate of it, what the certificate probes read first.
#[derive(clap::Args, Debug)]
pub struct Certified {
    #[command(flatten)]
    pub case: Case,
    /// A bound certificate of the case (`bound --certificate`, JSON or gzipped JSON; the
    /// probe's doc says which kind it reads).
    #[arg(long)]
    pub certificate: std::path::PathBuf,
}
