//! Time the MDAV engine on the scan and on the kd-tree, split by query type, and check that
//! both give the same groups. Used to place the crossover in `init::spatial::use_tree`.
//!
//!     cargo run --release --example remaining_crossover -- 'gauss:n=20000,d=10,clusters=5,seed=1' 5
//!
//! Prints per backend: seconds in farthest queries, in k-nearest queries, total, and whether
//! the groups equal the scan's.

use microagg::data::{load, ColumnSelection};
use microagg::init::kdtree::KdRemaining;
use microagg::init::remaining::{Remaining, Scan};
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
    let t = Instant::now();
    let mut scan = Scan::new(&inst, ids.clone());
    let (g_scan, f1, n1) = mdav_timed(&inst, &mut scan, k);
    let scan_total = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let mut tree = KdRemaining::new(&inst, ids);
    let build = t.elapsed().as_secs_f64();
    let (g_tree, f2, n2) = mdav_timed(&inst, &mut tree, k);
    let tree_total = t.elapsed().as_secs_f64();
    println!(
        "n={} d={} k={k}  scan: far {f1:.3}s near {n1:.3}s total {scan_total:.3}s | tree: build {build:.3}s far {f2:.3}s near {n2:.3}s total {tree_total:.3}s | ratio scan/tree {:.2} | same groups: {}",
        inst.n,
        inst.d,
        scan_total / tree_total,
        g_scan == g_tree
    );
}
