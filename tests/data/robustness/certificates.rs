//! Certificate files and verdicts (issue 48 items 3 and 4): a certificate file is one JSON
//! document, plain or in one gzip member, at most `MAX_TEXT_BYTES` of text; a gzip bomb is
//! refused at the cap in little memory; a refused claim prints numbers that show the
//! difference; a wrong format tag names the field; `--labels` is checked before the search;
//! `--time-limit` is one deadline for the whole verification, and a claim it leaves
//! unproven is refused as not verified within the time limit.

use super::common;
use microagg::certificate::{self, BoundCertificate};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

fn stored(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("instances/library")
        .join(name)
}

fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut z = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
    z.write_all(bytes).unwrap();
    z.finish().unwrap()
}

/// What `verify-bound` does with the file before it needs the data: read the text, take the
/// format tag, parse by it.
fn load(path: &Path) -> Result<(), String> {
    let file = path.display().to_string();
    let text = certificate::read_text(path).map_err(|e| e.to_string())?;
    let format = certificate::format_of(&text, &file).map_err(|e| e.to_string())?;
    let parsed = if format == microagg::bnp_certificate::FORMAT {
        microagg::bnp_certificate::BnpCertificate::parse(&text, &file).map(|_| ())
    } else {
        BoundCertificate::parse(&text, &file).map(|_| ())
    };
    parsed.map_err(|e| e.to_string())
}

#[test]
fn a_certificate_file_is_one_json_document_and_nothing_else() {
    let gz = std::fs::read(stored("tarragona-k5.bnp.json.gz")).unwrap();
    let text = certificate::read_text(&stored("tarragona-k5.bnp.json.gz")).unwrap();
    let k10 = std::fs::read_to_string(stored("tarragona-k10.bound.json")).unwrap();
    // A second member that claims more: a reader of the first member only accepted it.
    let higher = {
        let at = text.find("\"lower_bound\":").unwrap() + "\"lower_bound\":".len();
        let end = at + text[at..].find(',').unwrap();
        format!("{}1600{}", &text[..at], &text[end..])
    };
    let cases: Vec<(&str, Vec<u8>, Option<&str>)> = vec![
        ("the stored gzip", gz.clone(), None),
        ("the stored JSON", k10.clone().into_bytes(), None),
        (
            "two gzip members",
            [gz.clone(), gzip(higher.as_bytes())].concat(),
            Some("a second gzip member"),
        ),
        (
            "bytes after the gzip stream",
            [gz.clone(), b"garbage\n".to_vec()].concat(),
            Some("8 bytes follow the end of the gzip stream"),
        ),
        (
            "a truncated gzip stream",
            gz[..gz.len() - 5].to_vec(),
            Some("not a valid gzip stream"),
        ),
        (
            "text after the JSON document",
            format!("{k10}trailing text\n").into_bytes(),
            Some("trailing characters"),
        ),
        (
            "text after the JSON document, in gzip",
            gzip(format!("{text}{{}}").as_bytes()),
            Some("trailing characters"),
        ),
        (
            "an unknown format tag",
            text.replacen(
                "microagg-bnp-certificate/1",
                "microagg-bnp-certificate/9",
                1,
            )
            .into_bytes(),
            Some("field 'format' is 'microagg-bnp-certificate/9'"),
        ),
        (
            "a format tag that is not a string",
            k10.replacen("\"microagg-bound-certificate/1\"", "[1]", 1)
                .into_bytes(),
            Some("field 'format' is an array"),
        ),
        (
            "no format tag",
            k10.replacen("\"format\"", "\"formats\"", 1).into_bytes(),
            Some("no field 'format'"),
        ),
        (
            "a wrong kind",
            k10.replacen("\"lagrangian\"", "\"plain\"", 1).into_bytes(),
            Some("field 'kind' is 'plain'"),
        ),
        (
            "a bound tag on a bnp certificate",
            text.replacen(
                "microagg-bnp-certificate/1",
                "microagg-bound-certificate/1",
                1,
            )
            .into_bytes(),
            Some("not a bound certificate"),
        ),
    ];
    let dir = tempfile::tempdir().unwrap();
    for (j, (what, bytes, refusal)) in cases.into_iter().enumerate() {
        let path = dir.path().join(format!("c{j}"));
        std::fs::write(&path, bytes).unwrap();
        match (load(&path), refusal) {
            (Ok(()), None) => {}
            (Err(e), Some(needle)) => assert!(e.contains(needle), "{what}: {e}"),
            (got, want) => panic!("{what}: got {got:?}, want the refusal {want:?}"),
        }
    }
}

/// Peak resident memory of this process in KiB (Linux).
fn peak_rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|l| l.starts_with("VmHWM:")).unwrap();
    line.split_whitespace().nth(1).unwrap().parse().unwrap()
}

/// Run as a child process (the variable names the bomb): read it and report the error and
/// the peak memory of the whole child.
const BOMB_CHILD: &str = "MICROAGG_TEST_CERTIFICATE_BOMB";

#[test]
fn a_gzip_bomb_is_refused_at_the_cap_in_little_memory() {
    if let Ok(path) = std::env::var(BOMB_CHILD) {
        let started = Instant::now();
        let got = certificate::read_text(Path::new(&path)).map(|t| t.len());
        println!(
            "BOMB {} KiB {:.2} s {got:?}",
            peak_rss_kib(),
            started.elapsed().as_secs_f64()
        );
        return;
    }
    // 256 MiB of spaces in one member (about 250 KB): four times the cap.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.json.gz");
    let mut z = flate2::write::GzEncoder::new(
        std::fs::File::create(&path).unwrap(),
        flate2::Compression::fast(),
    );
    let chunk = vec![b' '; 1 << 20];
    for _ in 0..256 {
        z.write_all(&chunk).unwrap();
    }
    z.finish().unwrap();
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "robustness::certificates::a_gzip_bomb_is_refused_at_the_cap_in_little_memory",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(BOMB_CHILD, &path)
        .output()
        .unwrap();
    let stdout = common::stdout(&out);
    let line = stdout
        .lines()
        .find_map(|l| l.find("BOMB ").map(|at| &l[at..]))
        .unwrap_or_else(|| {
            panic!(
                "no report from the child: {stdout} {}",
                common::stderr(&out)
            )
        });
    let kib: u64 = line.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert!(line.contains("longer than 64 MiB"), "{line}");
    // The cap's 64 MiB, the test binary and slack: far below the 256 MiB of text.
    let cap_kib = (certificate::MAX_TEXT_BYTES >> 10) as u64;
    assert!(kib < cap_kib + 64 * 1024, "peak {kib} KiB: {line}");
}

/// The two numbers of a refusal "... prove A, less than (its) claimed B ...".
fn proved_and_claimed(reason: &str) -> (f64, f64) {
    let after = |word: &str| -> f64 {
        let at = reason
            .find(word)
            .unwrap_or_else(|| panic!("{word} in {reason}"))
            + word.len();
        let token: String = reason[at..]
            .trim_start()
            .chars()
            .take_while(|c| !c.is_whitespace() && *c != ',' && *c != ')')
            .collect();
        token
            .parse()
            .unwrap_or_else(|_| panic!("{token} in {reason}"))
    };
    (after("prove "), after("claimed "))
}

#[test]
fn a_claim_one_ulp_too_high_prints_two_different_numbers() {
    let inst = common::synthetic("gauss:n=24,d=2,clusters=6,seed=4");
    let k = 3;
    // Lagrangian: any duals prove a bound; claim one ulp above it.
    let duals: Vec<f64> = (0..inst.n).map(|i| 0.05 + 0.01 * (i % 5) as f64).collect();
    let mut c = BoundCertificate::lagrangian(&inst, k, 0.0, duals);
    // A higher claim may call a stronger search (the anchored bound): raise it one ulp above
    // what the duals prove until the verifier refuses it.
    let v = loop {
        let v = certificate::verify(&c, &inst, k, None).unwrap();
        if !v.valid {
            break v;
        }
        c.lower_bound = v.recomputed.next_up();
    };
    assert!(
        !v.time_limit_reached && v.claimed == v.recomputed.next_up(),
        "{v:?}"
    );
    let reason = v.reason.unwrap();
    assert_eq!(
        proved_and_claimed(&reason),
        (v.recomputed, v.claimed),
        "{reason}"
    );

    // Branch and price: leaf 0's claim one ulp above what its duals prove.
    let never = std::sync::atomic::AtomicBool::new(false);
    let params = serde_json::json!({"time_limit": 20});
    let b = microagg::bound::compute_with("bnp", &inst, k, &params, &never).unwrap();
    let mut cert = common::verified_bnp_certificate(&b, &inst, k).clone();
    let leaf = &cert.leaves[0];
    let cuts: Vec<_> = cert.cuts.iter().map(|c| c.0).collect();
    let leaf_proves = microagg_solvers::bounds::verify_node_bound(
        &inst.z,
        inst.n,
        inst.d,
        k,
        &leaf.duals,
        &cuts[..leaf.cut_duals.len()],
        &leaf.cut_duals,
        &leaf.decisions,
        leaf.count(),
        None,
    )
    .unwrap()
    .lower_bound;
    cert.leaves[0].lower_bound = Some(leaf_proves.next_up());
    let v = microagg::bnp_certificate::verify(&cert, &inst, k, None).unwrap();
    let reason = v.reason.unwrap();
    assert!(reason.starts_with("leaf 0"), "{reason}");
    assert_eq!(
        proved_and_claimed(&reason),
        (leaf_proves, leaf_proves.next_up()),
        "{reason}"
    );
}

/// The Tarragona k = 10 certificate and its data, or None (skipped without the data).
fn tarragona_k10() -> Option<PathBuf> {
    common::casc("tarragona").map(|_| stored("tarragona-k10.bound.json"))
}

/// `verify-bound` of Tarragona at k = 10, the certificate's path to follow.
const VERIFY_TARRAGONA_K10: &str = "verify-bound --data tarragona --k 10 --certificate";

#[test]
fn bad_labels_are_refused_before_the_verification() {
    let Some(cert) = tarragona_k10() else { return };
    let dir = tempfile::tempdir().unwrap();
    // 834 labels, every group of 2 < k = 10 (and a file one row short).
    let pairs: String = (0..834).map(|i| format!("{}\n", i / 2)).collect();
    let short: String = (0..833).map(|i| format!("{}\n", i / 10)).collect();
    for (labels, needle) in [(pairs, "fewer than k = 10"), (short, "833")] {
        let path = common::write_file(dir.path(), "l.labels", &labels);
        let started = Instant::now();
        let tail = [cert.to_str().unwrap(), "--labels", path.to_str().unwrap()];
        let err = common::cli_err(&common::argv(&[], VERIFY_TARRAGONA_K10, &tail));
        // The honest verification alone takes 20 to 90 s.
        let seconds = started.elapsed().as_secs_f64();
        assert!(seconds < 15.0, "{seconds} s: {err}");
        assert!(err.contains(needle) && err.contains("l.labels"), "{err}");
    }
}

#[test]
fn a_raised_k10_claim_is_refused_within_one_time_limit() {
    let Some(cert) = tarragona_k10() else { return };
    let text = std::fs::read_to_string(&cert).unwrap();
    let claim = "\"lower_bound\": 3241.4155801736506";
    assert!(text.contains(claim), "the stored claim changed");
    let dir = tempfile::tempdir().unwrap();
    // Raised in the eighth digit.
    let path = common::write_file(
        dir.path(),
        "raised.json",
        &text.replacen(claim, "\"lower_bound\": 3241.4165801736506", 1),
    );
    let limit = 8.0;
    let started = Instant::now();
    let limit_text = limit.to_string();
    let tail = [
        path.to_str().unwrap(),
        "--time-limit",
        &limit_text,
        "--json",
    ];
    let out = common::cli(&common::argv(&[], VERIFY_TARRAGONA_K10, &tail));
    let seconds = started.elapsed().as_secs_f64();
    assert_eq!(out.status.code(), Some(1), "{}", common::stderr(&out));
    let v = common::stdout_json(&out);
    assert_eq!(v["valid"], false, "{v}");
    // Four searches used to get the limit each (4 x 8 s); one deadline ends them all.
    assert!(
        seconds < Duration::from_secs(30).as_secs_f64(),
        "{seconds} s for a limit of {limit} s: {v}"
    );
    assert_eq!(v["time_limit_reached"], true, "{v}");
    let reason = v["reason"].as_str().unwrap();
    assert!(reason.contains("cut by the limit"), "{v}");
}

#[test]
fn huge_and_tiny_weighted_figures_print_in_scientific_notation() {
    let dir = tempfile::tempdir().unwrap();
    for (name, weight) in [("big", 1e300), ("tiny", 1e-300)] {
        let rows: String = (0..12)
            .map(|i| {
                let (a, b) = ((i * 7 % 12) as f64 / 12.0, (i * 5 % 12) as f64 / 12.0);
                format!("{a},{b},{}\n", weight * (1.0 + (i % 2) as f64))
            })
            .collect();
        let data = common::write_file(
            dir.path(),
            &format!("{name}.csv"),
            &format!("a,b,w\n{rows}"),
        );
        let data = data.to_str().unwrap();
        let labels = dir.path().join(format!("{name}.labels"));
        let labels_out = ["--labels-out", labels.to_str().unwrap()];
        common::cli_ok(&common::run_args(data, "3", "mdav", &labels_out));
        let commands: [Vec<&str>; 3] = [
            vec!["bound", "--data", data, "--k", "3", "--weights", "w"],
            common::run_args(data, "3", "mdav", &["--weights", "w"]),
            vec![
                "check",
                "--data",
                data,
                "--k",
                "3",
                "--weights",
                "w",
                "--labels",
                labels.to_str().unwrap(),
            ],
        ];
        for args in commands {
            let text = common::stdout(&common::cli_ok(&args));
            let longest = text
                .split(|c: char| !c.is_ascii_digit())
                .map(str::len)
                .max()
                .unwrap_or(0);
            assert!(longest < 20, "{name} {args:?}: {text}");
            assert!(
                text.contains(&format!("e{}", if weight > 1.0 { "30" } else { "-29" })),
                "{name} {args:?}: {text}"
            );
        }
    }
}
