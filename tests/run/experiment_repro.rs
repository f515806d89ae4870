//! Reproducibility of the experiment runner: the same suite gives the same records (apart
//! from timing) run twice, with different numbers of workers, and split into shards; suites
//! are parsed strictly; the report puts published values beside ours.

use crate::common;

use microagg::experiment::record::{self, strip_timing, Record};
use microagg::experiment::{run_plan, Plan, Progress, RunOptions, Shard, Suite};
use microagg::report;
use serde_json::Value;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

fn smoke_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/smoke.toml")
}

fn smoke_plan() -> Plan {
    Plan::new(Suite::load(&smoke_path()).expect("smoke suite is valid")).expect("smoke loads")
}

fn opts(out: Option<&Path>, jobs: usize, shard: Option<Shard>, resume: bool) -> RunOptions {
    RunOptions {
        out: out.map(Path::to_path_buf),
        jobs,
        shard,
        resume,
        progress: Progress::Quiet,
    }
}

fn run(plan: &Plan, o: &RunOptions) -> Vec<Record> {
    let never = AtomicBool::new(false);
    let s = run_plan(plan, o, &never).expect("smoke suite runs");
    assert!(!s.interrupted);
    s.records
}

fn stripped(records: &[Record]) -> Vec<Value> {
    records
        .iter()
        .map(|r| strip_timing(&record::to_value(r)))
        .collect()
}

/// The file's lines with timing removed (the file itself is what users merge and compare).
fn stripped_file(path: &Path) -> Vec<Value> {
    std::fs::read_to_string(path)
        .expect("records file exists")
        .lines()
        .map(|l| strip_timing(&serde_json::from_str(l).expect("a JSON line")))
        .collect()
}

#[test]
fn same_suite_twice_and_with_different_jobs_gives_identical_records() {
    let plan = smoke_plan();
    let dir = tempfile::tempdir().unwrap();
    let (a, b, c) = (
        dir.path().join("a"),
        dir.path().join("b"),
        dir.path().join("c"),
    );
    let ra = run(&plan, &opts(Some(&a), 1, None, false));
    let rb = run(&plan, &opts(Some(&b), 1, None, false));
    let rc = run(&plan, &opts(Some(&c), 3, None, false));
    assert_eq!(ra.len(), plan.runs.len());
    assert_eq!(stripped(&ra), stripped(&rb));
    assert_eq!(stripped(&ra), stripped(&rc));
    // The files, not only the returned records, are in run order and equal.
    let fa = stripped_file(&a.join("records.jsonl"));
    assert_eq!(fa, stripped_file(&b.join("records.jsonl")));
    assert_eq!(fa, stripped_file(&c.join("records.jsonl")));
    assert_eq!(fa, stripped(&ra));
    let indices: Vec<usize> = ra.iter().map(|r| r.index).collect();
    assert_eq!(indices, (0..plan.runs.len()).collect::<Vec<_>>());
    // Records carry what is needed to reproduce them.
    let r = &ra[0];
    assert_eq!(r.instance_sha256, plan.instances[0].inst.sha256);
    assert_eq!(r.seeds.base, 7);
    assert_eq!(r.seeds.stages.len(), r.stages.len());
    assert_eq!(r.version, env!("CARGO_PKG_VERSION"));
    assert!(!r.git_commit.is_empty());
    assert!((r.il - 100.0 * r.sse / plan.instances[0].inst.sst).abs() < 1e-9);
}

#[test]
fn replicates_and_cases_get_distinct_seeds() {
    let plan = smoke_plan();
    let mut seeds: Vec<u64> = plan.runs.iter().map(|r| r.seed).collect();
    seeds.sort_unstable();
    seeds.dedup();
    assert_eq!(seeds.len(), plan.runs.len());
}

#[test]
fn shards_concatenated_equal_the_unsharded_run() {
    let plan = smoke_plan();
    let dir = tempfile::tempdir().unwrap();
    let full = run(&plan, &opts(None, 2, None, false));
    let merged = dir.path().join("merged");
    let s1 = Shard::parse("1/2").unwrap();
    let s2 = Shard::parse("2/2").unwrap();
    let r1 = run(&plan, &opts(Some(&merged), 2, Some(s1), false));
    let r2 = run(&plan, &opts(Some(&merged), 1, Some(s2), false));
    assert!(!r1.is_empty() && !r2.is_empty());
    assert_eq!(r1.len() + r2.len(), full.len());
    // Concatenate the two shard files into one, as a cluster user would.
    let cat = dir.path().join("cat");
    std::fs::create_dir_all(&cat).unwrap();
    let mut text = std::fs::read_to_string(merged.join("records-shard-2-of-2.jsonl")).unwrap();
    text.push_str(&std::fs::read_to_string(merged.join("records-shard-1-of-2.jsonl")).unwrap());
    std::fs::write(cat.join("all.jsonl"), text).unwrap();
    assert_eq!(stripped(&record::read_dir(&cat).unwrap()), stripped(&full));
    // Reading the directory of shard files directly gives the same.
    assert_eq!(
        stripped(&record::read_dir(&merged).unwrap()),
        stripped(&full)
    );
}

#[test]
fn resume_runs_only_what_is_missing_and_refuses_to_overwrite() {
    let plan = smoke_plan();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    let never = AtomicBool::new(false);
    let full = run(&plan, &opts(Some(&out), 2, None, false));
    let path = out.join("records.jsonl");
    // Keep the first 5 records, plus a line cut short as by a crash.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut kept: String = text.lines().take(5).map(|l| format!("{l}\n")).collect();
    kept.push_str("{\"suite\":\"smo");
    std::fs::write(&path, kept).unwrap();
    let err = run_plan(&plan, &opts(Some(&out), 2, None, false), &never)
        .err()
        .expect("existing records without --resume are an error");
    assert!(err.to_string().contains("--resume"), "{err}");
    let s = run_plan(&plan, &opts(Some(&out), 2, None, true), &never).unwrap();
    assert_eq!(s.resumed, 5);
    assert_eq!(s.ran, plan.runs.len() - 5);
    assert_eq!(stripped(&s.records), stripped(&full));
    assert_eq!(stripped_file(&path), stripped(&full));
}

fn write_suite(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// Loading the suite `text`, written to `file` in `dir`, fails with an error that contains
/// `needle` and names the file.
fn assert_suite_rejected(dir: &Path, file: &str, text: &str, needle: &str) {
    let path = write_suite(dir, file, text);
    let err = Suite::load(&path).expect_err("invalid suite").to_string();
    assert!(
        err.contains(needle),
        "{file}: expected '{needle}' in: {err}"
    );
    assert!(
        err.contains(file),
        "{file}: error does not name the file: {err}"
    );
}

const MINIMAL: &str = r#"
instances = ["uniform:n=30,d=2,seed=1"]
k = [3]
[[pipeline]]
method = "mdav"
"#;

#[test]
fn unknown_suite_keys_are_errors_naming_key_and_file() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        ("top.toml", format!("replicats = 3\n{MINIMAL}"), "replicats"),
        (
            "seeds.toml",
            format!("seeds = {{ base = 1, replicate = 2 }}\n{MINIMAL}"),
            "replicate",
        ),
        (
            "pipe.toml",
            format!("{MINIMAL}methods = \"x\"\n"),
            "methods",
        ),
    ];
    for (file, text, key) in cases {
        assert_suite_rejected(dir.path(), file, &text, key);
    }
    // The minimal suite itself is valid.
    assert!(Suite::load(&write_suite(dir.path(), "ok.toml", MINIMAL)).is_ok());
}

#[test]
fn bad_pipelines_parameters_and_bounds_are_rejected_before_running() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "m.toml",
            MINIMAL.replace("\"mdav\"", "\"mdavv\""),
            "unknown method 'mdavv'",
        ),
        (
            "p.toml",
            format!("{MINIMAL}params = {{ mdav = {{ gamma = 2 }} }}\n"),
            "parameters of 'mdav'",
        ),
        (
            "s.toml",
            format!("{MINIMAL}params = {{ vmdav = {{ gamma = 2 }} }}\n"),
            "not a stage",
        ),
        (
            "b.toml",
            format!("bounds = [\"nope\"]\n{MINIMAL}"),
            "unknown bound 'nope'",
        ),
        (
            "k.toml",
            MINIMAL.replace("k = [3]", "k = [1]"),
            "at least 2",
        ),
        (
            "d.toml",
            format!("{MINIMAL}[[pipeline]]\nmethod = \"mdav\"\n"),
            "two pipelines are labelled 'mdav'",
        ),
    ];
    for (file, text, needle) in cases {
        assert_suite_rejected(dir.path(), file, &text, needle);
    }
    // k larger than an instance is caught when the instances are loaded, before any run.
    let big_k = write_suite(
        dir.path(),
        "big.toml",
        &MINIMAL.replace("k = [3]", "k = [40]"),
    );
    let err = Plan::new(Suite::load(&big_k).unwrap())
        .err()
        .expect("k > n")
        .to_string();
    assert!(err.contains("k = 40"), "{err}");
}

#[test]
fn shipped_suites_are_valid_or_wait_for_their_bounds() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances");
    for name in [
        "smoke.toml",
        "casc-published.toml",
        "demo.toml",
        "gap-study.toml",
    ] {
        Suite::load(&dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    }
    // The embedded demo suite is the file in instances/.
    assert_eq!(
        microagg::bench::DEMO_SUITE,
        std::fs::read_to_string(dir.join("demo.toml")).unwrap()
    );
}

#[test]
fn every_record_carries_its_certified_bound_and_gap() {
    let plan = smoke_plan();
    assert_eq!(
        plan.suite
            .bounds
            .iter()
            .map(|b| b.to_string())
            .collect::<Vec<_>>(),
        ["nn"]
    );
    let recs = run(&plan, &opts(None, 2, None, false));
    for r in &recs {
        let b = r.best_bound.as_ref().expect("the smoke suite asks for nn");
        assert!(b.certified && b.name == "nn");
        assert!(
            b.sse > 0.0 && b.sse <= r.sse,
            "{}: LB {} > SSE {}",
            r.run_id,
            b.sse,
            r.sse
        );
        let gap = r.gap.expect("positive bound gives a gap");
        assert!((gap - 100.0 * (r.sse - b.sse) / b.sse).abs() < 1e-12);
        // The bound does not depend on the pipeline: same value for every run of the case.
        let mut same_case = recs
            .iter()
            .filter(|o| o.instance == r.instance && o.k == r.k);
        assert!(same_case.all(|o| o.best_bound.as_ref().unwrap().sse == b.sse));
    }
}

#[test]
fn report_summarises_every_case_and_writes_figures() {
    let plan = smoke_plan();
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("smoke");
    let recs = run(&plan, &opts(Some(&out), 2, None, false));
    let (md, figures) = report::report(&out, report::Format::Markdown).unwrap();
    let cases = plan.instances.len() * plan.suite.k.len() * plan.pipelines.len();
    let rows = report::summarize(&recs).unwrap();
    assert_eq!(rows.len(), cases);
    // The table ends where the Wilcoxon section starts.
    let table = md.split("\n## ").next().unwrap();
    assert!(md.contains("## Wilcoxon signed-rank tests"));
    assert_eq!(
        table.lines().filter(|l| l.starts_with("| ")).count(),
        cases + 2,
        "header, delimiter and one row per case"
    );
    for row in &rows {
        // The constructive pipelines are deterministic: one run per case; ILS one per seed.
        let runs = if row.pipeline == "mdav+ils" {
            plan.suite.seeds.replicates
        } else {
            1
        };
        assert_eq!(row.runs, runs, "{}", row.pipeline);
        let ils: Vec<f64> = recs
            .iter()
            .filter(|r| r.instance == row.instance && r.k == row.k && r.pipeline == row.pipeline)
            .map(|r| r.il)
            .collect();
        assert_eq!(
            row.best_il,
            ils.iter().copied().fold(f64::INFINITY, f64::min)
        );
        // The smoke suite asks for the nn bound: the row's gap is the best run's gap to it.
        let bound = row.bound_sse.expect("nn bound in the smoke suite");
        let best_sse = recs
            .iter()
            .filter(|r| r.instance == row.instance && r.k == row.k && r.pipeline == row.pipeline)
            .map(|r| r.sse)
            .fold(f64::INFINITY, f64::min);
        let gap = row.gap.expect("positive bound");
        assert!(gap >= 0.0 && (gap - 100.0 * (best_sse - bound) / bound).abs() < 1e-12);
    }
    // Per case a convergence figure and a strip plot (two seeds); time to target, the gap
    // figure (the suite has a bound) and the IL performance profile (four pipelines; no time
    // profile, the suite has a time limit); each as SVG, PNG and PDF.
    let n_cases = plan.instances.len() * plan.suite.k.len();
    assert_eq!(figures.len(), 3 * (2 * n_cases + 3));
    assert!(!figures
        .iter()
        .any(|f| f.to_string_lossy().contains("profile-time")));
    for stem in ["time-to-target", "gaps", "profile-il"] {
        for ext in ["svg", "png", "pdf"] {
            assert!(figures.iter().any(|f| f.ends_with(format!("{stem}.{ext}"))));
        }
    }
    for f in &figures {
        let bytes = std::fs::read(f).unwrap();
        match f.extension().unwrap().to_str().unwrap() {
            "png" => assert!(bytes.starts_with(b"\x89PNG") && bytes.len() > 1000),
            "pdf" => assert!(bytes.starts_with(b"%PDF") && bytes.len() > 1000),
            _ => {
                let svg = String::from_utf8(bytes).unwrap();
                assert!(svg.starts_with("<svg"), "{}", f.display());
                // Every pipeline is named, in the legend or on the axis.
                assert!(svg.contains("mdav-generic"), "{}", f.display());
                // Text of at least 8 pt on a 3.5 in wide figure (8 pt at 300 dpi = 33.3 px).
                assert!(svg.contains("width=\"1050\""), "{}", f.display());
                let sizes: Vec<f64> = svg
                    .split("font-size=\"")
                    .skip(1)
                    .map(|t| t[..t.find('"').unwrap()].parse().unwrap())
                    .collect();
                assert!(!sizes.is_empty() && sizes.iter().all(|&s| s >= 8.0 * 300.0 / 72.0));
            }
        }
    }
    let (tex, _) = report::report(&out, report::Format::Latex).unwrap();
    assert!(tex.contains("\\toprule") && tex.contains("\\bottomrule"));
    let (csv, _) = report::report(&out, report::Format::Csv).unwrap();
    assert_eq!(csv.lines().count(), cases + 1);
}

#[test]
fn report_puts_published_values_beside_ours_on_casc() {
    if common::casc("tarragona").is_none() {
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = write_suite(
        dir.path(),
        "t.toml",
        "instances = [\"tarragona\"]\nk = [3]\n[[pipeline]]\nmethod = \"mdav\"\n[[pipeline]]\nmethod = \"mdav1\"\n",
    );
    let plan = Plan::new(Suite::load(&path).unwrap()).unwrap();
    let rows = report::summarize(&run(&plan, &opts(None, 2, None, false))).unwrap();
    let mdav = rows.iter().find(|r| r.pipeline == "mdav").unwrap();
    assert_eq!(mdav.published_il, Some(16.9326));
    assert!((mdav.best_il - 16.9326).abs() <= 0.5e-4, "{}", mdav.best_il);
    let mdav1 = rows.iter().find(|r| r.pipeline == "mdav1").unwrap();
    assert_eq!(mdav1.published_sse, Some(1835.8318));
    assert!(mdav1
        .published_source
        .as_deref()
        .unwrap()
        .contains("Chettri"));
}

#[test]
fn cli_experiment_dry_run_run_and_report() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("o");
    let smoke = smoke_path();
    let dry = common::cli_ok(&[
        "experiment",
        smoke.to_str().unwrap(),
        "--dry-run",
        "--shard",
        "2/3",
    ]);
    let text = String::from_utf8(dry.stdout).unwrap();
    let total = smoke_plan().runs.len();
    assert!(
        text.contains(&format!("{} of {total} runs (shard 2/3)", total / 3)),
        "{text}"
    );
    let out = out.to_str().unwrap();
    common::cli_ok(&[
        "experiment",
        smoke.to_str().unwrap(),
        "--jobs",
        "2",
        "--out",
        out,
    ]);
    let rep = common::cli_ok(&["report", "--format", "csv", out]);
    assert!(String::from_utf8(rep.stdout)
        .unwrap()
        .starts_with("instance,instance_name,n,d,k,"));
    // --per-run: one row per run record, flat columns, the same record values.
    let rep = common::cli_ok(&["report", "--format", "csv", "--per-run", out]);
    let text = String::from_utf8(rep.stdout).unwrap();
    let recs = microagg::experiment::record::read_dir(std::path::Path::new(out)).unwrap();
    assert_eq!(recs.len(), total);
    assert_eq!(
        text.lines().count(),
        recs.len() + 1,
        "header and one row per run"
    );
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    assert_eq!(header, report::tables::PER_RUN_HEADER);
    let col = |name: &str| header.iter().position(|h| *h == name).unwrap();
    let mut rows = csv::Reader::from_reader(text.as_bytes());
    for (row, r) in rows.records().zip(&recs) {
        let row = row.unwrap();
        assert_eq!(row.len(), header.len());
        assert_eq!(&row[col("run_id")], r.run_id);
        assert_eq!(row[col("il")].parse::<f64>().unwrap(), r.il);
        assert_eq!(row[col("seed_run")].parse::<u64>().unwrap(), r.seeds.run);
    }
    let st = common::cli(&["report", "--format", "md", "--per-run", out]);
    assert_eq!(st.status.code(), Some(2));
    assert!(String::from_utf8(st.stderr).unwrap().contains("--per-run"));
    let bad = write_suite(dir.path(), "bad.toml", &format!("colour = 1\n{MINIMAL}"));
    let st = common::cli(&["experiment", bad.to_str().unwrap(), "--dry-run"]);
    assert_eq!(st.status.code(), Some(2));
    let err = String::from_utf8(st.stderr).unwrap();
    assert!(err.contains("colour") && err.contains("bad.toml"), "{err}");
}

#[test]
fn missing_optional_instances_are_noted_and_bad_ones_are_errors() {
    let dir = tempfile::tempdir().unwrap();
    let with = |extra: &str| {
        let text = format!("optional_instances = [{extra}]\n{MINIMAL}");
        Plan::new(Suite::load(&write_suite(dir.path(), "opt.toml", &text)).unwrap())
    };
    let plan = with("\"no-such-file.csv\"").unwrap();
    assert_eq!(plan.instances.len(), 1);
    assert_eq!(plan.notes.len(), 1);
    assert!(
        plan.notes[0].contains("no-such-file.csv"),
        "{:?}",
        plan.notes
    );
    // A file that exists but is not valid data is an error, not silently left out.
    std::fs::write(dir.path().join("bad.csv"), "a,b\n1,x\n").unwrap();
    let err = with("\"bad.csv\"")
        .err()
        .expect("a bad optional file is an error");
    assert!(err.to_string().contains("bad.csv"), "{err}");
}

/// `trace = true`: every record carries its refiners' stats and a trace (a line per new
/// best and per refiner stage end), the same with one worker or two (`--jobs 2`) apart from
/// the traces' seconds; without it records carry stats and no trace.
#[test]
fn traced_suite_keeps_a_trace_and_stats_per_run_under_two_jobs() {
    let text = r#"
name = "traced"
instances = ["gauss:n=150,d=2,clusters=5,seed=3", "uniform:n=120,d=3,seed=4"]
k = [3, 4]
seeds = { base = 1, replicates = 2 }
max_steps = 60
trace = true

[[pipeline]]
method = "mdav+ils"

[[pipeline]]
method = "cbfs+descent+sa"
params = { sa = { moves_per_temp = 200 } }
"#;
    let plan = Plan::new(Suite::parse(text, Path::new("traced.toml")).unwrap()).unwrap();
    let one = run(&plan, &opts(None, 1, None, false));
    let two = run(&plan, &opts(None, 2, None, false));
    assert_eq!(one.len(), 16);
    assert_eq!(stripped(&one), stripped(&two));
    for r in &two {
        let trace = r.trace.as_ref().expect("a trace per run");
        // Each refiner stage ends with a line whose best IL is the stage's IL.
        for stage in r.stages.iter().skip(1) {
            let last = trace
                .iter()
                .rev()
                .find(|p| p.stage == stage.name)
                .unwrap_or_else(|| panic!("{}: no line of {}", r.run_id, stage.name));
            assert!(
                (last.best_il - stage.il).abs() <= 1e-9 * stage.il,
                "{}",
                r.run_id
            );
            let stats = stage.stats.as_ref().expect("refiner stats");
            assert!(stats.0.values().any(|&v| v > 0), "{}: {stats:?}", r.run_id);
        }
        // Lines of one stage never show a worse best IL than an earlier line (the last
        // line's IL is recomputed from the labels, so it may differ in the last bits).
        for w in trace.windows(2) {
            if w[0].stage == w[1].stage {
                assert!(
                    w[1].best_il <= w[0].best_il * (1.0 + 1e-12) && w[1].step >= w[0].step,
                    "{}: {:?} then {:?}",
                    r.run_id,
                    w[0],
                    w[1]
                );
            }
        }
        let ils = r.stages.iter().find(|s| s.name == "ils");
        if let Some(s) = ils {
            let st = s.stats.as_ref().unwrap();
            assert!(st.get("iterations").unwrap() > 0 && st.get("shift_evaluations").unwrap() > 0);
        }
    }
    // Without `trace` the records have stats but no trace.
    let plain = text.replace("trace = true", "");
    let plan = Plan::new(Suite::parse(&plain, Path::new("plain.toml")).unwrap()).unwrap();
    let records = run(&plan, &opts(None, 2, None, false));
    assert!(records.iter().all(|r| r.trace.is_none()));
    assert!(records.iter().all(|r| r.stages[1].stats.is_some()));
}

/// `measures = true`: every record carries the measures of the group means its partition
/// implies (`release`, layout `none`), equal to `measure` on those means computed here from
/// the run's own labels (recomputed by running the pipeline alone), identical with one or
/// two workers; the identities of group means hold (IL of the release = the run's IL, means
/// kept, DBRL at most one record per group); without the option no record has them.
#[test]
fn suite_measures_are_in_every_record_and_repeat() {
    let text = r#"
name = "measured"
instances = ["gauss:n=120,d=3,clusters=4,seed=7"]
k = [3, 5]
seeds = { base = 2, replicates = 1 }
max_steps = 40
measures = true

[[pipeline]]
method = "mdav"

[[pipeline]]
method = "cbfs+descent"
"#;
    let plan = Plan::new(Suite::parse(text, Path::new("measured.toml")).unwrap()).unwrap();
    let one = run(&plan, &opts(None, 1, None, false));
    let two = run(&plan, &opts(None, 2, None, false));
    assert_eq!(stripped(&one), stripped(&two));
    let inst = common::synthetic("gauss:n=120,d=3,clusters=4,seed=7");
    for r in &one {
        let rel = r.release.as_ref().expect("a release per record");
        assert_eq!((rel.layout.as_str(), rel.file.as_str()), ("none", ""));
        let m = rel.measures.as_ref().expect("measures");
        assert!(
            (rel.il_released - r.il).abs() <= 1e-9 * r.il,
            "{}",
            r.run_id
        );
        assert!(
            (m.utility.il_sse - r.il).abs() <= 1e-9 * r.il,
            "{}",
            r.run_id
        );
        assert!(m.utility.mean_change_percent.unwrap() < 1e-9);
        assert!(m.risk.dbrl_percent <= 100.0 * r.groups as f64 / r.n as f64 + 1e-12);
        // The same measures from the labels of the same run made outside the suite.
        let never = AtomicBool::new(false);
        let pipeline = microagg::pipeline::Pipeline::parse(&r.method, &[]).unwrap();
        let out = pipeline
            .run_with(&inst, r.k, r.seeds.run, None, Some(40), &never)
            .unwrap();
        assert!(
            (out.partition.sse() - r.sse).abs() <= 1e-12 * r.sse,
            "{}",
            r.run_id
        );
        let y = microagg::labels::masked_values(&inst, out.partition.labels()).unwrap();
        let want = microagg::measure::measure(&inst, &y, microagg::measure::DRISK_K).unwrap();
        assert_eq!(m, &want, "{}", r.run_id);
    }
    let plain = text.replace("measures = true", "");
    let plan = Plan::new(Suite::parse(&plain, Path::new("plain.toml")).unwrap()).unwrap();
    assert!(run(&plan, &opts(None, 1, None, false))
        .iter()
        .all(|r| r.release.is_none()));
}

/// Suites set bound parameters (`{ name = "colgen", cuts = 1 }`), checked through the bound
/// registry's parameter types before anything runs; the records carry them and the bound
/// equals the library's bound with the same options.
#[test]
fn suites_set_bound_parameters_checked_by_the_bound_registry() {
    let dir = tempfile::tempdir().unwrap();
    let bad = [
        (
            "c.toml",
            r#"{ name = "colgen", cuts = "many" }"#,
            "bounds[0] (colgen): parameters of 'bound colgen': cuts: invalid type: string \"many\"",
        ),
        (
            "n.toml",
            r#"{ name = "nn", cuts = 1 }"#,
            "bounds[0] (nn): bound nn has no parameter 'cuts'",
        ),
        (
            "t.toml",
            r#"{ name = "colgen", time_limit = -1 }"#,
            "time_limit",
        ),
        ("m.toml", r#"{ cuts = 1 }"#, "needs `name"),
        ("s.toml", "3", "a bound is a name"),
        (
            "u.toml",
            r#"{ name = "colgen", cuts = [1] }"#,
            "cuts: invalid type: sequence",
        ),
        ("d.toml", r#""nn", "nn""#, "listed twice"),
    ];
    for (file, entry, needle) in bad {
        let text = format!("bounds = [{entry}]\n{MINIMAL}");
        assert_suite_rejected(dir.path(), file, &text, needle);
    }
    let text =
        format!("bounds = [\"nn\", {{ name = \"colgen\", cuts = 1, time_limit = 30 }}]\n{MINIMAL}");
    let plan = Plan::new(Suite::parse(&text, Path::new("b.toml")).unwrap()).unwrap();
    assert_eq!(plan.bounds.len(), 2);
    let colgen = &plan.bounds[1];
    assert_eq!(
        (colgen.bound.param("cuts"), colgen.bound.param("time_limit")),
        (&serde_json::json!(1), &serde_json::json!(30.0))
    );
    let records = run(&plan, &opts(None, 1, None, false));
    let r = &records[0];
    assert_eq!(r.bounds_requested, ["nn", "colgen"]);
    assert!(r.bounds[0].params.is_empty());
    let params: Vec<(&str, &str)> = r.bounds[1]
        .params
        .iter()
        .map(|(k, v)| (k.as_str(), v.as_str()))
        .collect();
    assert_eq!(params, [("cuts", "1"), ("time_limit", "30")]);
    let inst = &plan.instances[0].inst;
    let never = AtomicBool::new(false);
    let params = serde_json::json!({"cuts": 1, "time_limit": 30});
    let lib = microagg::bound::compute_with("colgen", inst, 3, &params, &never).unwrap();
    assert_eq!(r.bounds[1].sse, lib.lower_bound);
    // The dry-run plan shows the parameters.
    assert!(plan
        .describe(None)
        .contains(r#"bounds = ["nn", "colgen(cuts=1, time_limit=30)"]"#));
}

/// A suite's parameter tables deserialize into the stages' typed parameters: the same
/// stages as `--param`, and a value of the wrong type is an error naming file and key.
#[test]
fn suite_tables_deserialize_into_typed_stage_parameters() {
    let text = format!(
        "{MINIMAL}[[pipeline]]\nmethod = \"mdav+ils\"\nparams = {{ ils = {{ strategy = \"best\", stall = 40, temperature = 0.5 }} }}\n"
    );
    let suite = Suite::parse(&text, Path::new("typed.toml")).unwrap();
    let resolved = suite.resolve_pipelines().unwrap();
    let from_cli = microagg::pipeline::Pipeline::parse(
        "mdav+ils",
        &[
            "ils.strategy=best".into(),
            "ils.stall=40".into(),
            "ils.temperature=0.5".into(),
        ],
    )
    .unwrap();
    let stage = &resolved[1].stages()[1];
    assert_eq!(stage.params, from_cli.stages[1].params);
    assert_eq!(stage.params["stall"], 40);
    assert_eq!(stage.params["strategy"], "best");
    assert_eq!(stage.maker.kind(), microagg::method::MethodKind::Refiner);
    let bad = text.replace("stall = 40", "stall = \"forty\"");
    let err = Suite::parse(&bad, Path::new("typed.toml"))
        .err()
        .unwrap()
        .to_string();
    common::assert_contains_all(&err, &["typed.toml", "parameters of 'ils': stall:"]);
}
