//! The `univariate` method: optimal on one attribute (against brute force over all
//! partitions), never worse than MDAV, and reachable from the CLI with --column.

use crate::common;
use common::{from_rows, run_method};
use microagg_solvers::univariate::univariate_brute_force;

#[test]
fn univariate_equals_brute_force_on_small_random_data_and_beats_mdav() {
    let mut next = common::xorshift64(88172645463325252);
    for case in 0..300 {
        let n = 4 + (next() % 9) as usize; // 4..=12
        let k = 2 + (next() % 3) as usize; // 2..=4
        if k > n {
            continue;
        }
        // Coarse values so that ties occur.
        let rows: Vec<Vec<f64>> = (0..n).map(|_| vec![(next() % 7) as f64]).collect();
        if rows.iter().all(|r| r[0] == rows[0][0]) {
            continue; // a constant column cannot be standardised
        }
        let inst = from_rows(&rows);
        let (sse, _) = run_method(&inst, "univariate", k, 0);
        let brute = univariate_brute_force(&inst.z, k).unwrap().sse;
        assert!(
            (sse - brute).abs() <= 1e-9 * brute.max(1e-9),
            "case {case}: {sse} vs brute {brute}"
        );
        let (mdav, _) = run_method(&inst, "mdav", k, 0);
        assert!(
            sse <= mdav + 1e-12,
            "case {case}: optimum {sse} above mdav {mdav}"
        );
    }
}

#[test]
fn univariate_rejects_multivariate_data_and_works_on_one_chosen_column() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("t.csv");
    std::fs::write(&f, "a,b\n1,9\n2,3\n3,5\n10,4\n11,8\n12,1\n30,2\n").unwrap();
    let o = common::cli(&common::run_args(
        f.to_str().unwrap(),
        "3",
        "univariate",
        &[],
    ));
    assert_eq!(o.status.code(), Some(2));
    assert!(common::stderr(&o).contains("--column"));
    let rec = common::cli_json(&[
        "run",
        "--data",
        f.to_str().unwrap(),
        "--column",
        "a",
        "--k",
        "3",
        "--method",
        "univariate",
        "--json",
    ]);
    assert_eq!(rec["d"], 1);
    // Optimal groups of column a: {1,2,3} and {10,11,12,30}.
    // IL is scale-free, so it can be computed on the raw values.
    let mean1 = 2.0;
    let mean2 = (10.0 + 11.0 + 12.0 + 30.0) / 4.0;
    let sse_raw: f64 = [1.0f64, 2.0, 3.0]
        .iter()
        .map(|v| (v - mean1).powi(2))
        .sum::<f64>()
        + [10.0f64, 11.0, 12.0, 30.0]
            .iter()
            .map(|v| (v - mean2).powi(2))
            .sum::<f64>();
    let all = [1.0, 2.0, 3.0, 10.0, 11.0, 12.0, 30.0];
    let m = all.iter().sum::<f64>() / 7.0;
    let sst_raw: f64 = all.iter().map(|v| (v - m).powi(2)).sum();
    let il = rec["il"].as_f64().unwrap();
    assert!((il - 100.0 * sse_raw / sst_raw).abs() < 1e-9, "IL {il}");
}
