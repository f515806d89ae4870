//! Issue 22: the released file and what it costs. `measure` (utility and risk against hand
//! computations and invariants on the CASC files), the whole file back (`run --masked-out`)
//! and the aggregations.

mod common;
use common::{cli, cli_json, cli_ok, run_args, stderr, stdout, write_file};
use std::path::Path;

fn close(a: &serde_json::Value, want: f64) -> bool {
    let a = a.as_f64().unwrap_or(f64::NAN);
    (a - want).abs() <= 1e-12 * want.abs().max(1.0)
}

/// The hand-computed example of `measure::utility` and `measure::risk` through the CLI,
/// with the released file's columns in another order plus a text column.
#[test]
fn measure_cli_gives_the_hand_computed_figures() {
    let dir = tempfile::tempdir().unwrap();
    let orig = write_file(dir.path(), "o.csv", "a,b\n1,2\n3,4\n5,8\n7,6\n");
    let rel = write_file(
        dir.path(),
        "r.csv",
        "note,b,a\nx,3,2\ny,3,2\nz,7,6\nw,7,6\n",
    );
    let v = cli_json(&[
        "measure",
        "--data",
        orig.to_str().unwrap(),
        "--masked",
        rel.to_str().unwrap(),
        "--json",
    ]);
    let u = &v["utility"];
    let s = (20.0f64 / 3.0).sqrt() * std::f64::consts::SQRT_2;
    assert!(close(&u["il_sse"], 20.0), "{v}");
    assert!(close(&u["il1s"], 1.0 / s), "{v}");
    assert!(close(&u["il1s_sdcmicro"], 8.0 / s), "{v}");
    assert!(close(&u["variance_change_percent"], 20.0), "{v}");
    assert!(close(&u["correlation_change"], 0.2), "{v}");
    assert!(close(&v["risk"]["dbrl_percent"], 50.0), "{v}");
    assert!(close(&v["risk"]["drisk_sdcmicro"], 0.0), "{v}");
    assert_eq!(v["n"], 4);
    // The text form carries the same figures.
    let t = cli_ok(&[
        "measure",
        "--data",
        orig.to_str().unwrap(),
        "--masked",
        rel.to_str().unwrap(),
    ]);
    let text = stdout(&t);
    assert!(
        text.contains("IL (SSE) 20.0000 %") && text.contains("DBRL 50.0000 %"),
        "{text}"
    );
}

#[test]
fn measure_refuses_a_released_file_that_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let orig = write_file(dir.path(), "o.csv", "a,b\n1,2\n3,4\n5,8\n7,6\n");
    for (text, needles) in [
        (
            "a,b\n1,2\n3,4\n5,8\n",
            vec!["r.csv", "3 data rows", "has 4"],
        ),
        ("a,c\n1,2\n3,4\n5,8\n7,6\n", vec!["r.csv", "no column 'b'"]),
        (
            "a,b\n1,2\n3,\n5,8\n7,6\n",
            vec!["r.csv", "row 2", "'b'", "missing"],
        ),
    ] {
        let rel = write_file(dir.path(), "r.csv", text);
        let o = cli(&[
            "measure",
            "--data",
            orig.to_str().unwrap(),
            "--masked",
            rel.to_str().unwrap(),
        ]);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        for n in needles {
            assert!(err.contains(n), "{n:?} not in {err}");
        }
    }
}

/// On the CASC files with MDAV k = 3, released as group means: the SSE-based IL equals the
/// run's, means are kept, the mean relative loss of variance equals the IL (each column's
/// variance loses its within-group share, and every z-scored column has the same total),
/// and record linkage finds at most one record per group.
#[test]
fn measures_of_mdav_means_on_casc_satisfy_the_identities() {
    for id in ["tarragona", "census", "eia"] {
        let Some(inst) = common::casc(id) else {
            continue;
        };
        let (sse, labels) = common::run_method(&inst, "mdav", 3, 0);
        let y = microagg::labels::masked_values(&inst, &labels).unwrap();
        let m = microagg::measure::measure(&inst, &y, 0.05).unwrap();
        let il = inst.il(sse);
        let u = &m.utility;
        assert!(
            (u.il_sse - il).abs() < 1e-9 * il,
            "{id}: {} vs {il}",
            u.il_sse
        );
        assert!(
            (u.variance_change_percent.unwrap() - il).abs() < 1e-9 * il,
            "{id}"
        );
        assert!(u.mean_change_percent.unwrap() < 1e-10, "{id}");
        let groups = labels.iter().max().unwrap() + 1;
        let dbrl = m.risk.dbrl_percent;
        assert!(
            dbrl > 0.0 && dbrl <= 100.0 * groups as f64 / inst.n as f64 + 1e-12,
            "{id}: {dbrl}"
        );
        // Releasing the originals: nothing lost, every record linked (no duplicate records
        // in these files), every record inside every interval.
        let same = microagg::measure::measure(&inst, &inst.raw, 0.05).unwrap();
        assert_eq!(same.utility.il_sse, 0.0);
        assert_eq!(same.risk.drisk_sdcmicro, 1.0);
        assert_eq!(same.risk.sdid_percent, 100.0);
        assert!(
            same.risk.dbrl_percent > 99.0,
            "{id}: {}",
            same.risk.dbrl_percent
        );
    }
}

/// A semicolon file with text columns, quotes (a delimiter and doubled quotes inside), a
/// quoted line break, a CRLF line and an empty line.
const MIXED: &str = "id;name;x;y;note\n1;\"Smith; J\";1.5;10;a\n2;Jones;2.25;12;\"b \"\"q\"\"\"\r\n\n3;Lee;3.0;11;c\n4;\"O\nNeil\";4.5;20;d\n5;X;5;21;e\n6;Y;6.75;19;f\n";
/// The x and y cells of MIXED as written, per row.
const MIXED_XY: [(&str, &str); 6] = [
    ("1.5", "10"),
    ("2.25", "12"),
    ("3.0", "11"),
    ("4.5", "20"),
    ("5", "21"),
    ("6.75", "19"),
];

fn run_mixed(dir: &Path, extra: &[&str]) -> (serde_json::Value, String, Vec<usize>) {
    let input = write_file(dir, "in.csv", MIXED);
    let out = dir.join("out.csv");
    let labels = dir.join("l.txt");
    let mut args = vec![
        "run",
        "--data",
        input.to_str().unwrap(),
        "--delimiter",
        ";",
        "--columns",
        "x,y",
        "--k",
        "3",
        "--method",
        "mdav",
        "--masked-out",
        out.to_str().unwrap(),
        "--labels-out",
        labels.to_str().unwrap(),
        "--json",
    ];
    args.extend_from_slice(extra);
    let rec = cli_json(&args);
    let labels = std::fs::read_to_string(&labels)
        .unwrap()
        .lines()
        .map(|l| l.parse().unwrap())
        .collect();
    (rec, std::fs::read_to_string(&out).unwrap(), labels)
}

/// MIXED with row i's x and y cells replaced by `cells[i]`.
fn mixed_with(cells: &[(String, String)]) -> String {
    let mut text = MIXED.to_string();
    // Replace from the last row up, each in its own line (the values are unique strings
    // in their rows).
    for (i, (x, y)) in cells.iter().enumerate().rev() {
        let (ox, oy) = MIXED_XY[i];
        let old = format!(";{ox};{oy};");
        let at = text.rfind(&old).expect("row cells");
        text.replace_range(at..at + old.len(), &format!(";{x};{y};"));
    }
    text
}

fn group_stat(labels: &[usize], col: usize, f: impl Fn(&mut Vec<f64>) -> f64) -> Vec<f64> {
    let vals: Vec<f64> = MIXED_XY
        .iter()
        .map(|(x, y)| if col == 0 { x } else { y }.parse().unwrap())
        .collect();
    labels
        .iter()
        .map(|&l| {
            let mut g: Vec<f64> = (0..6)
                .filter(|&i| labels[i] == l)
                .map(|i| vals[i])
                .collect();
            f(&mut g)
        })
        .collect()
}

#[test]
fn masked_out_writes_the_whole_file_back_replacing_only_the_run_columns() {
    let dir = tempfile::tempdir().unwrap();
    let (rec, out, labels) = run_mixed(dir.path(), &[]);
    let mean = |g: &mut Vec<f64>| g.iter().sum::<f64>() / g.len() as f64;
    let (mx, my) = (group_stat(&labels, 0, mean), group_stat(&labels, 1, mean));
    let want: Vec<(String, String)> = (0..6)
        .map(|i| (mx[i].to_string(), my[i].to_string()))
        .collect();
    assert_eq!(out, mixed_with(&want));
    let r = &rec["release"];
    assert_eq!(r["layout"], "whole");
    assert_eq!(r["aggregation"], "mean");
    assert!((r["il_released"].as_f64().unwrap() - rec["il"].as_f64().unwrap()).abs() < 1e-9);
}

#[test]
fn round_to_input_and_median_release_the_rounded_medians_and_report_their_il() {
    let dir = tempfile::tempdir().unwrap();
    let (rec, out, labels) = run_mixed(dir.path(), &["--aggregate", "median", "--round-to-input"]);
    let median = |g: &mut Vec<f64>| {
        g.sort_by(f64::total_cmp);
        g[g.len() / 2] // groups of 3 here
    };
    let (mx, my) = (
        group_stat(&labels, 0, median),
        group_stat(&labels, 1, median),
    );
    // x has at most 2 decimals in the input, y none.
    let want: Vec<(String, String)> = (0..6)
        .map(|i| (format!("{:.2}", mx[i]), format!("{:.0}", my[i])))
        .collect();
    assert_eq!(out, mixed_with(&want));
    let r = &rec["release"];
    assert_eq!(r["aggregation"], "median");
    assert_eq!(r["decimals"], serde_json::json!([2, 0]));
    // The recorded IL is the IL of the written file, as `measure` computes it from the file.
    let input = dir.path().join("in.csv");
    let m = cli_json(&[
        "measure",
        "--data",
        input.to_str().unwrap(),
        "--columns",
        "x,y",
        "--delimiter",
        ";",
        "--masked",
        dir.path().join("out.csv").to_str().unwrap(),
        "--json",
    ]);
    let (a, b) = (
        r["il_released"].as_f64().unwrap(),
        m["utility"]["il_sse"].as_f64().unwrap(),
    );
    assert!((a - b).abs() < 1e-12 * b, "{a} vs {b}");
}

/// The mean minimises every group's squared deviations column by column, so no other
/// aggregation releases values with a lower IL; `onemode` releases observed values only.
#[test]
fn every_aggregation_costs_at_least_the_means_il_and_onemode_releases_observed_values() {
    let Some(inst) = common::casc("tarragona") else {
        return;
    };
    let (sse, labels) = common::run_method(&inst, "mdav", 3, 0);
    let il = inst.il(sse);
    use microagg::release::aggregate::{released_values, Aggregation};
    for agg in ["mean", "median", "trimmed:0.25", "onestep", "onemode"] {
        let a = Aggregation::parse(agg).unwrap();
        let y = released_values(&inst, &labels, a).unwrap();
        let il_y = microagg::measure::utility::il_sse(&inst.raw, &y, inst.d);
        assert!(il_y >= il - 1e-9 * il, "{agg}: {il_y} < {il}");
        if agg == "mean" {
            assert!((il_y - il).abs() < 1e-9 * il);
        }
        if agg == "onemode" {
            for (i, &l) in labels.iter().enumerate() {
                for j in 0..inst.d {
                    let v = y[i * inst.d + j];
                    assert!(
                        (0..inst.n).any(|t| labels[t] == l && inst.raw[t * inst.d + j] == v),
                        "row {i} column {j}: {v} is not a value of its group"
                    );
                }
            }
        }
    }
}

#[test]
fn release_options_are_checked_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let input = write_file(dir.path(), "in.csv", "a,b\n1,2\n3,4\n5,8\n7,6\n");
    let out = dir.path().join("o.csv");
    for (extra, needle) in [
        (vec!["--aggregate", "median"], "give --masked-out"),
        (vec!["--round-to-input"], "give --masked-out"),
        (
            vec!["--aggregate", "mode", "--masked-out", out.to_str().unwrap()],
            "--aggregate 'mode'",
        ),
        (vec!["--masked-out", input.to_str().unwrap()], "input file"),
    ] {
        let mut args = run_args(input.to_str().unwrap(), "2", "mdav", &[]);
        args.extend(extra);
        let o = cli(&args);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{err}");
        assert!(err.contains(needle), "{needle:?} not in {err}");
        assert!(!out.exists());
    }
    // The library refuses the input as destination too (a manifest id hides the path).
    let inst = microagg::data::load(input.to_str().unwrap(), &Default::default()).unwrap();
    let e = microagg::release::whole_file::write_whole_file(
        &input, &input, b',', &inst, &inst.raw, false,
    )
    .unwrap_err();
    assert!(e.to_string().contains("input file"), "{e}");
    // Generated data have no file: the columns alone, and no decimals to round to.
    let o = cli(&run_args(
        "uniform:n=10,d=2,seed=1",
        "3",
        "mdav",
        &["--masked-out", out.to_str().unwrap(), "--round-to-input"],
    ));
    assert!(stderr(&o).contains("not a file"));
    cli_ok(&run_args(
        "uniform:n=10,d=2,seed=1",
        "3",
        "mdav",
        &["--masked-out", out.to_str().unwrap()],
    ));
    assert_eq!(
        std::fs::read_to_string(&out).unwrap().lines().next(),
        Some("x1,x2")
    );
}

/// The writer re-reads every replaced cell: a file whose values are not the loaded ones is
/// refused and nothing is written.
#[test]
fn whole_file_refuses_an_input_that_reads_differently() {
    let dir = tempfile::tempdir().unwrap();
    let a = write_file(dir.path(), "a.csv", "a,b,t\n1,2,x\n3,5,y\n4,4,z\n7,1,w\n");
    let b = write_file(dir.path(), "b.csv", "a,b,t\n1,2,x\n3,6,y\n4,4,z\n7,1,w\n");
    let short = write_file(dir.path(), "c.csv", "a,b,t\n1,2,x\n3,5,y\n4,4,z\n");
    let inst = microagg::data::load(
        a.to_str().unwrap(),
        &microagg::data::ColumnSelection::parse("a,b"),
    )
    .unwrap();
    let out = dir.path().join("o.csv");
    use microagg::release::whole_file::write_whole_file;
    let e = write_whole_file(&out, &b, b',', &inst, &inst.raw, false).unwrap_err();
    assert!(
        e.to_string().contains("row 2") && e.to_string().contains("'6'"),
        "{e}"
    );
    let e = write_whole_file(&out, &short, b',', &inst, &inst.raw, false).unwrap_err();
    assert!(e.to_string().contains("3 rows"), "{e}");
    assert!(!out.exists());
    // The file itself goes through, unchanged when the originals are released.
    write_whole_file(&out, &a, b',', &inst, &inst.raw, false).unwrap();
    assert_eq!(std::fs::read(&out).unwrap(), std::fs::read(&a).unwrap());
}

/// Record linkage against a second, plain implementation (z-scores of the loader, every
/// pair, first nearest) on data without ties among the originals' distances.
#[test]
fn dbrl_equals_a_plain_nearest_neighbour_count() {
    let inst = common::synthetic("gauss:n=300,d=4,clusters=6,seed=3");
    let (_, labels) = common::run_method(&inst, "mdav", 3, 0);
    let y = microagg::labels::masked_values(&inst, &labels).unwrap();
    let d = inst.d;
    let mut linked = 0usize;
    for i in 0..inst.n {
        let zy: Vec<f64> = (0..d)
            .map(|j| (y[i * d + j] - inst.mean[j]) / inst.std[j])
            .collect();
        let mut dist: Vec<(f64, usize)> = (0..inst.n)
            .map(|l| {
                let s: f64 = (0..d).map(|j| (zy[j] - inst.z[l * d + j]).powi(2)).sum();
                (s, l)
            })
            .collect();
        dist.sort_by(|a, b| a.0.total_cmp(&b.0));
        assert!(dist[1].0 > dist[0].0 * (1.0 + 1e-9), "a tie at record {i}");
        linked += (dist[0].1 == i) as usize;
    }
    let m = microagg::measure::measure(&inst, &y, 0.05).unwrap();
    assert_eq!(m.risk.dbrl_percent, 100.0 * linked as f64 / inst.n as f64);
}

/// `run --strata/--blocks` writes the whole file back through the same release as an
/// unsplit run: on EIA's full file (text columns with quoted commas), one stratum (`YEAR` is
/// 96 on every row) or one block gives the unsplit run's bytes, labels and release record;
/// with `--strata STATE` every row of a group found in both partitions has the unsplit
/// run's line, and the text columns are copied unchanged.
#[test]
fn split_runs_release_the_unsplit_runs_file_where_the_partitions_agree() {
    if common::casc("eia").is_none() {
        return;
    }
    let manifest = microagg::data::manifest::Manifest::embedded().unwrap();
    let eia = manifest.find("eia").unwrap().resolve().unwrap();
    let full = eia.with_file_name("eia_full.csv");
    if !full.is_file() {
        eprintln!("skipping: {} not found", full.display());
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let columns = "RESREVENUE,RESSALES,COMREVENUE,COMSALES,INDREVENUE,INDSALES,OTHREVENUE,\
                   OTHRSALES,TOTREVENUE,TOTSALES";
    let run = |name: &str, split: &[&str]| {
        let out = dir.path().join(format!("{name}.csv"));
        let labels = dir.path().join(format!("{name}.txt"));
        let mut args = vec![
            "run",
            "--data",
            full.to_str().unwrap(),
            "--columns",
            columns,
            "--k",
            "3",
            "--method",
            "mdav",
            "--aggregate",
            "median",
            "--round-to-input",
            "--measures",
            "--json",
            "--masked-out",
            out.to_str().unwrap(),
            "--labels-out",
            labels.to_str().unwrap(),
        ];
        args.extend_from_slice(split);
        let mut rec = cli_json(&args);
        let mut release = rec["release"].take();
        assert!(release.is_object(), "{name}: no release in {rec}");
        release["file"] = serde_json::Value::Null;
        let text = std::fs::read_to_string(&out).unwrap();
        let labels: Vec<usize> = std::fs::read_to_string(&labels)
            .unwrap()
            .lines()
            .map(|l| l.parse().unwrap())
            .collect();
        (release, text, labels)
    };
    let (rel0, text0, labels0) = run("unsplit", &[]);
    assert_eq!(rel0["layout"], "whole");
    assert!(rel0["measures"]["risk"]["dbrl_percent"].as_f64().unwrap() > 0.0);
    for split in [&["--strata", "YEAR"][..], &["--blocks", "5000"][..]] {
        let (rel, text, labels) = run("one-unit", split);
        assert_eq!(labels, labels0, "{split:?}");
        assert!(text == text0, "{split:?}: released bytes differ");
        assert_eq!(rel, rel0, "{split:?}");
    }
    let (_, text, labels) = run("states", &["--strata", "STATE"]);
    let groups = |l: &[usize]| {
        let mut g: std::collections::BTreeMap<usize, Vec<usize>> = Default::default();
        l.iter()
            .enumerate()
            .for_each(|(i, &c)| g.entry(c).or_default().push(i));
        g.into_values().collect::<std::collections::BTreeSet<_>>()
    };
    let (g0, g1) = (groups(&labels0), groups(&labels));
    let common_rows: Vec<usize> = g0.intersection(&g1).flatten().copied().collect();
    // No text cell of EIA spans lines: line i + 1 is row i.
    let lines0: Vec<&str> = text0.lines().collect();
    let lines: Vec<&str> = text.lines().collect();
    let input = std::fs::read_to_string(&full).unwrap();
    let lines_in: Vec<&str> = input.lines().collect();
    assert_eq!(lines.len(), lines_in.len());
    assert!(
        common_rows.len() > 30,
        "only {} rows agree",
        common_rows.len()
    );
    for &i in &common_rows {
        assert_eq!(lines[i + 1], lines0[i + 1], "row {i}");
    }
    let prefix = |l: &str| l.rsplitn(11, ',').last().unwrap().to_string();
    for (i, (a, b)) in lines.iter().zip(&lines_in).enumerate() {
        assert_eq!(prefix(a), prefix(b), "line {i}: text columns changed");
    }
    assert!(g1.len() < g0.len() || g1 != g0);
}
