//! # Exact neighbourhoods of a stored partition (study probe)
//!
//! Question: is the best-known partition far from optimal where the certified gap is large
//! (EIA k = 10)? The refiner `exact-lns`'s steps ([`microagg::search::exact_lns::regroup`],
//! seeds by decreasing group SSE, pass after pass until a pass changes nothing or
//! `--time-limit` runs out), with branch-and-price's own defaults instead of the refiner's:
//! the pool MIP on and no node limit, only `--seconds` per neighbourhood. It prints every
//! change, and for every neighbourhood it could not prove the root LP, the root LP with cuts,
//! the nodes and why it stopped (studies/study-exact-lns.txt).
//!
//! Usage: `cargo run --release -p microagg-studies --example exact_lns -- --data eia --k 10
//!         --labels instances/library/eia-k10.labels --time-limit 1200 --out better.labels`

mod common;

use clap::Parser;
use microagg::labels::check_labels;
use microagg::partition::Partition;
use microagg::search::exact_lns::{regroup, seeds_by_sse, Regrouped};
use microagg_solvers::bnp::BnpOptions;
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = Args::parse();
    let (inst, start) = a.part.load()?;
    let k = a.part.case.k;
    check_labels(&inst, k, &start)?;
    let mut p = Partition::from_labels(&inst, start)?;
    let start_sse = p.fresh_sse(&inst);
    println!("start SSE {start_sse:.9} n {} d {} k {k}", inst.n, inst.d);
    let opts = BnpOptions {
        time_limit: a.seconds,
        ..BnpOptions::default()
    };
    let t0 = Instant::now();
    let mut pass = 0;
    'passes: loop {
        pass += 1;
        let mut changed = 0;
        let seeds = seeds_by_sse(&p);
        let top: Vec<String> = seeds
            .iter()
            .take(12)
            .map(|&g| format!("{:.2}", p.group_sse(g)))
            .collect();
        println!("largest group SSEs: {}", top.join(" "));
        for seed in seeds {
            if t0.elapsed().as_secs_f64() > a.time_limit {
                break 'passes;
            }
            if p.size(seed) == 0 {
                continue;
            }
            let r = regroup(&mut p, &inst, k, seed, a.records, &opts, None)?;
            changed += usize::from(r.improved);
            report(&r, t0.elapsed().as_secs_f64(), pass, seed, &p, &inst);
        }
        p.compact(&inst);
        println!(
            "pass {pass} done: {changed} changes, SSE {:.9}",
            p.fresh_sse(&inst)
        );
        if changed == 0 {
            break;
        }
    }
    let labels = p.canonical_labels();
    let sse = check_labels(&inst, k, &labels)?.sse;
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

/// One line per change, and per neighbourhood left unproven.
fn report(
    r: &Regrouped,
    secs: f64,
    pass: usize,
    seed: usize,
    p: &Partition,
    inst: &microagg::data::Instance,
) {
    let b = &r.result;
    let head = format!("{secs:8.1}s pass {pass} seed {seed}: {} records", r.records);
    if r.improved {
        let proven = if b.proven_optimal {
            "proven"
        } else {
            "not proven"
        };
        println!(
            "{head}, {} groups: {:.6} -> {:.6} ({proven}), total {:.9}",
            r.groups,
            r.before,
            b.sse,
            p.fresh_sse(inst)
        );
    } else if !b.proven_optimal {
        println!(
            "{head} not proven (bound {:.6} of {:.6}; root LP {:.6}, with cuts {:.6}, root bound {:.6}, nodes {}, stopped: {})",
            b.lower_bound,
            r.before,
            b.root_lp,
            b.root_lp_cuts,
            b.root_bound,
            b.nodes,
            b.stopped.as_deref().unwrap_or("-")
        );
    }
}
