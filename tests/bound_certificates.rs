//! Bound certificates (issue 18 item 4, `proofs/P13-bound-certificates.md`): `bound --method
//! colgen --certificate F` writes the duals of its Lagrangian bound; `verify-bound`
//! recomputes the bound from them without HiGHS. Honest certificates verify; a raised dual or
//! a raised claim is rejected (exit 1); a certificate for other data or another k is an error
//! (exit 2); the recomputed bound never exceeds the brute-force optimum; the stored CASC
//! certificates under proofs/certificates/ verify. Certificates with subset-row cuts
//! (`bound --cuts`, format 2, proofs/P14) verify too; a positive cut dual or a raised claim is
//! rejected, a malformed cut is an error.

mod common;
use common::{brute_force_optimum, cli, cli_ok, from_rows};
use microagg::certificate::BoundCertificate;
use microagg_solvers::bounds::verify_lagrangian;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

fn write_csv(path: &Path, rows: &[Vec<f64>]) {
    let d = rows[0].len();
    let mut s = (1..=d)
        .map(|j| format!("x{j}"))
        .collect::<Vec<_>>()
        .join(",")
        + "\n";
    for r in rows {
        s += &r
            .iter()
            .map(|v| format!("{v:e}"))
            .collect::<Vec<_>>()
            .join(",");
        s += "\n";
    }
    std::fs::write(path, s).unwrap();
}

fn verify_exit(data: &str, k: &str, cert: &Path) -> (Option<i32>, String) {
    let out = cli(&[
        "verify-bound",
        "--data",
        data,
        "--k",
        k,
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).to_string() + &String::from_utf8_lossy(&out.stderr),
    )
}

#[test]
fn honest_certificates_verify_and_tampered_ones_do_not() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "gauss:n=60,d=2,clusters=12,seed=7";
    let cert = dir.path().join("c.json");
    cli_ok(&[
        "bound",
        "--data",
        spec,
        "--k",
        "3",
        "--method",
        "colgen",
        "--time-limit",
        "20",
        "--certificate",
        cert.to_str().unwrap(),
    ]);
    let c = BoundCertificate::read(&cert).unwrap();
    assert_eq!((c.n, c.d, c.k), (60, 2, 3));
    assert!(c.lower_bound > 0.0);
    let (code, text) = verify_exit(spec, "3", &cert);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("valid"), "{text}");

    // One dual raised by a visible amount: the claim no longer holds.
    let mut bad = c.clone();
    bad.duals[7] += 0.05 * c.lower_bound / c.n as f64 + 1e-3;
    let tampered = dir.path().join("dual.json");
    bad.write(&tampered).unwrap();
    let (code, text) = verify_exit(spec, "3", &tampered);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.starts_with("INVALID"), "{text}");

    // The claim raised by one part in a million.
    let mut bad = c.clone();
    bad.lower_bound *= 1.000001;
    bad.write(&tampered).unwrap();
    assert_eq!(verify_exit(spec, "3", &tampered).0, Some(1));

    // Other k, other data: errors, not verdicts.
    let (code, text) = verify_exit(spec, "4", &cert);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("certificate is for k = 3"), "{text}");
    let (code, text) = verify_exit("gauss:n=60,d=2,clusters=12,seed=8", "3", &cert);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("sha256"), "{text}");

    // A broken file names itself.
    std::fs::write(&tampered, "{\"format\": 3}").unwrap();
    let (code, text) = verify_exit(spec, "3", &tampered);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("dual.json"), "{text}");

    // Only colgen writes certificates; a missing folder is refused before the run.
    let out = cli(&[
        "bound",
        "--data",
        spec,
        "--k",
        "3",
        "--certificate",
        "c.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
    let out = cli(&[
        "bound",
        "--data",
        spec,
        "--k",
        "3",
        "--method",
        "colgen",
        "--certificate",
        "/nonexistent-folder/c.json",
    ]);
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn certificates_with_cuts_verify_and_tampered_ones_do_not() {
    let dir = tempfile::tempdir().unwrap();
    // Cuts raise this bound (LP 4.4876 before cuts, 4.6635 after, 4 rounds, 35 cuts).
    let spec = "gauss:n=60,d=2,clusters=12,seed=7";
    let run = |cuts: &str, file: &str| {
        let cert = dir.path().join(file);
        cli_ok(&[
            "bound",
            "--data",
            spec,
            "--k",
            "3",
            "--method",
            "colgen",
            "--time-limit",
            "20",
            "--cuts",
            cuts,
            "--certificate",
            cert.to_str().unwrap(),
        ]);
        (BoundCertificate::read(&cert).unwrap(), cert)
    };
    let (plain, _) = run("0", "plain.json");
    assert_eq!(plain.format, "microagg-bound-certificate/1");
    assert!(plain.cuts.is_empty());
    let (c, cert) = run("20", "cuts.json");
    assert_eq!(c.format, "microagg-bound-certificate/2");
    assert!(!c.cuts.is_empty() && c.cuts.iter().all(|cut| cut.dual <= 0.0));
    assert!(
        c.lower_bound > plain.lower_bound * 1.01,
        "cuts: {} vs {}",
        c.lower_bound,
        plain.lower_bound
    );
    let (code, text) = verify_exit(spec, "3", &cert);
    assert_eq!(code, Some(0), "{text}");
    assert!(text.starts_with("valid"), "{text}");
    // Without its cuts the duals do not prove the claim.
    let tampered = dir.path().join("t.json");
    let mut bad = c.clone();
    bad.cuts.clear();
    bad.format = "microagg-bound-certificate/1".into();
    bad.write(&tampered).unwrap();
    assert_eq!(verify_exit(spec, "3", &tampered).0, Some(1));
    // A cut dual made positive proves nothing.
    let mut bad = c.clone();
    let j = bad.cuts.iter().position(|cut| cut.dual < 0.0).unwrap();
    bad.cuts[j].dual = 1e-3;
    bad.write(&tampered).unwrap();
    let (code, text) = verify_exit(spec, "3", &tampered);
    assert_eq!(code, Some(1), "{text}");
    assert!(text.contains("positive dual"), "{text}");
    // The claim raised by one part in a million.
    let mut bad = c.clone();
    bad.lower_bound *= 1.000001;
    bad.write(&tampered).unwrap();
    assert_eq!(verify_exit(spec, "3", &tampered).0, Some(1));
    // A cut with a repeated record, or cuts in a format-1 file: errors.
    let mut bad = c.clone();
    bad.cuts[0].records = [1, 1, 2];
    bad.write(&tampered).unwrap();
    let (code, text) = verify_exit(spec, "3", &tampered);
    assert_eq!(code, Some(2), "{text}");
    assert!(text.contains("three distinct records"), "{text}");
    let mut bad = c.clone();
    bad.format = "microagg-bound-certificate/1".into();
    bad.write(&tampered).unwrap();
    assert_eq!(verify_exit(spec, "3", &tampered).0, Some(2));
    // Only colgen takes cuts.
    let out = cli(&[
        "bound", "--data", spec, "--k", "3", "--method", "nn", "--cuts", "3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("only colgen"));
}

#[test]
fn recomputed_bounds_never_exceed_the_brute_force_optimum() {
    let dir = tempfile::tempdir().unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(18_004);
    for case in 0..6 {
        let n = rng.random_range(7..=10);
        let d = rng.random_range(1..=2);
        let k = rng.random_range(2..=3);
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..d)
                    .map(|_| (i % 3) as f64 * 4.0 + rng.random_range(-1.0..1.0))
                    .collect()
            })
            .collect();
        let csv = dir.path().join(format!("r{case}.csv"));
        write_csv(&csv, &rows);
        let cert = dir.path().join(format!("r{case}.json"));
        let ks = k.to_string();
        cli_ok(&[
            "bound",
            "--data",
            csv.to_str().unwrap(),
            "--k",
            &ks,
            "--method",
            "colgen",
            "--time-limit",
            "10",
            "--certificate",
            cert.to_str().unwrap(),
        ]);
        let c = BoundCertificate::read(&cert).unwrap();
        let inst = from_rows(&rows);
        let opt = brute_force_optimum(&inst.z, n, d, k);
        let v = verify_lagrangian(&inst.z, n, d, k, &c.duals, None).unwrap();
        assert!(v.pricing_exact);
        assert!(
            v.lower_bound <= opt,
            "case {case}: {} > optimum {opt}",
            v.lower_bound
        );
        assert!(
            c.lower_bound <= v.lower_bound,
            "case {case}: claim not supported"
        );
        // Random duals prove a (weak) valid bound too.
        let y: Vec<f64> = (0..n).map(|_| rng.random_range(-1.0..2.0)).collect();
        let w = verify_lagrangian(&inst.z, n, d, k, &y, None).unwrap();
        assert!(
            w.lower_bound <= opt,
            "case {case}: random duals {} > {opt}",
            w.lower_bound
        );
    }
}

#[test]
fn stored_casc_certificates_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("proofs/certificates");
    let mut checked = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let Some(name) = path.file_name().and_then(|n| n.to_str()) else {
            continue;
        };
        let Some(case) = name.strip_suffix(".bound.json") else {
            continue;
        };
        let (id, k) = case
            .split_once("-k")
            .expect("file name <instance>-k<K>.bound.json");
        if common::casc(id).is_none() {
            continue;
        }
        let (code, text) = verify_exit(id, k, &path);
        assert_eq!(code, Some(0), "{name}: {text}");
        checked += 1;
    }
    if std::env::var("MICROAGG_REQUIRE_DATA").is_ok_and(|v| v == "1") {
        assert!(checked >= 1, "no stored certificate was checked");
    }
}
