//! Issue 22 (22-weights): sampling weights in split runs. `--strata` with `--weights` solves
//! each stratum as a weighted run of its rows (the per-stratum weighted runs joined: labels
//! and weighted SSE), reports the weighted SST about the whole file's weighted mean, parts
//! combine into the unsplit strata run's bytes (and refuse parts of another weighting), a
//! stratum below k is still an error naming it, and `--blocks` refuses weights with its
//! reason.

use crate::common;
use common::{argv, assert_exit, cli, cli_ok, stdout_json as json};
use microagg::data::{self, ColumnSelection, Instance};
use microagg::missing::MissingPolicy;
use microagg::pipeline::Pipeline;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

/// `rows` records: `region` (three interleaved values, plus `tiny` on `tiny` rows), a
/// sampling `weight` of 10^U(0, 2), and two numeric columns; the regions overlap in space.
fn weighted_csv(dir: &Path, rows: usize, tiny: usize) -> PathBuf {
    use rand::{Rng, SeedableRng};
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(22);
    let mut text = String::from("id,region,weight,x,y\n");
    for i in 0..rows {
        let region = if i < tiny {
            "tiny"
        } else {
            ["north", "south", "east"][i % 3]
        };
        let w = 10f64.powf(rng.random_range(0.0..2.0));
        let x: f64 = rng.random_range(-2.0..2.0);
        let y: f64 = rng.random_range(0.0..10.0);
        text += &format!("r{i},{region},{w:.3},{x:.2},{y:.1}\n");
    }
    let p = dir.join("survey.csv");
    std::fs::write(&p, text).unwrap();
    p
}

fn load(path: &Path) -> (Instance, data::StrataColumns) {
    let (inst, strata) = data::load_weighted_split(
        path.to_str().unwrap(),
        &ColumnSelection::parse("x,y"),
        b',',
        &["region".to_string()],
        MissingPolicy::Refuse,
        "weight",
    )
    .unwrap();
    (inst, strata.expect("strata read"))
}

/// The weighted SST about the whole file's weighted column means, from the z-scores.
fn whole_file_weighted_sst(inst: &Instance, w: &[f64]) -> f64 {
    let total: f64 = w.iter().sum();
    (0..inst.d)
        .map(|j| {
            let m = (0..inst.n).map(|i| w[i] * inst.row(i)[j]).sum::<f64>() / total;
            (0..inst.n)
                .map(|i| w[i] * (inst.row(i)[j] - m).powi(2))
                .sum::<f64>()
        })
        .sum()
}

#[test]
fn strata_with_weights_are_the_per_stratum_weighted_runs_joined() {
    let dir = tempfile::tempdir().unwrap();
    let csv = weighted_csv(dir.path(), 150, 0);
    let labels_path = dir.path().join("l.txt");
    let f = csv.to_str().unwrap();
    let run = |weights: bool, out: &Path| {
        let mut args = argv(
            &["run", "--data", f],
            "--columns x,y --strata region --k 3 --method mdav+descent --json --labels-out",
            &[out.to_str().unwrap()],
        );
        if weights {
            args.extend(["--weights", "weight"]);
        }
        json(&cli_ok(&args))
    };
    let rec = run(true, &labels_path);
    let got = microagg::labels::read_labels(&labels_path).unwrap();

    // The same by hand: every stratum a weighted run of its own rows (its sub-instance
    // carries its records' weights, so the descent is the weighted one).
    let (inst, strata) = load(&csv);
    let w = inst.weights.clone().unwrap().values;
    let pipeline = Pipeline::parse("mdav+descent", &[]).unwrap();
    let never = AtomicBool::new(false);
    let units = microagg::strata::strata_units(&strata, 3, &inst.source).unwrap();
    assert_eq!(units.len(), 3);
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut per_stratum_wsse = 0.0;
    for u in &units {
        let sub = data::sub_instance(&inst, &u.rows, &u.name);
        let sw = sub.weights.clone().unwrap();
        assert!(
            !sw.all_equal(),
            "unequal weights: the weighted descent runs"
        );
        let out = pipeline.run_with(&sub, 3, 0, None, None, &never).unwrap();
        per_stratum_wsse += out.partition.weighted_sse(&sub, &sw.values);
        for g in common::groups(out.partition.labels()) {
            if !g.is_empty() {
                groups.push(g.iter().map(|&l| u.rows[l]).collect());
            }
        }
    }
    let joined: Vec<usize> = microagg::labels::first_appearance_labels(inst.n, &groups)
        .into_iter()
        .map(|l| l.unwrap())
        .collect();
    assert_eq!(got, joined, "labels = the per-stratum weighted runs joined");

    // Weighted SSE: the sum of the strata's, and the recomputation from the labels.
    let wrec = &rec["weights"];
    let sse = wrec["sse"].as_f64().unwrap();
    let recomputed = microagg::weighted::weighted_sse_of_labels(&inst, &w, &got);
    assert!(
        (sse - per_stratum_wsse).abs() <= 1e-12 * sse,
        "{sse} vs {per_stratum_wsse}"
    );
    assert!(
        (sse - recomputed).abs() <= 1e-12 * sse,
        "{sse} vs {recomputed}"
    );
    // SST about the whole file's weighted mean (not the sum of the strata's SSTs).
    let sst = wrec["sst"].as_f64().unwrap();
    let hand = whole_file_weighted_sst(&inst, &w);
    assert!((sst - hand).abs() <= 1e-12 * hand, "{sst} vs {hand}");
    let strata_sst: f64 = units
        .iter()
        .map(|u| {
            let sub = data::sub_instance(&inst, &u.rows, &u.name);
            whole_file_weighted_sst(&sub, &sub.weights.clone().unwrap().values)
        })
        .sum();
    assert!(
        strata_sst < sst,
        "the strata's SSTs leave out the between-strata part"
    );
    assert_eq!(wrec["il"].as_f64().unwrap(), 100.0 * sse / sst);
    assert_eq!(wrec["objective"], "weighted");
    assert_eq!(wrec["column"], "weight");
    // Strata never mixed.
    for g in common::groups(&got) {
        assert!(g.iter().all(|&i| strata.of_row[i] == strata.of_row[g[0]]));
    }

    // Not vacuous: the unweighted strata run gives other groups, worse for the weighted SSE.
    let plain_path = dir.path().join("plain.txt");
    let plain = run(false, &plain_path);
    assert!(plain.get("weights").is_none());
    let plain_labels = microagg::labels::read_labels(&plain_path).unwrap();
    assert_ne!(plain_labels, got);
    let plain_wsse = microagg::weighted::weighted_sse_of_labels(&inst, &w, &plain_labels);
    assert!(
        sse < plain_wsse,
        "weighted {sse} vs unweighted run's {plain_wsse}"
    );
}

#[test]
fn parts_of_a_weighted_strata_run_combine_into_its_bytes() {
    let dir = tempfile::tempdir().unwrap();
    let csv = weighted_csv(dir.path(), 120, 0);
    let f = csv.to_str().unwrap();
    let p = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    let base = argv(
        &["run", "--data", f],
        "--columns x,y --strata region --weights weight --k 3 --method mdav+descent",
        &[],
    );
    let whole = p("whole.txt");
    cli_ok(&[&base[..], &["--labels-out", &whole]].concat());
    for i in 1..=2 {
        let part = format!("{i}/2");
        let out = p(&format!("part{i}.txt"));
        let rec = json(&cli_ok(
            &[
                &base[..],
                &["--part", &part, "--labels-out", &out, "--json"],
            ]
            .concat(),
        ));
        assert_eq!(rec["weights"]["column"], "weight");
    }
    let combined = p("combined.txt");
    cli_ok(&[
        "combine",
        &p("part1.txt"),
        &p("part2.txt"),
        "--out",
        &combined,
    ]);
    assert_eq!(
        std::fs::read(&combined).unwrap(),
        std::fs::read(&whole).unwrap(),
        "parts combined = the unsplit strata run, byte for byte"
    );
    // A part of the unweighted run is a part of another run.
    let plain = p("plain2.txt");
    let unweighted: Vec<&str> = base
        .iter()
        .copied()
        .filter(|a| *a != "--weights" && *a != "weight")
        .collect();
    cli_ok(&[&unweighted[..], &["--part", "2/2", "--labels-out", &plain]].concat());
    let out = cli(&["combine", &p("part1.txt"), &plain, "--out", &p("mixed.txt")]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("parts of different runs"), "{err}");
}

#[test]
fn a_stratum_below_k_with_weights_is_an_error_naming_it() {
    let dir = tempfile::tempdir().unwrap();
    let csv = weighted_csv(dir.path(), 60, 2);
    let out = cli(&argv(
        &["run", "--data", csv.to_str().unwrap()],
        "--columns x,y --strata region --weights weight --k 3 --method mdav",
        &[],
    ));
    assert_exit(&out, 2, "survey.csv");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("stratum region=tiny has 2 records"), "{err}");
    assert!(err.contains("k = 3"), "{err}");
}

#[test]
fn blocks_refuse_weights_naming_the_border_repair() {
    let dir = tempfile::tempdir().unwrap();
    let csv = weighted_csv(dir.path(), 60, 0);
    let f = csv.to_str().unwrap();
    for extra in [
        &["--blocks", "20"][..],
        &["--blocks", "20", "--strata", "region"][..],
    ] {
        let head = ["run", "--data", f];
        let out = cli(&argv(
            &head,
            "--columns x,y --weights weight --k 3 --method mdav",
            extra,
        ));
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("--weights with --blocks") && err.contains("border repair"),
            "{err}"
        );
    }
    // The weights column cannot label strata.
    let out = cli(&argv(
        &["run", "--data", f],
        "--columns x,y --strata weight --weights weight --k 3 --method mdav",
        &[],
    ));
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot also be a strata column"));
}
