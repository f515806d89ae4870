//! # Line search from the nn duals (issue 18, k = 10 study)
//!
//! The nn duals `y0_i = NN_{k-1}(i) / (2k)` are dual feasible (proofs/P09 part C): their
//! Lagrangian bound is the nn bound. Along the direction `h` that spreads each group's slack
//! `SSE(S) - y0(S)` of the best known partition evenly over its members (`y0 + h` prices that
//! partition's groups at 0 and sums to its SSE), the bound `LB(y0 + t h)` is concave in `t`
//! and rises with slope `sum h` until groups with negative reduced cost appear. For each `t`
//! this prints the plain and the medoid-anchored bound (proofs/P09, P20) recomputed by the
//! verifier (`verify_lagrangian_anchored`, per pricing search at most `--pricing-limit` s; a
//! cut search still gives a valid bound), and with `--certificate FILE` writes the best duals
//! as a bound certificate for `microagg verify-bound`.
//!
//! Usage: `cargo run --release --example ascent_probe -- --data tarragona --k 10
//!         --labels instances/library/tarragona-k10.labels --t 0.05,0.1,0.2
//!         [--pricing-limit 60] [--certificate FILE]`
//!
//! ## Complexity
//! Two pricing searches per `t`, each at most `--pricing-limit` seconds.

mod common;

use clap::Parser;
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::colgen::pricing::Geometry;
use microagg_solvers::bounds::verify_lagrangian_anchored;
use microagg_solvers::sse::group_sse;
use std::path::PathBuf;

/// Line search from the nn duals along a partition's slacks.
#[derive(Parser)]
struct Args {
    /// The case and its best known partition.
    #[command(flatten)]
    case: common::Partitioned,
    /// Steps t along the direction, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [0.1])]
    t: Vec<f64>,
    /// Seconds of each pricing search.
    #[arg(long, default_value_t = 60.0)]
    pricing_limit: f64,
    /// Where the best duals are written as a bound certificate.
    #[arg(long)]
    certificate: Option<PathBuf>,
    /// Anchor threshold of a certifying check per step instead of the verifier's searches.
    #[arg(long)]
    tau: Option<f64>,
    /// Spread each group's slack by the records' own shares instead of evenly.
    #[arg(long)]
    share: bool,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (ts, limit, cert) = (args.t, args.pricing_limit, args.certificate);
    let (tau, share) = (args.tau, args.share);
    let (inst, lab) = args.case.load()?;
    let (data, k) = (&args.case.case.data, args.case.case.k);
    let (n, d) = (inst.n, inst.d);
    let geo = Geometry::new(&inst.z, n, d, k, 1);
    let y0: Vec<f64> = (0..n).map(|i| geo.nn(i, k - 1) / (2 * k) as f64).collect();
    let mut groups: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
    for (i, &l) in lab.iter().enumerate() {
        groups.entry(l).or_default().push(i);
    }
    let mut h = vec![0.0; n];
    for g in groups.values() {
        let slack = group_sse(&inst.z, d, g) - g.iter().map(|&i| y0[i]).sum::<f64>();
        for &i in g {
            h[i] = if share {
                // The record's own share of its group's SSE minus its nn dual.
                let row: f64 = g
                    .iter()
                    .map(|&b| {
                        microagg_solvers::sse::sq_dist(
                            &inst.z[i * d..(i + 1) * d],
                            &inst.z[b * d..(b + 1) * d],
                        )
                    })
                    .sum();
                row / (2 * g.len()) as f64 - y0[i]
            } else {
                slack / g.len() as f64
            };
        }
    }
    println!(
        "{data} k={k}: sum y0 (nn) {:.6}, sum h {:.6}",
        y0.iter().sum::<f64>(),
        h.iter().sum::<f64>()
    );
    let mut best: Option<(f64, Vec<f64>)> = None;
    for &t in &ts {
        let y: Vec<f64> = y0.iter().zip(&h).map(|(a, b)| a + t * b).collect();
        let clock = std::time::Instant::now();
        if let Some(tau) = tau {
            let mut pool = microagg_solvers::bounds::colgen::subgrad::GroupPool::default();
            let until = clock + std::time::Duration::from_secs_f64(limit);
            let v = microagg_solvers::bounds::colgen::subgrad::certify(
                &geo, &y, d, tau, until, &mut pool,
            );
            println!(
                "t {t:.4}: sum y {:.6}  bound {v:.6}  (tau {tau}, {} negative groups, {:.1} s)",
                y.iter().sum::<f64>(),
                pool.len(),
                clock.elapsed().as_secs_f64()
            );
            if best.as_ref().is_none_or(|(b, _)| v > *b) {
                best = Some((v, y));
            }
            continue;
        }
        let v = verify_lagrangian_anchored(
            &inst.z,
            n,
            d,
            k,
            &y,
            &[],
            &[],
            Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(limit)),
        )?;
        println!(
            "t {t:.4}: sum y {:.6}  bound {:.6}  (rc_lb plain {:.6}, pricing exact {}, {} nodes, \
             {:.1} s)",
            y.iter().sum::<f64>(),
            v.lower_bound,
            v.rc_lower_bound,
            v.pricing_exact,
            v.nodes,
            clock.elapsed().as_secs_f64()
        );
        if best.as_ref().is_none_or(|(b, _)| v.lower_bound > *b) {
            best = Some((v.lower_bound, y));
        }
    }
    if let (Some(path), Some((lb, y))) = (cert, best) {
        // Lowered so that verify-bound's own searches confirm it (proofs/P13).
        let none = microagg_solvers::bounds::colgen::cuts::CutDuals::none();
        let lb = microagg_solvers::bounds::verifiable_claim(&geo, &y, d, &none, lb);
        BoundCertificate::lagrangian(&inst, k, lb, y).write(&path)?;
        println!("certificate of {lb:.6} written to {}", path.display());
    }
    Ok(())
}
