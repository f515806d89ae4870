//! # IMHM against the paper's Table 3, and warm versus cold LP solves
//!
//! For each case (data, k, NPB) runs `mdav+imhm` twice, with and without warm starts, and
//! prints the IL next to the published value, the LP solves (HiGHS runs, pricing re-solves
//! included), the seconds spent inside HiGHS and the total IMHM time of both runs.
//!
//! With `--lp-bench` it then replays the sequence of LP assignments of the warm run (the
//! centroids of every outer iteration, recorded by the refiner) twice: with one kept
//! solver per block (warm: cost change + primal simplex from the previous basis, cold
//! rebuild only when the number of groups changed) and with a fresh solver per LP (cold:
//! candidate model built from scratch, dual simplex). It prints the median time per warm
//! re-solve (calls answered from a kept model) and per cold solve, both for the whole
//! `solve` call (cost update or build, HiGHS, pricing) and for the time inside HiGHS.
//!
//! Usage: `cargo run --release --example imhm_table3 -- [--cases eia-k3-npb1,...]
//!         [--lp-bench] [--cost distance|squared]`
//!
//! ## Complexity
//! Two IMHM runs per case (see `src/search/imhm.rs`), plus two replays with `--lp-bench`.
//!
//! ## References
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544 (Table 3).

use microagg::data::{load, ColumnSelection, Instance};
use microagg::pipeline::Pipeline;
use microagg::rng::Rng;
use microagg::search::imhm::{Imhm, ImhmParams};
use microagg::search::refine;
use microagg_solvers::assignment::{AssignmentOptions, AssignmentSolver, Cost};
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// (data, k, NPB, published IL of Table 3)
const CASES: &[(&str, usize, usize, f64)] = &[
    ("tarragona", 3, 1, 16.9305),
    ("tarragona", 4, 1, 19.5150),
    ("tarragona", 5, 1, 22.1861),
    ("tarragona", 10, 1, 30.7841),
    ("census", 3, 1, 5.3668),
    ("census", 4, 1, 6.8577),
    ("census", 5, 1, 8.4165),
    ("census", 10, 1, 12.2284),
    ("eia", 3, 4, 0.37499),
    ("eia", 4, 4, 0.52236),
    ("eia", 5, 4, 0.75761),
    ("eia", 10, 4, 2.1788),
    ("eia", 3, 1, f64::NAN),
];

fn arg(args: &[String], name: &str) -> Option<String> {
    args.iter()
        .position(|a| a == name)
        .and_then(|p| args.get(p + 1).cloned())
}

fn median(v: &mut [f64]) -> f64 {
    if v.is_empty() {
        return f64::NAN;
    }
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// Run mdav + imhm; returns (IL, refiner, seconds of the imhm stage).
fn run(inst: &Instance, k: usize, params: ImhmParams, record: bool) -> (f64, Imhm, f64) {
    let never = AtomicBool::new(false);
    let start = Pipeline::parse("mdav", &[])
        .expect("mdav")
        .run(inst, k, 0, None, &never)
        .expect("mdav runs")
        .partition;
    let mut imhm = Imhm::new(params);
    imhm.record_lps = record;
    let t = Instant::now();
    let out = refine(
        &mut imhm,
        inst,
        k,
        start,
        &mut Rng::seed_from_u64(0),
        None,
        &never,
    )
    .expect("imhm runs");
    let secs = t.elapsed().as_secs_f64();
    assert!(out.partition.is_feasible(k));
    (inst.il(out.partition.sse()), imhm, secs)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let only: Option<Vec<String>> =
        arg(&args, "--cases").map(|c| c.split(',').map(|s| s.trim().to_string()).collect());
    let lp_bench = args.iter().any(|a| a == "--lp-bench");
    let cost = arg(&args, "--cost").unwrap_or_else(|| "distance".into());
    println!(
        "{:<22} {:>10} {:>10} {:>8} | {:>6} {:>8} {:>8} | {:>6} {:>8} {:>8}",
        "case", "IL", "paper", "rel", "LPs", "LP s", "total s", "LPs", "LP s", "total s"
    );
    println!(
        "{:<54} | {:^24} | {:^24}",
        "", "warm start", "cold (no warm start)"
    );
    for &(data, k, npb, paper) in CASES {
        let id = format!("{data}-k{k}-npb{npb}");
        if only.as_ref().is_some_and(|o| !o.contains(&id)) {
            continue;
        }
        let inst = match load(data, &ColumnSelection::All) {
            Ok(i) => i,
            Err(e) => {
                println!("{id:<22} skipped: {e}");
                continue;
            }
        };
        let params = ImhmParams {
            npb,
            cost: cost.clone(),
            ..ImhmParams::default()
        };
        let (il, warm, warm_secs) = run(&inst, k, params.clone(), lp_bench);
        let (il_cold, cold, cold_secs) = run(
            &inst,
            k,
            ImhmParams {
                warm_start: false,
                ..params
            },
            false,
        );
        let rel = (il - paper) / paper;
        println!(
            "{id:<22} {il:>10.5} {paper:>10.5} {:>7.3}% | {:>6} {:>8.2} {:>8.2} | {:>6} {:>8.2} {:>8.2}{}",
            100.0 * rel,
            warm.stats.lp_solves,
            warm.stats.lp_seconds,
            warm_secs,
            cold.stats.lp_solves,
            cold.stats.lp_seconds,
            cold_secs,
            if (il - il_cold).abs() > 1e-9 {
                format!("  (cold run IL {il_cold:.5})")
            } else {
                String::new()
            }
        );
        if lp_bench {
            lp_replay(&inst, k, &warm, Cost::parse(&cost).unwrap_or_default());
        }
    }
    Ok(())
}

/// Replay the recorded LP sequence warm and cold; print medians.
fn lp_replay(inst: &Instance, k: usize, imhm: &Imhm, cost: Cost) {
    let d = inst.d;
    let blocks = imhm.block_records();
    let xs: Vec<Vec<f64>> = blocks
        .iter()
        .map(|r| r.iter().flat_map(|&i| inst.row(i).to_vec()).collect())
        .collect();
    let mut warm_solvers: Vec<AssignmentSolver> = blocks
        .iter()
        .map(|_| AssignmentSolver::new(d, k, 2 * k - 1, cost, AssignmentOptions::default()))
        .collect();
    let (mut warm_call, mut warm_lp, mut cold_call, mut cold_lp) =
        (Vec::new(), Vec::new(), Vec::new(), Vec::new());
    let (mut warm_it, mut cold_it) = (Vec::new(), Vec::new());
    let mut mismatches = 0;
    for (b, centroids) in &imhm.lp_log {
        let x = &xs[*b];
        let s = &mut warm_solvers[*b];
        let before = s.totals.warm_calls;
        let t = Instant::now();
        let a = s.solve(x, centroids, None).expect("warm solve");
        let secs = t.elapsed().as_secs_f64();
        if s.totals.warm_calls > before {
            warm_call.push(secs);
            warm_lp.push(a.lp_seconds);
            warm_it.push(a.simplex_iterations as f64);
        }
        let mut fresh = AssignmentSolver::new(
            d,
            k,
            2 * k - 1,
            cost,
            AssignmentOptions {
                warm_start: false,
                ..AssignmentOptions::default()
            },
        );
        let t = Instant::now();
        let c = fresh.solve(x, centroids, None).expect("cold solve");
        cold_call.push(t.elapsed().as_secs_f64());
        cold_lp.push(c.lp_seconds);
        cold_it.push(c.simplex_iterations as f64);
        if (a.objective - c.objective).abs() > 1e-9 * c.objective.abs().max(1.0) {
            mismatches += 1;
        }
    }
    println!(
        "    LP replay: {} LPs ({} warm re-solves); median per call warm {:.4} s / cold {:.4} s; inside HiGHS warm {:.4} s / cold {:.4} s; simplex iterations warm {} / cold {}; objective mismatches {}",
        imhm.lp_log.len(),
        warm_call.len(),
        median(&mut warm_call),
        median(&mut cold_call),
        median(&mut warm_lp),
        median(&mut cold_lp),
        median(&mut warm_it),
        median(&mut cold_it),
        mismatches
    );
}
