//! The restricted master without box or cuts (solvers/src/bounds/colgen/master_upper.rs):
//! over every group of k..2k-1 records it is the LP relaxation, which the converged column
//! generation bound equals (an independent path: pricing and the Lagrangian bound) and which
//! the brute-force optimum is above; over fewer columns it is never below that LP; a
//! colgen run reports it above its own bound.

use crate::common;
use common::{
    all_lp_columns, assert_exit, brute_force_optimum, cli, cli_ok, clustered_rows, stdout,
    stdout_json, weighted_args,
};
use microagg_solvers::bounds::colgen::master_upper::restricted_master_value;
use microagg_solvers::bounds::{colgen_bound, ColgenOptions};
use microagg_solvers::sse::group_sse;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The groups of [`common::chunk_labels`] (sorted members) with their SSE.
fn block_groups(x: &[f64], n: usize, d: usize, k: usize) -> Vec<(Vec<u32>, f64)> {
    let labels = common::chunk_labels(n, k);
    (0..n / k)
        .map(|g| {
            let members: Vec<usize> = (0..n).filter(|&i| labels[i] == g).collect();
            let sse = group_sse(x, d, &members);
            (members.into_iter().map(|i| i as u32).collect(), sse)
        })
        .collect()
}

#[test]
fn over_every_group_it_is_the_lp_and_over_fewer_never_below_it() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_0529);
    let mut strictly_above = 0;
    for case in 0..24 {
        let n = rng.random_range(6..=11);
        let d = rng.random_range(1..=3);
        let k = 2 + case % 2;
        let x = clustered_rows(&mut rng, n, d, 3.0);
        let (groups, costs) = all_lp_columns(&x, n, d, k);
        let lp = restricted_master_value(n, &groups, &costs, 60.0)
            .unwrap()
            .expect("solved within 60 s");
        let tol = 1e-7 * (1.0 + lp.value.abs());
        assert!(lp.residual <= 1e-9, "case {case}: residual {}", lp.residual);
        assert!((lp.recomputed - lp.value).abs() <= tol, "case {case}");
        // The LP relaxation lies below the optimum and equals the converged colgen bound.
        let opt = brute_force_optimum(&x, n, d, k);
        assert!(
            lp.value <= opt + tol,
            "case {case}: LP {} > OPT {opt}",
            lp.value
        );
        let cg = colgen_bound(
            &x,
            n,
            d,
            k,
            &common::chunk_labels(n, k),
            &ColgenOptions::default(),
        )
        .unwrap();
        assert!(cg.converged, "case {case}: tiny instances converge");
        assert!(
            (cg.lagrangian - lp.value).abs() <= 1e-6 * (1.0 + lp.value.abs()),
            "case {case} (n={n}, k={k}): colgen {} vs the LP over every group {}",
            cg.lagrangian,
            lp.value
        );
        // A start partition plus a random half of the groups: never below the LP.
        let mut sub = block_groups(&x, n, d, k);
        sub.extend(
            groups
                .iter()
                .zip(&costs)
                .filter(|_| rng.random_bool(0.5))
                .map(|(g, &c)| (g.clone(), c)),
        );
        sub.sort_by(|a, b| a.0.cmp(&b.0));
        sub.dedup_by(|a, b| a.0 == b.0);
        let (sg, sc): (Vec<Vec<u32>>, Vec<f64>) = sub.into_iter().unzip();
        let part = restricted_master_value(n, &sg, &sc, 60.0).unwrap().unwrap();
        assert!(
            part.value >= lp.value - tol,
            "case {case}: {} < LP {}",
            part.value,
            lp.value
        );
        assert!(part.residual <= 1e-9, "case {case}");
        if part.value > lp.value + tol {
            strictly_above += 1;
        }
    }
    // The comparison can fail: a half of the groups often misses the LP's support.
    common::assert_shown_in("a restricted master above the LP", strictly_above, 24, 3);
}

#[test]
fn a_colgen_run_reports_it_above_its_bound_and_only_when_asked() {
    let mut rng = ChaCha8Rng::seed_from_u64(18_0530);
    for case in 0..8 {
        let n = rng.random_range(8..=12);
        let k = 3;
        let x = clustered_rows(&mut rng, n, 2, 3.0);
        let labels = common::chunk_labels(n, k);
        let start_sse: f64 = block_groups(&x, n, 2, k).iter().map(|g| g.1).sum();
        for box_width in [0.0, 0.3] {
            let opts = ColgenOptions {
                box_width,
                master_upper_seconds: 30.0,
                ..ColgenOptions::default()
            };
            let b = colgen_bound(&x, n, 2, k, &labels, &opts).unwrap();
            let u = b.master_upper.expect("asked for");
            let tol = 1e-7 * (1.0 + u.value.abs());
            assert!(
                b.lower_bound <= u.value + tol,
                "case {case} box {box_width}"
            );
            assert!(
                u.value <= start_sse + tol,
                "case {case}: above the start partition"
            );
            assert!(u.support >= 1 && u.residual <= 1e-9);
            let plain = colgen_bound(
                &x,
                n,
                2,
                k,
                &labels,
                &ColgenOptions {
                    box_width,
                    ..ColgenOptions::default()
                },
            )
            .unwrap();
            assert!(plain.master_upper.is_none(), "computed without being asked");
        }
    }
    let bad = ColgenOptions {
        master_upper_seconds: -1.0,
        ..ColgenOptions::default()
    };
    let x = [0.0, 1.0, 2.0, 3.0];
    let err = colgen_bound(&x, 4, 1, 2, &[0, 0, 1, 1], &bad).unwrap_err();
    assert!(err.to_string().contains("master_upper_seconds"), "{err}");
}

#[test]
fn bound_master_upper_from_the_command_line() {
    let spec = "gauss:n=60,d=2,clusters=6,seed=4";
    // `bound` on that data with `method`, then `extra`.
    let args = |method: &'static str, extra: &[&'static str]| -> Vec<&'static str> {
        common::method_args("bound", spec, "3", method, extra)
    };
    let with = |extra: &[&'static str]| args("colgen", &[&["--time-limit", "5"], extra].concat());
    let rec = stdout_json(&cli_ok(&with(&["--param", "master_upper=20", "--json"])));
    let details = &rec["details"];
    let u = &details["master_upper"];
    let value = u["value"].as_f64().expect("master_upper.value");
    let lb = rec["lower_bound"].as_f64().unwrap();
    let tol = 1e-7 * (1.0 + value.abs());
    assert!(
        lb <= value + tol,
        "bound {lb} above the LP estimate {value}"
    );
    assert!(value <= details["start_sse"].as_f64().unwrap() + tol);
    assert!(u["residual"].as_f64().unwrap() <= 1e-9);
    assert!((u["recomputed"].as_f64().unwrap() - value).abs() <= tol);
    // Text: its own line, called an estimate; absent when not asked.
    let text = stdout(&cli_ok(&with(&["--param", "master_upper=20"])));
    assert!(
        text.contains("\nLP relaxation <= ") && text.contains("not a bound"),
        "{text}"
    );
    let rec = stdout_json(&cli_ok(&with(&["--json"])));
    assert!(rec["details"]["master_upper"].is_null(), "{rec}");
    assert!(!stdout(&cli_ok(&with(&[]))).contains("LP relaxation"));
    // Refused: bad values by name, nn, and the weighted bound.
    assert_exit(
        &cli(&with(&["--param", "master_upper=-1"])),
        2,
        "master_upper must be a finite number >= 0",
    );
    let nn = args("nn", &["--param", "master_upper=5"]);
    assert_exit(&cli(&nn), 2, "bound nn has no parameter 'master_upper'");
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("w.csv");
    std::fs::write(&csv, "x,y,w\n0,0,1\n1,0,2\n0,1,1\n5,5,1\n6,5,3\n5,6,1\n").unwrap();
    let args = weighted_args(
        "bound",
        csv.to_str().unwrap(),
        "3",
        &["--method", "colgen", "--param", "master_upper=5"],
    );
    assert_exit(
        &cli(&args),
        2,
        "parameter master_upper does not apply to the weighted",
    );
}
