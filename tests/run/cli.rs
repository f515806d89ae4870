//! The command-line contract: `run`, `check`, `list`, and clear errors with non-zero exits
//! for every kind of bad input (never a panic, never a silent fix).

use crate::common;
use common::cli as microagg;
use common::{assert_exit, cli_json, cli_ok, run_args, stderr, stdout, stdout_json, write_file};

/// Runs `run --k 2 --method mdav` on a file with `text`; expects exit 2 and every needle in
/// the error message.
fn expect_data_error(text: &str, needles: &[&str]) {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "bad.csv", text);
    let o = microagg(&run_args(f.to_str().unwrap(), "2", "mdav", &[]));
    let err = stderr(&o);
    assert_eq!(o.status.code(), Some(2), "exit code for {text:?}: {err}");
    assert!(!err.contains("panicked"), "panic on {text:?}: {err}");
    assert!(err.contains("bad.csv"), "error names the file: {err}");
    for n in needles {
        assert!(
            err.contains(n),
            "error for {text:?} should mention {n:?}: {err}"
        );
    }
}

#[test]
fn bad_files_give_errors_naming_file_row_and_column() {
    expect_data_error("", &["empty file"]);
    expect_data_error("a,b\n", &["no data rows"]);
    expect_data_error("a,b\n1,2\n3\n", &["row 2", "line 3", "ragged"]);
    expect_data_error(
        "a,b\n1,2\n3,x\n5,6\n",
        &["row 2", "column 'b' (2)", "non-numeric", "'x'"],
    );
    expect_data_error(
        "a,b\n1,2\n3,NaN\n",
        &["row 2", "column 'b'", "NaN or infinite"],
    );
    expect_data_error(
        "a,b\n1,2\ninf,4\n",
        &["row 2", "column 'a'", "NaN or infinite"],
    );
    expect_data_error("a,b\n1,2\n3,\n", &["row 2", "column 'b'", "empty cell"]);
    expect_data_error(
        "a,b\n1,7\n3,7\n4,7\n",
        &["column 'b' (2)", "constant column"],
    );
    expect_data_error("a,a\n1,2\n3,4\n", &["duplicate column name 'a'"]);
}

#[test]
fn missing_file_unknown_column_and_bad_k_are_errors() {
    let o = microagg(&run_args("/nonexistent/x.csv", "2", "mdav", &[]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("/nonexistent/x.csv") && stderr(&o).contains("not found"));

    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "ok.csv", "a,b\n1,2\n3,5\n4,4\n7,1\n");
    let path = f.to_str().unwrap();
    let o = microagg(&[
        "run",
        "--data",
        path,
        "--columns",
        "a,zz",
        "--k",
        "2",
        "--method",
        "mdav",
    ]);
    assert_exit(&o, 2, "unknown column 'zz'");

    for (k, needle) in [
        ("1", "at least 2"),
        ("0", "at least 2"),
        ("5", "larger than the number of records n = 4"),
    ] {
        let o = microagg(&run_args(path, k, "mdav", &[]));
        assert_eq!(o.status.code(), Some(2), "k={k}");
        assert!(stderr(&o).contains(needle), "k={k}: {}", stderr(&o));
    }
}

#[test]
fn unknown_method_and_parameter_are_errors_before_any_work() {
    let o = microagg(&run_args("sim1", "3", "nosuch", &[]));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("unknown method 'nosuch'") && stderr(&o).contains("microagg list"));

    let o = microagg(&run_args("sim1", "3", "mdav", &["--param", "mdav.gamma=2"]));
    assert_exit(&o, 2, "unknown field `gamma`");

    let o = microagg(&run_args("sim1", "3", "mdav", &["--param", "other.x=2"]));
    assert_exit(&o, 2, "not a stage");

    let o = microagg(&run_args("uniform:n=10,d=2,bogus=1", "3", "mdav", &[]));
    assert_exit(&o, 2, "unknown generator parameter 'bogus'");
}

#[test]
fn run_json_labels_and_masked_outputs_agree_with_check() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(
        dir.path(),
        "d.csv",
        "p,q,r\n1,10,5\n2,11,5.5\n3,9,6\n10,1,0\n11,2,1\n12,0,2\n20,20,20\n21,19,21\n22,21,19\n5,5,5\n",
    );
    let (labels, masked) = (dir.path().join("l.txt"), dir.path().join("m.csv"));
    let (l, m) = (labels.to_str().unwrap(), masked.to_str().unwrap());
    let outputs = common::argv(
        &["--labels-out", l, "--masked-out", m],
        "--seed 5 --row-order input --json",
        &[],
    );
    let rec = cli_json(&run_args(f.to_str().unwrap(), "3", "mdav", &outputs));
    for key in [
        "method",
        "instance",
        "n",
        "d",
        "k",
        "seeds",
        "sse",
        "sst",
        "il",
        "groups",
        "min_group_size",
        "max_group_size",
        "seconds",
    ] {
        assert!(rec.get(key).is_some(), "JSON lacks {key}: {rec}");
    }
    assert_eq!(rec["n"], 10);
    assert_eq!(rec["d"], 3);
    assert_eq!(rec["seeds"]["run"], 5);
    assert!(rec["min_group_size"].as_u64().unwrap() >= 3);

    let text = std::fs::read_to_string(&labels).unwrap();
    assert_eq!(text.lines().count(), 10, "one label per input row");

    let chk = cli_json(&[
        "check",
        "--data",
        f.to_str().unwrap(),
        "--k",
        "3",
        "--labels",
        labels.to_str().unwrap(),
        "--json",
    ]);
    assert_eq!(chk["feasible"], true);
    assert_eq!(chk["groups"], rec["groups"]);
    let (a, b) = (chk["sse"].as_f64().unwrap(), rec["sse"].as_f64().unwrap());
    assert!(
        (a - b).abs() <= 1e-12 * a.max(1.0),
        "check SSE {a} vs run SSE {b}"
    );

    // Masked data (in input order): input header, group means in original units.
    let m = std::fs::read_to_string(&masked).unwrap();
    let mut lines = m.lines();
    assert_eq!(lines.next(), Some("p,q,r"));
    let rows: Vec<Vec<f64>> = lines
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    assert_eq!(rows.len(), 10);
    let labs: Vec<usize> = text.lines().map(|l| l.parse().unwrap()).collect();
    let input: Vec<Vec<f64>> = std::fs::read_to_string(&f)
        .unwrap()
        .lines()
        .skip(1)
        .map(|l| l.split(',').map(|v| v.parse().unwrap()).collect())
        .collect();
    for g in 0..=*labs.iter().max().unwrap() {
        let members: Vec<usize> = (0..10).filter(|&i| labs[i] == g).collect();
        for j in 0..3 {
            let mean = members.iter().map(|&i| input[i][j]).sum::<f64>() / members.len() as f64;
            for &i in &members {
                assert!((rows[i][j] - mean).abs() < 1e-9, "row {i} col {j}");
            }
        }
    }
}

#[test]
fn check_reports_infeasible_labels_with_exit_1_and_bad_labels_files_with_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let f = write_file(dir.path(), "d.csv", "a,b\n1,2\n2,3\n3,1\n8,9\n9,8\n");
    let data = f.to_str().unwrap();
    // `check --data DATA --k K --labels FILE`, then `extra`.
    let check = |k: &str, labels: &std::path::Path, extra: &[&str]| {
        let head = [
            "check",
            "--data",
            data,
            "--k",
            k,
            "--labels",
            labels.to_str().unwrap(),
        ];
        microagg(&common::argv(&head, "", extra))
    };
    let small = write_file(dir.path(), "small.txt", "0\n0\n0\n1\n1\n");
    let o = check("3", &small, &["--json"]);
    assert_eq!(o.status.code(), Some(1));
    let chk = stdout_json(&o);
    assert_eq!(chk["feasible"], false);
    assert_eq!(chk["min_group_size"], 2);

    let short = write_file(dir.path(), "short.txt", "0\n0\n0\n");
    let o = check("2", &short, &[]);
    assert_exit(&o, 2, "3 labels for 5 records");

    let junk = write_file(dir.path(), "junk.txt", "0\n0\nx\n1\n1\n");
    let o = check("2", &junk, &[]);
    assert_exit(&o, 2, "line 3");
}

#[test]
fn list_shows_every_registered_method() {
    let o = microagg(&["list"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for m in microagg::registry::registry() {
        assert!(out.contains(m.name), "list lacks {}", m.name);
    }
    // Bounds come after the methods, each with its parameters.
    let bounds = out.split_once("\nbounds ").expect("a bounds section").1;
    for b in microagg::bound::BOUNDS {
        assert!(bounds.contains(b.name), "list lacks bound {}", b.name);
        let defaults = b.defaults();
        for (key, _) in b.params_doc {
            let shown = match &defaults[key] {
                serde_json::Value::Null => "none".to_string(),
                // A string default is written bare, as a user types it.
                serde_json::Value::String(s) => s.clone(),
                v => v.to_string(),
            };
            assert!(bounds.contains(&format!("{key} = {shown}")), "{key}");
        }
    }
}

/// A default chosen at run time (null in `list --json` and in records) reads `auto` in the
/// text listing, never `null`: descent's size-chosen `approx` and `neighbours`.
#[test]
fn list_prints_auto_for_defaults_chosen_at_run_time() {
    let out = stdout(&microagg(&["list"]));
    assert!(!out.contains("= null"), "{out}");
    for key in ["descent.approx", "descent.neighbours"] {
        assert!(out.contains(&format!("{key} = auto  ")), "{key}: {out}");
    }
    let listed = cli_json(&["list", "--json"]);
    let descent = listed
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["name"] == "descent")
        .unwrap();
    assert!(descent["params"]["approx"].is_null() && descent["params"]["neighbours"].is_null());
}

#[test]
fn bound_parameters_are_set_from_run_and_equal_the_bound_command() {
    let data = "uniform:n=40,d=2,seed=1";
    let run = cli_json(&run_args(
        data,
        "3",
        "mdav",
        &["--bound", "colgen", "--bound-param", "cuts=3", "--json"],
    ));
    let bound = cli_json(&[
        "bound", "--data", data, "--k", "3", "--method", "colgen", "--param", "cuts=3", "--json",
    ]);
    assert_eq!(run["bounds"][0]["sse"], bound["lower_bound"]);
    assert_eq!(
        bound["details"]["cut_rounds"].as_u64().map(|r| r > 0),
        Some(true)
    );
    // A parameter the bound does not have is refused before any work, naming its parameters.
    let o = microagg(&run_args(
        data,
        "3",
        "mdav",
        &["--bound", "nn", "--bound-param", "cuts=3"],
    ));
    assert_exit(&o, 2, "bound nn has no parameter 'cuts'");
}

#[test]
fn same_seed_gives_identical_labels_through_the_cli() {
    let dir = tempfile::tempdir().unwrap();
    let a = dir.path().join("a.txt");
    let b = dir.path().join("b.txt");
    for out in [&a, &b] {
        cli_ok(&run_args(
            "sim2:seed=4",
            "3",
            "mdav",
            &["--seed", "9", "--labels-out", out.to_str().unwrap()],
        ));
    }
    assert_eq!(std::fs::read(&a).unwrap(), std::fs::read(&b).unwrap());
}

#[test]
fn bound_and_run_with_bound_report_certified_bound_and_gap() {
    let b = cli_json(&["bound", "--data", "sim1:seed=1", "--k", "3", "--json"]);
    assert_eq!(b["method"], "nn");
    assert_eq!(b["certified"], true);
    let lb = b["lower_bound"].as_f64().unwrap();
    assert!(lb > 0.0);
    assert!(b["il_lower_bound"].as_f64().unwrap() <= 100.0 * lb / b["sst"].as_f64().unwrap());

    let r = cli_json(&run_args(
        "sim1:seed=1",
        "3",
        "mdav",
        &["--bound", "nn", "--json"],
    ));
    // The record of an experiment run: the bounds computed, the best certified one, the gap.
    assert_eq!(
        r["best_bound"]["sse"].as_f64(),
        Some(lb),
        "same bound from run and bound"
    );
    assert_eq!(r["best_bound"]["certified"], true);
    assert_eq!(r["bounds"][0]["name"], "nn");
    let sse = r["sse"].as_f64().unwrap();
    let gap = r["gap"].as_f64().unwrap();
    assert!(sse >= lb && (gap - 100.0 * (sse - lb) / lb).abs() < 1e-9);

    // Without --bound the fields are absent; an unknown bound is refused before any work.
    let o = microagg(&run_args("sim1:seed=1", "3", "mdav", &["--json"]));
    let r = stdout_json(&o);
    assert!(r["best_bound"].is_null() && r["gap"].is_null());
    assert_eq!(r["bounds"], serde_json::json!([]));
    for args in [
        &common::method_args("bound", "sim1:seed=1", "3", "magic", &[])[..],
        &run_args("sim1:seed=1", "3", "mdav", &["--bound", "magic"])[..],
    ] {
        let o = microagg(args);
        assert_eq!(o.status.code(), Some(2));
        // clap refuses it with the registered bounds as the possible values.
        let err = stderr(&o);
        assert!(
            err.contains("invalid value 'magic'")
                && err.contains("possible values: nn, nn-raised, colgen, colgen-cuts"),
            "{err}"
        );
    }
    let o = microagg(&["bound", "--data", "sim1:seed=1", "--k", "1"]);
    assert_eq!(o.status.code(), Some(2), "k = 1 is refused: {}", stderr(&o));
}

#[test]
fn list_shows_which_bounds_have_a_weighted_version() {
    // Text: each bound's `weighted:` line (after `certified:`) names the proof of its
    // weighted version or says that it refuses --weights; JSON: `weighted` is the proof or
    // null. What list says is what `bound --weights` does: it runs the listed weighted
    // versions and refuses the others.
    let text = stdout(&microagg(&["list"]));
    let lines: Vec<&str> = text.lines().collect();
    let listed = cli_json(&["list", "--json"]);
    let entries: Vec<&serde_json::Value> = listed
        .as_array()
        .unwrap()
        .iter()
        .filter(|e| e["kind"] == "bound")
        .collect();
    assert_eq!(entries.len(), microagg::bound::BOUNDS.len());
    let dir = tempfile::tempdir().unwrap();
    let data = write_file(
        dir.path(),
        "w.csv",
        "x,y,w\n1,5,1\n2,3,2\n3,1,1\n4,4,2\n5,0,3\n6,2,1\n",
    );
    let data = data.to_str().unwrap();
    let mut weighted = Vec::new();
    for (b, e) in microagg::bound::BOUNDS.iter().zip(entries) {
        assert_eq!(e["name"], b.name);
        let head = format!("  {:<16} {}", b.name, b.summary);
        let at = lines
            .iter()
            .position(|l| *l == head)
            .expect("the bound's line");
        let line = lines[at + 2].trim_start();
        let o = microagg(&common::weighted_args(
            "bound",
            data,
            "2",
            &["--method", b.name, "--json"],
        ));
        match e["weighted"].as_str() {
            Some(proof) => {
                assert!(proof.starts_with("proofs/P"), "{}: {proof}", b.name);
                assert!(
                    line.starts_with("weighted: yes") && line.contains(proof),
                    "{line}"
                );
                assert!(o.status.success(), "{}: {}", b.name, stderr(&o));
                weighted.push(b.name);
            }
            None => {
                assert!(e["weighted"].is_null(), "{}", b.name);
                assert!(line.starts_with("weighted: no") && line.contains("refuses --weights"));
                assert_exit(&o, 2, &format!("bound {} with --weights", b.name));
            }
        }
    }
    assert_eq!(weighted, ["nn", "colgen"]);
}

/// The options of `command --help`, in order.
fn help_options(command: &str) -> Vec<String> {
    stdout(&microagg(&[command, "--help"]))
        .lines()
        .filter_map(|l| {
            let l = l.trim_start();
            let l = l.strip_prefix("-h, ").unwrap_or(l);
            l.starts_with("--")
                .then(|| l.split([' ', '=']).next().unwrap().to_string())
        })
        .collect()
}

/// `bound --help` keeps ten options of its own (the bound's parameters are `--param`
/// keys and `--preset`s); its data options are the shared ones every data command has, and
/// `--threads` and `--help` are global. The one-column `--column` belongs to `run` (and
/// `check`), not to the shared data options: bounds take multivariate data, so `bound
/// --column` is an unknown argument. Before the bound registry took the parameters it
/// listed 41 options (26 of them colgen and bnp knobs).
#[test]
fn bound_help_lists_at_most_twelve_options_of_its_own() {
    let shared_data = ["--data", "--columns", "--k", "--delimiter", "--weights"];
    let global = ["--threads", "--help"];
    let run = help_options("run");
    for flag in shared_data.iter().chain(&global).chain(&["--column"]) {
        assert!(run.iter().any(|f| f == flag), "run lacks {flag}");
    }
    let all = help_options("bound");
    assert!(
        !all.iter().any(|f| f == "--column"),
        "bound offers --column"
    );
    let o = microagg(&["bound", "--data", "sim1", "--k", "3", "--column", "1"]);
    assert_exit(&o, 2, "unexpected argument '--column'");
    let own: Vec<&str> = all
        .iter()
        .map(String::as_str)
        .filter(|f| !shared_data.contains(f) && !global.contains(f))
        .collect();
    assert_eq!(
        own,
        [
            "--method",
            "--time-limit",
            "--start",
            "--progress",
            "--quiet",
            "--certificate",
            "--labels-out",
            "--param",
            "--preset",
            "--json"
        ]
    );
    assert!(own.len() <= 12 && all.len() == own.len() + shared_data.len() + global.len());
}

/// A preset sets its bound and parameters; --param overrides a preset's value, --time-limit
/// its time limit, and a value given twice (--time-limit and --param time_limit) or a
/// preset of another bound than --method is refused.
#[test]
fn bound_presets_set_parameters_that_param_overrides() {
    let data = "gauss:n=60,d=2,clusters=12,seed=7";
    let bound = |extra: &[&str]| {
        let mut args = vec!["bound", "--data", data, "--k", "3", "--json"];
        args.extend_from_slice(extra);
        cli_json(&args)
    };
    let v = bound(&["--preset", "census-k4", "--time-limit", "20"]);
    assert_eq!(v["method"], "bnp");
    assert_eq!(v["details"]["time_limit"], 20.0);
    assert!(v["details"]["nodes"].as_u64().unwrap() <= 25, "{v}");
    let v = bound(&[
        "--preset",
        "census-k4",
        "--param",
        "max_nodes=1",
        "--time-limit",
        "20",
    ]);
    assert_eq!(v["details"]["nodes"], 1, "{v}");
    let twice = [
        "bound",
        "--data",
        data,
        "--k",
        "3",
        "--method",
        "colgen",
        "--time-limit",
        "5",
        "--param",
        "time_limit=6",
    ];
    assert_exit(&microagg(&twice), 2, "--time-limit and --param time_limit");
    let other = [
        "bound", "--data", data, "--k", "3", "--method", "colgen", "--preset", "eia-k3",
    ];
    assert_exit(
        &microagg(&other),
        2,
        "preset eia-k3 sets bound bnp, not colgen",
    );
    let unknown = ["bound", "--data", data, "--k", "3", "--preset", "eia-k9"];
    assert_exit(&microagg(&unknown), 2, "unknown bound preset 'eia-k9'");
}
