//! Byte-identity of labels across refactors (issue 19: the search kit must not change a
//! single label). Every registered initializer alone and followed by each registered
//! refiner, plus parameter variants of the search refiners after MDAV, runs on the three
//! CASC files with k = 3 and 5 and fixed seeds (exact-lns after MDAV only); ILS, LAHC, SA and
//! exact-lns run under a step budget
//! (`--max-steps`), which repeats bit for bit, the other refiners to their own
//! convergence. Each run gives one line (pipeline, params, file, k, sha256 of the labels,
//! bits of the SSE) that is compared with `tests/snapshots/labels.tsv`.
//!
//! Ignored by default (a few minutes on one core); run it with
//!
//! ```text
//! cargo test --release --test labels_identical -- --ignored --nocapture
//! ```
//!
//! and, to record a new snapshot on code whose labels are known to be right,
//! `MICROAGG_SNAPSHOT=write` in the environment. Every line is compared; a difference
//! names the pipeline, file and k, and so does a snapshot line no longer run. Pipelines of
//! methods registered after the snapshot are printed as new; `MICROAGG_SNAPSHOT=add`
//! appends them to the snapshot when every compared line is identical (the stored lines
//! stay as they are). `MICROAGG_SNAPSHOT_ONLY=X` /
//! `MICROAGG_SNAPSHOT_SKIP=X` run only / leave out the pipelines whose name contains X
//! (quicker checks between steps; `SKIP=imhm` takes about a third of the time). The CASC files are not committed (see
//! `../shared/instances/README.md`); without them the test fails rather than pass empty.

mod common;
use microagg::data::Instance;
use microagg::pipeline::Pipeline;
use sha2::{Digest, Sha256};
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

const SNAPSHOT: &str = "tests/snapshots/labels.tsv";
const FILES: [&str; 3] = ["tarragona", "census", "eia"];
const KS: [usize; 2] = [3, 5];
const SEED: u64 = 11;

/// Step budgets of the refiners that otherwise run on a clock or for minutes.
fn budget(refiner: &str) -> Option<u64> {
    match refiner {
        "ils" | "lahc" => Some(400),
        "sa" => Some(20),
        "exact-lns" => Some(12),
        _ => None,
    }
}

/// Parameter variants of the search refiners, run after MDAV only.
const VARIANTS: &[(&str, &[&str])] = &[
    ("descent", &["descent.strategy=best"]),
    ("descent", &["descent.cycles=true"]),
    ("sa", &["sa.schedule=adaptive", "sa.moves_per_temp=500"]),
    ("sa", &["sa.group_moves=0.1", "sa.moves_per_temp=500"]),
    ("ils", &["ils.cycles=false", "ils.split_large=false"]),
    ("ils", &["ils.pool=centroids", "ils.sizes=random"]),
    (
        "ils",
        &["ils.settle=2", "ils.carves=3", "ils.dissolve_rate=0.3"],
    ),
    ("ils", &["ils.temperature=0", "ils.strategy=best"]),
    // No time cap of its own: the node budget alone, so that the labels repeat.
    (
        "exact-lns",
        &[
            "exact-lns.seconds=0",
            "exact-lns.nodes=5",
            "exact-lns.records=40",
        ],
    ),
];

struct Case {
    spec: String,
    params: Vec<String>,
    max_steps: Option<u64>,
}

fn cases() -> Vec<Case> {
    let all = registered();
    let inits: Vec<&str> = all.iter().filter(|m| !m.1).map(|m| m.0).collect();
    let refiners: Vec<&str> = all.iter().filter(|m| m.1).map(|m| m.0).collect();
    let mut out = Vec::new();
    for init in &inits {
        out.push(Case {
            spec: init.to_string(),
            params: Vec::new(),
            max_steps: None,
        });
        // exact-lns runs after MDAV only (a VARIANT): a branch-and-price per step is too
        // slow to pair with every initializer.
        for r in refiners.iter().filter(|&&r| r != "exact-lns") {
            out.push(Case {
                spec: format!("{init}+{r}"),
                params: Vec::new(),
                max_steps: budget(r),
            });
        }
    }
    for (r, params) in VARIANTS {
        out.push(Case {
            spec: format!("mdav+{r}"),
            params: params.iter().map(|s| s.to_string()).collect(),
            max_steps: budget(r),
        });
    }
    // Chains of refiners, as the README's examples use them.
    for spec in [
        "mdav+decompose-shrink+ils",
        "cbfs+descent+sa",
        "mdav+imhm+descent",
    ] {
        out.push(Case {
            spec: spec.into(),
            params: Vec::new(),
            max_steps: Some(300),
        });
    }
    out
}

/// (name, is a refiner) of every registered method, in registry order.
fn registered() -> Vec<(&'static str, bool)> {
    microagg::registry::registry()
        .into_iter()
        .map(|m| (m.name, m.kind() == microagg::method::MethodKind::Refiner))
        .collect()
}

fn one_attribute(spec: &str) -> bool {
    let first = spec.split('+').next().unwrap();
    microagg::registry::find(first).unwrap().one_attribute
}

fn line(case: &Case, file: &str, k: usize, inst: &Instance) -> String {
    let never = AtomicBool::new(false);
    let out = Pipeline::parse(&case.spec, &case.params)
        .unwrap_or_else(|e| panic!("{}: {e}", case.spec))
        .run_with(inst, k, SEED, None, case.max_steps, &never)
        .unwrap_or_else(|e| panic!("{} on {file} k={k}: {e}", case.spec));
    let mut text = String::new();
    for l in out.partition.labels() {
        writeln!(text, "{l}").unwrap();
    }
    let hash = Sha256::digest(text.as_bytes());
    let hex: String = hash.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}\t{}\t{file}\t{k}\t{hex}\t{:016x}",
        case.spec,
        if case.params.is_empty() {
            "-".to_string()
        } else {
            case.params.join(",")
        },
        out.partition.sse().to_bits()
    )
}

#[test]
#[ignore = "minutes of CPU; run before and after a refactor"]
fn labels_match_the_snapshot() {
    let mut insts = Vec::new();
    for f in FILES {
        let inst = common::casc(f).unwrap_or_else(|| panic!("{f}: the CASC file is needed"));
        let one = common::first_column(&inst);
        insts.push((f, inst, one));
    }
    // For quicker checks between steps: only pipelines containing ONLY, none containing
    // SKIP (e.g. SKIP=imhm leaves out the slowest refiner); lines not run are not compared.
    let only = std::env::var("MICROAGG_SNAPSHOT_ONLY").ok();
    let skip = std::env::var("MICROAGG_SNAPSHOT_SKIP").ok();
    let mut lines = Vec::new();
    let t_all = Instant::now();
    for case in cases() {
        if only.as_deref().is_some_and(|o| !case.spec.contains(o))
            || skip.as_deref().is_some_and(|o| case.spec.contains(o))
        {
            continue;
        }
        let t = Instant::now();
        for (f, inst, one) in &insts {
            let inst = if one_attribute(&case.spec) { one } else { inst };
            for k in KS {
                lines.push(line(&case, f, k, inst));
            }
        }
        eprintln!("{:>7.2} s  {}", t.elapsed().as_secs_f64(), case.spec);
    }
    eprintln!(
        "{} runs in {:.1} s",
        lines.len(),
        t_all.elapsed().as_secs_f64()
    );
    let key = |l: &str| l.rsplitn(3, '\t').nth(2).unwrap().to_string();
    if std::env::var("MICROAGG_SNAPSHOT").is_ok_and(|v| v == "write") {
        let mut text = String::from("pipeline\tparams\tfile\tk\tlabels_sha256\tsse_bits\n");
        for l in &lines {
            text.push_str(l);
            text.push('\n');
        }
        std::fs::create_dir_all("tests/snapshots").unwrap();
        std::fs::write(SNAPSHOT, text).unwrap();
        eprintln!("wrote {SNAPSHOT}");
        return;
    }
    let stored = std::fs::read_to_string(SNAPSHOT).expect("tests/snapshots/labels.tsv");
    let want: BTreeMap<String, String> = stored
        .lines()
        .skip(1)
        .map(|l| (key(l), l.to_string()))
        .collect();
    let mut differ = Vec::new();
    let mut new = Vec::new();
    for l in &lines {
        match want.get(&key(l)) {
            Some(w) if w == l => {}
            Some(w) => differ.push(format!("differs: {l}\n   was:  {w}")),
            // A method registered after the snapshot has no earlier labels to compare.
            None => {
                new.push(l.as_str());
                eprintln!("new, not compared: {l}");
            }
        }
    }
    if only.is_none() && skip.is_none() {
        let have: std::collections::BTreeSet<String> = lines.iter().map(|l| key(l)).collect();
        for k in want.keys().filter(|k| !have.contains(*k)) {
            differ.push(format!("no longer run: {k}"));
        }
    }
    assert!(
        differ.is_empty(),
        "{} of {} lines differ from {SNAPSHOT}:\n{}",
        differ.len(),
        lines.len(),
        differ.join("\n")
    );
    eprintln!(
        "all {} compared lines identical to {SNAPSHOT} ({} new lines not compared)",
        lines.len() - new.len(),
        new.len()
    );
    if std::env::var("MICROAGG_SNAPSHOT").is_ok_and(|v| v == "add") && !new.is_empty() {
        let mut text = stored;
        for l in &new {
            text.push_str(l);
            text.push('\n');
        }
        std::fs::write(SNAPSHOT, text).unwrap();
        eprintln!("added {} new lines to {SNAPSHOT}", new.len());
    }
}
