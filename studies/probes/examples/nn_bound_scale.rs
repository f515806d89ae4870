//! Times the nn lower bound from the kd-tree's neighbour lists (`microagg bound --method
//! nn` from 4096 records) on Gaussian data generated in process, and prints the peak RSS.
//! With `--sample Q` only the k-nearest queries of Q consecutive records in tree order are
//! timed (an
//! estimate of the full pass, no bound); with `--scan` the quadratic kernel is run too and
//! the two values compared bit for bit (small n only).
//!
//!     cargo run --release --example nn_bound_scale -- 1000000 10 5
//!     cargo run --release --example nn_bound_scale -- 1000000 10 5 --sample 20000 [--leaf L]
//!
//! `--leaf L` builds the sample's tree with leaves of at most L records.

use microagg::bench::{peak_rss_mb, thread_cpu_seconds};
use microagg::data::{self, ColumnSelection};
use microagg::geometry::knn::{Scratch, StaticKdTree};
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let num = |i: usize, default: usize| {
        args.get(i)
            .filter(|a| !a.starts_with("--"))
            .map_or(default, |s| s.parse().expect("a number"))
    };
    let (n, d, k) = (num(1, 100_000), num(2, 10), num(3, 5));
    let flag = |name: &str| args.iter().position(|a| a == name);
    let spec = format!("gauss:n={n},d={d},clusters=5,seed=1");
    let t = Instant::now();
    let inst = data::load(&spec, &ColumnSelection::All).expect("data");
    println!("{spec}: generated in {:.2} s", t.elapsed().as_secs_f64());
    if let Some(p) = flag("--sample") {
        let q: usize = args[p + 1].parse().expect("--sample Q");
        let t = Instant::now();
        let leaf = flag("--leaf").map_or(microagg::geometry::knn::LEAF, |p| {
            args[p + 1].parse().expect("--leaf L")
        });
        let tree = StaticKdTree::with_leaf_size(&inst.z, d, leaf);
        let build = t.elapsed().as_secs_f64();
        let from = n.saturating_sub(q) / 2;
        let sample = &tree.ids_in_tree_order()[from..from + q.min(n)];
        let (t, c) = (Instant::now(), thread_cpu_seconds());
        // Q consecutive records in tree order from the middle (the order the lists use).
        let (mut found, mut scratch, mut out) = (0, Scratch::default(), Vec::new());
        for &i in sample {
            tree.nearest_of(i, k - 1, &mut scratch, &mut out);
            found += out.len();
        }
        let (wall, cpu) = (t.elapsed().as_secs_f64(), thread_cpu_seconds() - c);
        let per = cpu / q as f64;
        println!(
            "single queries: per query nodes {:.1}, leaves reached {:.1}, scanned {:.1}",
            scratch.nodes_visited as f64 / q as f64,
            scratch.leaves_reached as f64 / q as f64,
            scratch.leaves_scanned as f64 / q as f64
        );
        println!(
            "tree build {build:.2} s; {q} queries ({found} ids) {wall:.2} s wall {cpu:.2} s CPU = {:.1} us each; all n: ~{:.0} s CPU; peak RSS {:.0} MB",
            per * 1e6,
            per * n as f64,
            peak_rss_mb()
        );
        return;
    }
    let t = Instant::now();
    let b = microagg::bound::compute("nn", &inst, k, None).expect("bound");
    println!(
        "nn bound k={k}: {} (IL {:.6} %), {:.2} s wall, peak RSS {:.0} MB",
        b.lower_bound,
        b.il_lower_bound,
        t.elapsed().as_secs_f64(),
        peak_rss_mb()
    );
    if flag("--scan").is_some() {
        let t = Instant::now();
        let a = microagg_solvers::bounds::nn_bound(&inst.z, n, d, k).expect("bound");
        println!(
            "quadratic kernel: {} in {:.2} s; identical bits: {}",
            a.lower_bound,
            t.elapsed().as_secs_f64(),
            a.lower_bound.to_bits() == b.lower_bound.to_bits()
        );
    }
}
