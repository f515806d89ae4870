//! Probe (measurement only): one certifying per-anchor check at the duals of a stored
//! Lagrangian certificate, with the global size completion (`ExactSearch` with `Anchors::Complete`)
//! and with the per-anchor one (`ExactSearch` with `Anchors::CompleteLocal`, proofs/P20 "Per-anchor size
//! completion"): seconds per size, slots completed, and the anchored bound of each; then the
//! per-anchor one again with its deadline at about the end of size `k` (1.2 times that
//! size's seconds in the run before), so the larger sizes take the completion after the
//! budget (P20 "Completion after the budget"): what a check that searches size `k` only
//! would certify.
//!
//! ```text
//! cargo run --release --example k10_check_probe -- --data census --k 10 \
//!   --certificate instances/library/census-k10.bound.json [--seconds 600]
//! ```

mod common;

use clap::Parser;
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::colgen::anchors::anchored_best;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{
    anchor_sizes, weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::colgen::rc_margin;
use std::time::{Duration, Instant};

/// One certifying check per completion at a stored certificate's duals.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    certified: common::Certified,
    /// Time limit of each check.
    #[arg(long, default_value_t = 600.0)]
    seconds: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        certified: common::Certified { case, certificate },
        seconds,
    } = Args::parse();
    let inst = case.load()?;
    let (data, k) = (&case.data, case.k);
    let cert = BoundCertificate::read(&certificate)?;
    let (n, d) = (inst.n, inst.d);
    let y = &cert.duals;
    let tau = cert.anchor_threshold.min(0.0);
    let geo = Geometry::new(&inst.z, n, d, k, 30);
    let cuts = CutDuals::none();
    let margin = rc_margin(&geo, y, d, &cuts);
    let weak = weak_rc_bound(&geo, y);
    let w = anchor_sizes(&geo);
    println!(
        "{data} k={k}: claim {:.6}, threshold {tau}",
        cert.lower_bound
    );
    let mut size_k_seconds = seconds;
    for (local, cut_after_k) in [(false, false), (true, false), (true, true)] {
        let limit = if cut_after_k {
            1.2 * size_k_seconds
        } else {
            seconds
        };
        let budget = ExactBudget {
            nodes: u64::MAX,
            deadline: (Instant::now() + Duration::from_secs_f64(limit)).into(),
            max_columns: 20 * n,
            stop_after_columns: usize::MAX,
        };
        let mut per_size = Vec::new();
        let t = Instant::now();
        let ex = if local {
            ExactSearch::new(&cuts)
                .anchors(Anchors::CompleteLocal {
                    threshold: tau,
                    margin,
                })
                .run(&geo, y, budget, &mut per_size)
        } else {
            ExactSearch::new(&cuts)
                .anchors(Anchors::Complete {
                    threshold: tau,
                    margin,
                })
                .run(&geo, y, budget, &mut per_size)
        };
        let secs = t.elapsed().as_secs_f64();
        let value = anchored_best(&geo, y, d, &cuts, &per_size, weak);
        let below_at_k = (0..n).filter(|r| per_size[r * w] < tau).count();
        if local && !cut_after_k {
            size_k_seconds = ex.seconds_per_size[0];
        }
        println!(
            "{}: {secs:.2} s, complete {}, nodes {}, anchored bound {value:.6}, anchors below \
             tau at size k {below_at_k}, slots completed {} (+{} after the budget) of {}, \
             seconds per size {:.2?}",
            match (local, cut_after_k) {
                (false, _) => "global completion",
                (true, false) => "per-anchor completion",
                (true, true) => "per-anchor, cut after size k",
            },
            ex.exact,
            ex.nodes,
            ex.completed.len(),
            ex.completed_after_budget.len(),
            n * (w - 1),
            ex.seconds_per_size
        );
    }
    Ok(())
}
