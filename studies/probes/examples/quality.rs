//! # Quality campaign
//!
//! Runs one pipeline (default `mdav+decompose-shrink+ils`) on the CASC cases for a given
//! time per run and several seeds, and prints per case the best, mean and standard deviation
//! of the IL over the seeds, the target of issue 7, and the time at which the best IL first
//! reached the target and the best value printed in the seed papers (from the in-memory
//! search trace, seconds since the pipeline started; "-" when never reached). With
//! `--certificates DIR` the best partition of each case is written to
//! `DIR/<data>-k<k>.labels` (one label per row) and the table `DIR/values.tsv` records its IL
//! and SSE for the certificate test (`tests/certificates.rs`).
//!
//! Usage: `cargo run --release --example quality -- --secs 60 --seeds 0,1,2,3,4,5,6,7,8,9
//!         [--cases tarragona-k3,census-k10] [--method PIPELINE] [--param ils.stall=20000]...
//!         [--certificates DIR]`
//!
//! ## Complexity
//! cases x seeds x secs of wall-clock time, sequentially on one core.
//!
//! ## References
//! - Issue 7 (quality targets, produced by a throw-away prototype).

use microagg::data::{load, ColumnSelection};
use microagg::labels::check_labels;
use microagg::pipeline::Pipeline;
use microagg::search::trace::Trace;
use std::sync::atomic::AtomicBool;

/// (data, k, issue-7 target, best value printed in the seed papers)
const TARGETS: &[(&str, usize, f64, f64)] = &[
    ("tarragona", 3, 14.469, 15.598),
    ("tarragona", 4, 17.105, 18.434),
    ("tarragona", 5, 20.150, 21.311),
    ("tarragona", 10, 30.110, 30.784),
    ("census", 3, 4.689, 5.325),
    ("census", 4, 6.041, 6.858),
    ("census", 5, 7.269, 8.367),
    ("census", 10, 11.353, 12.228),
    ("eia", 3, 0.3489, 0.375),
    ("eia", 4, 0.4830, 0.522),
    ("eia", 5, 0.7295, 0.758),
    ("eia", 10, 1.9324, 2.022),
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
    // Repeatable `--param METHOD.KEY=VALUE`, as in `microagg run`.
    let params: Vec<String> = args
        .windows(2)
        .filter(|w| w[0] == "--param")
        .map(|w| w[1].clone())
        .collect();
    let pipeline = Pipeline::parse(&method, &params)?;
    let never = AtomicBool::new(false);
    println!("pipeline {method}, {secs} s per run, seeds {seeds:?}, params {params:?}");
    println!("case           target     best       mean       sd        gap_best%  gap_mean%  t_target_s   paper   t_paper_s (per seed)");
    let mut values = String::from("file\tdata\tk\til\tsse\n");
    for &(data, k, target, paper) in TARGETS {
        let case = format!("{data}-k{k}");
        if cases.as_ref().is_some_and(|c| !c.contains(&case)) {
            continue;
        }
        let inst = load(data, &ColumnSelection::All)?;
        let mut ils = Vec::new();
        let mut hits = Vec::new();
        let mut paper_hits = Vec::new();
        let mut best: Option<(f64, Vec<usize>)> = None;
        for &seed in &seeds {
            let mut tr = Trace::in_memory(0.5);
            let out =
                pipeline.run_observed(&inst, k, seed, Some(secs), None, &never, &mut [&mut tr])?;
            let points = tr.finish();
            let il = inst.il(out.partition.sse());
            ils.push(il);
            let hit = points
                .iter()
                .find(|p| p.best_il <= target)
                .map(|p| p.seconds);
            hits.push(hit.map_or("-".to_string(), |t| format!("{t:.2}")));
            let hit = points
                .iter()
                .find(|p| p.best_il <= paper)
                .map(|p| p.seconds);
            paper_hits.push(hit.map_or("-".to_string(), |t| format!("{t:.2}")));
            if best.as_ref().is_none_or(|b| out.partition.sse() < b.0) {
                best = Some((out.partition.sse(), out.partition.canonical_labels()));
            }
        }
        let n = ils.len() as f64;
        let mean = ils.iter().sum::<f64>() / n;
        let sd = (ils.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0)).sqrt();
        let min = ils.iter().copied().fold(f64::INFINITY, f64::min);
        let per_seed: Vec<String> = ils.iter().map(|x| format!("{x:.7}")).collect();
        println!(
            "{case:<14} {target:<10.4} {min:<10.7} {mean:<10.7} {sd:<9.7} {:<10.4} {:<10.4} {:<12} {paper:<7} {:<12} il/seed {}",
            100.0 * (min - target) / target,
            100.0 * (mean - target) / target,
            hits.join(" "),
            paper_hits.join(" "),
            per_seed.join(" ")
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
