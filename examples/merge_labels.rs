//! # Merge labels files by set partitioning
//!
//! Reads several partitions of the same data (labels files, one label per record) and
//! writes the least-SSE partition whose every group is a group of one of them
//! (`microagg_solvers::merge::merge_partitions`: a set-partitioning MIP on HiGHS over the
//! union of their groups). Useful to combine the results of several seeds: where the runs
//! ended in different local optima of different regions, the merge takes the best
//! combination. The result is never worse than the best input and is re-checked
//! (feasibility, SSE) before it is written.
//!
//! Usage: `cargo run --release --example merge_labels -- --data eia --k 4 --out merged.labels
//!         [--time-limit 60] a.labels b.labels ...`
//!
//! ## Complexity
//! O(P n d) to cost the groups of P partitions, then one MIP (usually solved at the root
//! when the inputs share most groups).

mod common;

use clap::Parser;
use microagg::data::{load, ColumnSelection};
use microagg::labels::{check_labels, read_labels};
use microagg_solvers::merge::merge_partitions;

/// Merge labels files by set partitioning.
#[derive(Parser)]
struct Args {
    #[command(flatten)]
    case: common::Case,
    /// Where the merged partition is written.
    #[arg(long)]
    out: String,
    /// Seconds for the set-partitioning MIP.
    #[arg(long, default_value_t = 60.0)]
    time_limit: f64,
    /// The partitions to merge: labels files, one group label per record.
    #[arg(required = true)]
    files: Vec<String>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let Args {
        case: common::Case { data, k },
        out,
        time_limit: limit,
        files,
    } = Args::parse();
    let inst = load(&data, &ColumnSelection::All)?;
    let mut parts = Vec::new();
    for f in &files {
        let labels = read_labels(std::path::Path::new(f))?;
        let report = check_labels(&inst, k, &labels)?;
        println!("{f}: SSE {:.9} IL {:.7} %", report.sse, inst.il(report.sse));
        parts.push(labels);
    }
    let refs: Vec<&[usize]> = parts.iter().map(|p| p.as_slice()).collect();
    let t = std::time::Instant::now();
    let r = merge_partitions(&inst.z, inst.n, inst.d, k, &refs, Some(limit))?;
    let report = check_labels(&inst, k, &r.labels)?;
    println!(
        "merged: SSE {:.9} IL {:.7} % ({} distinct groups, MIP {}, {} the best input; {:.2} s) -> {out}",
        report.sse,
        inst.il(report.sse),
        r.columns,
        if r.optimal { "optimal" } else { "not proven optimal" },
        if r.improved { "better than" } else { "equal to" },
        t.elapsed().as_secs_f64()
    );
    std::fs::write(
        &out,
        r.labels
            .iter()
            .map(|l| format!("{l}\n"))
            .collect::<String>(),
    )?;
    Ok(())
}
