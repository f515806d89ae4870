//! Issue 22: the released file and what it costs. `measure` (utility and risk against hand
//! computations and invariants on the CASC files), the whole file back (`run --masked-out`)
//! and the aggregations.

use crate::common;
use common::{argv, assert_exit, cli, cli_json, cli_ok, run_args, stderr, stdout, write_file};
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
    let measure = |extra: &[&'static str]| {
        let (orig, rel) = (orig.to_str().unwrap(), rel.to_str().unwrap());
        cli_ok(&argv(
            &["measure", "--data", orig, "--masked", rel],
            "",
            extra,
        ))
    };
    let v = common::stdout_json(&measure(&["--json"]));
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
    let t = measure(&[]);
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
        let (orig, rel) = (orig.to_str().unwrap(), rel.to_str().unwrap());
        let o = cli(&["measure", "--data", orig, "--masked", rel]);
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
    let head = ["run", "--data", input.to_str().unwrap()];
    let mut args = argv(
        &head,
        "--delimiter ; --columns x,y --k 3 --method mdav",
        &[],
    );
    args.extend(["--masked-out", out.to_str().unwrap()]);
    args.extend(["--labels-out", labels.to_str().unwrap()]);
    args.extend(["--row-order", "input", "--json"]);
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
        let head = [
            "run",
            "--data",
            full.to_str().unwrap(),
            "--columns",
            columns,
        ];
        let fixed = "--k 3 --method mdav --aggregate median --round-to-input --measures --json";
        let mut args = argv(&head, fixed, &["--masked-out", out.to_str().unwrap()]);
        args.extend(["--labels-out", labels.to_str().unwrap()]);
        args.extend(["--row-order", "input"]);
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

// Issue 48, item 7: what an office releases (variable roles, row order, the measures).

fn agency() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agency/households.csv")
}

/// `run` on the agency file (strata, weights, holes), released to `out`, then `extra`.
fn agency_run(out: &Path, extra: &[&str]) -> std::process::Output {
    let (data, out) = (agency(), out.to_str().unwrap().to_string());
    let fixed = "--columns income,expenditure,savings --strata region --weights weight \
                 --k 3 --method mdav --missing ignore";
    let head = ["run", "--data", data.to_str().unwrap()];
    cli(&argv(
        &head,
        fixed,
        &[&["--masked-out", &out], extra].concat(),
    ))
}

/// The input's data rows split into fields (the agency file has no quotes).
fn agency_rows() -> Vec<Vec<String>> {
    let text = std::fs::read_to_string(agency()).unwrap();
    text.lines()
        .skip(1)
        .map(|l| l.split(',').map(String::from).collect())
        .collect()
}

fn released_rows(path: &Path) -> (String, Vec<Vec<String>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap().to_string();
    (
        header,
        lines
            .map(|l| l.split(',').map(String::from).collect())
            .collect(),
    )
}

/// The direct identifier `id` of the agency file: dropped when named, its cells replaced by
/// their HMAC-SHA256 under the key file when hashed (the right record's id, and not its
/// plain sha256), copied with a warning when kept; an unnamed id is copied and draws a
/// warning. The run's other columns and rows are the same in every case (input order).
#[test]
fn identifiers_are_dropped_hashed_with_a_key_or_kept_with_a_warning() {
    let dir = tempfile::tempdir().unwrap();
    let key = write_file(dir.path(), "key", "0123456789abcdef0123456789abcdef\n");
    let key_arg = key.to_str().unwrap();
    let ids: Vec<String> = agency_rows().into_iter().map(|r| r[0].clone()).collect();
    let header_without = "region,weight,income,expenditure,savings";
    let header_with = "id,region,weight,income,expenditure,savings";
    type Check = fn(&[Vec<String>], &[String]);
    let dropped: Check = |_, _| {};
    let copied: Check = |rows, ids| {
        let got: Vec<&String> = rows.iter().map(|r| &r[0]).collect();
        assert_eq!(got, ids.iter().collect::<Vec<_>>());
    };
    let hashed: Check = |rows, ids| {
        for (r, id) in rows.iter().zip(ids) {
            let want = microagg::release::roles::keyed_hash(
                b"0123456789abcdef0123456789abcdef",
                id.as_bytes(),
            );
            assert_eq!(r[0], want, "{id}");
            use sha2::Digest;
            let plain = sha2::Sha256::digest(id.as_bytes());
            let plain: String = plain.iter().map(|b| format!("{b:02x}")).collect();
            assert_ne!(r[0], plain);
        }
    };
    let cases: [(&[&str], &str, Check, Option<&str>); 4] = [
        (&["--identifiers", "id"], header_without, dropped, None),
        (&["--identifiers", "1"], header_without, dropped, None),
        (
            &[
                "--identifiers",
                "id",
                "--identifier-release",
                "hash",
                "--hash-key-file",
                key_arg,
            ],
            header_with,
            hashed,
            None,
        ),
        (
            &["--identifiers", "id", "--identifier-release", "keep"],
            header_with,
            copied,
            Some("warning: --identifier-release keep: id released as read"),
        ),
    ];
    let plain = dir.path().join("plain.csv");
    let o = agency_run(&plain, &["--row-order", "input"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stderr(&o).contains("warning: --masked-out: column 'id' has a different text in every row"),
        "{}",
        stderr(&o)
    );
    let (h, base) = released_rows(&plain);
    assert_eq!(h, header_with, "an unnamed identifier is copied");
    copied(&base, &ids);
    for (extra, header, check, warning) in cases {
        let out = dir.path().join("r.csv");
        let mut args = extra.to_vec();
        args.extend(["--row-order", "input", "--json"]);
        let o = agency_run(&out, &args);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        let (h, rows) = released_rows(&out);
        assert_eq!(h, header, "{extra:?}");
        check(&rows, &ids);
        let text = std::fs::read_to_string(&out).unwrap();
        if header == header_without {
            assert!(!text.contains("H0"), "{extra:?}: an id in the file");
        }
        // Every other cell as in the release without roles.
        let skip = usize::from(header == header_with);
        for (a, b) in rows.iter().zip(&base) {
            assert_eq!(a[skip..], b[1..], "{extra:?}");
        }
        match warning {
            Some(w) => assert!(stderr(&o).contains(w), "{extra:?}: {}", stderr(&o)),
            None => assert!(!stderr(&o).contains("warning"), "{extra:?}: {}", stderr(&o)),
        }
        let rec = common::stdout_json(&o);
        assert_eq!(rec["release"]["identifiers"], serde_json::json!(["id"]));
    }
}

/// Refused before the run, each naming what is wrong: a hash without a key (and why a plain
/// hash is unsafe), a short key, an identifier that is a run column or not in the file, a
/// treatment without identifiers, the options without --masked-out.
#[test]
fn identifier_options_are_checked_before_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let short = write_file(dir.path(), "short", "secret\n");
    let out = dir.path().join("r.csv");
    let cases: [(&[&str], &[&str]); 5] = [
        (
            &["--identifiers", "id", "--identifier-release", "hash"],
            &["--hash-key-file", "plain (unkeyed) hash"],
        ),
        (
            &[
                "--identifiers",
                "id",
                "--identifier-release",
                "hash",
                "--hash-key-file",
                short.to_str().unwrap(),
            ],
            &["short", "6 bytes", "at least 16"],
        ),
        (
            &["--identifiers", "income"],
            &["'income'", "microaggregated"],
        ),
        (&["--identifiers", "name"], &["households.csv", "'name'"]),
        (&["--identifier-release", "keep"], &["--identifiers"]),
    ];
    for (extra, needles) in cases {
        let o = agency_run(&out, extra);
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{extra:?}: {err}");
        for n in needles {
            assert!(err.contains(n), "{extra:?}: {n:?} not in {err}");
        }
        assert!(!out.exists(), "{extra:?}: nothing written");
    }
    let o = cli(&run_args(
        agency().to_str().unwrap(),
        "3",
        "mdav",
        &["--columns", "income", "--row-order", "input"],
    ));
    assert!(stderr(&o).contains("--masked-out"), "{}", stderr(&o));
}

/// Rows are shuffled by default: the same seed gives the same bytes, another seed another
/// order, `--row-order input` the input's; every order holds the same rows (each with its
/// own id, region, weight and released values: the masked values stay with their records),
/// and the shuffled order is the one the seed and the input file give.
#[test]
fn rows_are_shuffled_by_default_deterministically_and_kept_in_order_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let keep = ["--identifiers", "id", "--identifier-release", "keep"];
    let release = |name: &str, extra: &[&str]| {
        let out = dir.path().join(name);
        let mut args = keep.to_vec();
        args.extend_from_slice(extra);
        let o = agency_run(&out, &args);
        assert!(o.status.success(), "{extra:?}: {}", stderr(&o));
        std::fs::read_to_string(out).unwrap()
    };
    let input = release("input.csv", &["--row-order", "input"]);
    let cases: [(&str, &[&str]); 4] = [
        ("default.csv", &[]),
        ("seed0.csv", &["--seed", "0", "--row-order", "shuffled"]),
        ("seed1.csv", &["--seed", "1"]),
        ("seed1b.csv", &["--seed", "1"]),
    ];
    let files: Vec<String> = cases.iter().map(|(n, e)| release(n, e)).collect();
    assert_eq!(files[0], files[1], "the default is seed 0, shuffled");
    assert_eq!(files[2], files[3], "the same seed gives the same file");
    assert_ne!(files[0], files[2], "another seed, another order");
    let ids = |t: &str| -> Vec<String> {
        t.lines()
            .skip(1)
            .map(|l| l.split(',').next().unwrap().to_string())
            .collect()
    };
    let input_ids: Vec<String> = agency_rows().into_iter().map(|r| r[0].clone()).collect();
    assert_eq!(ids(&input), input_ids, "--row-order input");
    let sorted = |t: &str| {
        let mut l: Vec<&str> = t.lines().collect();
        l.sort_unstable();
        l.into_iter().map(String::from).collect::<Vec<_>>()
    };
    let secret =
        microagg::release::roles::order_secret(agency().to_str().unwrap(), "unused").unwrap();
    for (f, seed) in [(&files[0], 0), (&files[2], 1)] {
        assert_ne!(ids(f), input_ids, "seed {seed}: shuffled");
        assert_eq!(sorted(f), sorted(&input), "seed {seed}: the same rows");
        let order = microagg::release::roles::release_order(input_ids.len(), seed, &secret);
        let want: Vec<String> = order.iter().map(|&i| input_ids[i].clone()).collect();
        assert_eq!(ids(f), want, "seed {seed}");
    }
}

/// A shuffled release keeps the file's line structure: an empty line and the line ends
/// stay where they were (CRLF, no final line end), only the records move.
#[test]
fn shuffling_moves_records_and_keeps_empty_lines_and_line_ends() {
    let dir = tempfile::tempdir().unwrap();
    let text = "name,x\r\nu,1\r\nv,2\r\n\r\nw,3\r\ny,40\r\nz,50";
    let data = write_file(dir.path(), "d.csv", text);
    let out = dir.path().join("r.csv");
    let mut shuffled = Vec::new();
    for seed in 0..8u64 {
        let seed = seed.to_string();
        cli_ok(&run_args(
            data.to_str().unwrap(),
            "2",
            "mdav",
            &[
                "--columns",
                "x",
                "--identifiers",
                "name",
                "--identifier-release",
                "keep",
                "--masked-out",
                out.to_str().unwrap(),
                "--seed",
                &seed,
            ],
        ));
        let got = std::fs::read_to_string(&out).unwrap();
        let lines: Vec<&str> = got.split("\r\n").collect();
        assert_eq!(lines.len(), 7, "{got:?}");
        assert_eq!((lines[0], lines[3]), ("name,x", ""), "{got:?}");
        assert!(!got.ends_with('\n'), "{got:?}");
        let mut names: Vec<&str> = lines
            .iter()
            .skip(1)
            .copied()
            .filter(|l| !l.is_empty())
            .collect();
        shuffled.push(names.iter().map(|l| &l[..1]).collect::<String>());
        names.sort_unstable();
        // Groups {u, v, w} (mean 2) and {y, z} (mean 45) stay with their records.
        assert_eq!(names, ["u,2", "v,2", "w,2", "y,45", "z,45"], "{got:?}");
    }
    assert!(shuffled.iter().any(|s| s != "uvwyz"), "{shuffled:?}");
}

/// `measure --missing ignore` reads a release with missing cells (without it: refused,
/// naming the option), and with `--unshuffle-seed` gives the figures `run --measures` took
/// before shuffling; the shuffled file matched in file order is refused here (its holes
/// fall where the original has values).
#[test]
fn measure_reads_a_release_with_missing_cells_and_puts_shuffled_rows_back() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let o = agency_run(
        &out,
        &["--identifiers", "id", "--seed", "3", "--measures", "--json"],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let rec = common::stdout_json(&o);
    let data = agency();
    let measure = |extra: &[&str]| {
        let head = ["measure", "--data", data.to_str().unwrap()];
        let mut args = argv(&head, "--columns income,expenditure,savings --masked", &[]);
        args.extend([out.to_str().unwrap(), "--weights", "weight"]);
        args.extend_from_slice(extra);
        cli(&args)
    };
    let refused = measure(&["--unshuffle-seed", "3"]);
    assert_exit(&refused, 2, "--missing ignore");
    let v = common::stdout_json(&measure(&[
        "--missing",
        "ignore",
        "--unshuffle-seed",
        "3",
        "--json",
    ]));
    let m = &rec["release"]["measures"];
    assert_eq!(v["n"], 54);
    for (group, key) in [
        ("risk", "dbrl_percent"),
        ("risk", "sdid_percent"),
        ("risk", "rid_percent"),
        ("risk", "drisk_sdcmicro"),
        ("utility", "il1s"),
        ("utility", "il_sse"),
        ("utility", "correlation_change"),
    ] {
        assert!(
            close(&v[group][key], m[group][key].as_f64().unwrap()),
            "{key}: {v} {m}"
        );
    }
    assert!(close(
        &v["missing"]["il_observed"],
        rec["release"]["il_released"].as_f64().unwrap()
    ));
    assert!(close(
        &v["weights"]["il_weighted"],
        rec["release"]["il_released_weighted"].as_f64().unwrap()
    ));
    let wrong = measure(&["--missing", "ignore"]);
    assert_exit(&wrong, 2, "missing in the released file where the original");
}

/// `run --measures` prints the measures in its text output, each with how to read it, in
/// unsplit and split runs, with the figures of the JSON record.
#[test]
fn run_measures_prints_each_figure_with_how_to_read_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r.csv");
    let cases: [&[&str]; 2] = [&[], &["--strata", "region", "--weights", "weight"]];
    for extra in cases {
        let data = agency();
        let fixed = "--columns income,expenditure,savings --k 3 --method mdav --missing ignore \
                     --identifiers id --masked-out";
        let mut args = argv(&["run", "--data", data.to_str().unwrap()], fixed, &[]);
        args.extend([out.to_str().unwrap(), "--measures"]);
        args.extend_from_slice(extra);
        let text = stdout(&cli_ok(&args));
        args.push("--json");
        let m = cli_json(&args)["release"]["measures"].clone();
        let r = &m["risk"];
        for (figure, reading) in [
            (
                format!(
                    "record linkage (DBRL) {:.4} % of records",
                    r["dbrl_percent"].as_f64().unwrap()
                ),
                "lower is safer",
            ),
            (
                format!(
                    "interval disclosure {:.4} % of cells",
                    r["sdid_percent"].as_f64().unwrap()
                ),
                "lower is safer",
            ),
            (
                format!(
                    "sdcMicro dRisk (k = 0.05) {:.6}",
                    r["drisk_sdcmicro"].as_f64().unwrap()
                ),
                "lower is safer",
            ),
            (
                format!("IL1s {:.6}", m["utility"]["il1s"].as_f64().unwrap()),
                "lower keeps more of the data",
            ),
        ] {
            let line = text.lines().find(|l| l.contains(&figure));
            assert!(
                line.is_some_and(|l| l.contains(reading)),
                "{extra:?}: {figure:?} with {reading:?} not in\n{text}"
            );
        }
        assert!(text.contains("over 54 records"), "{text}");
    }
}
