//! Shared helpers for the integration tests.
#![allow(dead_code)]

use microagg::data::{self, ColumnSelection, Instance};

/// A CASC instance, or None (with a note) when its file is not found. With
/// `MICROAGG_REQUIRE_DATA=1` (set by `.ci/run`) a missing file fails the test instead.
pub fn casc(id: &str) -> Option<Instance> {
    match data::load(id, &ColumnSelection::All) {
        Ok(inst) => Some(inst),
        Err(e) => {
            if std::env::var("MICROAGG_REQUIRE_DATA").is_ok_and(|v| v == "1") {
                panic!("MICROAGG_REQUIRE_DATA=1 but {id} is unavailable: {e}");
            }
            eprintln!("skipping {id}: {e}");
            None
        }
    }
}

/// An instance from a generator spec.
pub fn synthetic(spec: &str) -> Instance {
    data::load(spec, &ColumnSelection::All).expect("generator spec is valid")
}

/// An instance from in-memory rows (d columns named x1..xd).
pub fn from_rows(rows: &[Vec<f64>]) -> Instance {
    let d = rows[0].len();
    let raw: Vec<f64> = rows.iter().flatten().copied().collect();
    let cols = (1..=d).map(|j| format!("x{j}")).collect();
    Instance::from_raw("rows", "rows", cols, raw, "test".into()).expect("valid rows")
}

/// Run a single-stage pipeline and return (sse, labels).
pub fn run_method(inst: &Instance, method: &str, k: usize, seed: u64) -> (f64, Vec<usize>) {
    let never = std::sync::atomic::AtomicBool::new(false);
    let out = microagg::pipeline::Pipeline::parse(method, &[])
        .expect("known method")
        .run(inst, k, seed, None, &never)
        .unwrap_or_else(|e| panic!("{method} on {} k={k}: {e}", inst.name));
    (out.partition.sse(), out.partition.labels().to_vec())
}
