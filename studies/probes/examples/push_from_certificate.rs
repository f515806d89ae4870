//! # Push-and-project from a stored certificate along the partition's slack (issue 18, k = 10)
//!
//! A run's push-and-project follows one direction, the line search's toward the master's
//! duals, and stalls when that direction stops paying (study-colgen 18-k10). This tool
//! restarts it from a stored cut-free Lagrangian certificate along the *slack direction* of
//! the best known partition at those duals (`ascent::slack_direction`: each group's slack
//! `SSE(S) - y(S)` spread evenly over its members, so `y + h` prices the partition's groups
//! at 0 and sums to its SSE). After each round the direction is recomputed at the new best
//! point (`subgrad::slack_push`, the rounds of `colgen`'s `slack_push`); a round that does not
//! improve ends it. Every value is certified by the per-anchor exact pricing of
//! `subgrad::push_project` at the certificate's anchor threshold; the directions only choose
//! the duals (proofs/P20, "Choosing the duals").
//!
//! Then, as a diagnostic, the groups the rounds met (the partition's and every negative group
//! found) are solved as a restricted master (`master_upper`): its value lies above the LP
//! relaxation's optimum (an estimate with HiGHS' tolerance, not a bound; proofs/P09 Part D),
//! so it says how much room a plain Lagrangian bound still has.
//!
//! ```text
//! cargo run --release --example push_from_certificate -- --data eia --k 10 \
//!   --certificate instances/library/eia-k10.bound.json \
//!   --labels instances/library/eia-k10.labels --seconds 1200 \
//!   [--master-seconds 300] [--lp-projection] [--out OUT.bound.json]
//! ```
//!
//! - `--seconds S`: wall-clock budget of the rounds (`subgrad::SLACK_ROUNDS` at most, each
//!   the time left divided by the rounds left, first step `subgrad::SLACK_T_FIRST`).
//! - `--master-seconds S`: limit of the restricted master's solve (300; 0: not solved).
//! - `--lp-projection`: bring the candidates onto the groups met by the least total lowering
//!   (`subgrad::Projection::LeastLowering`) instead of cyclic projections.
//! - `--out FILE`: written when the best certified value beats the stored one, with the
//!   claim lowered as every producer's (proofs/P13).
//!
//! ## Complexity
//! Per check one per-anchor exact pricing (seconds at k = 10) after at most 20 rounds of
//! heuristic pricing from every record; the projection is O(pool size x group size) per pass.

mod common;

use clap::Parser;
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::colgen::master_upper::restricted_master_value;
use microagg_solvers::bounds::colgen::pricing::Geometry;
use microagg_solvers::bounds::colgen::start_groups;
use microagg_solvers::bounds::colgen::subgrad::{slack_push, GroupPool, Projection};
use microagg_solvers::sse::group_sse;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Push-and-project rounds from a stored certificate's duals (the labels: the slacks' partition).
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    run: common::CertifiedPartition,
    /// Where a certificate of a higher bound is written.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Wall-clock budget of the rounds.
    #[arg(long, default_value_t = 1200.0)]
    seconds: f64,
    /// Limit of the restricted master's solve (0: not solved).
    #[arg(long, default_value_t = 300.0)]
    master_seconds: f64,
    /// Candidates brought onto the groups by the least total lowering (a covering LP).
    #[arg(long)]
    lp_projection: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (output, seconds, master_seconds) = (args.out, args.seconds, args.master_seconds);
    if !(seconds > 0.0 && master_seconds >= 0.0) {
        return Err("--seconds must be positive, --master-seconds at least 0".into());
    }
    let projection = if args.lp_projection {
        Projection::LeastLowering
    } else {
        Projection::Cyclic
    };
    let partition = &args.run.partition;
    let (inst, lab) = partition.load()?;
    let (data, k) = (&partition.case.data, partition.case.k);
    let cert = BoundCertificate::read_cut_free(&args.run.certificate, &inst, k)?;
    // Checked (one label per record, groups of at least k) and grouped as colgen's starts.
    let groups = start_groups(&lab, inst.n, k)
        .map_err(|e| format!("{}: {e}", partition.labels.display()))?;
    // The colgen's candidate pool size (3k, at least 12), as in every producer.
    let geo = Geometry::new(&inst.z, inst.n, inst.d, k, (3 * k).max(12));
    let tau = cert.anchor_threshold.min(0.0);
    let start = Instant::now();
    println!(
        "{data} k={k}: stored {:.6} (sum y {:.6}), threshold {tau}",
        cert.lower_bound,
        cert.duals.iter().sum::<f64>()
    );
    let mut pool = GroupPool::seeded(&geo, &groups);
    let asc = slack_push(
        &geo,
        &inst.z,
        inst.d,
        (&cert.duals, cert.lower_bound),
        &groups,
        &mut pool,
        projection,
        tau,
        true,
        start + Duration::from_secs_f64(seconds),
        &mut common::Print,
    );
    let (best, y) = (asc.lower_bound, asc.duals);
    println!(
        "slack push: {best:.6} (sum y {:.6}), {} checks, pool {} groups, {:.1} s",
        y.iter().sum::<f64>(),
        asc.checks.len(),
        pool.len(),
        start.elapsed().as_secs_f64()
    );
    if master_seconds > 0.0 {
        let costs: Vec<f64> = (pool.groups().iter())
            .map(|g| {
                let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
                group_sse(&inst.z, inst.d, &m)
            })
            .collect();
        match restricted_master_value(inst.n, pool.groups(), &costs, master_seconds) {
            Ok(Some(u)) => println!("restricted master over the pool (above the LP optimum): {u}"),
            Ok(None) => println!("restricted master not solved within {master_seconds} s"),
            Err(e) => println!("restricted master failed: {e}"),
        }
    }
    if let (Some(out), true) = (output, best > cert.lower_bound) {
        let by = format!("{} + push_from_certificate", cert.produced_by);
        common::write_lagrangian(&out, &geo, &inst, k, (best, y), tau, by)?;
    }
    Ok(())
}
