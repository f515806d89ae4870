//! Time the MDAV engine on the scan and on the kd-tree, split by query type, and check that
//! both give the same groups. Used to place the crossover in `init::spatial::use_tree`.
//!
//!     cargo run --release --example remaining_crossover -- 'gauss:n=20000,d=10,clusters=5,seed=1' 5
//!
//! Prints per backend (scan, kd-tree, ball buckets; a third argument such as `buckets` or
//! `noscan,buckets` picks them): seconds in farthest queries, in k-nearest queries, total,
//! and whether the groups equal the scan's.

use microagg::data::{load, ColumnSelection};
use microagg::geometry::buckets::BucketRemaining;
use microagg::geometry::kdtree::KdRemaining;
use microagg::geometry::remaining::{Remaining, Scan};
use std::time::Instant;

fn mdav_timed(
    inst: &microagg::data::Instance,
    rem: &mut dyn Remaining,
    k: usize,
) -> (Vec<Vec<usize>>, f64, f64) {
    let (mut far, mut near, mut far_c) = (0.0, 0.0, 0.0);
    let mut groups = Vec::new();
    while rem.len() >= 2 * k {
        let t = Instant::now();
        let r = rem.farthest_from_centroid();
        far_c += t.elapsed().as_secs_f64();
        let t = Instant::now();
        groups.push(rem.take_nearest(inst.row(r), k));
        near += t.elapsed().as_secs_f64();
        let t = Instant::now();
        let s = rem.farthest_from(inst.row(r));
        far += t.elapsed().as_secs_f64();
        let t = Instant::now();
        groups.push(rem.take_nearest(inst.row(s), k));
        near += t.elapsed().as_secs_f64();
    }
    groups.push(rem.take_all());
    eprintln!("  farthest from centroid {far_c:.3}s, from r {far:.3}s, nearest {near:.3}s");
    (groups, far + far_c, near)
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = args
        .get(1)
        .map(String::as_str)
        .unwrap_or("gauss:n=20000,d=10,clusters=5,seed=1");
    let k: usize = args.get(2).map(|s| s.parse().expect("k")).unwrap_or(5);
    let inst = load(spec, &ColumnSelection::parse("")).expect("data");
    let ids: Vec<usize> = (0..inst.n).collect();
    // Which backends besides the scan: "tree,buckets" (default) or a subset; "noscan"
    // skips the scan (then nothing is compared).
    let which = args.get(3).map(String::as_str).unwrap_or("tree,buckets");
    let mut reference: Option<(Vec<Vec<usize>>, f64)> = None;
    if !which.contains("noscan") {
        let t = Instant::now();
        let mut scan = Scan::new(&inst, ids.clone());
        let (g, f, n) = mdav_timed(&inst, &mut scan, k);
        let total = t.elapsed().as_secs_f64();
        println!(
            "n={} d={} k={k}  scan: far {f:.3}s near {n:.3}s total {total:.3}s",
            inst.n, inst.d
        );
        reference = Some((g, total));
    }
    for name in ["tree", "buckets"] {
        if !which.contains(name) {
            continue;
        }
        let t = Instant::now();
        let mut rem: Box<dyn Remaining> = if name == "tree" {
            Box::new(KdRemaining::new(&inst, ids.clone()))
        } else {
            match args.get(4) {
                Some(b) => Box::new(BucketRemaining::with_buckets(
                    &inst,
                    ids.clone(),
                    b.parse().expect("buckets"),
                )),
                None => Box::new(BucketRemaining::new(&inst, ids.clone())),
            }
        };
        let build = t.elapsed().as_secs_f64();
        let (g, f, n) = mdav_timed(&inst, &mut *rem, k);
        let total = t.elapsed().as_secs_f64();
        eprintln!(
            "  cpu {:.3}s (this thread)",
            microagg::bench::thread_cpu_seconds()
        );
        let cmp = match &reference {
            Some((g0, t0)) => format!(
                "ratio scan/{name} {:.2} | same groups: {}",
                t0 / total,
                *g0 == g
            ),
            None => "no scan run".to_string(),
        };
        println!(
            "n={} d={} k={k}  {name}: build {build:.3}s far {f:.3}s near {n:.3}s total {total:.3}s | {cmp}",
            inst.n, inst.d
        );
    }
}
