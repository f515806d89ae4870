//! Best-known partitions in `proofs/certificates/` (written by `examples/quality.rs`):
//! each labels file is re-verified by the library's independent check (`check_labels`):
//! feasible for its k, and its recomputed IL and SSE equal the values recorded in
//! `proofs/certificates/values.tsv` (to the 10 printed decimals).

mod common;
use microagg::labels::{check_labels, read_labels};
use std::path::Path;

#[test]
fn stored_partitions_are_feasible_with_their_recorded_il() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/certificates");
    let table = std::fs::read_to_string(dir.join("values.tsv")).expect("values.tsv exists");
    let mut checked = 0;
    for line in table.lines().skip(1).filter(|l| !l.trim().is_empty()) {
        let f: Vec<&str> = line.split('\t').collect();
        assert_eq!(f.len(), 5, "bad row: {line}");
        let (file, data, k, il, sse) = (
            f[0],
            f[1],
            f[2].parse::<usize>().unwrap(),
            f[3].parse::<f64>().unwrap(),
            f[4].parse::<f64>().unwrap(),
        );
        assert_eq!(
            file,
            format!("{data}-k{k}.labels"),
            "file name holds data and k"
        );
        let Some(inst) = common::casc(data) else {
            continue;
        };
        let labels = read_labels(&dir.join(file)).unwrap();
        let report = check_labels(&inst, k, &labels).unwrap();
        assert!(report.feasible, "{file}: infeasible");
        assert!(
            (report.il - il).abs() < 1e-9,
            "{file}: IL {} != recorded {il}",
            report.il
        );
        assert!(
            (report.sse - sse).abs() < 1e-9 * sse.max(1.0),
            "{file}: SSE {} != {sse}",
            report.sse
        );
        checked += 1;
    }
    if common::casc("tarragona").is_some() {
        assert!(checked >= 12, "expected the 12 cases, checked {checked}");
    }
}
