//! # The table of `bound --method auto` on data nobody tuned for
//!
//! Runs the `auto` bound (no start partition, no stored help) on each case, one at a time,
//! and prints one tab-separated row per case: the route, the method that produced the value,
//! the incumbent the route found, the certified bound, the nn bound, the gap (`100 (SSE - LB)
//! / LB`) and the gap to nn; at k >= 6 (the colgen route) also the master value and whether
//! column generation converged, so that the gap splits into `SSE - master` (the LP
//! relaxation is at most the master value, so at least this much is the LP's weakness) and
//! `master - bound` (at most this much is unconverged pricing).
//!
//! ```text
//! cargo build --release --bench bound_table
//! MICROAGG_DATA=... target/release/deps/bound_table-* --time-limit 60 [--details] [CASE ...]
//! ```
//!
//! `--details` also prints each case's `details` JSON (the route's figures) to stderr.
//!
//! A case is `DATA:k` where DATA is a CASC name, a generator spec of `microagg`
//! (`gauss:n=...,d=...`, `uniform:n=...,d=...`, `heavy:n=...,d=...`: Pareto tails of index 2,
//! a few extreme records). Without cases it runs
//! [`DEFAULT_CASES`].
//!
//! ## Complexity
//! One `auto` run per case (its time limit), plus loading.
//!
//! ## References
//! None.

use microagg::bound::{compute_prepared, gap_percent, prepare};
use microagg::data::{self, ColumnSelection, Instance};
use std::sync::atomic::AtomicBool;

/// The generated families and CASC cases, smallest first.
const DEFAULT_CASES: &[&str] = &[
    "gauss:n=500,d=5,clusters=10:3",
    "uniform:n=500,d=5:3",
    "heavy:n=500,d=5:3",
    "gauss:n=2000,d=10,clusters=20:5",
    "uniform:n=2000,d=10:5",
    "heavy:n=2000,d=10:5",
    "gauss:n=2000,d=60,clusters=20:3",
    "gauss:n=5000,d=20,clusters=50:3",
    "gauss:n=1000,d=10,clusters=10:10",
    "uniform:n=1000,d=5:10",
    "gauss:n=20000,d=4,clusters=100:3",
    "uniform:n=20000,d=2:3",
    "heavy:n=20000,d=3:5",
    "tarragona:3",
    "census:3",
    "eia:3",
    "tarragona:4",
    "census:4",
    "eia:4",
    "tarragona:5",
    "census:5",
    "eia:5",
    "tarragona:10",
    "census:10",
    "eia:10",
];

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut seconds = 60.0;
    let mut details = false;
    let mut cases: Vec<String> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        match a.as_str() {
            "--time-limit" => {
                seconds = it
                    .next()
                    .and_then(|v| v.parse().ok())
                    .expect("--time-limit SECONDS")
            }
            "--details" => details = true,
            "--bench" => {} // passed by `cargo bench`
            _ => cases.push(a.clone()),
        }
    }
    if cases.is_empty() {
        cases = DEFAULT_CASES.iter().map(|c| c.to_string()).collect();
    }
    println!("case\tn\td\tk\tT\troute\tproduced_by\tincumbent\tbound\tnn\tgap%\tgap_nn%\tmaster\tconverged\tseconds");
    for case in &cases {
        match run(case, seconds, details) {
            Ok(row) => println!("{row}"),
            Err(e) => println!("{case}\terror: {e}"),
        }
    }
}

/// One row of the table for `DATA:k`.
fn run(case: &str, seconds: f64, details: bool) -> Result<String, String> {
    let (spec, k) = case.rsplit_once(':').ok_or("expected DATA:k")?;
    let k: usize = k.parse().map_err(|_| format!("bad k in {case}"))?;
    let inst = load(spec)?;
    let never = AtomicBool::new(false);
    let auto = prepare("auto", &Default::default(), Some(seconds)).map_err(|e| e.to_string())?;
    let b = compute_prepared(&auto, &inst, k, microagg::progress::Show::Auto, &never)
        .map_err(|e| e.to_string())?;
    if details {
        eprintln!("{case}\t{}", b.details);
    }
    let sse = b.incumbent.as_ref().map_or(f64::NAN, |i| i.sse);
    let nn = b.details["nn"].as_f64().unwrap_or(f64::NAN);
    let inner = &b.details["inner"];
    let master = inner["lp_value"]
        .as_f64()
        .map_or("-".into(), |v| format!("{v:.6}"));
    let converged = inner["converged"]
        .as_bool()
        .map_or("-".into(), |v| v.to_string());
    Ok(format!(
        "{case}\t{}\t{}\t{k}\t{seconds}\t{}\t{}\t{sse:.6}\t{:.6}\t{nn:.6}\t{:.3}\t{:.3}\t{master}\t{converged}\t{:.1}",
        inst.n,
        inst.d,
        b.details["route"].as_str().unwrap_or("?"),
        b.produced_by,
        b.lower_bound,
        gap_percent(sse, b.lower_bound).unwrap_or(f64::NAN),
        gap_percent(sse, nn).unwrap_or(f64::NAN),
        b.seconds
    ))
}

/// A CASC file or a generator spec.
fn load(spec: &str) -> Result<Instance, String> {
    data::load(spec, &ColumnSelection::All).map_err(|e| e.to_string())
}
