//! Issue 22 item 3: missing values (`run --missing refuse|ignore`). Hand computations on a
//! four-record file (z-scores, MDAV groups, masked SSE and IL, the released file kept and
//! filled, the record), the masked SSE of every partition of a small instance with holes
//! against an independent recomputation (brute force over all partitions), the masked MDAV
//! equal to `mdav` on complete data, a strata-split run, and the errors.

use crate::common;
#[path = "missing/reference.rs"]
mod reference;
use common::{argv, cli_err, cli_json, cli_ok, for_each_set_partition, run_args, write_file};
use microagg::data::{csv_file, ColumnSelection};
use microagg::init::lineage::rule_method::RuleMethod;
use microagg::init::lineage::{
    cbfs, cbfs_nn, mdav, mdav1, mdav_a1, mdav_generic, mdav_nc, mdav_single,
};
use microagg::method::StopRule;
use microagg::missing::{self, MissingPolicy};
use microagg::partition::Partition;
use std::path::Path;
use std::sync::atomic::AtomicBool;

/// The lineage methods that run on missing cells, with their rules.
const MASKED: [RuleMethod; 8] = [
    mdav::METHOD,
    mdav_generic::METHOD,
    mdav1::METHOD,
    mdav_a1::METHOD,
    mdav_single::METHOD,
    mdav_nc::METHOD,
    cbfs::METHOD,
    cbfs_nn::METHOD,
];

/// The masked groups of one of [`MASKED`], run directly (complete data included).
fn masked_groups(m: &RuleMethod, inst: &microagg::data::Instance, k: usize) -> Vec<Vec<usize>> {
    m.masked_groups(inst, k, StopRule::NEVER).unwrap()
}

/// The registry declares exactly these initializers, and `descent`, as running on missing
/// cells (what `run --missing ignore` accepts).
#[test]
fn the_registry_declares_the_masked_methods() {
    let declared = |kind| -> Vec<&str> {
        let mut names: Vec<&str> = microagg::registry::registry()
            .iter()
            .filter(|m| m.missing_cells && m.kind() == kind)
            .map(|m| m.name)
            .collect();
        names.sort_unstable();
        names
    };
    let mut want: Vec<&str> = MASKED.iter().map(|m| m.name).collect();
    want.sort_unstable();
    assert_eq!(declared(microagg::method::MethodKind::Initializer), want);
    assert_eq!(declared(microagg::method::MethodKind::Refiner), ["descent"]);
}

fn load(text: &str, columns: &str) -> microagg::data::Instance {
    csv_file::read_csv_missing(
        text.as_bytes(),
        "t.csv",
        "t",
        &ColumnSelection::parse(columns),
        b',',
        &[],
        MissingPolicy::Ignore,
    )
    .unwrap()
    .0
}

fn try_load(text: &str) -> microagg::error::Result<microagg::data::Instance> {
    csv_file::read_csv_missing(
        text.as_bytes(),
        "t.csv",
        "t",
        &ColumnSelection::parse(""),
        b',',
        &[],
        MissingPolicy::Ignore,
    )
    .map(|r| r.0)
}

const FOUR: &str = "id,a,b\nr1,0,0\nr2,1,NA\nr3,10,10\nr4,11,12\n";

/// a = 0, 1, 10, 11: mean 5.5, variance 25.25; b observed 0, 10, 12: mean 22/3, variance
/// 744/27. MDAV, k = 2: the centroid is 0 in z; r1 is farthest (z = (-1.095, -1.397)), its
/// nearest is r2 (a alone: (1/sd_a)^2 * 2/1), the rest {r3, r4} is one group. Masked SSE:
/// a: 0.5/25.25 twice; b: group 1 has one observed value (0), group 2 (10, 12): 2 / (744/27).
/// SST = 7 observed cells.
#[test]
fn four_records_by_hand_through_the_cli() {
    let inst = load(FOUR, "a,b");
    assert!(inst.is_missing(1, 1) && inst.has_missing());
    assert!((inst.sst - 7.0).abs() < 1e-12);
    assert!((inst.mean[1] - 22.0 / 3.0).abs() < 1e-12);
    assert!((inst.std[1] - (744.0f64 / 27.0).sqrt()).abs() < 1e-12);
    let sse = 1.0 / 25.25 + 2.0 * 27.0 / 744.0;
    assert!((missing::sse(&inst, &[0, 0, 1, 1]) - sse).abs() < 1e-12);

    let dir = tempfile::tempdir().unwrap();
    let input = write_file(dir.path(), "in.csv", FOUR);
    let run = |out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let fixed = "--columns a,b --k 2 --method mdav --missing ignore --json";
        let tail = [
            &[
                "--masked-out",
                out.to_str().unwrap(),
                "--row-order",
                "input",
            ],
            extra,
        ];
        let rec = cli_json(&argv(
            &["run", "--data", input.to_str().unwrap()],
            fixed,
            &tail.concat(),
        ));
        (rec, std::fs::read_to_string(out).unwrap())
    };
    let (rec, text) = run("keep.csv", &[]);
    assert!((rec["sse"].as_f64().unwrap() - sse).abs() < 1e-12, "{rec}");
    assert!((rec["il"].as_f64().unwrap() - 100.0 * sse / 7.0).abs() < 1e-10);
    assert!(rec["stages"][0]["name"] == "mdav");
    assert!((rec["sst"].as_f64().unwrap() - 7.0).abs() < 1e-12);
    assert_eq!(rec["groups"], 2);
    let m = &rec["missing"];
    assert_eq!(m["policy"], "ignore");
    assert_eq!(m["cells"], 1);
    assert_eq!(m["per_column"], serde_json::json!([0, 1]));
    assert_eq!(m["records"], 1);
    assert_eq!(m["release"], "keep");
    // Group means over observed cells; r2's b stays "NA", byte for byte.
    assert_eq!(
        text,
        "id,a,b\nr1,0.5,0\nr2,0.5,NA\nr3,10.5,11\nr4,10.5,11\n"
    );
    let il = rec["release"]["il_released"].as_f64().unwrap();
    assert!((il - 100.0 * sse / 7.0).abs() < 1e-10, "{il}");
    let (rec, text) = run("fill.csv", &["--missing-release", "fill"]);
    assert_eq!(text, "id,a,b\nr1,0.5,0\nr2,0.5,0\nr3,10.5,11\nr4,10.5,11\n");
    assert_eq!(rec["missing"]["release"], "fill");
    // The IL of the released values is over the observed cells: the filled one adds nothing.
    assert!((rec["release"]["il_released"].as_f64().unwrap() - il).abs() < 1e-12);
}

/// Independent masked SSE from the raw values: z-scores of the observed values computed
/// here, per group and column the squared deviations of observed values from their mean.
fn masked_sse_from_raw(raw: &[Option<f64>], n: usize, d: usize, labels: &[usize]) -> f64 {
    let z = crate::holes::z_of(raw, n, d);
    let g = labels.iter().max().unwrap() + 1;
    let mut total = 0.0;
    for c in 0..g {
        for j in 0..d {
            let v: Vec<f64> = (0..n)
                .filter(|&i| labels[i] == c)
                .filter_map(|i| z[i * d + j])
                .collect();
            if v.is_empty() {
                continue;
            }
            let m = v.iter().sum::<f64>() / v.len() as f64;
            total += v.iter().map(|x| (x - m) * (x - m)).sum::<f64>();
        }
    }
    total
}

/// On every partition (groups >= 2) of 8 records with holes: the library's masked SSE and
/// the SSE of the partition the records report (group-imputed z-scores) equal an
/// independent recomputation; MDAV's partition is feasible and its reported SSE is its
/// masked SSE; the brute-force optimum is no larger than MDAV's (no optimum is claimed).
#[test]
fn masked_sse_of_every_partition_against_an_independent_recomputation() {
    let (n, d, k) = (8, 3, 2);
    let mut next = lcg(12345);
    for case in 0..4 {
        let mut raw: Vec<Option<f64>> =
            (0..n * d).map(|_| Some((next() * 100.0).round())).collect();
        // 4..7 holes, never a whole row.
        for t in 0..4 + case {
            let cell = (t * 7 + case * 5) % (n * d);
            if (0..d)
                .filter(|&j| raw[(cell / d) * d + j].is_some())
                .count()
                > 1
            {
                raw[cell] = None;
            }
        }
        let mut text = "a,b,c\n".to_string();
        for i in 0..n {
            let cells: Vec<String> = (0..d)
                .map(|j| raw[i * d + j].map_or(String::new(), |v| v.to_string()))
                .collect();
            text += &format!("{}\n", cells.join(","));
        }
        let inst = load(&text, "");
        let mut best = f64::INFINITY;
        let mut partitions = Vec::new();
        for_each_set_partition(n, k, &mut |labels| partitions.push(labels.to_vec()));
        for labels in partitions {
            let want = masked_sse_from_raw(&raw, n, d, &labels);
            let got = missing::sse(&inst, &labels);
            let reported = microagg::partition::Partition::from_labels(&inst, labels.clone())
                .unwrap()
                .sse();
            assert!(
                (got - want).abs() < 1e-9,
                "case {case} {labels:?}: {got} vs {want}"
            );
            assert!((reported - want).abs() < 1e-9, "case {case} {labels:?}");
            best = best.min(want);
        }
        let groups = reference::groups(&inst, k, &AtomicBool::new(false)).unwrap();
        assert!(groups.iter().all(|g| g.len() >= k));
        let labels = reference::labels(n, &groups);
        let never = AtomicBool::new(false);
        let out = microagg::pipeline::Pipeline::parse("mdav", &[])
            .unwrap()
            .run(&inst, k, 0, None, &never)
            .unwrap();
        assert_eq!(out.partition.canonical_labels(), labels);
        let sse = masked_sse_from_raw(&raw, n, d, &labels);
        assert!((out.partition.sse() - sse).abs() < 1e-9);
        assert!(
            best <= sse + 1e-12,
            "case {case}: optimum {best} > MDAV {sse}"
        );
    }
}

/// On complete data every masked method (the engine on NaN-marked z-scores behind the
/// masked scan, here with no NaN) gives its unmasked method's labels, identical, on the
/// CASC files and on generated data.
#[test]
fn masked_methods_on_complete_data_give_the_labels_of_their_unmasked_selves() {
    let mut instances: Vec<microagg::data::Instance> = ["tarragona", "census", "eia"]
        .iter()
        .filter_map(|id| common::casc(id))
        .collect();
    instances.push(common::synthetic("gauss:n=500,d=4,clusters=5,seed=3"));
    for inst in &instances {
        for m in &MASKED {
            let method = m.name;
            for k in [3, 5] {
                let (_, want) = common::run_method(inst, method, k, 0);
                // Renumbered by first appearance along the rows.
                let want = Partition::from_labels(inst, want)
                    .unwrap()
                    .canonical_labels();
                let groups = masked_groups(m, inst, k);
                let got = reference::labels(inst.n, &groups);
                assert_eq!(got, want, "{method} on {} k = {k}", inst.name);
            }
        }
    }
}

/// Random small instances with holes (n = 9..40, d = 2..4, up to a third of the cells
/// missing, duplicated values): the engine's masked MDAV equals the plain-scan reference
/// (`tests/release/missing/reference.rs`, its own distance and centroids); every masked method
/// places every record once in groups of at least k, and the SSE its run reports equals
/// the independent masked SSE from the raw values.
#[test]
fn masked_methods_on_data_with_holes_against_independent_implementations() {
    let mut next = lcg(987654321);
    let never = AtomicBool::new(false);
    let mut with_holes = 0;
    for case in 0..60 {
        let n = 9 + (next() * 32.0) as usize;
        let d = 2 + case % 3;
        let k = 2 + case % 4;
        let share = next() / 3.0;
        let scale = if case % 2 == 0 { 10.0 } else { 1000.0 };
        let (text, raw) = holes_case(&mut next, n, d, share, scale, "NA");
        let Ok(inst) = try_load(&text) else {
            continue; // a column constant over its observed values: refused, not tested here
        };
        with_holes += usize::from(inst.has_missing());
        let want = reference::labels(n, &reference::groups(&inst, k, &never).unwrap());
        let got = masked_groups(&mdav::METHOD, &inst, k);
        assert_eq!(reference::labels(n, &got), want, "case {case}: mdav");
        for method in MASKED.iter().map(|m| m.name) {
            let out = microagg::pipeline::Pipeline::parse(method, &[])
                .unwrap()
                .run(&inst, k, 0, None, &never)
                .unwrap();
            let labels = out.partition.labels().to_vec();
            let g = labels.iter().max().unwrap() + 1;
            for c in 0..g {
                let size = labels.iter().filter(|&&l| l == c).count();
                assert!(size >= k, "case {case} {method}: group of {size} < {k}");
            }
            let sse = masked_sse_from_raw(&raw, n, d, &labels);
            assert!(
                (out.partition.sse() - sse).abs() <= 1e-9 * (1.0 + sse),
                "case {case} {method}: {} vs {sse}",
                out.partition.sse()
            );
        }
    }
    assert!(with_holes >= 40, "{with_holes} instances with holes");
}

/// A strata-split run with holes: groups within strata, the record's SSE is the masked SSE
/// of its labels, the missing cells stay in the released file.
#[test]
fn a_strata_split_run_with_missing_values() {
    let dir = tempfile::tempdir().unwrap();
    let mut text = "s,a,b\n".to_string();
    for i in 0..12 {
        let b = if i % 5 == 2 {
            String::new()
        } else {
            format!("{}", (i * 7) % 11)
        };
        text += &format!("{},{},{b}\n", if i < 6 { "x" } else { "y" }, i * i % 13);
    }
    let input = write_file(dir.path(), "s.csv", &text);
    let (out, labels) = (dir.path().join("o.csv"), dir.path().join("l.txt"));
    let rec = cli_json(&argv(
        &["run", "--data", input.to_str().unwrap()],
        "--strata s --k 3 --method mdav --missing ignore --json",
        &[
            "--masked-out",
            out.to_str().unwrap(),
            "--labels-out",
            labels.to_str().unwrap(),
        ],
    ));
    let labels: Vec<usize> = std::fs::read_to_string(&labels)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    for g in common::groups(&labels) {
        assert!(
            g.iter().all(|&i| (i < 6) == (g[0] < 6)),
            "group {g:?} mixes strata"
        );
    }
    let inst = csv_file::load_csv_missing(
        &input,
        &ColumnSelection::All,
        b',',
        &["s".to_string()],
        MissingPolicy::Ignore,
    )
    .unwrap()
    .0;
    let sse = missing::sse(&inst, &labels);
    assert!((rec["sse"].as_f64().unwrap() - sse).abs() < 1e-9, "{rec}");
    assert_eq!(rec["missing"]["cells"], 2);
    let released = std::fs::read_to_string(&out).unwrap();
    let holes = released.lines().filter(|l| l.ends_with(',')).count();
    assert_eq!(holes, 2, "{released}");
}

fn expect_error(args: &[&str], needles: &[&str]) {
    let err = cli_err(args);
    for n in needles {
        assert!(err.contains(n), "{n:?} not in {err}");
    }
}

#[test]
fn missing_values_are_refused_by_default_and_every_unsupported_use_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_file(dir.path(), "in.csv", FOUR);
    let f = input.to_str().unwrap();
    let base = ["run", "--data", f, "--columns", "a,b", "--k", "2"];
    let with = |extra: &[&'static str]| {
        let mut v: Vec<&str> = base.to_vec();
        v.extend_from_slice(extra);
        v
    };
    expect_error(
        &with(&["--method", "mdav"]),
        &["in.csv", "row 2", "column 'b'", "'NA'", "--missing ignore"],
    );
    expect_error(
        &with(&["--method", "mdav+ils", "--missing", "ignore"]),
        &["mdav+ils", "complete data", "--method mdav"],
    );
    // md's exact diameter search prunes by the triangle inequality: refused; vmdav and
    // kward are not engine methods.
    for method in ["md", "vmdav", "kward", "mhm-mdav"] {
        expect_error(
            &with(&["--method", method, "--missing", "ignore"]),
            &[
                &format!("'{method}'"),
                "complete data",
                "mdav-generic",
                "cbfs-nn",
            ],
        );
    }
    // cbfs (NC growth) runs on the holes.
    cli_ok(&with(&["--method", "cbfs", "--missing", "ignore"]));
    expect_error(
        &with(&["--method", "mdav", "--missing", "ignore", "--bound", "nn"]),
        &["--bound", "missing cells"],
    );
    expect_error(
        &with(&["--method", "mdav", "--missing", "ignore", "--blocks", "4"]),
        &["--blocks", "missing cells"],
    );
    expect_error(
        &with(&["--method", "mdav", "--missing-release", "fill"]),
        &["--missing-release fill", "--missing ignore"],
    );
    expect_error(
        &with(&["--method", "mdav", "--missing", "maybe"]),
        &["maybe", "refuse", "ignore"],
    );
    // A record with every chosen value missing; a column with one observed value.
    let bad = write_file(dir.path(), "bad.csv", "a,b\n1,2\n,\n3,4\n5,6\n");
    expect_error(
        &run_args(bad.to_str().unwrap(), "2", "mdav", &["--missing", "ignore"]),
        &["bad.csv", "row 2", "every chosen column is missing"],
    );
    let thin = write_file(dir.path(), "thin.csv", "a,b\n1,2\n2,\n3,\n5,\n");
    expect_error(
        &run_args(
            thin.to_str().unwrap(),
            "2",
            "mdav",
            &["--missing", "ignore"],
        ),
        &["thin.csv", "column 'b'", "1 observed value"],
    );
    // Complete data under ignore: the refuse run's bytes and record (no `missing` object).
    let full = write_file(dir.path(), "full.csv", "a,b\n1,2\n2,5\n3,4\n5,6\n9,9\n");
    let run = |extra: &[&str]| {
        let mut v = run_args(full.to_str().unwrap(), "2", "mdav", &["--json"]);
        v.extend_from_slice(extra);
        let mut r = cli_json(&v);
        r["seconds"] = 0.into();
        r["stages"][0]["seconds"] = 0.into();
        r
    };
    let plain = run(&[]);
    assert!(plain.get("missing").is_none());
    assert_eq!(plain, run(&["--missing", "ignore"]));
}

/// The agency example (`examples/agency/households.csv`) without weights and with weights
/// on a complete column, unsplit: the figures the README quoted before its workflow took
/// weights and holes in one run (that run: `tests/run/readme_agency.rs`).
#[test]
fn the_readme_agency_workflow_gives_its_figures() {
    let input = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agency/households.csv");
    let f = input.to_str().unwrap();
    let cols = "income,expenditure,savings";
    expect_error(
        &argv(
            &["run", "--data", f, "--columns", cols],
            "--k 3 --method mdav",
            &[],
        ),
        &[
            "households.csv",
            "row 5 (line 6)",
            "column 'savings' (6)",
            "empty cell",
        ],
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("released.csv");
    let rec = cli_json(&argv(
        &["run", "--data", f, "--columns", cols],
        "--strata region --k 3 --method mdav --missing ignore",
        &[
            "--masked-out",
            out.to_str().unwrap(),
            "--round-to-input",
            "--measures",
            "--row-order",
            "input",
            "--json",
        ],
    ));
    let close = |v: &serde_json::Value, want: f64, tol: f64| {
        assert!((v.as_f64().unwrap() - want).abs() < tol, "{v} vs {want}")
    };
    close(&rec["il"], 5.766239, 5e-7);
    assert_eq!(rec["groups"], 19);
    assert_eq!(
        rec["missing"],
        serde_json::json!({"policy": "ignore", "cells": 6, "per_column": [0, 2, 4],
                           "records": 6, "release": "keep"})
    );
    let m = &rec["release"]["measures"];
    assert_eq!(m["n"], 54);
    close(&m["utility"]["il1s"], 0.1295, 5e-5);
    close(&m["utility"]["correlation_change"], 0.0459, 5e-5);
    close(&m["risk"]["dbrl_percent"], 24.07, 5e-3);
    close(&m["risk"]["sdid_percent"], 21.36, 5e-3);
    let released = std::fs::read_to_string(&out).unwrap();
    let original = std::fs::read_to_string(&input).unwrap();
    for (a, b) in released.lines().zip(original.lines()) {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split(',').collect(), b.split(',').collect());
        assert_eq!(a[..3], b[..3], "id, region and weight are copied");
        for j in 4..6 {
            assert_eq!(
                a[j] == "NA" || a[j].is_empty(),
                b[j] == "NA" || b[j].is_empty()
            );
            if b[j] == "NA" || b[j].is_empty() {
                assert_eq!(a[j], b[j], "a hole is kept byte for byte");
            }
        }
    }
    // Step 4, sampling weights (unsplit, complete column): the weighted IL it quotes.
    let weighted = dir.path().join("released-weighted.csv");
    let rec = cli_json(&argv(
        &["run", "--data", f],
        "--columns income --weights weight --k 3 --method mdav",
        &["--masked-out", weighted.to_str().unwrap(), "--json"],
    ));
    close(&rec["il"], 0.351166, 5e-7);
    close(&rec["weights"]["il"], 0.362194, 5e-7);
    assert_eq!(rec["weights"]["objective"], "unweighted");
    close(&rec["release"]["il_released_weighted"], 0.362194, 5e-7);
}

/// A random instance with holes as CSV text (values `next() * scale` rounded to integers so
/// ties occur; each cell missing with probability `share` while its record keeps another
/// value; a missing cell written as `missing`), and its raw cells.
fn holes_case(
    next: &mut impl FnMut() -> f64,
    n: usize,
    d: usize,
    share: f64,
    scale: f64,
    missing: &str,
) -> (String, Vec<Option<f64>>) {
    let mut raw: Vec<Option<f64>> = (0..n * d).map(|_| Some((next() * scale).round())).collect();
    for i in 0..n {
        for j in 0..d {
            let observed = (0..d).filter(|&t| raw[i * d + t].is_some()).count();
            if next() < share && observed > 1 {
                raw[i * d + j] = None;
            }
        }
    }
    let mut text = (0..d)
        .map(|j| format!("c{j}"))
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for i in 0..n {
        let cells: Vec<String> = (0..d)
            .map(|j| raw[i * d + j].map_or(missing.to_string(), |v| v.to_string()))
            .collect();
        text += &format!("{}\n", cells.join(","));
    }
    (text, raw)
}

/// A linear congruential generator started at `seed`: numbers in [0, 1) from the top 31 bits
/// of its state.
fn lcg(seed: u64) -> impl FnMut() -> f64 {
    let mut state = seed;
    move || {
        state = state
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (state >> 33) as f64 / (1u64 << 31) as f64
    }
}

/// proofs/P42: every shift delta (each record to each other group) and every swap delta
/// (each pair in different groups) of the masked descent equals the change of the masked
/// SSE recomputed from the raw values, on instances with holes; after applying a move the
/// cached SSE is the recomputed one.
#[test]
fn masked_descent_deltas_against_recomputation() {
    use microagg::objective::masked::MaskedSums;
    use microagg::partition::Partition;
    let mut next = lcg(4242);
    let mut checked = 0;
    for case in 0..30 {
        let (n, d, k) = (10 + case % 5, 2 + case % 3, 2 + case % 2);
        let (text, raw) = holes_case(&mut next, n, d, 0.3, 20.0, "");
        let Ok(inst) = try_load(&text) else { continue };
        // A random feasible labelling: sizes k.., shuffled.
        let g = n / k;
        let mut labels: Vec<usize> = (0..n).map(|i| (i % g).min(g - 1)).collect();
        for i in (1..n).rev() {
            let j = (next() * (i + 1) as f64) as usize % (i + 1);
            labels.swap(i, j);
        }
        let p = Partition::from_labels(&inst, labels.clone()).unwrap();
        let sums = MaskedSums::new(&inst, &p);
        let before = masked_sse_from_raw(&raw, n, d, &labels);
        assert!((p.sse() - before).abs() < 1e-9, "case {case}");
        // A move's cached delta `got` against the change to the labelling `after`,
        // recomputed from the raw values.
        let mut check = |after: &[usize], got: f64, what: String| {
            let want = masked_sse_from_raw(&raw, n, d, after) - before;
            assert!(
                (got - want).abs() < 1e-9,
                "case {case} {what}: {got} vs {want}"
            );
            checked += 1;
        };
        for i in 0..n {
            for to in (0..g).filter(|&h| h != labels[i]) {
                let mut after = labels.clone();
                after[i] = to;
                let got = sums.shift_delta(&inst, &p, i, to);
                check(&after, got, format!("shift {i}->{to}"));
            }
            for j in (0..n).filter(|&j| labels[j] != labels[i]) {
                let mut after = labels.clone();
                after.swap(i, j);
                let got = sums.swap_delta(&inst, &p, i, j);
                check(&after, got, format!("swap {i},{j}"));
            }
        }
        // Apply one shift (from a group that keeps k) and one swap; the partition's masked
        // SSE stays exact, and the deltas after the moves are those of the new labelling.
        let mut moved = p.clone();
        if let Some(i) = (0..n).find(|&i| moved.size(labels[i]) > k) {
            let to = (labels[i] + 1) % g;
            moved.apply_shift(&inst, i, to);
            let want = masked_sse_from_raw(&raw, n, d, moved.labels());
            assert!((moved.sse() - want).abs() < 1e-9, "case {case} after shift");
        }
        let (i, j) = (
            0,
            (0..n)
                .find(|&j| moved.labels()[j] != moved.labels()[0])
                .unwrap(),
        );
        moved.apply_swap(&inst, i, j);
        let want = masked_sse_from_raw(&raw, n, d, moved.labels());
        assert!((moved.sse() - want).abs() < 1e-9, "case {case} after swap");
        let (sums, now) = (MaskedSums::new(&inst, &moved), moved.labels().to_vec());
        let to = (now[1] + 1) % g;
        if to != now[1] {
            let mut after = now.clone();
            after[1] = to;
            let want = masked_sse_from_raw(&raw, n, d, &after) - want;
            let got = sums.shift_delta(&inst, &moved, 1, to);
            assert!(
                (got - want).abs() < 1e-9,
                "case {case} shift after the moves"
            );
        }
    }
    assert!(checked > 2000, "{checked} deltas checked");
}

/// On complete data the masked deltas are the `Partition`'s (P02) up to rounding.
#[test]
fn masked_descent_deltas_on_complete_data_equal_the_partitions() {
    use microagg::objective::masked::MaskedSums;
    let inst = common::synthetic("gauss:n=60,d=3,clusters=4,seed=9");
    let labels: Vec<usize> = (0..60).map(|i| i % 15).collect();
    let p = microagg::partition::Partition::from_labels(&inst, labels.clone()).unwrap();
    let m = MaskedSums::new(&inst, &p);
    for i in 0..60 {
        for to in [0, 7, 14] {
            let (a, b) = (m.shift_delta(&inst, &p, i, to), p.shift_delta(&inst, i, to));
            assert!(
                (a - b).abs() < 1e-9 * (1.0 + b.abs()),
                "shift {i}->{to}: {a} vs {b}"
            );
        }
        for j in [3, 31, 59] {
            let (a, b) = (m.swap_delta(&inst, &p, i, j), p.swap_delta(&inst, i, j));
            assert!(
                (a - b).abs() < 1e-9 * (1.0 + b.abs()),
                "swap {i},{j}: {a} vs {b}"
            );
        }
    }
}

/// `mdav+descent` on data with holes: the descent never raises the masked SSE, ends at a
/// local optimum of the full shift/swap neighbourhood (neighbours = n - 1, every move
/// checked by recomputation), keeps groups of at least k, and the SSE the run reports is the
/// recomputed masked SSE. Through the CLI it runs, and `cycles = true` is refused.
#[test]
fn masked_descent_reaches_a_recomputed_local_optimum() {
    let mut next = lcg(777);
    let never = AtomicBool::new(false);
    for case in 0..12 {
        let (n, d, k) = (14 + 2 * case, 3, 2 + case % 3);
        let (text, raw) = holes_case(&mut next, n, d, 0.25, 20.0, "");
        let Ok(inst) = try_load(&text) else { continue };
        let params = [format!("descent.neighbours={}", n - 1)];
        let out = microagg::pipeline::Pipeline::parse("mdav+descent", &params)
            .unwrap()
            .run(&inst, k, 0, None, &never)
            .unwrap();
        assert_eq!(out.stages.len(), 2);
        assert!(
            out.stages[1].sse <= out.stages[0].sse + 1e-12,
            "case {case}"
        );
        let labels = out.partition.canonical_labels();
        let sse = masked_sse_from_raw(&raw, n, d, &labels);
        assert!((out.partition.sse() - sse).abs() < 1e-9, "case {case}");
        let g = labels.iter().max().unwrap() + 1;
        let size = |l: &[usize], c: usize| l.iter().filter(|&&x| x == c).count();
        assert!((0..g).all(|c| size(&labels, c) >= k), "case {case}");
        let tol = 1e-9 * inst.sst;
        for i in 0..n {
            for to in (0..g).filter(|&h| h != labels[i]) {
                if size(&labels, labels[i]) > k {
                    let mut after = labels.clone();
                    after[i] = to;
                    assert!(
                        masked_sse_from_raw(&raw, n, d, &after) >= sse - tol,
                        "case {case}: shift {i}->{to} improves"
                    );
                }
            }
            for j in (0..n).filter(|&j| labels[j] != labels[i]) {
                let mut after = labels.clone();
                after.swap(i, j);
                assert!(
                    masked_sse_from_raw(&raw, n, d, &after) >= sse - tol,
                    "case {case}: swap {i},{j} improves"
                );
            }
        }
    }
    let dir = tempfile::tempdir().unwrap();
    let (text, _) = holes_case(&mut next, 30, 3, 0.2, 20.0, "");
    let input = write_file(dir.path(), "h.csv", &text);
    let input = input.to_str().unwrap();
    let args = |extra: &[&'static str]| {
        argv(
            &["run", "--data", input],
            "--k 3 --missing ignore --json",
            extra,
        )
    };
    let rec = cli_json(&args(&["--method", "mdav+descent"]));
    assert_eq!(rec["stages"][1]["name"], "descent");
    assert!(rec["stages"][1]["sse"].as_f64().unwrap() <= rec["stages"][0]["sse"].as_f64().unwrap());
    let err = cli_err(&args(&[
        "--method",
        "mdav+descent",
        "--param",
        "descent.cycles=true",
    ]));
    assert!(err.contains("3-cycle has no masked delta"));
}

/// Records the stage and step events of a run.
#[derive(Default)]
struct Events(Vec<(String, String, f64)>);

impl microagg::search::Observer for Events {
    fn observe(&mut self, _: &microagg::data::Instance, e: &microagg::search::Event) {
        use microagg::search::Event;
        let (kind, stage, sse) = match e {
            Event::StageStart { stage, sse } => ("start", stage, *sse),
            Event::Step {
                stage, best_sse, ..
            } => ("step", stage, *best_sse),
            Event::StageEnd { stage, sse, .. } => ("end", stage, *sse),
            _ => return,
        };
        self.0.push((kind.to_string(), stage.to_string(), sse));
    }
}

/// The masked stages are ordinary stages of the one executor: observers see their events,
/// the step budget stops the descent (and repeats), a deadline stops the initializer, and
/// the records carry steps, stop reason and the descent's counters.
#[test]
fn masked_stages_run_under_the_executor() {
    use microagg::search::StopReason;
    let mut next = lcg(24681357);
    let (text, raw) = holes_case(&mut next, 700, 4, 0.15, 100.0, "NA");
    let inst = try_load(&text).unwrap();
    assert!(inst.has_missing());
    let (k, never) = (3, AtomicBool::new(false));
    let pipeline = microagg::pipeline::Pipeline::parse("mdav+descent", &[]).unwrap();
    let mut events = Events::default();
    let out = pipeline
        .run_observed(&inst, k, 0, None, None, &never, &mut [&mut events])
        .unwrap();
    let of = |kind: &str, stage: &str| -> Vec<f64> {
        let hit = |e: &&(String, String, f64)| e.0 == kind && e.1 == stage;
        events.0.iter().filter(hit).map(|e| e.2).collect()
    };
    assert_eq!(of("start", "mdav").len(), 1);
    assert_eq!(of("end", "mdav"), [out.stages[0].sse]);
    assert_eq!(of("start", "descent"), [out.stages[0].sse]);
    let steps = of("step", "descent");
    assert!(
        steps.len() >= 3,
        "700 records are at least 3 steps of 256: {steps:?}"
    );
    assert!(steps.windows(2).all(|w| w[1] <= w[0]), "{steps:?}");
    let descent = &out.stages[1];
    assert_eq!(descent.steps, Some(steps.len() as u64));
    assert_eq!(descent.stop, Some(StopReason::Converged));
    // The record's SSE is that of the renumbered groups (summed in another order).
    let end = of("end", "descent");
    assert!(end.len() == 1 && (end[0] - descent.sse).abs() <= 1e-12 * descent.sse);
    let stats = descent.stats.as_ref().unwrap();
    let moves = stats.get("shift_applications").unwrap() + stats.get("swap_applications").unwrap();
    assert!(moves > 0 && descent.sse < out.stages[0].sse, "{stats:?}");
    let labels = out.partition.labels().to_vec();
    let want = masked_sse_from_raw(&raw, inst.n, inst.d, &labels);
    assert!((descent.sse - want).abs() <= 1e-9 * want);

    // One step of the descent: stopped by the budget, between the start and the optimum,
    // and the same labels twice.
    let one = |_| {
        pipeline
            .run_with(&inst, k, 0, None, Some(1), &never)
            .unwrap()
    };
    let (a, b) = (one(0), one(1));
    assert_eq!(a.stages[1].stop, Some(StopReason::StepLimit));
    assert_eq!(a.stages[1].steps, Some(1));
    assert_eq!(a.partition.labels(), b.partition.labels());
    let sse = a.partition.sse();
    assert!(sse <= out.stages[0].sse && sse > descent.sse, "{sse}");

    // A deadline already passed stops the masked engine between its groups.
    let err = pipeline
        .run(&inst, k, 0, Some(0.0), &never)
        .err()
        .expect("a passed deadline stops the run");
    assert!(matches!(err, microagg::Error::Interrupted(_)), "{err}");
}
