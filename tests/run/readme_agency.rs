//! The agency workflow of the docs (docs/tutorials/release.md, the block marked
//! `sh test=run/readme_agency`): every command of the block runs as written (from a copy of `examples/agency/`, `microagg` being
//! this build's binary), exits as the section says (2 where it quotes an error, else 0),
//! and prints every line the section quotes after it (times masked); the JSON record of
//! step 3 holds the figures the section quotes, and its released file has no id and its rows
//! in the order the run's seed and the input file give.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The page that holds the workflow, from the repository root.
const PAGE: &str = "docs/tutorials/release.md";

/// The block's lines (empty lines kept as empty, they end a command's quoted output).
fn section_code() -> Vec<String> {
    let page = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(PAGE)).unwrap();
    let start = page
        .find("```sh test=run/readme_agency\n")
        .unwrap_or_else(|| panic!("{PAGE} has the block marked sh test=run/readme_agency"));
    let body = &page[start..][page[start..].find('\n').unwrap() + 1..];
    let end = body.find("```").expect("the block ends");
    body[..end].lines().map(str::to_string).collect()
}

/// A command (continuation lines joined) with the comment lines that follow it.
struct Step {
    command: String,
    quoted: Vec<String>,
}

fn steps(code: &[String]) -> Vec<Step> {
    let mut out: Vec<Step> = Vec::new();
    let mut i = 0;
    while i < code.len() {
        let line = code[i].trim_end();
        if line.starts_with("microagg ") {
            let mut command = String::new();
            let mut l = line.to_string();
            loop {
                let more = l.ends_with('\\');
                command += l.trim_end_matches('\\').trim();
                command.push(' ');
                i += 1;
                if !more {
                    break;
                }
                l = code[i].trim_end().to_string();
            }
            let mut quoted = Vec::new();
            while let Some(q) = code.get(i).and_then(|l| l.strip_prefix("# ")) {
                quoted.push(q.trim().to_string());
                i += 1;
            }
            out.push(Step {
                command: command.trim().to_string(),
                quoted,
            });
        } else {
            i += 1;
        }
    }
    out
}

/// Times ("0.003 s") masked, nothing else.
fn mask(text: &str) -> String {
    let words: Vec<&str> = text.split(' ').collect();
    let number = |w: &str| !w.is_empty() && w.chars().all(|c| c.is_ascii_digit() || c == '.');
    words
        .iter()
        .enumerate()
        .map(|(i, w)| {
            let unit = words
                .get(i + 1)
                .is_some_and(|n| n.trim_end_matches(',') == "s");
            if number(w) && unit {
                "T"
            } else {
                w
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

fn agency_copy() -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/agency");
    for e in std::fs::read_dir(&src).unwrap() {
        let e = e.unwrap();
        if e.file_type().unwrap().is_file() {
            std::fs::copy(e.path(), dir.path().join(e.file_name())).unwrap();
        }
    }
    dir
}

#[test]
fn every_command_of_the_agency_workflow_runs_as_written_and_prints_what_it_quotes() {
    let dir = agency_copy();
    let code = section_code();
    let steps = steps(&code);
    assert!(steps.len() >= 5, "{} commands found", steps.len());
    let mut one_run = false;
    for step in &steps {
        let mut words: Vec<&str> = step.command.split_whitespace().collect();
        let mut redirect: Option<PathBuf> = None;
        if let Some(p) = words.iter().position(|w| *w == ">") {
            redirect = Some(dir.path().join(words[p + 1]));
            words.truncate(p);
        }
        assert!(
            words.iter().all(|w| !w.contains(['\'', '"', '|', '$'])),
            "{}",
            step.command
        );
        let out = Command::new(env!("CARGO_BIN_EXE_microagg"))
            .args(&words[1..])
            .current_dir(dir.path())
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout).to_string();
        let stderr = String::from_utf8_lossy(&out.stderr).to_string();
        let error = step.quoted.first().is_some_and(|q| q.starts_with("error:"));
        assert_eq!(
            out.status.code(),
            Some(if error { 2 } else { 0 }),
            "{}: {stderr}",
            step.command
        );
        if let Some(p) = &redirect {
            std::fs::write(p, &out.stdout).unwrap();
        }
        let printed: Vec<String> = stdout
            .lines()
            .chain(stderr.lines())
            .map(|l| mask(l.trim()))
            .collect();
        for q in &step.quoted {
            assert!(
                printed.contains(&mask(q)),
                "{}\nquoted:  {q}\nprinted: {printed:#?}",
                step.command
            );
        }
        one_run |= [
            "--strata",
            "--weights",
            "--missing",
            "--masked-out",
            "--measures",
        ]
        .iter()
        .all(|o| words.contains(o));
    }
    assert!(
        one_run,
        "one command takes strata, weights, holes, release and measures"
    );

    // Step 3's record: the figures the section quotes.
    let rec: serde_json::Value =
        serde_json::from_slice(&std::fs::read(dir.path().join("record.json")).unwrap()).unwrap();
    let close = |v: &serde_json::Value, want: f64, tol: f64| {
        let got = v.as_f64().unwrap_or_else(|| panic!("{v}"));
        assert!((got - want).abs() <= tol, "{got} vs {want}");
    };
    close(&rec["weights"]["sse"], 2162.820001729462, 1e-9);
    close(&rec["weights"]["sst"], 35754.43628733556, 1e-8);
    close(&rec["weights"]["il"], 6.049095514604844, 1e-12);
    close(
        &rec["release"]["il_released_weighted"],
        6.04909558696814,
        1e-12,
    );
    let m = &rec["release"]["measures"];
    assert_eq!(m["n"], 54);
    close(&m["utility"]["il1s"], 0.1325, 5e-5);
    close(&m["utility"]["correlation_change"], 0.0440, 5e-5);
    close(&m["risk"]["dbrl_percent"], 29.63, 5e-3);
    close(&m["risk"]["sdid_percent"], 19.88, 5e-3);
    close(&m["risk"]["drisk_sdcmicro"], 0.0, 0.0);
    assert_eq!(
        rec["missing"],
        serde_json::json!({"policy": "ignore", "cells": 6, "per_column": [0, 2, 4],
                           "records": 6, "release": "keep"})
    );
    // The released file: no id column, rows shuffled by the run's seed (0) and the input
    // file; in that order region and weight copied, holes kept.
    let released = std::fs::read_to_string(dir.path().join("released.csv")).unwrap();
    let input = dir.path().join("households.csv");
    let original = std::fs::read_to_string(&input).unwrap();
    assert_eq!(
        released.lines().next(),
        Some("region,weight,income,expenditure,savings")
    );
    assert_eq!(rec["release"]["row_order"], "shuffled");
    assert_eq!(rec["release"]["identifiers"], serde_json::json!(["id"]));
    assert_eq!(rec["release"]["identifier_release"], "drop");
    let rows: Vec<&str> = original.lines().skip(1).collect();
    let secret = microagg::release::roles::order_secret(input.to_str().unwrap(), "unused").unwrap();
    let order = microagg::release::roles::release_order(rows.len(), 0, &secret);
    assert_ne!(order, (0..rows.len()).collect::<Vec<_>>(), "shuffled");
    assert_eq!(released.lines().count(), original.lines().count());
    for (a, &i) in released.lines().skip(1).zip(&order) {
        let (a, b): (Vec<&str>, Vec<&str>) = (a.split(',').collect(), rows[i].split(',').collect());
        assert_eq!(a[..2], b[1..3], "region and weight are copied");
        for j in 2..5 {
            let hole = b[j + 1] == "NA" || b[j + 1].is_empty();
            assert_eq!(hole, a[j] == b[j + 1] && (a[j] == "NA" || a[j].is_empty()));
        }
    }
}
