//! Probe (measurement only): at the duals of a stored Lagrangian certificate, how much a
//! per-record share of the POSITIVE reduced costs could add to the anchored bound.
//!
//! ```text
//! cargo run --release --example k10_record_probe -- --data census --k 10 \
//!   --certificate instances/library/census-k10.bound.json \
//!   --labels instances/library/census-k10.labels
//! ```
//!
//! Prints `sum y`, the claim, and per record `i`: the cheap proven lower bounds on
//! `min_{S ni i} rc(S)/|S|` (star and pairwise forms, `colgen::record_share`), and an upper
//! estimate of that minimum (greedy groups around `i` and the partition's group of `i`),
//! which caps what an exact per-record search could add.

mod common;

use clap::Parser;
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::colgen::anchors::anchored_best;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{
    anchor_sizes, weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::colgen::record_share::{record_share_bounds, ShareForm};
use microagg_solvers::bounds::colgen::signed_anchors::signed_sizes_lagrangian;
use std::time::{Duration, Instant};

/// Record-share bounds and anchored checks at a stored certificate's duals.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    run: common::CertifiedPartition,
    /// Candidate pool size of the pricing geometry.
    #[arg(long, default_value_t = 60)]
    pool: usize,
    /// Anchor thresholds to check, comma-separated.
    #[arg(long, value_delimiter = ',')]
    taus: Vec<f64>,
    /// Time limit of each check.
    #[arg(long, default_value_t = 120.0)]
    seconds: f64,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (pool, taus, seconds) = (args.pool, args.taus, args.seconds);
    let (inst, labels) = args.run.partition.load()?;
    let (data, k) = (&args.run.partition.case.data, args.run.partition.case.k);
    let cert = BoundCertificate::read(&args.run.certificate)?;
    let (n, d) = (inst.n, inst.d);
    let y = &cert.duals;
    let t0 = Instant::now();
    let geo = Geometry::new(&inst.z, n, d, k, pool);
    println!("geometry {:.2} s", t0.elapsed().as_secs_f64());
    let sum_y: f64 = y.iter().sum();
    println!(
        "{data} k={k}: sum y {sum_y:.6}, claim {:.6} (anchored part {:.6}), threshold {}",
        cert.lower_bound,
        cert.lower_bound - sum_y,
        cert.anchor_threshold
    );
    for form in [ShareForm::Star, ShareForm::Pairwise] {
        let t = Instant::now();
        let l = record_share_bounds(&geo, y, form);
        let pos: f64 = l.iter().map(|v| v.max(0.0)).sum();
        let all: f64 = l.iter().sum();
        let npos = l.iter().filter(|&&v| v > 0.0).count();
        println!(
            "{form:?}: sum l_i {all:.6}, positive records {npos}, sum max(0, l_i) {pos:.6} ({:.2} s)",
            t.elapsed().as_secs_f64()
        );
    }
    // Upper estimates of min_{S ni i} rc(S)/|S|: greedy growth from i among its pool
    // neighbours, and the partition's own group of i.
    let t = Instant::now();
    let mut groups: Vec<Vec<u32>> = vec![Vec::new(); labels.iter().max().map_or(0, |m| m + 1)];
    for (i, &g) in labels.iter().enumerate() {
        groups[g].push(i as u32);
    }
    let mut upper = vec![f64::INFINITY; n];
    for g in groups.iter().filter(|g| !g.is_empty()) {
        let v = geo.reduced_cost(g, y) / g.len() as f64;
        for &i in g {
            upper[i as usize] = upper[i as usize].min(v);
        }
    }
    let part_pos: f64 = upper.iter().map(|v| v.max(0.0)).sum();
    for (i, u) in upper.iter_mut().enumerate() {
        let mut members = vec![i as u32];
        let mut cand: Vec<u32> = geo.neighbours(i).to_vec();
        while members.len() < (2 * k - 1).min(n) {
            let (mut best, mut best_j) = (f64::INFINITY, usize::MAX);
            for (j, &c) in cand.iter().enumerate() {
                members.push(c);
                let v = geo.reduced_cost(&members, y);
                members.pop();
                if v < best {
                    best = v;
                    best_j = j;
                }
            }
            if best_j == usize::MAX {
                break;
            }
            members.push(cand.swap_remove(best_j));
            if members.len() >= k {
                *u = u.min(best / members.len() as f64);
            }
        }
    }
    let up_pos: f64 = upper.iter().map(|v| v.max(0.0)).sum();
    let up_all: f64 = upper.iter().sum();
    let up_npos = upper.iter().filter(|&&v| v > 0.0).count();
    println!(
        "upper estimate: partition's own groups only: sum max(0, .) {part_pos:.6}; with greedy \
         groups: sum {up_all:.6}, positive records {up_npos}, sum max(0, u_i) {up_pos:.6} \
         ({:.2} s)",
        t.elapsed().as_secs_f64()
    );
    // The signed exact-total knapsack (colgen::signed_anchors) at positive thresholds.
    let floor_rc = weak_rc_bound(&geo, y);
    let w = anchor_sizes(&geo);
    for &tau in &taus {
        let t = Instant::now();
        let budget = ExactBudget {
            nodes: u64::MAX,
            deadline: (Instant::now() + Duration::from_secs_f64(seconds)).into(),
            max_columns: 0,
            stop_after_columns: usize::MAX,
        };
        let mut per_size = Vec::new();
        let out = ExactSearch::new(&CutDuals::none())
            .anchors(Anchors::Signed { threshold: tau })
            .run(&geo, y, budget, &mut per_size);
        let signed = signed_sizes_lagrangian(&geo, y, d, &per_size, floor_rc);
        let capped = anchored_best(&geo, y, d, &CutDuals::none(), &per_size, floor_rc);
        let at_k: Vec<f64> = per_size.iter().step_by(w).copied().collect();
        let neg = at_k.iter().filter(|&&v| v < 0.0).count();
        let full = at_k.iter().filter(|&&v| v >= tau).count();
        println!(
            "tau {tau}: signed {signed:.6}, capped {capped:.6}; size k: {neg} anchors < 0, {full} at \
             tau; exact {}, {} nodes, {:.2} s; per size s {:?}",
            out.exact,
            out.nodes,
            t.elapsed().as_secs_f64(),
            out.seconds_per_size
                .iter()
                .map(|v| (v * 10.0).round() / 10.0)
                .collect::<Vec<_>>()
        );
    }
    Ok(())
}
