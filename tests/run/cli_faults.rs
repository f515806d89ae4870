//! The command line under bad input and faults (issue 23): every case ends in a clear
//! message and the documented exit status, never a panic, a NaN or lost work.

use crate::common;
use common::cli as microagg;
use common::{cli_json, cli_ok, run_args, stderr, stdout, write_file, write_mdav_labels};
use std::path::{Path, PathBuf};
use std::process::Output;

/// Exit 2, no panic, and every needle in stderr.
fn expect_error(o: &Output, needles: &[&str]) {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "expected {n:?} in: {err}");
    }
}

/// A CSV file of `rows` x 3 clustered values multiplied by `scale`.
fn scaled_csv(dir: &Path, name: &str, rows: usize, scale: f64) -> PathBuf {
    use rand::SeedableRng;
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(3);
    let v = common::clustered_rows(&mut rng, rows, 3, 5.0);
    let mut text = String::from("a,b,c\n");
    for r in v.chunks(3) {
        let cells: Vec<String> = r.iter().map(|x| format!("{:e}", x * scale)).collect();
        text += &(cells.join(",") + "\n");
    }
    write_file(dir, name, &text)
}

// ---- point 1 ------------------------------------------------------------------------------

#[test]
fn data_scaled_by_1e150_or_1e_minus_300_give_the_same_il() {
    let dir = tempfile::tempdir().unwrap();
    let mut ils = Vec::new();
    for (name, scale) in [("one", 1.0), ("big", 1e150), ("tiny", 1e-300)] {
        let f = scaled_csv(dir.path(), &format!("{name}.csv"), 90, scale);
        let v = cli_json(&run_args(f.to_str().unwrap(), "3", "mdav", &["--json"]));
        let il = v["il"].as_f64().expect("IL is a number, not null");
        assert!((v["sst"].as_f64().unwrap() - 270.0).abs() < 1e-9, "{v}");
        ils.push(il);
    }
    assert!(ils.iter().all(|il| (il - ils[0]).abs() < 1e-6), "{ils:?}");
}

// ---- point 2 ------------------------------------------------------------------------------

fn small_suite(dir: &Path, extra: &str) -> PathBuf {
    write_file(
        dir,
        "s.toml",
        &format!(
            "instances = [\"uniform:n=60,d=2,seed=1\"]\nk = [3]\nseeds = {{ base = 1, replicates = 2 }}\n{extra}\n[[pipeline]]\nmethod = \"mdav\"\n[[pipeline]]\nmethod = \"mdav+ils\"\n"
        ),
    )
}

#[test]
fn a_second_experiment_on_the_same_output_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let suite = small_suite(dir.path(), "max_steps = 20");
    let out = dir.path().join("r");
    std::fs::create_dir_all(&out).unwrap();
    // A study holds the lock: this test process, alive, on this host.
    let host = {
        let o = std::process::Command::new("hostname").output().unwrap();
        stdout(&o).trim().to_string()
    };
    let lock = out.join("records.jsonl.lock");
    std::fs::write(&lock, format!("pid={}\nhost={host}\n", std::process::id())).unwrap();
    let o = microagg(&[
        "experiment",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    expect_error(&o, &["another study", &std::process::id().to_string()]);
    assert!(!out.join("records.jsonl").exists(), "nothing written");
    // Its owner gone, the lock is taken over with a word, and released at the end.
    std::fs::write(&lock, format!("pid={}\nhost={host}\n", i32::MAX)).unwrap();
    let o = cli_ok(&[
        "experiment",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        stderr(&o).contains("taking over the lock"),
        "{}",
        stderr(&o)
    );
    assert!(!lock.exists());
}

// ---- point 5 ------------------------------------------------------------------------------

#[test]
fn absurd_time_limits_are_clear_errors() {
    for cmd in [
        &run_args("sim1", "3", "mdav", &["--time-limit", "1e19"])[..],
        &common::method_args("bound", "sim1", "3", "colgen", &["--time-limit", "1e19"]),
        &[
            "solve-exact",
            "--data",
            "uniform:n=10,d=2",
            "--k",
            "3",
            "--time-limit",
            "1e300",
        ],
    ] {
        expect_error(&microagg(cmd), &["--time-limit", "largest limit"]);
    }
    let dir = tempfile::tempdir().unwrap();
    let suite = small_suite(dir.path(), "time_limit = 1e19");
    expect_error(
        &microagg(&["experiment", suite.to_str().unwrap(), "--dry-run"]),
        &["time_limit", "largest limit"],
    );
}

#[test]
fn huge_generator_specs_are_clear_errors() {
    expect_error(
        &microagg(&run_args("uniform:n=100000000000,d=10", "3", "mdav", &[])),
        &["at most 100000000 values"],
    );
}

// ---- point 6 ------------------------------------------------------------------------------

#[test]
fn output_destinations_are_checked_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let missing = dir.path().join("no-such-folder/labels.txt");
    let o = microagg(&run_args(
        "sim1",
        "3",
        "mdav",
        &["--labels-out", missing.to_str().unwrap()],
    ));
    expect_error(&o, &["--labels-out", "does not exist"]);
    assert!(
        stdout(&o).is_empty(),
        "no run result: the run never started"
    );

    let data = scaled_csv(dir.path(), "in.csv", 30, 1.0);
    let before = std::fs::read(&data).unwrap();
    // The same file under another spelling.
    let alias = dir.path().join(".").join("in.csv");
    let o = microagg(&run_args(
        data.to_str().unwrap(),
        "3",
        "mdav",
        &["--masked-out", alias.to_str().unwrap()],
    ));
    expect_error(&o, &["--masked-out", "input file"]);
    assert_eq!(std::fs::read(&data).unwrap(), before, "input untouched");

    let same = dir.path().join("x.txt");
    let same = same.to_str().unwrap();
    let outputs = ["--labels-out", same, "--masked-out", same];
    let o = microagg(&run_args("sim1", "3", "mdav", &outputs));
    expect_error(&o, &["same file"]);
}

// ---- point 7 ------------------------------------------------------------------------------

#[test]
fn labels_files_are_replaced_not_rewritten_in_place() {
    // A second name (hard link) for the old file keeps the old content: the new labels went
    // to a new file renamed over the name, so no reader ever sees a half-written file.
    let dir = tempfile::tempdir().unwrap();
    let labels = dir.path().join("l.txt");
    let old = "old\n";
    std::fs::write(&labels, old).unwrap();
    std::fs::hard_link(&labels, dir.path().join("link.txt")).unwrap();
    write_mdav_labels("sim1", "3", labels.to_str().unwrap());
    assert_eq!(
        std::fs::read_to_string(dir.path().join("link.txt")).unwrap(),
        old
    );
    assert_eq!(
        microagg::labels::read_labels(&labels).unwrap().len(),
        100,
        "new labels in place"
    );
    let leftovers: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().contains(".tmp"))
        .collect();
    assert!(leftovers.is_empty());
}

// ---- point 9 ------------------------------------------------------------------------------

#[test]
fn a_step_budget_gives_identical_labels_run_after_run() {
    let dir = tempfile::tempdir().unwrap();
    let mut all = Vec::new();
    for i in 0..2 {
        let l = dir.path().join(format!("l{i}.txt"));
        let v = cli_json(&run_args(
            "gauss:n=500,d=3,seed=2",
            "3",
            "mdav+ils",
            &[
                "--max-steps",
                "400",
                "--seed",
                "5",
                "--labels-out",
                l.to_str().unwrap(),
                "--json",
            ],
        ));
        assert_eq!(v["max_steps"], 400);
        assert_eq!(v["stages"][1]["stop"], "step_limit");
        all.push(std::fs::read(&l).unwrap());
    }
    assert_eq!(all[0], all[1]);
    expect_error(
        &microagg(&run_args("sim1", "3", "mdav", &["--max-steps", "0"])),
        &["max-steps"],
    );
}

#[test]
fn a_step_budget_gives_identical_records_across_jobs() {
    let dir = tempfile::tempdir().unwrap();
    let suite = small_suite(dir.path(), "max_steps = 300");
    let mut files = Vec::new();
    for jobs in ["1", "2"] {
        let out = dir.path().join(format!("r{jobs}"));
        cli_ok(&[
            "experiment",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            jobs,
        ]);
        let recs = microagg::experiment::record::read_dir(&out).unwrap();
        assert!(recs.iter().all(|r| r.max_steps == Some(300)));
        files.push(
            recs.iter()
                .map(|r| {
                    microagg::experiment::record::strip_timing(
                        &microagg::experiment::record::to_value(r),
                    )
                })
                .collect::<Vec<_>>(),
        );
    }
    assert_eq!(files[0], files[1]);
}

// ---- point 10 -----------------------------------------------------------------------------

#[test]
fn report_prints_its_table_when_figures_cannot_be_written() {
    let dir = tempfile::tempdir().unwrap();
    let suite = small_suite(dir.path(), "");
    let out = dir.path().join("r");
    cli_ok(&[
        "experiment",
        suite.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    // A file where the figures folder should go (as root, permissions would not stop us).
    std::fs::write(out.join("figures"), "not a folder").unwrap();
    let o = cli_ok(&["report", out.to_str().unwrap()]);
    assert!(stdout(&o).contains("mdav"), "table printed: {}", stdout(&o));
    assert!(stderr(&o).contains("figures not written"), "{}", stderr(&o));

    // A truncated last line is skipped with a warning.
    let path = out.join("records.jsonl");
    let mut text = std::fs::read_to_string(&path).unwrap();
    let cut = text.trim_end().rfind('\n').unwrap() + 40;
    text.truncate(cut);
    std::fs::write(&path, text).unwrap();
    std::fs::remove_file(out.join("figures")).unwrap();
    let o = cli_ok(&["report", out.to_str().unwrap()]);
    assert!(
        stderr(&o).contains("incomplete last record skipped"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn minor_input_mistakes_get_helpful_errors() {
    let dir = tempfile::tempdir().unwrap();
    let one = write_file(dir.path(), "one.csv", "a,b\n1,2\n");
    expect_error(
        &microagg(&run_args(one.to_str().unwrap(), "2", "mdav", &[])),
        &["only 1 data row", "n = 1 < k"],
    );
    let o = microagg(&["bench", "--reps", "0", "--cases", "gauss-10k"]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("reps"), "{}", stderr(&o));
    // bench's block options need --blocks, and --blocks needs --scale (they were ignored).
    for (args, needs) in [
        (
            &["bench", "--block-cut", "valley", "--scale", "1000"][..],
            "--blocks <SIZE>",
        ),
        (
            &["bench", "--block-slab", "0.65", "--scale", "1000"],
            "--blocks <SIZE>",
        ),
        (
            &["bench", "--blocks", "500", "--cases", "gauss-10k"],
            "--scale",
        ),
    ] {
        let o = microagg(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        assert!(stderr(&o).contains(needs), "{args:?}: {}", stderr(&o));
    }
    // A negative strip after a space is a value, refused by its range.
    let o = microagg(&[
        "bench",
        "--scale",
        "1000",
        "--blocks",
        "500",
        "--block-slab",
        "-1",
    ]);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("--block-slab -1"), "{}", stderr(&o));
    expect_error(
        &microagg(&run_args("sim1", "3", "mdva", &[])),
        &["did you mean 'mdav'"],
    );
    let semi = write_file(dir.path(), "semi.csv", "a;b\n1;2\n3;5\n4;1\n");
    expect_error(
        &microagg(&run_args(semi.to_str().unwrap(), "2", "mdav", &[])),
        &["--delimiter ';'"],
    );
    cli_ok(&[
        "run",
        "--data",
        semi.to_str().unwrap(),
        "--delimiter",
        ";",
        "--k",
        "2",
        "--method",
        "mdav",
    ]);
    // check lists 20 undersized groups and counts the rest.
    let labels: String = (0..100).map(|i| format!("{i}\n")).collect();
    let l = write_file(dir.path(), "l.txt", &labels);
    let o = microagg(&[
        "check",
        "--data",
        "sim1",
        "--k",
        "3",
        "--labels",
        l.to_str().unwrap(),
    ]);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stdout(&o).contains("and 80 more undersized groups (100 in all"),
        "{}",
        stdout(&o)
    );
}
