//! # The pool's restricted master: where the LP relaxation lies, and duals to certify (issue 18, k = 10)
//!
//! A restricted master `min { c x : A x = 1, x >= 0 }` over any columns that contain a
//! partition has a value `U >= LP*` (proofs/P09 Part D). By Part D no plain Lagrangian bound
//! lies above `LP*` by more than a fraction of one group's reduced cost, and no capped
//! anchored one (P20's per-anchor and per-size forms) by more than its largest per-anchor
//! negative value `T`. So a `U` well below a target puts the target out of reach of the plain
//! bound at any duals, and of the anchored ones wherever `T` is small; only cuts, branching
//! or a better partition can meet it there. At k = 10 the column generation
//! started from a partition stays at the partition's value (the degenerate master,
//! study-colgen 18-upper); this tool grows the master's columns from the certified duals `y0`
//! of a stored certificate instead and certifies midpoints between `y0` and the master's
//! duals (`colgen::pool_master::pool_master_push`, whose doc gives the rounds). With
//! `--out FILE` the best certified value, when it beats the stored bound, is written as a
//! certificate (claim lowered as every producer's, P13) that `microagg verify-bound`
//! re-checks. The master only chooses the duals (P20, "Choosing the duals").
//!
//! Then the final columns are solved once more from scratch (`master_upper`): the value with
//! the recomputed cost and the coverage residual. It is an estimate with HiGHS' tolerance, not
//! a bound, and nothing certified is derived from it.
//!
//! ```text
//! cargo run --release --example pool_master -- --data eia --k 10 \
//!   --certificate instances/library/eia-k10.bound.json \
//!   --labels instances/library/eia-k10.labels [--seconds 900] [--rounds 200] [--out FILE]
//!   [--moving-centre] [--ipm]
//! ```
//!
//! - `--seconds S`: wall-clock budget of the growth (the final solve gets at least 60 s more);
//!   an exact check gets half of the time left.
//! - `--rounds R`: most master solves.
//! - `--moving-centre`: the midpoints' centre moves to each midpoint that raised the bound
//!   (default: fixed at the certificate's duals).
//! - `--ipm`: the master's re-solves by the interior point method (central duals).
//! - `--pool-mip S`: then the best partition of the columns (`merge::solve_pool`, HiGHS MIP,
//!   `S` seconds; a heuristic), with `--labels-out FILE` written when it beats the labels.
//!
//! ## Complexity
//! That of `pool_master_push` within `--seconds`, then one LP from scratch over the columns
//! and the optional MIP within its seconds.

mod common;

use clap::Parser;
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::colgen::master_upper::restricted_master_value;
use microagg_solvers::bounds::colgen::pool_master::{pool_master_push, PoolMasterSettings};
use microagg_solvers::bounds::colgen::pricing::Geometry;
use microagg_solvers::bounds::colgen::start_groups;
use microagg_solvers::bounds::colgen::subgrad::GroupPool;
use microagg_solvers::sse::group_sse;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// The pool master grown from a stored certificate's duals (the labels' groups seed the pool).
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    run: common::CertifiedPartition,
    /// Wall-clock budget of the growth.
    #[arg(long, default_value_t = 900.0)]
    seconds: f64,
    /// Most master solves.
    #[arg(long, default_value_t = 200)]
    rounds: usize,
    /// Where a certificate of a higher bound is written.
    #[arg(long)]
    out: Option<PathBuf>,
    /// Seconds of the set-partitioning MIP over the columns (0: none).
    #[arg(long, default_value_t = 0.0)]
    pool_mip: f64,
    /// Where the MIP's partition is written when it beats the labels.
    #[arg(long)]
    labels_out: Option<PathBuf>,
    /// The midpoints' centre moves to each midpoint that raised the bound.
    #[arg(long)]
    moving_centre: bool,
    /// The master's re-solves by the interior point method.
    #[arg(long)]
    ipm: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (seconds, rounds, output, pool_mip) = (args.seconds, args.rounds, args.out, args.pool_mip);
    let (labels_out, moving_centre, ipm) = (args.labels_out, args.moving_centre, args.ipm);
    if seconds.is_nan() || seconds <= 0.0 {
        return Err("--seconds must be positive".into());
    }
    if labels_out.is_some() && pool_mip <= 0.0 {
        return Err("--labels-out needs --pool-mip S".into());
    }
    let partition = &args.run.partition;
    let (inst, start_labels) = partition.load()?;
    let (data, k) = (&partition.case.data, partition.case.k);
    let (n, d, z) = (inst.n, inst.d, &inst.z);
    let cert = BoundCertificate::read_cut_free(&args.run.certificate, &inst, k)?;
    let groups = start_groups(&start_labels, n, k)
        .map_err(|e| format!("{}: {e}", partition.labels.display()))?;
    let cost = |g: &Vec<u32>| {
        let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
        group_sse(z, d, &m)
    };
    let partition_sse: f64 = groups.iter().map(cost).sum();
    let geo = Geometry::new(z, n, d, k, (3 * k).max(12));
    let tau = cert.anchor_threshold.min(0.0);
    let start = Instant::now();
    let deadline = start + Duration::from_secs_f64(seconds);
    let y0 = cert.duals.clone();
    println!(
        "{data} k={k}: partition {partition_sse:.6}, stored bound {:.6} (sum y {:.6})",
        cert.lower_bound,
        y0.iter().sum::<f64>()
    );

    let mut pool = GroupPool::seeded(&geo, &groups);
    let run = pool_master_push(
        &geo,
        z,
        d,
        (&y0, cert.lower_bound),
        &groups,
        &mut pool,
        PoolMasterSettings {
            tau,
            max_rounds: rounds,
            deadline: deadline.into(),
            moving_centre,
            ipm,
        },
        &mut common::Print,
    )?;
    let best = (run.ascent.lower_bound, run.ascent.duals);
    println!(
        "pool master: {} rounds, {} columns, last U {:.6}; {} checks, best {:.6}, {:.1} s",
        run.rounds,
        run.columns,
        run.upper,
        run.ascent.checks.len(),
        best.0,
        start.elapsed().as_secs_f64()
    );
    let all: Vec<Vec<u32>> = pool.groups().to_vec();
    let costs: Vec<f64> = all.iter().map(cost).collect();
    let left = deadline
        .saturating_duration_since(Instant::now())
        .as_secs_f64();
    match restricted_master_value(n, &all, &costs, left.max(60.0))? {
        Some(u) => println!(
            "restricted master over {} columns (above the LP optimum, an estimate): {u}; \
             partition {partition_sse:.6} is {:.3} % above it",
            all.len(),
            100.0 * (partition_sse - u.value) / u.value
        ),
        None => println!("final restricted master not solved within the time left"),
    }
    if pool_mip > 0.0 {
        let r =
            microagg_solvers::merge::solve_pool(z, n, d, k, &all, &start_labels, Some(pool_mip))?;
        println!(
            "best partition of the {} columns: SSE {:.10} (labels {partition_sse:.10}), improved {}, \
             HiGHS optimal {}",
            r.columns, r.sse, r.improved, r.optimal
        );
        if let (true, Some(path)) = (r.improved, &labels_out) {
            microagg::labels::write_labels(path, &r.labels)?;
            println!("written {}", path.display());
        }
    }
    println!(
        "best certified: {:.6} (stored {:.6})",
        best.0, cert.lower_bound
    );
    if let (Some(out), true) = (output, best.0 > cert.lower_bound) {
        let by = format!("{} + pool_master", cert.produced_by);
        common::write_lagrangian(&out, &geo, &inst, k, best, tau, by)?;
    }
    Ok(())
}
