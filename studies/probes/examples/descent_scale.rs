//! # Where the descent's time goes at scale
//!
//! Starts from a stored partition (e.g. `run --method mdav --labels-out`), builds the
//! neighbour lists, then runs the `descent` refiner's engine ([`LocalSearch`], first
//! improvement, the records queued in a seeded random order as the refiner queues them)
//! to its local optimum, and prints per phase the wall time, the process CPU and the
//! calling thread's CPU (a phase whose CPU is all on the calling thread takes that long on
//! a free core, whatever the load), the records examined, the moves applied and the IL
//! after each pass over the work queue's contents. Several list lengths can be given.
//!
//! Usage: `cargo run --release --example descent_scale -- --data gauss:n=1000000,d=10,clusters=5,seed=1
//!         --k 5 --labels /tmp/mdav.labels --neighbours 10,6 [--approx 0,1] [--seed 0] [--threads 2]`
//!
//! ## Complexity
//! That of the lists (`search::neighbours`) and of the descent (`search::descent`).

mod common;

use clap::Parser;
use microagg::bench::{process_cpu_seconds, thread_cpu_seconds};
use microagg::geometry::neighbours::Neighbours;
use microagg::labels::check_labels;
use microagg::partition::Partition;
use microagg::rng::Rng;
use microagg::search::local_search::LocalSearch;
use microagg::search::moves::MoveLog;
use rand::seq::SliceRandom;
use rand::SeedableRng;
use std::time::Instant;

/// Wall, process CPU and calling-thread CPU at one instant.
struct Clocks(Instant, f64, f64);

impl Clocks {
    fn now() -> Self {
        Clocks(Instant::now(), process_cpu_seconds(), thread_cpu_seconds())
    }
    fn since(&self) -> String {
        let wall = self.0.elapsed().as_secs_f64();
        let cpu = process_cpu_seconds() - self.1;
        let own = thread_cpu_seconds() - self.2;
        format!("{wall:.2} s wall, {cpu:.2} s CPU ({own:.2} s on the calling thread)")
    }
}

/// The descent's phases timed from a stored partition.
#[derive(Parser)]
struct Args {
    /// The case and the start partition.
    #[command(flatten)]
    case: common::Partitioned,
    /// Neighbour list lengths, comma-separated.
    #[arg(long, value_delimiter = ',', default_values_t = [10])]
    neighbours: Vec<usize>,
    /// Approximation factors of the lists, comma-separated (0: exact).
    #[arg(long, value_delimiter = ',', default_values_t = [0.0])]
    approx: Vec<f64>,
    /// Seed of the records' queue order.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Threads of the library's pool (default: the available cores).
    #[arg(long)]
    threads: Option<usize>,
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args = Args::parse();
    let (case, lengths, approx, seed) = (args.case, args.neighbours, args.approx, args.seed);
    let (data, k) = (&case.case.data, case.case.k);
    // The library's parallel steps run on its own pool (parallel::install), not rayon's
    // global one.
    microagg::parallel::set_threads(args.threads);
    let c = Clocks::now();
    let (inst, start_labels) = case.load()?;
    let start = check_labels(&inst, k, &start_labels)?;
    println!(
        "load {data} and {}: {}; start IL {:.6} %",
        case.labels.display(),
        c.since(),
        inst.il(start.sse)
    );
    let runs = lengths
        .iter()
        .flat_map(|&m| approx.iter().map(move |&e| (m, e)));
    for (m, eps) in runs {
        let c = Clocks::now();
        let nb = Neighbours::build_approx_until(&inst, m, eps, || false).expect("not stopped");
        println!("m = {m}, approx = {eps}: lists {}", c.since());
        let c = Clocks::now();
        let mut p = Partition::from_labels(&inst, start_labels.clone())?;
        let mut ls = LocalSearch::new(&inst, false, false);
        let mut order: Vec<usize> = (0..inst.n).collect();
        order.shuffle(&mut Rng::seed_from_u64(seed));
        for i in order {
            ls.push(i);
        }
        println!("m = {m}: partition and engine {}", c.since());
        let c = Clocks::now();
        let mut log = MoveLog::new();
        // A "pass" = as many records as were queued when it began (the first is every
        // record once); the IL after each shows how fast the gain tails off.
        let (mut examined, mut moves, mut pass) = (0usize, 0usize, 0);
        while !ls.is_idle() {
            let queued = ls.queued();
            let mut done = 0;
            while done < queued && !ls.is_idle() {
                let step = 256.min(queued - done);
                moves += ls.run(&mut p, &inst, k, &nb, &mut log, step);
                log.clear();
                done += step;
            }
            examined += done;
            pass += 1;
            println!(
                "m = {m}: pass {pass}: {done} records, IL {:.6} %, {} moves so far, {}",
                inst.il(p.sse()),
                moves,
                c.since()
            );
        }
        let report = check_labels(&inst, k, &p.canonical_labels())?;
        println!(
            "m = {m}: descent {}; {examined} records examined, {moves} moves, IL {:.6} % \
             ({:.3} % below the start)",
            c.since(),
            inst.il(report.sse),
            100.0 * (1.0 - report.sse / start.sse)
        );
    }
    Ok(())
}
