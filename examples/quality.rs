//! # Quality campaign
//!
//! Runs one pipeline (default `mdav+decompose-shrink+ils`) on the CASC cases for a given
//! time per run and several seeds, and prints per case the best, mean and standard deviation
//! of the IL over the seeds, the target of issue 7, and the time at which the best IL first
//! reached the target (from the in-memory search trace; "-" when never reached). With
//! `--certificates DIR` the best partition of each case is written to
//! `DIR/<data>-k<k>.labels` (one label per row) and the table `DIR/values.tsv` records its IL
//! and SSE for the certificate test (`tests/certificates.rs`).
//!
//! Usage: `cargo run --release --example quality -- --secs 60 --seeds 0,1,2,3,4,5,6,7,8,9
//!         [--cases tarragona-k3,census-k10] [--method PIPELINE] [--certificates proofs/certificates]`
//!
//! ## Complexity
//! cases x seeds x secs of wall-clock time, sequentially on one core.
//!
//! ## References
//! - Issue 7 (quality targets, produced by a throw-away prototype).

use microagg::data::{load, ColumnSelection};
use microagg::labels::check_labels;
use microagg::pipeline::Pipeline;
use microagg::search::trace;
use std::sync::atomic::AtomicBool;

const TARGETS: &[(&str, usize, f64)] = &[
    ("tarragona", 3, 14.469),
    ("tarragona", 4, 17.105),
    ("tarragona", 5, 20.150),
    ("tarragona", 10, 30.110),
    ("census", 3, 4.689),
    ("census", 4, 6.041),
    ("census", 5, 7.269),
    ("census", 10, 11.353),
    ("eia", 3, 0.3489),
    ("eia", 4, 0.4830),
    ("eia", 5, 0.7295),
    ("eia", 10, 1.9324),
];

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|p| args.get(p + 1).cloned())
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let secs: f64 = arg(&args, "--secs").map_or(Ok(10.0), |s| s.parse())?;
    let seeds: Vec<u64> = arg(&args, "--seeds")
        .unwrap_or_else(|| "0,1".into())
        .split(',')
        .map(|s| s.trim().parse())
        .collect::<Result<_, _>>()?;
    let method = arg(&args, "--method").unwrap_or_else(|| "mdav+decompose-shrink+ils".into());
    let cases: Option<Vec<String>> =
        arg(&args, "--cases").map(|c| c.split(',').map(|s| s.trim().to_string()).collect());
    let cert_dir = arg(&args, "--certificates").map(std::path::PathBuf::from);
    let pipeline = Pipeline::parse(&method, &[])?;
    let never = AtomicBool::new(false);
    println!("pipeline {method}, {secs} s per run, seeds {seeds:?}");
    println!("case           target     best       mean       sd        gap_best%  gap_mean%  time_to_target_s(per seed)");
    let mut values = String::from("file\tdata\tk\til\tsse\n");
    for &(data, k, target) in TARGETS {
        let case = format!("{data}-k{k}");
        if cases.as_ref().is_some_and(|c| !c.contains(&case)) {
            continue;
        }
        let inst = load(data, &ColumnSelection::All)?;
        let mut ils = Vec::new();
        let mut hits = Vec::new();
        let mut best: Option<(f64, Vec<usize>)> = None;
        for &seed in &seeds {
            trace::to_memory(0.5);
            let out = pipeline.run(&inst, k, seed, Some(secs), &never)?;
            let points = trace::finish();
            let il = inst.il(out.partition.sse());
            ils.push(il);
            let hit = points
                .iter()
                .find(|p| p.best_il <= target)
                .map(|p| p.seconds);
            hits.push(hit.map_or("-".to_string(), |t| format!("{t:.2}")));
            if best.as_ref().is_none_or(|b| out.partition.sse() < b.0) {
                best = Some((out.partition.sse(), out.partition.canonical_labels()));
            }
        }
        let n = ils.len() as f64;
        let mean = ils.iter().sum::<f64>() / n;
        let sd = (ils.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
        let min = ils.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "{case:<14} {target:<10.4} {min:<10.4} {mean:<10.4} {sd:<9.4} {:<10.3} {:<10.3} {}",
            100.0 * (min - target) / target,
            100.0 * (mean - target) / target,
            hits.join(" ")
        );
        if let (Some(dir), Some((_, labels))) = (&cert_dir, &best) {
            let report = check_labels(&inst, k, labels)?;
            std::fs::create_dir_all(dir)?;
            let file = format!("{case}.labels");
            let text: String = labels.iter().map(|l| format!("{l}\n")).collect();
            std::fs::write(dir.join(&file), text)?;
            values.push_str(&format!(
                "{file}\t{data}\t{k}\t{:.10}\t{:.10}\n",
                inst.il(report.sse),
                report.sse
            ));
        }
    }
    if let Some(dir) = &cert_dir {
        let path = dir.join("values.tsv");
        // Merge with rows of cases not rerun now.
        if let Ok(old) = std::fs::read_to_string(&path) {
            for line in old.lines().skip(1) {
                let file = line.split('\t').next().unwrap_or("");
                if !values.lines().any(|l| l.starts_with(&format!("{file}\t"))) {
                    values.push_str(line);
                    values.push('\n');
                }
            }
        }
        std::fs::write(path, values)?;
    }
    Ok(())
}
