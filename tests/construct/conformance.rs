//! Conformance of every registered initializer: feasible (every group >= k, every record
//! placed once), cached SSE equal to a fresh computation, the same input gives the same
//! labels, and the edge cases n = k, n = 2k - 1, duplicate rows and d = 1 work.

use crate::common;
use common::{from_rows, run_method, synthetic};
use microagg::method::MethodKind;
use microagg::registry::registry;

fn initializers() -> Vec<&'static str> {
    registry()
        .into_iter()
        .filter(|m| m.kind() == MethodKind::Initializer)
        .map(|m| m.name)
        .collect()
}

/// The instance a method is tested on: one-attribute methods get the first column.
fn input_for(inst: &microagg::data::Instance, method: &str) -> microagg::data::Instance {
    let info = microagg::registry::find(method).unwrap();
    if !info.one_attribute || inst.d == 1 {
        return inst.clone();
    }
    common::first_column(inst)
}

fn assert_conforms(inst: &microagg::data::Instance, method: &str, k: usize) {
    let inst = &input_for(inst, method);
    let (sse, labels) = run_method(inst, method, k, 7);
    assert_eq!(labels.len(), inst.n, "{method}: one label per record");
    let report = microagg::labels::check_labels(inst, k, &labels).expect("label count matches");
    assert!(
        report.feasible,
        "{method} on {} (n={}, k={k}): group sizes {}..{}",
        inst.name, inst.n, report.min_group_size, report.max_group_size
    );
    let scale = report.sse.abs().max(1e-12);
    assert!(
        (report.sse - sse).abs() <= 1e-9 * scale,
        "{method}: cached SSE {sse} vs recomputed {}",
        report.sse
    );
    let (sse2, labels2) = run_method(inst, method, k, 7);
    assert_eq!(labels, labels2, "{method}: same input, same labels");
    assert_eq!(sse.to_bits(), sse2.to_bits(), "{method}: same SSE bits");
}

#[test]
fn every_initializer_is_feasible_and_deterministic_on_random_data() {
    let inst = synthetic("gauss:n=157,d=4,clusters=6,seed=11");
    for m in initializers() {
        for k in [2, 3, 5, 10] {
            assert_conforms(&inst, m, k);
        }
    }
}

#[test]
fn every_initializer_handles_n_equal_k_and_n_equal_2k_minus_1() {
    for m in initializers() {
        for k in [2, 3, 5] {
            for n in [k, 2 * k - 1, 2 * k, 3 * k - 1] {
                let inst = synthetic(&format!("uniform:n={n},d=3,seed={n}"));
                assert_conforms(&inst, m, k);
            }
        }
    }
}

#[test]
fn every_initializer_handles_duplicate_rows_and_one_dimension() {
    // Many exact duplicates: ties everywhere.
    let mut rows: Vec<Vec<f64>> = Vec::new();
    for i in 0..40 {
        rows.push(vec![(i % 4) as f64, (i % 3) as f64]);
    }
    let dup = from_rows(&rows);
    let line = from_rows(
        &(0..37)
            .map(|i| vec![((i * 7) % 37) as f64])
            .collect::<Vec<_>>(),
    );
    for m in initializers() {
        for k in [2, 3, 4, 7] {
            assert_conforms(&dup, m, k);
            assert_conforms(&line, m, k);
        }
    }
}
