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
//! (`gauss:n=...,d=...`, `uniform:n=...,d=...`) or `heavy:n=N,d=D[,seed=S]` (each value
//! `±(U^(-1/2) - 1)`, Pareto tails of index 2: a few extreme records). Without cases it runs
//! [`DEFAULT_CASES`].
//!
//! ## Complexity
//! One `auto` run per case (its time limit), plus loading.
//!
//! ## References
//! None.

use microagg::bound::{compute_prepared, gap_percent, prepare};
use microagg::data::{self, ColumnSelection, Instance};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
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

/// A CASC file, a generator spec, or the heavy-tailed family (module doc).
fn load(spec: &str) -> Result<Instance, String> {
    if let Some(rest) = spec.strip_prefix("heavy:") {
        return heavy(spec, rest);
    }
    data::load(spec, &ColumnSelection::All).map_err(|e| e.to_string())
}

/// `heavy:n=N,d=D[,seed=S]`: each value `±(U^(-1/2) - 1)`, `U` uniform on (0, 1].
fn heavy(spec: &str, rest: &str) -> Result<Instance, String> {
    let mut n = 0;
    let mut d = 0;
    let mut seed = 0;
    for kv in rest.split(',') {
        let (key, v) = kv
            .split_once('=')
            .ok_or(format!("{spec}: expected key=value"))?;
        let v: u64 = v
            .parse()
            .map_err(|_| format!("{spec}: {key} must be a count"))?;
        match key {
            "n" => n = v as usize,
            "d" => d = v as usize,
            "seed" => seed = v,
            _ => return Err(format!("{spec}: unknown key {key}")),
        }
    }
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let raw: Vec<f64> = (0..n * d)
        .map(|_| {
            let u: f64 = 1.0 - rng.random_range(0.0..1.0);
            let sign = if rng.random_bool(0.5) { 1.0 } else { -1.0 };
            sign * (u.powf(-0.5) - 1.0)
        })
        .collect();
    let cols = (1..=d).map(|j| format!("x{j}")).collect();
    Instance::from_raw(spec, spec, cols, raw, format!("heavy-seed-{seed}"))
        .map_err(|e| e.to_string())
}
