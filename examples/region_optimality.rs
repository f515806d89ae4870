//! # Region optimality of a partition
//!
//! Checks a stored partition against exact re-optimisation of its regions: for every group
//! G (or the `--top` groups of largest SSE), the region is G plus the groups of nearest
//! centroid, added while the region holds at most `--cap` records; the region's records are
//! re-partitioned optimally by the exact set-partitioning method
//! (`microagg_solvers::exact`, proofs/P11) with the current split as its upper bound. If
//! every region is proven optimal and none improves, no partition that differs from the
//! given one inside a single such region is better: a certificate of local optimality
//! that no descent, pool re-split or 3-cycle confined to such a region can beat. With
//! `--apply OUT` every improving region is applied at once (regions are visited in order of
//! decreasing group SSE) and the result is written to OUT.
//!
//! Usage: `cargo run --release --example region_optimality -- --data eia --k 3
//!         --labels instances/library/eia-k3.labels [--cap 30] [--top N]
//!         [--time-limit 20] [--apply OUT]`
//!
//! ## Complexity
//! One exact solve per region: milliseconds to seconds each at 30-40 records and k <= 4
//! (measured in studies/study-merge.txt), O(G) per region to rank centroids.

mod common;

use clap::Parser;
use microagg::data::{load, ColumnSelection};
use microagg::labels::{check_labels, read_labels};
use microagg::partition::{sq_dist, Partition};
use microagg_solvers::exact::{solve_exact_with, ExactMethod, ExactOptions};

/// Region optimality of a partition.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    case: common::Case,
    /// The partition: one group label per record.
    #[arg(long)]
    labels: String,
    /// Most records in a region.
    #[arg(long, default_value_t = 30)]
    cap: usize,
    /// Only the regions of the TOP groups of largest SSE (default: every group).
    #[arg(long)]
    top: Option<usize>,
    /// Seconds per region's exact solve.
    #[arg(long, default_value_t = 20.0)]
    time_limit: f64,
    /// Apply every improving region and write the result to this file.
    #[arg(long)]
    apply: Option<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        case: common::Case { data, k },
        labels: labels_path,
        cap,
        top,
        time_limit: limit,
        apply,
    } = Args::parse();
    let inst = load(&data, &ColumnSelection::All)?;
    let labels = read_labels(std::path::Path::new(&labels_path))?;
    check_labels(&inst, k, &labels)?;
    let mut p = Partition::from_labels(&inst, labels)?;
    let start_sse = p.sse();
    let t0 = std::time::Instant::now();
    let mut order: Vec<usize> = (0..p.slots()).filter(|&g| p.size(g) > 0).collect();
    order.sort_by(|&a, &b| p.group_sse(b).total_cmp(&p.group_sse(a)).then(a.cmp(&b)));
    order.truncate(top.unwrap_or(order.len()));
    let (mut checked, mut proven, mut improving, mut errors) = (0, 0, 0, 0);
    let mut gain = 0.0;
    let mut largest = 0;
    for &g in &order {
        if p.size(g) == 0 {
            continue;
        }
        let c = p.centroid(g).to_vec();
        let mut others: Vec<(f64, usize)> = (0..p.slots())
            .filter(|&h| h != g && p.size(h) > 0)
            .map(|h| (sq_dist(&c, p.centroid(h)), h))
            .collect();
        others.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let mut groups = vec![g];
        let mut m = p.size(g);
        for &(_, h) in &others {
            if m + p.size(h) > cap {
                break;
            }
            groups.push(h);
            m += p.size(h);
        }
        if groups.len() < 2 {
            continue;
        }
        let records: Vec<usize> = groups.iter().flat_map(|&h| p.members(h).to_vec()).collect();
        let x: Vec<f64> = records.iter().flat_map(|&i| inst.row(i).to_vec()).collect();
        let hint: Vec<usize> = records
            .iter()
            .map(|&i| {
                groups
                    .iter()
                    .position(|&h| h == p.group_of(i))
                    .expect("member")
            })
            .collect();
        let before: f64 = groups.iter().map(|&h| p.group_sse(h)).sum();
        let opts = ExactOptions {
            method: ExactMethod::SetPartitioning,
            time_limit: Some(limit),
            hint: Some(hint),
            ..Default::default()
        };
        checked += 1;
        largest = largest.max(records.len());
        let s = match solve_exact_with(&x, records.len(), inst.d, k, &opts) {
            Ok(s) => s,
            Err(e) => {
                errors += 1;
                eprintln!("region of group {g} ({} records): {e}", records.len());
                continue;
            }
        };
        proven += usize::from(s.proven_optimal);
        // Improvement by more than the rounding of the two SSE computations.
        if s.sse < before - 1e-12 * (1.0 + before) {
            improving += 1;
            gain += before - s.sse;
            println!(
                "region of group {g}: {} records in {} groups, SSE {before:.9} -> {:.9}",
                records.len(),
                groups.len(),
                s.sse
            );
            if apply.is_some() {
                let mut slots = groups.clone();
                let needed = s.labels.iter().max().map_or(0, |m| m + 1);
                while slots.len() < needed {
                    slots.push(p.add_group());
                }
                for (idx, &i) in records.iter().enumerate() {
                    p.apply_shift(&inst, i, slots[s.labels[idx]]);
                }
            }
        }
    }
    println!(
        "{}: {checked} regions of at most {cap} records (largest {largest}), {proven} proven optimal, {improving} improving (total SSE gain {gain:.9}), {errors} solver errors; {:.1} s",
        labels_path,
        t0.elapsed().as_secs_f64()
    );
    println!("SSE {start_sse:.9} (IL {:.7} %)", inst.il(start_sse));
    if let Some(out) = apply {
        p.recompute(&inst);
        let labels = p.canonical_labels();
        let report = check_labels(&inst, k, &labels)?;
        std::fs::write(
            &out,
            labels.iter().map(|l| format!("{l}\n")).collect::<String>(),
        )?;
        println!(
            "applied: SSE {:.9} (IL {:.7} %) written to {out}",
            report.sse,
            inst.il(report.sse)
        );
    }
    Ok(())
}
