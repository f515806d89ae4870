//! # Benchmarks and the demo study
//!
//! `microagg bench` times initializers on fixed cases and prints time next to IL (speed
//! targets are checked here, never by timed tests). `microagg demo` is the main job until the
//! experiment runner exists: every initializer on embedded synthetic instances (and the CASC
//! files when they are found), k = 3, 5, 10, as an IL table.

use crate::data::{self, ColumnSelection, Instance};
use crate::error::{Error, Result};
use crate::method::{self, MethodKind};
use crate::pipeline::Pipeline;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// A benchmark case: an instance spec and k.
fn case(name: &str) -> Result<(&'static str, usize)> {
    Ok(match name {
        "eia-k3" => ("eia", 3),
        "eia-k10" => ("eia", 10),
        "gauss-10k" => ("gauss:n=10000,d=10,clusters=5,seed=1", 5),
        "gauss-100k" => ("gauss:n=100000,d=10,clusters=5,seed=1", 5),
        other => {
            return Err(Error::usage(format!(
                "unknown bench case '{other}'; known: eia-k3, eia-k10, gauss-10k, gauss-100k"
            )))
        }
    })
}

/// Time every method on every case; prints one line per (case, method).
pub fn run(methods: &str, cases: &str, reps: usize) -> Result<()> {
    let methods: Vec<&str> = methods.split(',').map(str::trim).filter(|s| !s.is_empty()).collect();
    let pipelines = methods
        .iter()
        .map(|m| Pipeline::parse(m, &[]))
        .collect::<Result<Vec<_>>>()?;
    let never = AtomicBool::new(false);
    println!(
        "{:<12} {:<16} {:>7} {:>3} {:>4} {:>11} {:>12}",
        "case", "method", "n", "d", "k", "seconds", "IL %"
    );
    for name in cases.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (spec, k) = case(name)?;
        let inst = match data::load(spec, &ColumnSelection::All) {
            Ok(i) => i,
            Err(e) => {
                println!("{name:<12} skipped: {e}");
                continue;
            }
        };
        for p in &pipelines {
            let mut best = f64::INFINITY;
            let mut il = f64::NAN;
            // Large cases are timed once: they take seconds and vary little.
            let reps = if inst.n >= 50_000 { 1 } else { reps.max(1) };
            for _ in 0..reps {
                let t = Instant::now();
                let out = p.run(&inst, k, 0, None, &never)?;
                best = best.min(t.elapsed().as_secs_f64());
                il = inst.il(out.partition.sse());
            }
            println!(
                "{:<12} {:<16} {:>7} {:>3} {:>4} {:>11.4} {:>12.6}",
                name, p.spec, inst.n, inst.d, k, best, il
            );
        }
    }
    Ok(())
}

/// Embedded synthetic instances of the demo (no downloaded data needed).
pub const DEMO_INSTANCES: [&str; 4] = [
    "sim2:seed=1",
    "sim3:seed=1",
    "gauss:n=2000,d=5,clusters=10,seed=1",
    "uniform:n=1000,d=3,seed=1",
];

/// The main job: IL of every initializer on the demo instances and the CASC files found.
pub fn demo() -> Result<()> {
    let mut instances: Vec<Instance> = DEMO_INSTANCES
        .iter()
        .map(|s| data::load(s, &ColumnSelection::All))
        .collect::<Result<_>>()?;
    for id in ["tarragona", "census", "eia"] {
        match data::load(id, &ColumnSelection::All) {
            Ok(i) => instances.push(i),
            Err(e) => eprintln!("note: {id} left out: {e}"),
        }
    }
    let inits: Vec<_> = method::registry()
        .into_iter()
        .filter(|m| m.kind() == MethodKind::Initializer)
        .collect();
    let never = AtomicBool::new(false);
    print!("{:<40} {:>3}", "instance", "k");
    for m in &inits {
        print!(" {:>13}", m.name);
    }
    println!();
    for inst in &instances {
        for k in [3, 5, 10] {
            if k > inst.n {
                continue;
            }
            print!("{:<40} {:>3}", inst.name, k);
            for m in &inits {
                let out = Pipeline::parse(m.name, &[])?.run(inst, k, 0, None, &never)?;
                print!(" {:>13.4}", inst.il(out.partition.sse()));
            }
            println!();
        }
    }
    println!("(IL in percent; lower is better)");
    Ok(())
}
