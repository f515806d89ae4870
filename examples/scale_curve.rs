//! The scaling curve of a method on Gaussian data generated in process (no file is
//! written): for each n, the time to generate and z-score the data, the solve's wall and
//! CPU time (all threads), IL and peak RSS (reset per n), then the exponent b of
//! time ~ n^b between consecutive sizes and by least squares over all of them.
//!
//!     cargo run --release --example scale_curve -- [--blocks SIZE] [--repair MODE]
//!         [--method M] [--param METHOD.KEY=VALUE]... [--k K] [--d D] N1 N2 ...
//!
//! With `--blocks SIZE` the run is `microagg run --blocks SIZE` (blocks solved in
//! parallel, borders repaired as `--block-repair MODE`, default descent); without it the pipeline on the whole data. Data:
//! `gauss:n=N,d=D,clusters=5,seed=1`. `microagg bench --scale N1,N2,... [--blocks SIZE]`
//! prints the same curve (default repair, no parameters); this example adds `--repair`,
//! `--param` and the per-stage figures.

use microagg::bench::{peak_rss_mb, reset_peak_rss};
use microagg::data::{self, ColumnSelection};
use microagg::parts::{solve_split, UnitSolver};
use microagg::pipeline::Pipeline;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// CPU seconds of the whole process (user + system, every thread).
fn process_cpu_seconds() -> f64 {
    // SAFETY: getrusage writes into the struct we own.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let (mut blocks, mut method, mut k, mut d) = (None, "mdav".to_string(), 5, 10);
    let (mut repair, mut params) = (microagg::blocks::RepairMode::default(), Vec::new());
    let mut sizes: Vec<usize> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().expect("a value after the flag").clone();
        match a.as_str() {
            "--blocks" => blocks = Some(value().parse().expect("--blocks SIZE")),
            "--method" => method = value(),
            "--repair" => {
                repair = clap::ValueEnum::from_str(&value(), true).expect("--repair MODE")
            }
            "--param" => params.push(value()),
            "--k" => k = value().parse().expect("--k K"),
            "--d" => d = value().parse().expect("--d D"),
            n => sizes.push(n.parse().expect("a size n")),
        }
    }
    let pipeline = Pipeline::parse(&method, &params).expect("method");
    let never = AtomicBool::new(false);
    let resets = reset_peak_rss();
    println!(
        "{method}, k={k}, d={d}, {}, threads {} (peak RSS {})",
        blocks.map_or("unblocked".to_string(), |b| format!(
            "--blocks {b} ({repair:?} repair)"
        )),
        rayon::current_num_threads(),
        if resets { "per n" } else { "of the process" }
    );
    println!(
        "{:>10} {:>8} {:>9} {:>9} {:>10} {:>9}",
        "n", "gen s", "wall s", "cpu s", "IL %", "peak MB"
    );
    let mut points: Vec<(f64, f64, f64)> = Vec::new();
    for &n in &sizes {
        reset_peak_rss();
        let t = Instant::now();
        let spec = format!("gauss:n={n},d={d},clusters=5,seed=1");
        let inst = data::load(&spec, &ColumnSelection::All).expect("data");
        let generated = t.elapsed().as_secs_f64();
        let (t, c) = (Instant::now(), process_cpu_seconds());
        let sse = match blocks {
            Some(size) => {
                let solver = UnitSolver {
                    inst: &inst,
                    pipeline: &pipeline,
                    k,
                    seed: 0,
                    time_limit: None,
                    max_steps: None,
                    interrupt: &never,
                    repair,
                };
                let out = solve_split(&solver, None, Some(size), None).expect("solve");
                for st in &out.stages {
                    eprintln!(
                        "  stage {}: IL {:.5} %, {:.1} s summed",
                        st.name, st.il, st.seconds
                    );
                }
                for r in &out.repair {
                    eprintln!(
                        "  repair: {} cuts, {} improved, {} records pooled, {:.1} s",
                        r.cuts, r.improved, r.pooled_records, r.seconds
                    );
                }
                out.groups
                    .iter()
                    .map(|m| microagg_solvers::sse::group_sse(&inst.z, d, m))
                    .sum()
            }
            None => pipeline
                .run(&inst, k, 0, None, &never)
                .expect("solve")
                .partition
                .sse(),
        };
        let (wall, cpu) = (t.elapsed().as_secs_f64(), process_cpu_seconds() - c);
        println!(
            "{n:>10} {generated:>8.2} {wall:>9.2} {cpu:>9.2} {:>10.5} {:>9.0}",
            inst.il(sse),
            peak_rss_mb()
        );
        points.push((n as f64, wall, cpu));
    }
    use microagg::bench::{exponent_between, fitted_exponent};
    for w in points.windows(2) {
        let slope = |y: fn(&(f64, f64, f64)) -> f64| {
            exponent_between((w[0].0, y(&w[0])), (w[1].0, y(&w[1])))
        };
        println!(
            "exponent {:>9} -> {:>9}: wall {:.2}, cpu {:.2}",
            w[0].0,
            w[1].0,
            slope(|p| p.1),
            slope(|p| p.2)
        );
    }
    if points.len() > 2 {
        let fit = |y: fn(&(f64, f64, f64)) -> f64| {
            fitted_exponent(&points.iter().map(|p| (p.0, y(p))).collect::<Vec<_>>())
        };
        println!(
            "least-squares exponent over all n: wall {:.2}, cpu {:.2}",
            fit(|p| p.1),
            fit(|p| p.2)
        );
    }
}
