//! Re-certifies the duals of a stored Lagrangian certificate (no cuts) at a smaller anchor
//! threshold and writes the new certificate when its value is higher. The bound holds for
//! every threshold `tau <= 0` (proofs/P20); a search to a smaller `tau` costs more time but
//! loses less per anchor (a finished check certifies every anchor only down to `tau`, so
//! `floor(n/k) |tau|` is what a threshold can cost). The colgen's `tighten_fraction` does the
//! same inside a run; this tool does it to a run's certificate afterwards.
//!
//! ```text
//! cargo run --release --example tighten_certificate -- --data census --k 10 \
//!   --certificate IN.bound.json --factor 0.4 --seconds 600 --out OUT.bound.json
//! ```
//!
//! `--factor F` (in (0, 1)): the new threshold is F times the stored one. The check stops at
//! `--seconds` (then its value is valid but weak, and nothing is written unless it is higher).

mod common;

use clap::Parser;
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::Geometry;
use microagg_solvers::bounds::colgen::subgrad::{certify_check, GroupPool};
use microagg_solvers::bounds::verifiable_claim;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Re-certifies a stored certificate's duals at a smaller anchor threshold.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    certified: common::Certified,
    /// Where the new certificate is written when its value is higher.
    #[arg(long)]
    out: PathBuf,
    /// The new threshold as a fraction of the stored one, in (0, 1).
    #[arg(long, default_value_t = 0.4)]
    factor: f64,
    /// Time limit of the check.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        certified: common::Certified {
            case,
            certificate: input,
        },
        out: output,
        factor,
        seconds,
    } = Args::parse();
    if !(factor > 0.0 && factor < 1.0) {
        return Err("--factor must be in (0, 1)".into());
    }
    let inst = case.load()?;
    let (data, k) = (&case.data, case.k);
    let cert = BoundCertificate::read_cut_free(&input, &inst, k)?;
    if cert.anchor_threshold >= 0.0 {
        return Err(format!(
            "{}: threshold {} (nothing to tighten)",
            input.display(),
            cert.anchor_threshold
        )
        .into());
    }
    // The colgen's candidate pool size (3k, at least 12).
    let geo = Geometry::new(&inst.z, inst.n, inst.d, k, (3 * k).max(12));
    let tau = factor * cert.anchor_threshold;
    let t = Instant::now();
    let check = certify_check(
        &geo,
        &cert.duals,
        inst.d,
        tau,
        t + Duration::from_secs_f64(seconds),
        &mut GroupPool::default(),
    );
    println!(
        "{data} k={k}: threshold {} -> {tau}: {:.9} -> {:.9} ({}, {:.1} s)",
        cert.anchor_threshold,
        cert.lower_bound,
        check.value,
        if check.complete { "complete" } else { "cut" },
        t.elapsed().as_secs_f64()
    );
    // The claim lowered so that verify-bound's own searches confirm it (proofs/P13).
    let claim = verifiable_claim(&geo, &cert.duals, inst.d, &CutDuals::none(), check.value);
    if claim > cert.lower_bound {
        let mut tight = BoundCertificate::lagrangian(&inst, k, claim, cert.duals.clone())
            .with_anchor_threshold(tau);
        tight.produced_by = format!(
            "{} + tighten_certificate (factor {factor})",
            cert.produced_by
        );
        tight.write(&output)?;
        println!("written {}", output.display());
    } else {
        println!("not higher: nothing written");
    }
    Ok(())
}
