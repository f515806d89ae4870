//! The search trace (src/search/trace.rs) writes a CSV header and lines whose last best IL
//! is the refiner's result.

use crate::common;
use microagg::pipeline::Pipeline;
use microagg::search::trace::Trace;
use std::sync::atomic::AtomicBool;

#[test]
fn trace_file_gets_csv_lines() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("trace.csv");
    let inst = common::synthetic("gauss:n=300,d=3,clusters=4,seed=1");
    let mut trace = Trace::to_file(&path, 0.0).unwrap();
    let p = Pipeline::parse("mdav+descent", &[])
        .unwrap()
        .run_observed(
            &inst,
            3,
            0,
            None,
            None,
            &AtomicBool::new(false),
            &mut [&mut trace],
        )
        .unwrap()
        .partition;
    trace.finish();
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    assert_eq!(lines.next(), Some("seconds,stage,step,current_il,best_il"));
    let last: Vec<&str> = lines
        .last()
        .expect("at least one trace line")
        .split(',')
        .collect();
    assert_eq!(last[1], "descent");
    let best: f64 = last[4].parse().unwrap();
    assert!((best - inst.il(p.sse())).abs() < 1e-6);
}
