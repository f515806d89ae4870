//! Where blocking loses IL: MDAV on the whole data against MDAV in blocks (`--blocks SIZE`,
//! kd cut of src/run/blocks.rs) and the blocks repaired by descent with pools of several slab
//! widths, with every record's share of the SSE (its squared distance to its group's
//! centroid) summed by the record's distance to the nearest cut of its block (in median
//! group radii of the unblocked partition). A loss that sits near the cuts is the cuts'; one
//! spread over the interior is MDAV's behaviour inside a block.
//!
//!     cargo run --release --example block_loss -- N SIZE [--cut kd|valley] [SLAB ...]
//!
//! Data `gauss:n=N,d=10,clusters=5,seed=1`, k = 5, method mdav; default slab 0.5 (the
//! descent repair's own). Prints IL, CPU seconds (whole process, every thread) and records
//! pooled per variant, then the table by distance to the cut.

use microagg::blocks::{self, CutRule, RepairMode};
use microagg::data::{self, ColumnSelection, Instance};
use microagg::pipeline::Pipeline;
use std::sync::atomic::AtomicBool;

const K: usize = 5;

/// Every record's squared distance to its group's centroid.
fn shares(inst: &Instance, groups: &[Vec<usize>]) -> Vec<f64> {
    let d = inst.d;
    let mut out = vec![0.0; inst.n];
    for m in groups {
        let mut c = vec![0.0; d];
        for &i in m {
            c.iter_mut()
                .zip(&inst.z[i * d..(i + 1) * d])
                .for_each(|(s, v)| *s += v);
        }
        c.iter_mut().for_each(|v| *v /= m.len() as f64);
        for &i in m {
            out[i] = (0..d).map(|j| (inst.z[i * d + j] - c[j]).powi(2)).sum();
        }
    }
    out
}

fn sse(inst: &Instance, groups: &[Vec<usize>]) -> f64 {
    groups
        .iter()
        .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
        .sum()
}

fn main() -> microagg::error::Result<()> {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let mut rule = CutRule::Kd;
    if let Some(p) = args.iter().position(|a| a == "--cut") {
        rule = clap::ValueEnum::from_str(&args[p + 1], true).expect("--cut kd|valley");
        args.drain(p..p + 2);
    }
    let n: usize = args[0].parse().expect("N");
    let size: usize = args[1].parse().expect("SIZE");
    let mut slabs: Vec<f64> = args[2..].iter().map(|a| a.parse().expect("SLAB")).collect();
    if slabs.is_empty() {
        slabs.push(RepairMode::Descent.slab());
    }
    let never = AtomicBool::new(false);
    let cpu = microagg::bench::process_cpu_seconds;
    let inst = data::load(
        &format!("gauss:n={n},d=10,clusters=5,seed=1"),
        &ColumnSelection::All,
    )?;
    let pipeline = Pipeline::parse("mdav", &[])?;
    let c0 = cpu();
    let whole = pipeline.run(&inst, K, 0, None, &never)?.partition;
    let whole: Vec<Vec<usize>> = (0..whole.slots())
        .map(|g| whole.members(g).to_vec())
        .filter(|m| !m.is_empty())
        .collect();
    println!(
        "unblocked mdav: IL {:.6} %, {:.2} cpu s",
        inst.il(sse(&inst, &whole)),
        cpu() - c0
    );
    let c0 = cpu();
    let split = blocks::split_by(&inst, (0..n).collect(), size, rule);
    let solver = microagg::parts::UnitSolver {
        inst: &inst,
        pipeline: &pipeline,
        k: K,
        seed: 0,
        time_limit: None,
        max_steps: None,
        interrupt: &never,
        repair: RepairMode::None,
        cut: rule,
        tuning: Default::default(),
    };
    let blocked = microagg::parts::solve_split(&solver, None, Some(size), None)?.groups;
    let sizes: Vec<usize> = split.blocks.iter().map(Vec::len).collect();
    println!(
        "{:?} cut, {} blocks ({}..{} records), {} cuts: blocks' mdav IL {:.6} %, {:.2} cpu s",
        rule,
        split.blocks.len(),
        sizes.iter().min().unwrap(),
        sizes.iter().max().unwrap(),
        split.cuts.len(),
        inst.il(sse(&inst, &blocked)),
        cpu() - c0
    );
    let params = serde_json::Map::new();
    let refine = |g: &[Vec<usize>], name: &str| {
        blocks::descent_on_groups(&inst, g, K, &params, name, &never)
    };
    let solve = |_: &[usize], _: &str| -> microagg::error::Result<Vec<Vec<usize>>> {
        unreachable!("descent repair")
    };
    let mut variants = vec![("unblocked".to_string(), shares(&inst, &whole))];
    variants.push(("blocks".into(), shares(&inst, &blocked)));
    for &slab in &slabs {
        let c0 = cpu();
        let (g, st) = blocks::repair_with_slab(
            &inst,
            &split,
            blocked.clone(),
            RepairMode::Descent,
            slab,
            &refine,
            &solve,
            &never,
        )?;
        println!(
            "repaired, slab {slab}: IL {:.6} %, {:.2} cpu s, {} records pooled, {} of {} cuts improved",
            inst.il(sse(&inst, &g)),
            cpu() - c0,
            st.pooled_records,
            st.improved,
            st.cuts
        );
        variants.push((format!("slab {slab}"), shares(&inst, &g)));
    }
    // Distance of every record to the nearest cut above its block, in median group radii.
    let mut radii: Vec<f64> = whole
        .iter()
        .map(|m| (microagg_solvers::sse::group_sse(&inst.z, inst.d, m) / m.len() as f64).sqrt())
        .collect();
    radii.sort_by(f64::total_cmp);
    let radius = radii[radii.len() / 2];
    let mut dist = vec![f64::INFINITY; n];
    for (b, rows) in split.blocks.iter().enumerate() {
        for cut in split.cuts.iter().filter(|c| c.blocks.contains(&b)) {
            for &i in rows {
                let v = cut.side(&inst, i).abs() / radius;
                dist[i] = dist[i].min(v);
            }
        }
    }
    let edges = [0.25, 0.5, 1.0, 2.0, 4.0, f64::INFINITY];
    print!(
        "median group radius {radius:.4}\n{:>12} {:>9}",
        "dist (radii)", "records"
    );
    for (name, _) in &variants {
        print!(" {name:>12}");
    }
    println!("   (SSE per bin; excess over unblocked in %)");
    let mut lo = 0.0;
    for &hi in &edges {
        let rows: Vec<usize> = (0..n).filter(|&i| dist[i] >= lo && dist[i] < hi).collect();
        let sums: Vec<f64> = variants
            .iter()
            .map(|(_, s)| rows.iter().map(|&i| s[i]).sum())
            .collect();
        print!("{:>5}..{:<6} {:>9}", lo, hi, rows.len());
        for s in &sums {
            print!(" {s:>12.1}");
        }
        print!("  ");
        for s in &sums[1..] {
            print!(" {:+.2}", 100.0 * (s - sums[0]) / sums[0]);
        }
        println!();
        lo = hi;
    }
    Ok(())
}
