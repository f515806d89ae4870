//! Times the neighbour lists of local search: the kd-tree path (`Neighbours::build`) and,
//! with `--scan`, the brute-force reference, and checks that they are equal.
//!
//!     cargo run --release --example neighbour_lists -- gauss:n=20000,d=10,clusters=5,seed=1 30 --scan

use microagg::data::{self, ColumnSelection};
use microagg::geometry::neighbours::Neighbours;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let spec = args
        .get(1)
        .map_or("gauss:n=20000,d=10,clusters=5,seed=1", String::as_str);
    let m: usize = args
        .get(2)
        .map_or(30, |s| s.parse().expect("m is a number"));
    let scan = args.iter().any(|a| a == "--scan");
    let inst = data::load(spec, &ColumnSelection::All).expect("data");
    let t = Instant::now();
    let fast = Neighbours::build(&inst, m);
    let fast_s = t.elapsed().as_secs_f64();
    print!("{spec} m={m}: build {fast_s:.3} s");
    if scan {
        let t = Instant::now();
        let reference = Neighbours::build_by_scan(&inst, m);
        let scan_s = t.elapsed().as_secs_f64();
        let same = (0..inst.n).all(|i| fast.of(i) == reference.of(i));
        print!(", scan {scan_s:.3} s, identical lists: {same}");
    }
    println!();
}
