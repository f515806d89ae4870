//! The scaling curve of a method on Gaussian data generated in process (no file is
//! written), with the border repair and method parameters that `microagg bench --scale`
//! does not take: the curve itself is the bench's (`microagg::bench::ScaleRun` run by
//! `microagg::bench::scale_curve`: per n the time to generate and z-score the data, the
//! solve's wall and CPU time (all threads), IL and peak RSS (reset per n), then the exponents
//! of CPU time, wall time and peak memory between consecutive sizes and by least squares).
//!
//!     cargo run --release --example scale_curve -- [--blocks SIZE] [--repair MODE]
//!         [--cut RULE] [--slab W] [--approx EPS] [--method M] [--param METHOD.KEY=VALUE]...
//!         [--k K] [--d D] N1 N2 ...
//!
//! With `--blocks SIZE` the run is `microagg run --blocks SIZE` (blocks solved in parallel,
//! borders repaired as `--block-repair MODE`, default descent); `--cut`, `--slab` and
//! `--approx` are run's `--block-cut`, `--block-slab` and `--block-approx`; without
//! `--blocks` the pipeline on the whole data. Data: `gauss:n=N,d=D,clusters=5,seed=1`.
//! Without `--repair` and `--param`, `microagg bench --methods M --scale N1,N2,...
//! [--blocks SIZE] [--block-cut RULE] [--block-slab W] [--block-approx EPS] [--k K] [--d D]`
//! prints the same. The per-stage and border-repair figures of one point are in the record
//! of `microagg run --data gauss:n=N,d=D,clusters=5,seed=1 --blocks SIZE --json` (`stages`,
//! `border_repair`).

use microagg::bench::{scale_curve, ScaleRun};

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut run = ScaleRun {
        method: "mdav".into(),
        params: Vec::new(),
        k: 5,
        d: 10,
        blocks: None,
        repair: microagg::blocks::RepairMode::default(),
        cut: microagg::blocks::CutRule::default(),
        tuning: Default::default(),
    };
    let mut sizes: Vec<usize> = Vec::new();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = || it.next().expect("a value after the flag").clone();
        match a.as_str() {
            "--blocks" => run.blocks = Some(value().parse().expect("--blocks SIZE")),
            "--method" => run.method = value(),
            "--repair" => {
                run.repair = clap::ValueEnum::from_str(&value(), true).expect("--repair MODE")
            }
            "--cut" => run.cut = clap::ValueEnum::from_str(&value(), true).expect("--cut RULE"),
            "--slab" => run.tuning.slab = Some(value().parse().expect("--slab W")),
            "--approx" => run.tuning.approx = Some(value().parse().expect("--approx EPS")),
            "--param" => run.params.push(value()),
            "--k" => run.k = value().parse().expect("--k K"),
            "--d" => run.d = value().parse().expect("--d D"),
            n => sizes.push(n.parse().expect("a size n")),
        }
    }
    if let Err(e) = scale_curve(&run, &sizes) {
        eprintln!("error: {e}");
        std::process::exit(2);
    }
}
