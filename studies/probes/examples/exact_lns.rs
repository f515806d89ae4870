//! # Exact neighbourhoods of a stored partition (study probe)
//!
//! Question: is the best-known partition far from optimal where the certified gap is large
//! (EIA k = 10)? Each step takes one group and its nearest groups (by centroid distance)
//! until they hold at least `--records` records, and solves the microaggregation of those
//! records alone by branch-and-price from their current grouping, within `--seconds`. A
//! lower SSE replaces their grouping (the rest of the partition is unchanged, so the total
//! SSE falls by the same amount). Seeds are taken by decreasing group SSE, pass after pass, until a
//! pass changes nothing or `--time-limit` runs out.
//!
//! Usage: `cargo run --release -p microagg-studies --example exact_lns -- --data eia --k 10
//!         --labels instances/library/eia-k10.labels --time-limit 1200 --out better.labels`

mod common;

use clap::Parser;
use microagg::labels::check_labels;
use microagg_solvers::bnp::{branch_and_price, BnpOptions};
use microagg_solvers::sse::partition_sse;
use std::time::Instant;

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    part: common::Partitioned,
    /// Records per neighbourhood (at least).
    #[arg(long, default_value_t = 100)]
    records: usize,
    /// Seconds of branch-and-price per neighbourhood.
    #[arg(long, default_value_t = 20.0)]
    seconds: f64,
    /// Wall-clock seconds in all.
    #[arg(long, default_value_t = 600.0)]
    time_limit: f64,
    /// Where the best partition is written when it is lower than the start.
    #[arg(long)]
    out: Option<String>,
}

fn centroids(z: &[f64], d: usize, labels: &[usize], groups: usize) -> Vec<Vec<f64>> {
    let mut c = vec![vec![0.0; d]; groups];
    let mut m = vec![0usize; groups];
    for (i, &g) in labels.iter().enumerate() {
        m[g] += 1;
        for t in 0..d {
            c[g][t] += z[i * d + t];
        }
    }
    for (cg, &mg) in c.iter_mut().zip(&m) {
        cg.iter_mut().for_each(|v| *v /= mg as f64);
    }
    c
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = Args::parse();
    let (inst, start) = a.part.load()?;
    let k = a.part.case.k;
    check_labels(&inst, k, &start)?;
    let (n, d, z) = (inst.n, inst.d, &inst.z);
    let mut labels = canonical(&inst, &start);
    let start_sse = partition_sse(z, d, &labels);
    let mut sse = start_sse;
    println!("start SSE {start_sse:.9} n {n} d {d} k {k}");
    let t0 = Instant::now();
    let mut pass = 0;
    'passes: loop {
        pass += 1;
        let mut changed = 0;
        let groups = labels.iter().max().map_or(0, |g| g + 1);
        for seed in by_sse(z, d, &labels, groups) {
            if t0.elapsed().as_secs_f64() > a.time_limit {
                break 'passes;
            }
            let groups = labels.iter().max().map_or(0, |g| g + 1);
            if seed >= groups {
                continue;
            }
            let cs = centroids(z, d, &labels, groups);
            let mut order: Vec<usize> = (0..groups).collect();
            let dist = |g: usize| microagg_solvers::sse::sq_dist(&cs[seed], &cs[g]);
            order.sort_by(|&p, &q| dist(p).total_cmp(&dist(q)).then(p.cmp(&q)));
            let mut members: Vec<usize> = Vec::new();
            let mut chosen = Vec::new();
            for &g in &order {
                if members.len() >= a.records {
                    break;
                }
                chosen.push(g);
                members.extend((0..n).filter(|&i| labels[i] == g));
            }
            members.sort_unstable();
            let sub: Vec<f64> = members
                .iter()
                .flat_map(|&i| z[i * d..(i + 1) * d].iter().copied())
                .collect();
            let position = |g: usize| chosen.iter().position(|&h| h == g).expect("chosen");
            let sub_labels: Vec<usize> = members.iter().map(|&i| position(labels[i])).collect();
            let before = partition_sse(&sub, d, &sub_labels);
            let opts = BnpOptions {
                time_limit: a.seconds,
                ..BnpOptions::default()
            };
            let r = branch_and_price(
                &sub,
                members.len(),
                d,
                k,
                &[&sub_labels],
                &opts,
                None,
                &mut |_| {},
            )?;
            if r.sse < before - 1e-9 * before.max(1.0) {
                let base = groups;
                let mut map = std::collections::HashMap::new();
                // New groups take the chosen groups' labels first, then fresh labels.
                let mut free: Vec<usize> = chosen.clone();
                free.sort_unstable();
                free.reverse();
                let mut next = base;
                for (j, &i) in members.iter().enumerate() {
                    let l = *map.entry(r.labels[j]).or_insert_with(|| {
                        free.pop().unwrap_or_else(|| {
                            next += 1;
                            next - 1
                        })
                    });
                    labels[i] = l;
                }
                labels = canonical(&inst, &labels);
                let now = partition_sse(z, d, &labels);
                changed += 1;
                println!(
                    "{:8.1}s pass {pass} seed {seed}: {} records, {} groups: {before:.6} -> {:.6} ({}), total {now:.9}",
                    t0.elapsed().as_secs_f64(),
                    members.len(),
                    chosen.len(),
                    r.sse,
                    if r.proven_optimal { "proven" } else { "not proven" }
                );
                sse = now;
            } else if !r.proven_optimal {
                println!(
                    "{:8.1}s pass {pass} seed {seed}: {} records not proven (bound {:.6} of {before:.6}; root LP {:.6}, with cuts {:.6}, root bound {:.6}, nodes {}, stopped: {})",
                    t0.elapsed().as_secs_f64(),
                    members.len(),
                    r.lower_bound,
                    r.root_lp,
                    r.root_lp_cuts,
                    r.root_bound,
                    r.nodes,
                    r.stopped.as_deref().unwrap_or("-")
                );
            }
        }
        println!("pass {pass} done: {changed} changes, SSE {sse:.9}");
        if changed == 0 {
            break;
        }
    }
    check_labels(&inst, k, &labels)?;
    println!(
        "end SSE {sse:.9} (start {start_sse:.9}, {:.4} % lower) in {:.1} s",
        100.0 * (start_sse - sse) / start_sse,
        t0.elapsed().as_secs_f64()
    );
    if let (Some(out), true) = (&a.out, sse < start_sse) {
        let text: String = labels.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(out, text)?;
    }
    Ok(())
}

/// Groups by decreasing SSE (ties by label): where the SSE is, the room to lower it is.
fn by_sse(z: &[f64], d: usize, labels: &[usize], groups: usize) -> Vec<usize> {
    let cs = centroids(z, d, labels, groups);
    let mut sse = vec![0.0; groups];
    for (i, &g) in labels.iter().enumerate() {
        sse[g] += microagg_solvers::sse::sq_dist(&z[i * d..(i + 1) * d], &cs[g]);
    }
    let mut order: Vec<usize> = (0..groups).collect();
    order.sort_by(|&p, &q| sse[q].total_cmp(&sse[p]).then(p.cmp(&q)));
    let top: Vec<String> = order
        .iter()
        .take(12)
        .map(|&g| format!("{:.2}", sse[g]))
        .collect();
    println!("largest group SSEs: {}", top.join(" "));
    order
}

/// Labels renumbered in order of first appearance (the workbench's canonical form).
fn canonical(inst: &microagg::data::Instance, labels: &[usize]) -> Vec<usize> {
    microagg::partition::Partition::from_labels(inst, labels.to_vec())
        .expect("a partition of every record")
        .canonical_labels()
}
