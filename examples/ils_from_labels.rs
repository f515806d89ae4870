//! # ILS (or another refiner) from a stored partition
//!
//! Runs the workbench's iterated local search (`ils`, with any `--param ils.KEY=VALUE`, e.g.
//! `ils.merge_pool=10000`, the setting of the stored CASC partitions), or the refiner named by
//! `--refiner` (e.g. `exact-lns` with `--param exact-lns.records=200`), starting from a labels
//! file instead of an initializer, for a wall-clock budget, and writes the best partition found
//! when it is strictly better than the start (re-checked by `check_labels`: feasibility and a
//! recomputed SSE). Used to try to improve the stored best-known partitions of
//! `instances/library/` (a lower incumbent narrows the certified gap).
//!
//! Usage: `cargo run --release --example ils_from_labels -- --data eia --k 5
//!         --labels instances/library/eia-k5.labels --time-limit 900 [--seed 1]
//!         [--param ils.merge_pool=10000] --out better.labels`
//!        `cargo run --release --example ils_from_labels -- --data tarragona --k 5
//!         --labels instances/library/tarragona-k5.labels --refiner exact-lns --time-limit 600
//!         --out better.labels`
//!
//! ## Complexity
//! That of ILS (its module doc) for the given budget; O(n) to read and check the labels.

mod common;

use clap::Parser;
use microagg::data::{load, ColumnSelection};
use microagg::labels::{check_labels, read_labels};
use microagg::partition::Partition;
use microagg::rng::Rng;
use microagg::search::refine;
use rand::SeedableRng;
use serde_json::{Map, Value};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// ILS from a stored partition.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    case: common::Case,
    /// The start partition: one group label per record.
    #[arg(long)]
    labels: String,
    /// Where the better partition is written (nothing is written when ILS does not improve).
    #[arg(long)]
    out: String,
    /// Wall-clock seconds of the search.
    #[arg(long, default_value_t = 60.0)]
    time_limit: f64,
    /// Seed of the search.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// The refiner to run (any refiner of `microagg list`).
    #[arg(long, default_value = "ils")]
    refiner: String,
    /// A parameter of the refiner, REFINER.KEY=VALUE (repeatable; numbers and booleans as
    /// JSON, anything else as a string, as `run --param`).
    #[arg(long, value_name = "REFINER.KEY=VALUE")]
    param: Vec<String>,
}

/// The `--param REFINER.KEY=VALUE` arguments as the refiner's parameter map.
fn refiner_params(refiner: &str, given: &[String]) -> Result<Map<String, Value>, String> {
    let mut params = Map::new();
    for kv in given {
        let (key, v) = kv
            .strip_prefix(&format!("{refiner}."))
            .and_then(|s| s.split_once('='))
            .ok_or(format!("--param {kv}: expected {refiner}.KEY=VALUE"))?;
        let v = serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.into()));
        params.insert(key.to_string(), v);
    }
    Ok(params)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        case: common::Case { data, k },
        labels,
        out,
        time_limit: limit,
        seed,
        refiner,
        param,
    } = Args::parse();
    let params = refiner_params(&refiner, &param)?;
    let inst = load(&data, &ColumnSelection::All)?;
    let start_labels = read_labels(std::path::Path::new(&labels))?;
    let start = check_labels(&inst, k, &start_labels)?;
    println!(
        "start {labels}: SSE {:.10} IL {:.10} %",
        start.sse,
        inst.il(start.sse)
    );
    let mut stage = microagg::registry::find(&refiner)?.make_refiner(&params)?;
    let never = AtomicBool::new(false);
    let t = Instant::now();
    let cpu0 = microagg::bench::process_cpu_seconds();
    let r = refine(
        stage.as_mut(),
        &inst,
        k,
        Partition::from_labels(&inst, start_labels)?,
        &mut Rng::seed_from_u64(seed),
        Some(Instant::now() + Duration::from_secs_f64(limit)),
        &never,
    )?;
    let best = r.partition.canonical_labels();
    let report = check_labels(&inst, k, &best)?;
    println!(
        "{refiner} seed {seed} {:.1} s wall, {:.1} s CPU, {} steps: SSE {:.10} IL {:.10} % ({:+.10} against the start)",
        t.elapsed().as_secs_f64(),
        microagg::bench::process_cpu_seconds() - cpu0,
        r.steps,
        report.sse,
        inst.il(report.sse),
        report.sse - start.sse
    );
    if report.sse < start.sse {
        let text: String = best.iter().map(|l| format!("{l}\n")).collect();
        std::fs::write(&out, text)?;
        println!("better: written to {out}");
    } else {
        println!("not better: nothing written");
    }
    Ok(())
}
