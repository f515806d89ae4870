//! Issue 22 item 1: sampling weights (`--weights COLUMN`). Weighted SSE, SST, IL and group
//! means against a hand computation; the weighted univariate DP against brute force over
//! sorted runs and over all partitions (n <= 10, weights 1e-3..1e3, duplicates), with the
//! counterexample of `proofs/P40-weighted-sse.md`; the weighted SSE against an independent
//! pairwise formula; unit weights bit-identical to no weights; the CLI's errors.

use crate::common;
use common::{argv, cli_err, cli_json, cli_ok, pairwise_weighted_sse, weighted_args, write_file};
use microagg::data::{Instance, Weights};
use microagg::partition::Partition;
use microagg::weighted;
use microagg_solvers::univariate::{
    univariate_brute_force, univariate_weighted_brute_force, univariate_weighted_runs,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn close(a: f64, b: f64, rel: f64) -> bool {
    (a - b).abs() <= rel * a.abs().max(b.abs()).max(1e-300)
}

/// [`close`] for a number of a JSON record.
fn json_close(v: &serde_json::Value, b: f64, rel: f64) -> bool {
    close(v.as_f64().unwrap(), b, rel)
}

/// `COMMAND --data DATA --weights w --k 2`, then `extra`, fails: its standard error.
fn weighted_err(command: &str, data: &str, extra: &[&str]) -> String {
    cli_err(&weighted_args(command, data, "2", extra))
}

/// Minimum weighted SSE over partitions of the sorted values into runs of >= k, by
/// enumerating every composition of n (pairwise costs): the oracle of the DP.
fn best_over_runs(sorted: &[f64], w: &[f64], k: usize) -> f64 {
    fn go(sorted: &[f64], w: &[f64], k: usize, start: usize) -> f64 {
        let n = sorted.len();
        if start == n {
            return 0.0;
        }
        let mut best = f64::INFINITY;
        for end in start + k..=n {
            let members: Vec<usize> = (start..end).collect();
            let c = pairwise_weighted_sse(sorted, 1, w, &members);
            best = best.min(c + go(sorted, w, k, end));
        }
        best
    }
    go(sorted, w, k, 0)
}

fn random_case(rng: &mut ChaCha8Rng, n: usize) -> (Vec<f64>, Vec<f64>) {
    let dup_values = rng.random_range(0..3) == 0;
    let dup_weights = rng.random_range(0..3) == 0;
    let x: Vec<f64> = (0..n)
        .map(|_| {
            if dup_values {
                rng.random_range(0..4) as f64
            } else {
                rng.random_range(-10.0..10.0)
            }
        })
        .collect();
    let w = common::random_weights(rng, n, dup_weights);
    (x, w)
}

fn sorted_pair(x: &[f64], w: &[f64]) -> (Vec<f64>, Vec<f64>) {
    let mut order: Vec<usize> = (0..x.len()).collect();
    order.sort_by(|&a, &b| x[a].total_cmp(&x[b]).then(a.cmp(&b)));
    (
        order.iter().map(|&i| x[i]).collect(),
        order.iter().map(|&i| w[i]).collect(),
    )
}

/// The DP is the weighted optimum over sorted runs (an enumeration of all compositions with
/// an independent cost formula), never below the optimum over all partitions (brute
/// force), and its reported SSE is that of its sizes. Unequal weights can make it strictly
/// worse than the global optimum; the test counts such cases and requires some.
#[test]
fn weighted_dp_is_the_optimum_over_sorted_runs_and_at_least_the_global_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let (mut cases, mut worse) = (0, 0);
    for _ in 0..400 {
        let n = rng.random_range(2..=10);
        let k = rng.random_range(1..=3.min(n));
        let (x, w) = random_case(&mut rng, n);
        let (sx, sw) = sorted_pair(&x, &w);
        let dp = univariate_weighted_runs(&sx, &sw, k).unwrap();
        let runs = best_over_runs(&sx, &sw, k);
        assert!(
            close(dp.sse, runs, 1e-9) || (dp.sse - runs).abs() < 1e-12,
            "n={n} k={k} x={x:?} w={w:?}: DP {} vs runs {runs}",
            dp.sse
        );
        assert!(dp.sizes.iter().all(|&s| s >= k) && dp.n_records() == n);
        // The reported SSE is the cost of the sizes returned.
        let mut start = 0;
        let mut again = 0.0;
        for &s in &dp.sizes {
            again += pairwise_weighted_sse(&sx, 1, &sw, &(start..start + s).collect::<Vec<_>>());
            start += s;
        }
        assert!(close(dp.sse, again, 1e-9) || (dp.sse - again).abs() < 1e-12);
        let brute = univariate_weighted_brute_force(&x, &w, k).unwrap();
        let groups = common::groups(&brute.labels);
        assert!(groups.iter().all(|g| g.len() >= k));
        let recomputed: f64 = groups
            .iter()
            .map(|g| pairwise_weighted_sse(&x, 1, &w, g))
            .sum();
        assert!(close(brute.sse, recomputed, 1e-9) || (brute.sse - recomputed).abs() < 1e-12);
        assert!(dp.sse >= brute.sse * (1.0 - 1e-9) - 1e-12);
        cases += 1;
        if dp.sse > brute.sse * (1.0 + 1e-9) + 1e-12 {
            worse += 1;
        }
    }
    eprintln!("{worse} of {cases} weighted instances: optimum over sorted runs > global optimum");
    assert!(
        worse > 0,
        "contiguity failed nowhere: the counterexample family is gone"
    );
}

/// Equal weights c: the weighted optimum is c times the unweighted one, and the DP over
/// sorted runs reaches the global optimum (Hansen and Mukherjee's theorem, P40 Lemma W3).
#[test]
fn equal_weights_dp_equals_the_global_brute_force_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..200 {
        let n = rng.random_range(2..=10);
        let k = rng.random_range(1..=3.min(n));
        let (x, _) = random_case(&mut rng, n);
        let c = 10f64.powf(rng.random_range(-3.0..3.0));
        let w = vec![c; n];
        let (sx, sw) = sorted_pair(&x, &w);
        let dp = univariate_weighted_runs(&sx, &sw, k).unwrap();
        let brute = univariate_weighted_brute_force(&x, &w, k).unwrap();
        let plain = univariate_brute_force(&x, k).unwrap();
        let tol = 1e-9 * brute.sse.max(1e-12);
        assert!((dp.sse - brute.sse).abs() <= tol, "{x:?} c={c} k={k}");
        assert!(
            (brute.sse - c * plain.sse).abs() <= tol,
            "{x:?} c={c} k={k}"
        );
    }
}

/// The counterexample of `proofs/P40-weighted-sse.md`: a light record (9.4, weight 0.3141)
/// is cheapest as the filler of the heavy record 3.5's group, across the sorted order.
#[test]
fn counterexample_to_weighted_contiguity() {
    let x = [9.7, 7.3, 5.3, 7.6, 9.4, 5.5, 3.5];
    let w = [
        11.5104, 36.7863, 516.9717, 362.2761, 0.3141, 314.4988, 341.2961,
    ];
    let brute = univariate_weighted_brute_force(&x, &w, 2).unwrap();
    let mut groups = common::groups(&brute.labels);
    groups.sort();
    assert_eq!(groups, vec![vec![0, 1, 3], vec![2, 5], vec![4, 6]]);
    let by_hand: f64 = groups
        .iter()
        .map(|g| pairwise_weighted_sse(&x, 1, &w, g))
        .sum();
    assert!(close(brute.sse, by_hand, 1e-12));
    assert!(close(brute.sse, 72.396783966968, 1e-9), "{}", brute.sse);
    let (sx, sw) = sorted_pair(&x, &w);
    let dp = univariate_weighted_runs(&sx, &sw, 2).unwrap();
    assert_eq!(dp.sizes, vec![2, 2, 3]);
    assert!(close(dp.sse, 822.9198234534502, 1e-9), "{}", dp.sse);
}

fn instance_with_weights(rows: &[Vec<f64>], w: Vec<f64>) -> Instance {
    let mut inst = common::from_rows(rows);
    inst.weights = Some(Weights::new("w", w).unwrap());
    inst
}

/// `Partition::weighted_sse`, `check_labels` and the record helper against the pairwise
/// formula on random 2-D data and random feasible labels.
#[test]
fn partition_weighted_sse_equals_the_pairwise_formula() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    for _ in 0..100 {
        let n = rng.random_range(4..=30);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|_| vec![rng.random_range(-5.0..5.0), rng.random_range(0.0..100.0)])
            .collect();
        let w: Vec<f64> = (0..n)
            .map(|_| 10f64.powf(rng.random_range(-3.0..3.0)))
            .collect();
        let inst = instance_with_weights(&rows, w.clone());
        let g = rng.random_range(1..=n / 2);
        let labels: Vec<usize> = (0..n)
            .map(|i| if i < g { i } else { rng.random_range(0..g) })
            .collect();
        let p = Partition::from_labels(&inst, labels.clone()).unwrap();
        let want: f64 = common::groups(&labels)
            .iter()
            .map(|m| pairwise_weighted_sse(&inst.z, 2, &w, m))
            .sum();
        assert!(close(p.weighted_sse(&inst, &w), want, 1e-9));
        assert!(close(
            weighted::weighted_sse_of_labels(&inst, &w, &labels),
            want,
            1e-9
        ));
        let report = microagg::labels::check_labels(&inst, 1, &labels).unwrap();
        let wr = report.weights.unwrap();
        assert!(close(wr.sse, want, 1e-9));
        // Weighted SST: the pairwise identity over all records.
        let sst = pairwise_weighted_sse(&inst.z, 2, &w, &(0..n).collect::<Vec<_>>());
        assert!(close(wr.sst, sst, 1e-9));
        assert!(close(wr.il, 100.0 * want / sst, 1e-9));
    }
}

/// `run --method univariate` of `data` (weights in column `w`, k = 2), the masked file
/// written to `masked` in input row order, then `extra`: its JSON record.
fn univariate_release(data: &str, masked: &std::path::Path, extra: &[&str]) -> serde_json::Value {
    let head = [
        "--method",
        "univariate",
        "--masked-out",
        masked.to_str().unwrap(),
    ];
    let args = argv(&head, "--row-order input", extra);
    cli_json(&weighted_args("run", data, "2", &args))
}

/// By hand: x = -3, -1, 1, 3 (mean 0, population variance 5, so z = x / sqrt 5), weights 1,
/// 3, 2, 2, groups {-3, -1} and {1, 3}. Weighted means -1.5 and 2; weighted SSE (raw units)
/// 1 (1.5)^2 + 3 (0.5)^2 + 2 + 2 = 7, so 7/5 = 1.4 in z units; weighted grand mean 0.25,
/// weighted SST 1 (3.25)^2 + 3 (1.25)^2 + 2 (0.75)^2 + 2 (2.75)^2 = 31.5, 6.3 in z units;
/// weighted IL 100 * 7 / 31.5 = 22.2 %. `univariate` finds these groups (the only other
/// feasible partition for k = 2 in sorted runs is the whole set, 31.5).
#[test]
fn hand_computed_weighted_sse_sst_il_and_weighted_means() {
    let dir = tempfile::tempdir().unwrap();
    let data = write_file(dir.path(), "d.csv", "x,w\n-3,1\n-1,3\n1,2\n3,2\n");
    let labels = write_file(dir.path(), "l.txt", "0\n0\n1\n1\n");
    let d = data.to_str().unwrap();
    let v = cli_json(&weighted_args(
        "check",
        d,
        "2",
        &["--labels", labels.to_str().unwrap(), "--json"],
    ));
    let wr = &v["weights"];
    assert_eq!(wr["column"], "w");
    assert!(json_close(&wr["total"], 8.0, 1e-15));
    assert!(json_close(&wr["sse"], 1.4, 1e-12), "{v}");
    assert!(json_close(&wr["sst"], 6.3, 1e-12), "{v}");
    assert!(json_close(&wr["il"], 100.0 * 7.0 / 31.5, 1e-12), "{v}");
    // The unweighted figures are unchanged: SSE (1 + 1 + 1 + 1) / 5, SST 4.
    assert!(json_close(&v["sse"], 0.8, 1e-12), "{v}");
    let masked = dir.path().join("m.csv");
    let r = univariate_release(d, &masked, &["--json"]);
    assert_eq!(r["weights"]["objective"], "weighted");
    assert!(json_close(&r["weights"]["il"], 100.0 * 7.0 / 31.5, 1e-12));
    let rel = &r["release"];
    assert!(
        json_close(&rel["il_released_weighted"], 100.0 * 7.0 / 31.5, 1e-12),
        "{r}"
    );
    // The whole file back: weighted means, the weights column untouched.
    let text = std::fs::read_to_string(&masked).unwrap();
    assert_eq!(text, "x,w\n-1.5,1\n-1.5,3\n2,2\n2,2\n");
    // measure --weights: the weighted IL of the released file.
    let masked = masked.to_str().unwrap();
    let m = cli_json(&argv(
        &["measure", "--data", d],
        "--weights w --masked",
        &[masked, "--json"],
    ));
    assert!(
        json_close(&m["weights"]["il_weighted"], 100.0 * 7.0 / 31.5, 1e-12),
        "{m}"
    );
    assert_eq!(m["p"], 1, "the weights column is not compared: {m}");
}

/// sdcMicro's weighted median (`weightedQuantile(x, w, 0.5)`, R/microaggregation.R) by
/// hand: sort, rw = cumsum(w) / sum(w), the first value with rw >= 1/2, the mean with the
/// next one when rw is exactly 1/2.
#[test]
fn weighted_median_by_hand() {
    use microagg::release::aggregate::weighted_median;
    let wm = |x: &[f64], w: &[f64]| {
        let pairs: Vec<(f64, f64)> = x.iter().copied().zip(w.iter().copied()).collect();
        weighted_median(&pairs)
    };
    // Equal weights: rw = 1/4, 1/2 (exactly) -> (2 + 3) / 2, R's median.
    assert_eq!(wm(&[4.0, 1.0, 3.0, 2.0], &[1.0; 4]), 2.5);
    // Equal weights, odd size: the middle value.
    assert_eq!(wm(&[9.0, 1.0, 5.0], &[2.0; 3]), 5.0);
    // Sorted (1, w 1), (2, w 5), (3, w 1): rw = 1/7, 6/7 -> 2.
    assert_eq!(wm(&[3.0, 1.0, 2.0], &[1.0, 1.0, 5.0]), 2.0);
    // rw = 3/6 = 1/2 exactly at the first value -> (10 + 20) / 2.
    assert_eq!(wm(&[10.0, 20.0, 30.0], &[3.0, 1.0, 2.0]), 15.0);
    // A heavy last record: rw = 1/12, 2/12, 1 -> 3.
    assert_eq!(wm(&[1.0, 2.0, 3.0], &[1.0, 1.0, 10.0]), 3.0);
    // Ties: sorted 1 (2), 5 (1), 5 (1), 9 (4): rw = 2/8, 3/8, 4/8 -> (5 + 9) / 2.
    assert_eq!(wm(&[5.0, 1.0, 5.0, 9.0], &[1.0, 2.0, 1.0, 4.0]), 7.0);
    // One record.
    assert_eq!(wm(&[-4.5], &[0.25]), -4.5);
    // The unweighted median of the same values differs: 3 of {1, 2, 3, 4, 100} vs the
    // weighted 100 when 100 carries most of the weight (rw = 4/14 before it).
    assert_eq!(
        wm(&[1.0, 2.0, 3.0, 4.0, 100.0], &[1.0, 1.0, 1.0, 1.0, 10.0]),
        100.0
    );
}

/// `--aggregate median --weights` through the CLI: groups {-3, -1} and {1, 3} (univariate,
/// k = 2); group 1: rw = 1/4, 1 -> -1; group 2: rw = 2/4 exactly -> (1 + 3) / 2 = 2. Weighted
/// IL of the file: sum w (x - y)^2 = 1 * 4 + 2 * 1 + 2 * 1 = 8 over SST_w = 31.5.
#[test]
fn weighted_median_release_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let data = write_file(dir.path(), "d.csv", "x,w\n-3,1\n-1,3\n1,2\n3,2\n");
    let masked = dir.path().join("m.csv");
    let r = univariate_release(
        data.to_str().unwrap(),
        &masked,
        &["--aggregate", "median", "--json"],
    );
    assert_eq!(
        std::fs::read_to_string(&masked).unwrap(),
        "x,w\n-1,1\n-1,3\n2,2\n2,2\n"
    );
    let rel = &r["release"];
    assert_eq!(rel["aggregation"], "median", "{r}");
    assert!(
        json_close(&rel["il_released_weighted"], 100.0 * 8.0 / 31.5, 1e-12),
        "{r}"
    );
}

fn data_csv(rng: &mut ChaCha8Rng, n: usize, weight: &str) -> String {
    let mut s = String::from("a,b,c,w\n");
    for _ in 0..n {
        s += &format!(
            "{},{},{},{weight}\n",
            rng.random_range(0.0..100.0),
            rng.random_range(-1.0..1.0),
            rng.random_range(0..20)
        );
    }
    s
}

fn bits(v: &serde_json::Value) -> u64 {
    v.as_f64().unwrap().to_bits()
}

/// Unit weights: labels, masked files and IL identical to the run without weights, and the
/// weighted SSE and IL equal to the unweighted ones bit for bit (mdav, univariate; check).
/// Equal non-unit weights leave the univariate labels unchanged too.
#[test]
fn unit_weights_give_bit_identical_results() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let ones = write_file(dir.path(), "ones.csv", &data_csv(&mut rng, 120, "1"));
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    let equal = write_file(dir.path(), "equal.csv", &data_csv(&mut rng, 120, "2.5"));
    let out = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for (method, cols) in [
        ("mdav", "a,b,c"),
        ("univariate", "a"),
        ("mdav+descent", "a,b,c"),
    ] {
        let base = [
            "run",
            "--k",
            "3",
            "--method",
            method,
            "--columns",
            cols,
            "--json",
        ];
        // `base --data ONES`, then `weights`, labels and masked files written to `l` and `m`.
        let run = |weights: &[&str], l: &str, m: &str| {
            let mut args = base.to_vec();
            args.extend(["--data", ones.to_str().unwrap()]);
            args.extend_from_slice(weights);
            args.extend(["--labels-out", l, "--masked-out", m]);
            cli_json(&args)
        };
        let (lp, mp) = (out("lp"), out("mp"));
        let p = run(&[], &lp, &mp);
        let (lw, mw) = (out("lw"), out("mw"));
        let w = run(&["--weights", "w"], &lw, &mw);
        assert_eq!(
            std::fs::read(&lp).unwrap(),
            std::fs::read(&lw).unwrap(),
            "{method}"
        );
        assert_eq!(
            std::fs::read(&mp).unwrap(),
            std::fs::read(&mw).unwrap(),
            "{method}"
        );
        assert_eq!(bits(&p["il"]), bits(&w["il"]), "{method}");
        assert_eq!(bits(&w["sse"]), bits(&w["weights"]["sse"]), "{method}");
        assert_eq!(bits(&w["il"]), bits(&w["weights"]["il"]), "{method}");
        assert_eq!(bits(&w["sst"]), bits(&w["weights"]["sst"]), "{method}");
        assert_eq!(
            bits(&w["release"]["il_released"]),
            bits(&w["release"]["il_released_weighted"]),
            "{method}"
        );
        let c = cli_json(&argv(
            &["check", "--data", ones.to_str().unwrap()],
            "--weights w",
            &["--columns", cols, "--k", "3", "--labels", &lw, "--json"],
        ));
        assert_eq!(bits(&c["il"]), bits(&c["weights"]["il"]), "{method}");
        assert_eq!(bits(&c["sse"]), bits(&c["weights"]["sse"]), "{method}");
        if method != "mdav" {
            // Equal weights (2.5): the weighted optimum is the unweighted one; univariate
            // and descent keep the unweighted engines and labels.
            let le = out("le");
            let equal_run = |extra: &[&str]| {
                let head = ["run", "--k", "3", "--method", method, "--columns", cols];
                cli_ok(&[&head[..], &["--data", equal.to_str().unwrap()], extra].concat());
            };
            equal_run(&["--weights", "w", "--labels-out", &le]);
            // The same file without --weights (the seeds of descent depend on the
            // instance's name, so the comparison is on the same file).
            let lq = out("lq");
            equal_run(&["--labels-out", &lq]);
            assert_eq!(std::fs::read(&lq).unwrap(), std::fs::read(&le).unwrap());
            if method == "univariate" {
                assert_eq!(std::fs::read(&lp).unwrap(), std::fs::read(&le).unwrap());
            }
        }
    }
}

/// Bad weights are errors naming the file, the row and the column; options without a
/// weighted version refuse `--weights` instead of ignoring it.
#[test]
fn cli_errors_name_file_row_and_column() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("empty", "x,w\n1,1\n2,\n3,1\n", "row 2", "missing weight"),
        (
            "text",
            "x,w\n1,1\n2,1\n3,abc\n",
            "row 3",
            "non-numeric weight 'abc'",
        ),
        (
            "negative",
            "x,w\n1,-1\n2,1\n3,1\n",
            "row 1",
            "negative weight '-1'",
        ),
        ("zero", "x,w\n1,1\n2,0\n3,1\n", "row 2", "zero weight '0'"),
        ("nan", "x,w\n1,1\n2,NaN\n3,1\n", "row 2", "NaN or infinite"),
        ("inf", "x,w\n1,inf\n2,1\n3,1\n", "row 1", "NaN or infinite"),
        (
            "overflow",
            "x,w\n1,1e308\n2,1e308\n3,1\n",
            "column 'w'",
            "sum to inf",
        ),
        // One pass: the first bad cell in file order is reported, a weight before a value.
        (
            "first",
            "x,w\n1,1\n2,abc\nzz,1\n",
            "row 2",
            "non-numeric weight 'abc'",
        ),
        (
            "only",
            "w\n1\n2\n3\n",
            "header",
            "no numeric columns are left besides the weights column",
        ),
    ];
    for (name, text, row, what) in cases {
        let f = write_file(dir.path(), &format!("{name}.csv"), text);
        let e = weighted_err("run", f.to_str().unwrap(), &["--method", "mdav"]);
        assert!(
            e.contains(&format!("{name}.csv")) && e.contains(row) && e.contains(what),
            "{name}: {e}"
        );
        if !["overflow", "only"].contains(&name) {
            assert!(e.contains("column 'w' (2)"), "{name}: {e}");
        }
    }
    let ok = write_file(dir.path(), "ok.csv", "x,y,w\n1,5,1\n2,3,2\n3,1,1\n4,4,2\n");
    let d = ok.to_str().unwrap();
    let e = cli_err(&[
        "run",
        "--data",
        d,
        "--weights",
        "v",
        "--k",
        "2",
        "--method",
        "mdav",
    ]);
    assert!(
        e.contains("ok.csv") && e.contains("no weights column 'v'"),
        "{e}"
    );
    let e = cli_err(&[
        "run",
        "--data",
        d,
        "--weights",
        "w",
        "--columns",
        "x,w",
        "--k",
        "2",
        "--method",
        "mdav",
    ]);
    assert!(e.contains("is the weights column"), "{e}");
    let e = cli_err(&weighted_args(
        "run",
        "uniform:n=10,d=2,seed=1",
        "2",
        &["--method", "mdav"],
    ));
    assert!(e.contains("generator"), "{e}");
    let e = weighted_err("run", d, &["--method", "mdav", "--bound", "colgen-cuts"]);
    assert!(
        e.contains("bound colgen-cuts with --weights: only nn (proofs/P41) and colgen"),
        "{e}"
    );
    let e = weighted_err("bound", d, &["--method", "bnp"]);
    assert!(e.contains("only nn (proofs/P41) and colgen"), "{e}");
    let e = weighted_err("bound", d, &["--param", "cuts=3"]);
    assert!(
        e.contains("parameter cuts does not apply to the weighted nn bound"),
        "{e}"
    );
    let m = dir.path().join("m.csv");
    let e = weighted_err(
        "run",
        d,
        &[
            "--method",
            "mdav",
            "--masked-out",
            m.to_str().unwrap(),
            "--aggregate",
            "trimmed",
        ],
    );
    assert!(e.contains("--aggregate trimmed with --weights"), "{e}");
    let e = weighted_err("run", d, &["--method", "mdav", "--blocks", "4"]);
    // Strata and parts take weights (tests/release/weights_split.rs); blocks do not.
    assert!(e.contains("--weights with --blocks"), "{e}");
    let e = weighted_err("solve-exact", d, &["--method", "set-partitioning"]);
    assert!(e.contains("only the subset DP"), "{e}");
    let e = weighted_err("bound", d, &["--method", "bnp"]);
    assert!(e.contains("bound bnp with --weights: only nn"), "{e}");
    // The weights column is left out of the attributes: d = 2 here.
    let v = cli_json(&weighted_args(
        "run",
        d,
        "2",
        &["--method", "mdav", "--json"],
    ));
    assert_eq!(v["d"], 2);
    assert_eq!(v["weights"]["objective"], "unweighted");
}

/// The kernels refuse bad input instead of panicking: a weight that is not finite and
/// positive, unsorted values, a length mismatch; `Weights::new` names the record.
#[test]
fn kernels_refuse_bad_weights() {
    use microagg_solvers::SolverError;
    let x = [1.0, 2.0, 3.0, 4.0];
    for (bad, index) in [(0.0, 1), (-1.0, 1), (f64::NAN, 1), (f64::INFINITY, 1)] {
        let w = [1.0, bad, 1.0, 1.0];
        assert_eq!(
            univariate_weighted_runs(&x, &w, 2).unwrap_err(),
            SolverError::BadWeight { index }
        );
        assert_eq!(
            univariate_weighted_brute_force(&x, &w, 2).unwrap_err(),
            SolverError::BadWeight { index }
        );
        let e = Weights::new("w", w.to_vec()).unwrap_err().to_string();
        assert!(e.contains("record 2") && e.contains("column 'w'"), "{e}");
    }
    assert!(matches!(
        univariate_weighted_runs(&[2.0, 1.0, 3.0, 4.0], &[1.0; 4], 2),
        Err(SolverError::Unsorted { index: 1 })
    ));
    assert!(univariate_weighted_runs(&x, &[1.0; 3], 2).is_err());
    assert!(Weights::new("w", vec![1e308, 1e308]).is_err());
    let w = Weights::new("w", vec![2.0, 2.0, 2.0]).unwrap();
    assert!(w.all_equal() && w.total == 6.0);
    assert!(!Weights::new("w", vec![2.0, 1.0]).unwrap().all_equal());
}
