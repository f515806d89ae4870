//! What the probes share: the case they read (`--data`, `--k`) and how it is loaded, and
//! what the certificate probes print and write. Included by each probe as `mod common;` (a
//! folder with `mod.rs` is not an example target of its own).
// Each probe uses a different subset of the helpers.
#![allow(dead_code)]

use microagg::certificate::BoundCertificate;
use microagg::data::{load, ColumnSelection, Instance};
use microagg::labels::read_labels;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::Geometry;
use microagg_solvers::bounds::colgen::ColgenObserver;
use microagg_solvers::bounds::verifiable_claim;
use std::path::{Path, PathBuf};

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
    pub certificate: PathBuf,
}

/// A case and a partition of it, what the partition probes read first.
#[derive(clap::Args, Debug)]
pub struct Partitioned {
    #[command(flatten)]
    pub case: Case,
    /// A partition of the case: a labels file (one group label per record).
    #[arg(long)]
    pub labels: PathBuf,
}

impl Partitioned {
    /// The case's instance and the partition's labels.
    pub fn load(&self) -> Result<(Instance, Vec<usize>), Box<dyn std::error::Error>> {
        Ok((self.case.load()?, read_labels(&self.labels)?))
    }
}

/// A case, a partition of it and a stored certificate of the case.
#[derive(clap::Args, Debug)]
pub struct CertifiedPartition {
    #[command(flatten)]
    pub partition: Partitioned,
    /// A bound certificate of the case (`bound --certificate`, JSON or gzipped JSON; the
    /// probe's doc says which kind it reads).
    #[arg(long)]
    pub certificate: PathBuf,
}

/// Prints the kernel's detail lines and warnings on stderr as they come.
pub struct Print;

impl ColgenObserver for Print {
    fn detail(&mut self, line: std::fmt::Arguments<'_>) {
        eprintln!("{line}");
    }
    fn warning(&mut self, line: std::fmt::Arguments<'_>) {
        eprintln!("{line}");
    }
}

/// Writes to `out` the Lagrangian certificate of `best` (value, duals) at the anchor threshold
/// `tau`, its claim as the verifier re-derives it, and says so.
pub fn write_lagrangian(
    out: &Path,
    geo: &Geometry,
    inst: &Instance,
    k: usize,
    best: (f64, Vec<f64>),
    tau: f64,
    produced_by: String,
) -> Result<(), Box<dyn std::error::Error>> {
    let claim = verifiable_claim(geo, &best.1, inst.d, &CutDuals::none(), best.0);
    let mut c = BoundCertificate::lagrangian(inst, k, claim, best.1).with_anchor_threshold(tau);
    c.produced_by = produced_by;
    c.write(out)?;
    println!("written {} (claim {claim:.6})", out.display());
    Ok(())
}
