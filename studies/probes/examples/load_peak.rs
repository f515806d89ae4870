//! Peak memory of loading a CSV file: streamed (`load_csv`, the loader) against the whole
//! text read first and then parsed (`std::fs::read` + `parse_csv`, what the loader did
//! before it streamed). Run each in its own process, since the peak only grows:
//!
//!     cargo run --release --example load_peak -- big.csv stream
//!     cargo run --release --example load_peak -- big.csv bytes

use microagg::bench::peak_rss_mb;
use microagg::data::csv_file::{load_csv, parse_csv};
use microagg::data::ColumnSelection;
use std::path::Path;
use std::time::Instant;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = Path::new(args.get(1).expect("a CSV file"));
    let mode = args.get(2).map_or("stream", String::as_str);
    let t = Instant::now();
    let inst = match mode {
        "bytes" => {
            let bytes = std::fs::read(path).expect("readable");
            parse_csv(&bytes, "f", "f", &ColumnSelection::All).expect("valid CSV")
        }
        _ => load_csv(path, &ColumnSelection::All).expect("valid CSV"),
    };
    let size = std::fs::metadata(path).map_or(0, |m| m.len()) as f64 / 1048576.0;
    println!(
        "{mode}: n={} d={} file {size:.1} MB, matrix {:.1} MB (raw and z each), peak RSS {:.1} MB, {:.2} s, sha256 {}",
        inst.n,
        inst.d,
        (inst.n * inst.d * 8) as f64 / 1048576.0,
        peak_rss_mb(),
        t.elapsed().as_secs_f64(),
        &inst.sha256[..12]
    );
}
