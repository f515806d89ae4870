//! Strata, blocks and parts (issue 24, item 5): groups never mix strata, parts combine into
//! the unsplit run's bytes, bad strata input is a clear error, thread counts and Slurm
//! variables do not change the bytes, and the border repair never raises the SSE.

use crate::common::argv;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// Run the binary without any Slurm variables of the caller's environment (plus `env`).
fn microagg(args: &[&str], env: &[(&str, &str)]) -> Output {
    let mut c = Command::new(env!("CARGO_BIN_EXE_microagg"));
    for v in [
        "SLURM_ARRAY_TASK_ID",
        "SLURM_ARRAY_TASK_COUNT",
        "SLURM_ARRAY_TASK_MIN",
        "SLURM_ARRAY_TASK_STEP",
    ] {
        c.env_remove(v);
    }
    c.envs(env.iter().copied());
    c.args(args).output().expect("binary runs")
}

fn ok(args: &[&str], env: &[(&str, &str)]) -> Output {
    let o = microagg(args, env);
    assert!(
        o.status.success(),
        "microagg {args:?}: {}",
        String::from_utf8_lossy(&o.stderr)
    );
    o
}

/// 600 rows: a stratum column `region` (four values, interleaved, one of 60 rows), a
/// second `sex`, three numeric columns with ties and duplicates; the strata overlap in
/// space, so an unstratified run would mix them.
fn strata_csv(dir: &Path) -> PathBuf {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
    let mut text = String::from("region,x,sex,y,z\n");
    for i in 0..600 {
        let region = ["north", "south", "east west", "west"][if i % 10 == 0 { 3 } else { i % 3 }];
        let sex = if rng.random_bool(0.5) { "F" } else { "M" };
        let x: f64 = rng.random_range(-2.0..2.0);
        let y = rng.random_range(0..4);
        let z = (i % 7) as f64 * 0.5;
        text += &format!("{region},{x:.2},{sex},{y},{z}\n");
    }
    let p = dir.join("strata.csv");
    std::fs::write(&p, text).unwrap();
    p
}

/// A temporary folder holding [`strata_csv`], and the file's path.
fn strata_dir() -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let data = strata_csv(dir.path());
    (dir, data)
}

fn labels(path: &Path) -> Vec<usize> {
    microagg::labels::read_labels(path).unwrap()
}

fn column(path: &Path, name: &str) -> Vec<String> {
    let mut r = csv::Reader::from_path(path).unwrap();
    let j = r.headers().unwrap().iter().position(|h| h == name).unwrap();
    r.records().map(|row| row.unwrap()[j].to_string()).collect()
}

#[test]
fn groups_never_mix_strata_and_parts_combine_into_the_unsplit_bytes() {
    let (dir, data) = strata_dir();
    let d = data.to_str().unwrap();
    let full = dir.path().join("full.labels");
    for method in ["mdav", "mdav+descent"] {
        let base = [
            "run",
            "--data",
            d,
            "--k",
            "3",
            "--method",
            method,
            "--strata",
            "region,sex",
        ];
        ok(
            &[&base[..], &["--labels-out", full.to_str().unwrap()]].concat(),
            &[],
        );
        let l = labels(&full);
        let (region, sex) = (column(&data, "region"), column(&data, "sex"));
        let mut stratum_of: BTreeMap<usize, (String, String)> = BTreeMap::new();
        let mut sizes: BTreeMap<usize, usize> = BTreeMap::new();
        for (i, &g) in l.iter().enumerate() {
            let s = (region[i].clone(), sex[i].clone());
            assert_eq!(
                stratum_of.entry(g).or_insert_with(|| s.clone()),
                &s,
                "group {g}"
            );
            *sizes.entry(g).or_default() += 1;
        }
        assert!(sizes.values().all(|&s| s >= 3));
        // Labels are numbered by first appearance along the rows.
        let mut next = 0;
        for &g in &l {
            assert!(g <= next);
            next = next.max(g + 1);
        }
        // Three parts (one through Slurm's variables, array 4..6), combined in any order.
        let mut parts = Vec::new();
        for i in 1..=3 {
            let p = dir.path().join(format!("{method}-{i}.part"));
            let out = ["--labels-out", p.to_str().unwrap()];
            if i == 2 {
                ok(
                    &[&base[..], &out].concat(),
                    &[
                        ("SLURM_ARRAY_TASK_ID", "5"),
                        ("SLURM_ARRAY_TASK_COUNT", "3"),
                        ("SLURM_ARRAY_TASK_MIN", "4"),
                    ],
                );
            } else {
                let part = format!("{i}/3");
                ok(&[&base[..], &out, &["--part", &part]].concat(), &[]);
            }
            parts.push(p);
        }
        let combined = dir.path().join("combined.labels");
        ok(
            &[
                "combine",
                parts[2].to_str().unwrap(),
                parts[0].to_str().unwrap(),
                parts[1].to_str().unwrap(),
                "--out",
                combined.to_str().unwrap(),
            ],
            &[],
        );
        assert_eq!(
            std::fs::read(&full).unwrap(),
            std::fs::read(&combined).unwrap(),
            "{method}: parts combined = the unsplit run"
        );
        // A part alone leaves the other rows to the other parts; a missing part is an error.
        let o = microagg(
            &[
                "combine",
                parts[0].to_str().unwrap(),
                parts[1].to_str().unwrap(),
                "--out",
                combined.to_str().unwrap(),
            ],
            &[],
        );
        let e = String::from_utf8_lossy(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{e}");
        assert!(e.contains("3/3") && e.contains("missing"), "{e}");
    }
}

#[test]
fn parts_of_different_runs_do_not_combine() {
    let (dir, data) = strata_dir();
    let d = data.to_str().unwrap();
    let a = dir.path().join("a.part");
    let b = dir.path().join("b.part");
    let run = |k: &str, part: &str, out: &Path| {
        let fixed = "--method mdav --strata region --columns x,y,z --part";
        let tail = [part, "--labels-out", out.to_str().unwrap()];
        ok(&argv(&["run", "--data", d, "--k", k], fixed, &tail), &[])
    };
    run("3", "1/2", &a);
    run("4", "2/2", &b);
    let o = microagg(
        &[
            "combine",
            a.to_str().unwrap(),
            b.to_str().unwrap(),
            "--out",
            "/dev/null",
        ],
        &[],
    );
    let e = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{e}");
    assert!(e.contains("different runs"), "{e}");
}

#[test]
fn bad_strata_input_is_an_error_naming_the_file_and_column() {
    let (_dir, data) = strata_dir();
    let d = data.to_str().unwrap();
    let err = |extra: &[&str]| {
        let o = microagg(
            &[&["run", "--data", d, "--method", "mdav"][..], extra].concat(),
            &[],
        );
        let e = String::from_utf8_lossy(&o.stderr).into_owned();
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {e}");
        assert!(!e.contains("panicked"), "{e}");
        e
    };
    let err_words = |words: &str| err(&words.split_whitespace().collect::<Vec<_>>());
    let e = err(&["--k", "3", "--strata", "regio"]);
    assert!(
        e.contains("strata.csv") && e.contains("'regio'") && e.contains("--strata"),
        "{e}"
    );
    // "west" has 60 rows; by sex it splits into two strata of about 30.
    let e = err(&["--k", "61", "--strata", "region", "--columns", "x,y,z"]);
    assert!(e.contains("strata.csv") && e.contains("'region'"), "{e}");
    assert!(
        e.contains("stratum region=west has 60 records") && e.contains("k = 61"),
        "{e}"
    );
    assert!(
        !e.contains("region=north"),
        "only the small strata are named: {e}"
    );
    let e = err(&["--k", "3", "--strata", "region", "--columns", "x,region"]);
    assert!(e.contains("'region' is a strata column"), "{e}");
    let e = err_words("--k 3 --strata region --part 3/2 --labels-out x --columns x,y,z");
    assert!(e.contains("--part '3/2'"), "{e}");
    let e = err_words("--k 3 --strata region --part 1/2 --columns x,y,z");
    assert!(e.contains("--labels-out"), "{e}");
    let e = err_words("--k 3 --strata region --part slurm --labels-out x --columns x,y,z");
    assert!(e.contains("SLURM_ARRAY_TASK_ID"), "{e}");
    let e = err(&["--k", "3", "--blocks", "5", "--columns", "x,y,z"]);
    assert!(e.contains("--blocks 5") && e.contains("2k = 6"), "{e}");
    // The repair's strip and lists: out of range, or without --blocks.
    let e = err_words("--k 3 --blocks 50 --block-slab 0 --columns x,y,z");
    assert!(e.contains("--block-slab 0") && e.contains("> 0"), "{e}");
    let e = err_words("--k 3 --blocks 50 --block-approx=-1 --columns x,y,z");
    assert!(e.contains("--block-approx -1"), "{e}");
    // A negative value after a space is the value, not an unknown option: the same range
    // message (and the strip's).
    for (option, value, says) in [
        ("--block-approx", "-1", "--block-approx -1"),
        ("--block-slab", "-1", "--block-slab -1"),
        ("--block-slab", "-0.5", "--block-slab -0.5"),
    ] {
        let e = err(&[
            "--k",
            "3",
            "--blocks",
            "50",
            option,
            value,
            "--columns",
            "x,y,z",
        ]);
        assert!(
            e.contains(says) && e.contains("must be a finite number"),
            "{e}"
        );
    }
    // Every block option without --blocks is a usage error naming --blocks (it was
    // silently ignored: --block-cut, --block-repair), with strata or without.
    for extra in [
        &["--block-slab", "0.65"][..],
        &["--block-approx", "1"],
        &["--block-cut", "valley"],
        &["--block-cut", "kd"],
        &["--block-repair", "none"],
        &["--block-cut", "valley", "--strata", "region"],
    ] {
        let e = err(&[&["--k", "3", "--columns", "x,y,z"][..], extra].concat());
        assert!(e.contains("--blocks <SIZE>"), "{extra:?}: {e}");
    }
}

#[test]
fn thread_counts_do_not_change_the_bytes_and_the_repair_never_raises_the_sse() {
    let (dir, data) = strata_dir();
    let d = data.to_str().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2", "3"] {
        let l = dir.path().join(format!("t{threads}.labels"));
        let head = ["--threads", threads, "run", "--data", d];
        let fixed = "--k 3 --method mdav --strata region --columns x,y,z --blocks 40 --json";
        let o = ok(
            &argv(&head, fixed, &["--labels-out", l.to_str().unwrap()]),
            &[],
        );
        let rec: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
        let stages = rec["stages"].as_array().unwrap();
        let (mdav, repaired) = (&stages[0], &stages[1]);
        assert_eq!(repaired["name"], "border-repair");
        assert!(repaired["sse"].as_f64() <= mdav["sse"].as_f64(), "{rec}");
        assert!((rec["sse"].as_f64().unwrap() - repaired["sse"].as_f64().unwrap()).abs() < 1e-9);
        assert!(
            rec["units"].as_u64().unwrap() > 4,
            "blocks inside strata: {rec}"
        );
        // The labels are feasible and their SSE is the reported one.
        let c = ok(
            &[
                "check",
                "--data",
                d,
                "--columns",
                "x,y,z",
                "--k",
                "3",
                "--labels",
                l.to_str().unwrap(),
                "--json",
            ],
            &[],
        );
        let c: serde_json::Value = serde_json::from_slice(&c.stdout).unwrap();
        assert_eq!(c["feasible"], true);
        assert!((c["sse"].as_f64().unwrap() - rec["sse"].as_f64().unwrap()).abs() < 1e-9);
        outputs.push(std::fs::read(&l).unwrap());
    }
    assert!(outputs.windows(2).all(|w| w[0] == w[1]));
}

#[test]
fn the_experiment_runner_takes_its_shard_from_slurm_variables() {
    let suite = concat!(env!("CARGO_MANIFEST_DIR"), "/instances/smoke.toml");
    let by_flag = ok(&["experiment", suite, "--dry-run", "--shard", "2/3"], &[]);
    let by_env = ok(
        &["experiment", suite, "--dry-run"],
        &[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
            ("SLURM_ARRAY_TASK_MIN", "1"),
        ],
    );
    let whole = ok(&["experiment", suite, "--dry-run"], &[]);
    assert_eq!(by_flag.stdout, by_env.stdout);
    assert_ne!(by_flag.stdout, whole.stdout, "the shard is a slice");
    assert!(String::from_utf8_lossy(&by_env.stderr).contains("SLURM_ARRAY_TASK_ID"));
    let all = ok(
        &["experiment", suite, "--dry-run", "--shard", "all"],
        &[
            ("SLURM_ARRAY_TASK_ID", "2"),
            ("SLURM_ARRAY_TASK_COUNT", "3"),
        ],
    );
    assert_eq!(all.stdout, whole.stdout);
}

#[test]
fn neighbour_lists_from_the_tree_do_not_depend_on_the_thread_count() {
    // n >= 4096: the refiner's neighbour lists come from the kd-tree in parallel chunks.
    let dir = tempfile::tempdir().unwrap();
    let mut outputs = Vec::new();
    for threads in ["1", "2"] {
        let l = dir.path().join(format!("n{threads}.labels"));
        ok(
            &[
                "--threads",
                threads,
                "run",
                "--data",
                "gauss:n=5000,d=3,clusters=4,seed=2",
                "--k",
                "4",
                "--method",
                "mdav+descent",
                "--max-steps",
                "20",
                "--labels-out",
                l.to_str().unwrap(),
            ],
            &[],
        );
        outputs.push(std::fs::read(&l).unwrap());
    }
    assert_eq!(outputs[0], outputs[1]);
}
