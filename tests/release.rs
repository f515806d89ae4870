//! Issue 22: the released file and what it costs. `measure` (utility and risk against hand
//! computations and invariants on the CASC files), the whole file back (`run --masked-out`)
//! and the aggregations.

mod common;
use common::{cli, cli_ok};
use std::path::{Path, PathBuf};

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).unwrap();
    p
}

fn json(out: &std::process::Output) -> serde_json::Value {
    serde_json::from_slice(&out.stdout).expect("one JSON object")
}

fn close(a: &serde_json::Value, want: f64) -> bool {
    let a = a.as_f64().unwrap_or(f64::NAN);
    (a - want).abs() <= 1e-12 * want.abs().max(1.0)
}

/// The hand-computed example of `measure::utility` and `measure::risk` through the CLI,
/// with the released file's columns in another order plus a text column.
#[test]
fn measure_cli_gives_the_hand_computed_figures() {
    let dir = tempfile::tempdir().unwrap();
    let orig = write(dir.path(), "o.csv", "a,b\n1,2\n3,4\n5,8\n7,6\n");
    let rel = write(
        dir.path(),
        "r.csv",
        "note,b,a\nx,3,2\ny,3,2\nz,7,6\nw,7,6\n",
    );
    let o = cli_ok(&[
        "measure",
        "--data",
        orig.to_str().unwrap(),
        "--masked",
        rel.to_str().unwrap(),
        "--json",
    ]);
    let v = json(&o);
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
    let text = String::from_utf8_lossy(&t.stdout);
    assert!(
        text.contains("IL (SSE) 20.0000 %") && text.contains("DBRL 50.0000 %"),
        "{text}"
    );
}

#[test]
fn measure_refuses_a_released_file_that_does_not_fit() {
    let dir = tempfile::tempdir().unwrap();
    let orig = write(dir.path(), "o.csv", "a,b\n1,2\n3,4\n5,8\n7,6\n");
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
        let rel = write(dir.path(), "r.csv", text);
        let o = cli(&[
            "measure",
            "--data",
            orig.to_str().unwrap(),
            "--masked",
            rel.to_str().unwrap(),
        ]);
        let err = String::from_utf8_lossy(&o.stderr);
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
