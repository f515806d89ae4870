//! # Reduced-cost region dive from a stored partition
//!
//! Runs `microagg_solvers::rc_dive::rc_dive` (module doc there: regions around the groups of
//! largest reduced cost, each re-partitioned by a set-partitioning MIP over its cheap groups)
//! at the duals of a bound certificate, from a labels file, and writes the result when it is
//! strictly better than the start, after `check_labels` re-checked it (feasibility and a
//! recomputed SSE). A heuristic for issue 18 (a lower incumbent narrows the certified gap):
//! nothing here is proven.
//!
//! ```text
//! cargo run --release --example rc_dive -- --data eia --k 3 \
//!   --certificate CERT (a bnp certificate, .bnp.json[.gz], or a colgen one, .bound.json) \
//!   --labels instances/library/eia-k3.labels --out better.labels \
//!   [--leaf 0] [--region 40] [--min-rc 0.001] [--threshold 0.01] [--max-pool 40000] \
//!   [--list-seconds 20] [--mip-seconds 30] [--passes 2] [--time-limit 600]
//! ```
//!
//! - `--leaf L`: which leaf's duals of a bnp certificate (default 0, the first).
//! - `--region R`: records per region (whole groups; default 40).
//! - `--min-rc T`: groups of the partition with a reduced cost above T are seeds (1e-3).
//! - `--threshold T`: first listing threshold per region, doubled while the listing stays
//!   complete, under `--max-pool` groups and under the region's excess (0.01).
//! - `--max-pool C`: most groups per region's MIP (40 000).
//! - `--list-seconds S`, `--mip-seconds S`: per region (20, 30).
//! - `--passes P`: passes over the seeds; a pass without improvement ends the dive (2).
//! - `--time-limit S`: no region is started after S seconds (600).
//!
//! Prints one line per region and the CPU and wall seconds.
//!
//! ## Complexity
//! That of `rc_dive` for the given budget; O(n) to read and check the labels.

use microagg::bnp_certificate::BnpCertificate;
use microagg::certificate::BoundCertificate;
use microagg::data::{load, ColumnSelection};
use microagg::labels::{check_labels, read_labels};
use microagg_solvers::bounds::colgen::cuts::{Cut, CutDuals};
use microagg_solvers::rc_dive::{rc_dive, DiveOptions};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (mut data, mut k, mut cert, mut labels, mut out) = (None, None, None, None, None);
    let mut leaf = 0usize;
    let mut limit = 600.0f64;
    let mut opts = DiveOptions::default();
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut val = || args.next().ok_or(format!("{a} needs a value"));
        match a.as_str() {
            "--data" => data = Some(val()?),
            "--k" => k = Some(val()?.parse::<usize>()?),
            "--certificate" => cert = Some(PathBuf::from(val()?)),
            "--labels" => labels = Some(PathBuf::from(val()?)),
            "--out" => out = Some(PathBuf::from(val()?)),
            "--leaf" => leaf = val()?.parse()?,
            "--region" => opts.region = val()?.parse()?,
            "--min-rc" => opts.min_rc = val()?.parse()?,
            "--threshold" => opts.threshold = val()?.parse()?,
            "--max-pool" => opts.max_pool = val()?.parse()?,
            "--list-seconds" => opts.list_seconds = val()?.parse()?,
            "--mip-seconds" => opts.mip_seconds = val()?.parse()?,
            "--passes" => opts.passes = val()?.parse()?,
            "--time-limit" => limit = val()?.parse()?,
            _ => return Err(format!("unknown argument {a}").into()),
        }
    }
    let (Some(data), Some(k), Some(cert), Some(labels), Some(out)) = (data, k, cert, labels, out)
    else {
        return Err(
            "usage: rc_dive --data D --k K --certificate C --labels FILE --out FILE \
                    [options: see the example's doc]"
                .into(),
        );
    };
    let inst = load(&data, &ColumnSelection::All)?;
    let start = read_labels(&labels)?;
    let report = check_labels(&inst, k, &start)?;
    let (y, cut_list, sigma) = read_duals(&cert, leaf)?;
    if y.len() != inst.n {
        return Err(format!(
            "{}: {} record duals, the instance has {} records",
            cert.display(),
            y.len(),
            inst.n
        )
        .into());
    }
    if let Some(c) = cut_list
        .iter()
        .find(|c| c.records().iter().any(|&i| i as usize >= inst.n))
    {
        return Err(format!(
            "{}: a cut on records {:?}, the instance has {} records",
            cert.display(),
            c.records(),
            inst.n
        )
        .into());
    }
    let rank1 = cut_list.iter().filter(|c| c.as_triple().is_none()).count();
    let cuts = if cut_list.is_empty() {
        CutDuals::none()
    } else {
        CutDuals::new(inst.n, &cut_list, &sigma)
    };
    println!(
        "start {}: SSE {:.10}; duals of {} (leaf {leaf}), {} cuts ({rank1} on 4-5 records)",
        labels.display(),
        report.sse,
        cert.display(),
        cut_list.len()
    );
    opts.deadline = Some(Instant::now() + Duration::from_secs_f64(limit));
    let (t, cpu0) = (Instant::now(), microagg::bench::process_cpu_seconds());
    let r = rc_dive(
        &inst.z,
        inst.n,
        inst.d,
        k,
        &y,
        &cuts,
        &start,
        &opts,
        &mut |s| {
            println!(
                "pass {} seed rc {:.4}: {} records, excess {:.4}, t {:.4}, {} groups ({}), MIP {}, \
                 SSE {:.10} -> {:.10}, {:.1} s",
                s.pass,
                s.seed_rc,
                s.records,
                s.excess,
                s.threshold,
                s.listed,
                if s.complete { "complete" } else { "cut" },
                if s.optimal { "optimal" } else { "not optimal" },
                s.sse_before,
                s.sse_after,
                s.seconds
            )
        },
    )?;
    let best = check_labels(&inst, k, &r.labels)?;
    println!(
        "rc_dive: {} regions, {:.1} s wall, {:.1} s CPU: SSE {:.10} IL {:.10} % ({:+.10} against \
         the start)",
        r.steps.len(),
        t.elapsed().as_secs_f64(),
        microagg::bench::process_cpu_seconds() - cpu0,
        best.sse,
        inst.il(best.sse),
        best.sse - report.sse
    );
    if best.sse < report.sse {
        let text: String = r.labels.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&out, text)?;
        println!("better: written to {}", out.display());
    } else {
        println!("not better: nothing written");
    }
    Ok(())
}

/// Record duals, cuts (subset-row triples and, from bnp certificates written with
/// `--rank1-cuts`, rank-1 cuts on 4-5 records) and cut duals of a bnp certificate's leaf or of
/// a colgen certificate (which one: by the file's format field).
type Duals = (Vec<f64>, Vec<Cut>, Vec<f64>);
fn read_duals(path: &Path, leaf: usize) -> Result<Duals, Box<dyn std::error::Error>> {
    if let Ok(c) = BnpCertificate::read(path) {
        let l = c.leaves.get(leaf).ok_or(format!(
            "{}: {} leaves, no leaf {leaf}",
            path.display(),
            c.leaves.len()
        ))?;
        // A leaf's cut duals belong to the first cuts of the certificate's list.
        let cuts = c.cuts[..l.cut_duals.len()]
            .iter()
            .map(|cut| cut.0)
            .collect();
        return Ok((l.duals.clone(), cuts, l.cut_duals.clone()));
    }
    let c = BoundCertificate::read(path)?;
    let triples = c.cuts.iter().map(|c| Cut::triple(c.records)).collect();
    let sigma = c.cuts.iter().map(|c| c.dual).collect();
    Ok((c.duals, triples, sigma))
}
