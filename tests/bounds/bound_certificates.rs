//! Bound certificates (issue 18 item 4, `proofs/P13-bound-certificates.md`): `bound --method
//! colgen --certificate F` writes the duals of its Lagrangian bound; `verify-bound`
//! recomputes the bound from them without HiGHS. Honest certificates verify; a raised dual or
//! a raised claim is rejected (exit 1); a certificate for other data or another k is an error
//! (exit 2); the recomputed bound never exceeds the brute-force optimum; the stored CASC
//! certificates under instances/library/ verify. Certificates with subset-row cuts
//! (`bound --cuts`, format 2, proofs/P14) verify too; a positive cut dual or a raised claim is
//! rejected, a malformed cut is an error.

use crate::common;
use common::{
    assert_exit, brute_force_optimum, cli, cli_ok, from_rows, stderr, weighted_args, write_rows_csv,
};
use microagg::certificate::BoundCertificate;
use microagg::data::{load, ColumnSelection, Instance};
use microagg_solvers::bounds::verify_lagrangian;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::path::Path;

/// `verify-bound` of `cert` exits with `code` and its output passes `says`.
fn assert_verify(data: &str, k: &str, cert: &Path, code: i32, says: impl Fn(&str) -> bool) {
    let (got, text) = verify_exit(data, k, cert);
    assert_eq!(got, Some(code), "{text}");
    assert!(says(&text), "{text}");
}

/// `c` changed by `tamper` and written to `path`: `verify-bound` of it on `data` at k = 3
/// exits with `code` and its output passes `says`.
fn assert_tampered(
    data: &str,
    c: &BoundCertificate,
    path: &Path,
    tamper: impl FnOnce(&mut BoundCertificate),
    code: i32,
    says: impl Fn(&str) -> bool,
) {
    let mut bad = c.clone();
    tamper(&mut bad);
    bad.write(path).unwrap();
    assert_verify(data, "3", path, code, says);
}

/// `bound --method colgen` on (data, k) with `extra`, its certificate written to `cert` and
/// read back.
fn colgen_certificate(data: &str, k: &str, extra: &[&str], cert: &Path) -> BoundCertificate {
    let mut args = extra.to_vec();
    args.extend(["--certificate", cert.to_str().unwrap()]);
    cli_ok(&common::method_args("bound", data, k, "colgen", &args));
    BoundCertificate::read(cert).unwrap()
}

/// The claim raised by one part in a million.
fn raise_claim(c: &mut BoundCertificate) {
    c.lower_bound *= 1.000001;
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
    let c = colgen_certificate(spec, "3", &["--time-limit", "20"], &cert);
    assert_eq!((c.n, c.d, c.k), (60, 2, 3));
    assert!(c.lower_bound > 0.0);
    assert_verify(spec, "3", &cert, 0, |t| t.starts_with("valid"));
    // Named .json.gz, it is written gzipped (as a branch-and-price certificate) and verifies.
    let gz = dir.path().join("c.json.gz");
    c.write(&gz).unwrap();
    assert_eq!(&std::fs::read(&gz).unwrap()[..2], &[0x1f, 0x8b]);
    assert_eq!(BoundCertificate::read(&gz).unwrap(), c);
    assert_verify(spec, "3", &gz, 0, |t| t.starts_with("valid"));

    // One dual raised by a visible amount: the claim no longer holds.
    let tampered = dir.path().join("dual.json");
    let raise = 0.05 * c.lower_bound / c.n as f64 + 1e-3;
    let says_invalid = |t: &str| t.starts_with("INVALID");
    let raise_dual = |b: &mut BoundCertificate| b.duals[7] += raise;
    assert_tampered(spec, &c, &tampered, raise_dual, 1, says_invalid);

    // The claim raised by one part in a million.
    assert_tampered(spec, &c, &tampered, raise_claim, 1, |_| true);

    // Other k, other data: errors, not verdicts.
    assert_verify(spec, "4", &cert, 2, |t| {
        t.contains("certificate is for k = 3")
    });
    assert_verify("gauss:n=60,d=2,clusters=12,seed=8", "3", &cert, 2, |t| {
        t.contains("sha256")
    });

    // A broken file names itself.
    std::fs::write(&tampered, "{\"format\": 3}").unwrap();
    assert_verify(spec, "3", &tampered, 2, |t| t.contains("dual.json"));

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
    let out = cli(&common::method_args(
        "bound",
        spec,
        "3",
        "colgen",
        &["--certificate", "/nonexistent-folder/c.json"],
    ));
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn certificates_with_cuts_verify_and_tampered_ones_do_not() {
    let dir = tempfile::tempdir().unwrap();
    // Cuts raise this bound (LP 4.4876 before cuts, 4.6635 after, 4 rounds, 35 cuts).
    let spec = "gauss:n=60,d=2,clusters=12,seed=7";
    let run = |cuts: &str, file: &str| {
        let cert = dir.path().join(file);
        let cuts = format!("cuts={cuts}");
        let extra = ["--time-limit", "20", "--param", &cuts];
        (colgen_certificate(spec, "3", &extra, &cert), cert)
    };
    let (plain, _) = run("0", "plain.json");
    assert_eq!(plain.format, "microagg-bound-certificate/1");
    assert!(plain.cuts.is_empty());
    let (c, cert) = run("20", "cuts.json");
    assert_eq!(c.format, "microagg-bound-certificate/2");
    assert!(!c.cuts.is_empty() && c.cuts.iter().all(|cut| cut.dual <= 0.0));
    // The restart tools' reader (studies/probes/examples/push_from_certificate and others) takes the plain
    // file and refuses the one with cuts, another k and another instance of the same shape.
    let inst = load(spec, &ColumnSelection::All).unwrap();
    let plain_path = dir.path().join("plain.json");
    assert_eq!(
        BoundCertificate::read_cut_free(&plain_path, &inst, 3).unwrap(),
        plain
    );
    let refusal = |path: &Path, inst: &Instance, k: usize| {
        BoundCertificate::read_cut_free(path, inst, k)
            .unwrap_err()
            .to_string()
    };
    let e = refusal(&cert, &inst, 3);
    assert!(e.contains("subset-row cuts"), "{e}");
    let e = refusal(&plain_path, &inst, 4);
    assert!(e.contains("--k 4"), "{e}");
    let other = load("gauss:n=60,d=2,clusters=12,seed=8", &ColumnSelection::All).unwrap();
    let e = refusal(&plain_path, &other, 3);
    assert!(e.contains("sha256"), "{e}");
    assert!(
        c.lower_bound > plain.lower_bound * 1.01,
        "cuts: {} vs {}",
        c.lower_bound,
        plain.lower_bound
    );
    assert_verify(spec, "3", &cert, 0, |t| t.starts_with("valid"));
    // Without its cuts the duals do not prove the claim.
    let tampered = dir.path().join("t.json");
    let drop_cuts = |b: &mut BoundCertificate| {
        b.cuts.clear();
        b.format = "microagg-bound-certificate/1".into();
    };
    assert_tampered(spec, &c, &tampered, drop_cuts, 1, |_| true);
    // A cut dual made positive proves nothing.
    let positive_cut_dual = |b: &mut BoundCertificate| {
        let j = b.cuts.iter().position(|cut| cut.dual < 0.0).unwrap();
        b.cuts[j].dual = 1e-3;
    };
    let says = |t: &str| t.contains("positive dual");
    assert_tampered(spec, &c, &tampered, positive_cut_dual, 1, says);
    // The claim raised by one part in a million.
    assert_tampered(spec, &c, &tampered, raise_claim, 1, |_| true);
    // A cut with a repeated record, or cuts in a format-1 file: errors.
    let says = |t: &str| t.contains("three distinct records");
    let repeat_record = |b: &mut BoundCertificate| b.cuts[0].records = [1, 1, 2];
    assert_tampered(spec, &c, &tampered, repeat_record, 2, says);
    let format_1 = |b: &mut BoundCertificate| b.format = "microagg-bound-certificate/1".into();
    assert_tampered(spec, &c, &tampered, format_1, 2, |_| true);
    // Only colgen takes cuts.
    let out = cli(&[
        "bound", "--data", spec, "--k", "3", "--method", "nn", "--param", "cuts=3",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("bound nn has no parameter 'cuts'"));
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
        write_rows_csv(&csv, &rows);
        let cert = dir.path().join(format!("r{case}.json"));
        let ks = k.to_string();
        let c = colgen_certificate(csv.to_str().unwrap(), &ks, &["--time-limit", "10"], &cert);
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

/// Every colgen certificate of the benchmark library's folder verifies (the k = 10 ones take
/// minutes: census about 3 on an idle core).
#[test]
fn stored_casc_certificates_verify() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/library");
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
    if common::data_required() {
        assert!(checked >= 1, "no stored certificate was checked");
    }
}

/// Branch-price-and-cut through the bound registry (`bound::compute("bnp")`, the path of
/// `bound --method bnp`, `run --bound bnp` and suites): on small instances (duplicates, far
/// clusters, scaled data) its bound is at most the brute-force optimum, its incumbent is a
/// feasible partition at or above it (equal when proven optimal), and its certificate
/// verifies with the same claim.
#[test]
fn bnp_through_the_registry_is_at_most_brute_force() {
    use microagg::bound::{compute_reporting, Certificate};
    let mut rng = ChaCha8Rng::seed_from_u64(18_2024);
    let never = std::sync::atomic::AtomicBool::new(false);
    let (mut checked, mut reports, mut nn_only) = (0, 0, 0);
    for case in 0..24 {
        let n = rng.random_range(6..=10);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3usize);
        let scale = [1e-6, 1.0, 1e6][case % 3];
        let rows: Vec<Vec<f64>> = (0..n)
            .map(|i| {
                (0..d)
                    .map(|_| match case % 4 {
                        // Two far clusters with a tiny spread.
                        0 => scale * ((i % 2) as f64 * 100.0 + rng.random_range(0.0..1e-3)),
                        // Duplicated rows.
                        1 => scale * ((i / 2) as f64 + 0.5 * (i % 3) as f64),
                        _ => scale * rng.random_range(-1.0..1.0),
                    })
                    .collect()
            })
            .collect();
        if (0..d).any(|j| rows.iter().all(|r| r[j] == rows[0][j])) {
            continue; // a constant column cannot be z-scored
        }
        let inst = from_rows(&rows);
        let opt = brute_force_optimum(&inst.z, n, d, k);
        // One cut round at the root, so that some cases branch.
        let params = serde_json::json!({"cuts": 1, "time_limit": 20});
        let b = compute_reporting("bnp", &inst, k, &params, &never, &mut |p| {
            assert!(p.lower_bound <= opt * (1.0 + 1e-12) + 1e-12, "case {case}");
            reports += 1;
        })
        .unwrap();
        assert!(b.certified && b.method == "bnp");
        assert!(
            b.lower_bound <= opt * (1.0 + 1e-12) + 1e-12,
            "case {case}: bnp bound {} > optimum {opt}",
            b.lower_bound
        );
        let inc = b.incumbent.as_ref().expect("bnp returns its incumbent");
        let check = microagg::labels::check_labels(&inst, k, &inc.labels).unwrap();
        assert!(check.feasible, "case {case}");
        assert!(
            (check.sse - inc.sse).abs() <= 1e-9 * (1.0 + opt),
            "case {case}"
        );
        assert!(inc.sse >= opt * (1.0 - 1e-12) - 1e-12, "case {case}");
        if inc.proven_optimal {
            assert!((inc.sse - opt).abs() <= 1e-9 * (1.0 + opt), "case {case}");
        }
        assert_eq!(b.details["sse"].as_f64(), Some(inc.sse));
        let cert = match &b.certificate {
            Ok(Certificate::BranchAndPrice(cert)) => cert,
            // The nn bound alone closed the search: no Lagrangian proof to certify.
            Err(why) if why.contains("only nn") => {
                nn_only += 1;
                continue;
            }
            other => panic!("case {case}: no bnp certificate: {other:?}"),
        };
        assert_eq!(cert.lower_bound, b.lower_bound, "case {case}");
        let v = microagg::bnp_certificate::verify(cert, &inst, k, None).unwrap();
        assert!(v.valid, "case {case}: {v:?}");
        checked += 1;
    }
    eprintln!("{checked} certificates verified, {nn_only} runs closed by the nn bound");
    assert!(
        checked >= 12,
        "{checked} certificates, {nn_only} closed by nn"
    );
    assert!(
        reports >= checked,
        "every run reports its first incumbent and bound"
    );
}

/// `--cuts 0` (`cuts = 0`) means no cuts for every bound that takes cuts, not "the
/// default": colgen-cuts then separates none, bnp none at the root nor at any node, and the
/// bnp certificate carries no cut. On an instance where the defaults do add cuts.
#[test]
fn zero_cut_rounds_means_no_cuts() {
    use microagg::bound::compute_with;
    let inst = common::synthetic("gauss:n=60,d=2,clusters=12,seed=7");
    let never = std::sync::atomic::AtomicBool::new(false);
    let run = |name: &str, cut_rounds: Option<usize>| {
        let mut params = serde_json::json!({"time_limit": 20});
        if let Some(r) = cut_rounds {
            params["cuts"] = r.into();
        }
        compute_with(name, &inst, 3, &params, &never).unwrap()
    };
    let count = |b: &microagg::bound::BoundOutcome, key: &str| b.details[key].as_u64().unwrap();
    let colgen_cuts = run("colgen-cuts", None);
    assert!(count(&colgen_cuts, "cuts") > 0, "{}", colgen_cuts.details);
    let none = run("colgen-cuts", Some(0));
    assert_eq!((count(&none, "cut_rounds"), count(&none, "cuts")), (0, 0));
    assert!(none.lower_bound < colgen_cuts.lower_bound);
    let bnp = run("bnp", None);
    assert!(count(&bnp, "cuts") > 0, "{}", bnp.details);
    let plain = run("bnp", Some(0));
    assert_eq!((count(&plain, "cut_rounds"), count(&plain, "cuts")), (0, 0));
    let c = common::verified_bnp_certificate(&plain, &inst, 3);
    assert!(c.cuts.is_empty() && c.leaves.iter().all(|l| l.cut_duals.is_empty()));
}

/// `--max-nodes N` (`max_nodes = N`) stops bnp after N nodes: the search that branches
/// without it (gauss n = 60, no cuts) stops at 1 and 3 nodes, each with a certificate that
/// verifies, the smaller run with fewer leaves, and a bound at most the longer run's.
#[test]
fn max_nodes_stops_branch_and_price() {
    use microagg::bound::compute_with;
    let inst = common::synthetic("gauss:n=60,d=2,clusters=12,seed=7");
    let never = std::sync::atomic::AtomicBool::new(false);
    let run = |max_nodes: u64| {
        let params = serde_json::json!({"cuts": 0, "max_nodes": max_nodes, "time_limit": 20});
        let b = compute_with("bnp", &inst, 3, &params, &never).unwrap();
        let c = common::verified_bnp_certificate(&b, &inst, 3);
        (
            b.details["nodes"].as_u64().unwrap(),
            c.leaves.len(),
            b.lower_bound,
        )
    };
    let free = run(0);
    assert!(free.0 > 3, "the unlimited search branches: {free:?}");
    let (one, three) = (run(1), run(3));
    assert_eq!((one.0, three.0), (1, 3));
    assert!(
        one.1 < three.1 && three.1 <= free.1,
        "{one:?} {three:?} {free:?}"
    );
    assert!(
        one.2 <= three.2 && three.2 <= free.2,
        "{one:?} {three:?} {free:?}"
    );
}

/// `--max-cuts C` (`max_cuts = C`) caps the cuts of bnp: the default run adds more than 5
/// cuts on this instance, the capped one 5 at most, and its certificate verifies.
#[test]
fn max_cuts_caps_the_cuts_of_branch_and_price() {
    use microagg::bound::compute_with;
    let inst = common::synthetic("gauss:n=60,d=2,clusters=12,seed=7");
    let never = std::sync::atomic::AtomicBool::new(false);
    let run = |max_cuts: Option<usize>| {
        let mut params = serde_json::json!({"max_nodes": 3, "time_limit": 20});
        if let Some(c) = max_cuts {
            params["max_cuts"] = c.into();
        }
        compute_with("bnp", &inst, 3, &params, &never).unwrap()
    };
    let cuts = |b: &microagg::bound::BoundOutcome| b.details["cuts"].as_u64().unwrap();
    let free = run(None);
    assert!(cuts(&free) > 5, "{}", free.details);
    let capped = run(Some(5));
    assert!((1..=5).contains(&cuts(&capped)), "{}", capped.details);
    let c = common::verified_bnp_certificate(&capped, &inst, 3);
    assert!(c.cuts.len() <= 5);
}

/// Compaction: two sibling leaves with the same claim and duals become their parent, cuts
/// with zero duals everywhere disappear, and the compacted certificate verifies with the
/// same claim; a compacted certificate with a raised dual is still rejected.
#[test]
fn compacted_bnp_certificates_keep_their_proof() {
    use microagg::bnp_certificate::{verify, BnpCertificate};
    let spec = "gauss:n=14,d=2,clusters=4,seed=11";
    let inst = common::synthetic(spec);
    let k = 3;
    let b = microagg::bound::compute("bnp", &inst, k, Some(20.0)).unwrap();
    let Ok(microagg::bound::Certificate::BranchAndPrice(c)) = b.certificate else {
        panic!("no certificate");
    };
    let root = c
        .leaves
        .iter()
        .find(|l| l.lower_bound.is_some() && !l.nn_bound)
        .unwrap()
        .clone();
    // The root's proof split by hand into a tree of three leaves with the same proof and
    // a cut nobody uses.
    let mut split = BnpCertificate {
        leaves: Vec::new(),
        ..c.clone()
    };
    split.lower_bound = root.lower_bound.unwrap();
    split.cuts.push([0, 1, 2].into());
    for decisions in [
        vec![(0, 1, true), (2, 3, true)],
        vec![(0, 1, false)],
        vec![(0, 1, true), (2, 3, false)],
    ] {
        let mut leaf = root.clone();
        leaf.decisions = decisions;
        split.leaves.push(leaf);
    }
    // The root leaf must have no decisions of its own for this check.
    if !root.decisions.is_empty() {
        return;
    }
    assert!(verify(&split, &inst, k, None).unwrap().valid);
    let compact = split.clone().compact();
    assert_eq!(compact.leaves.len(), 1);
    assert!(compact.leaves[0].decisions.is_empty());
    assert!(compact.cuts.len() < split.cuts.len());
    assert_eq!(compact.lower_bound, split.lower_bound);
    let v = verify(&compact, &inst, k, None).unwrap();
    assert!(v.valid, "{v:?}");
    // Leaves with different duals are not merged.
    let mut differ = split.clone();
    differ.leaves[1].duals[0] -= 1e-3;
    assert_eq!(differ.compact().leaves.len(), 2);
    // Written gzipped and read back: the same certificate.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("c.bnp.json.gz");
    compact.write(&path).unwrap();
    let bytes = std::fs::read(&path).unwrap();
    assert_eq!(&bytes[..2], &[0x1f, 0x8b]);
    assert_eq!(BnpCertificate::read(&path).unwrap(), compact);
    let (code, text) = verify_exit(spec, "3", &path);
    assert_eq!(code, Some(0), "{text}");
    let mut bad = compact.clone();
    bad.leaves[0].duals[0] += 0.1 * (1.0 + bad.lower_bound.abs());
    bad.write(&path).unwrap();
    let (code, text) = verify_exit(spec, "3", &path);
    assert_eq!(code, Some(1), "{text}");
}

/// The stored branch-and-price certificates `instances/library/<data>-k<k>.bnp.json.gz`
/// whose verification is quick (at most [`QUICK_LEAVES`] leaves); the others are checked
/// by the ignored test below. Each stored one, with one dual of its first leaf raised, is
/// rejected (the verifier stops at that leaf, so this is quick for all).
#[test]
fn stored_bnp_certificates_verify_and_tampered_ones_do_not() {
    stored_bnp_certificates(Some(QUICK_LEAVES));
}

/// Every stored branch-and-price certificate, however long it takes (minutes: one exact
/// pricing per leaf). `cargo test --release --test bounds -- --ignored bound_certificates::`.
#[test]
#[ignore]
fn all_stored_bnp_certificates_verify() {
    stored_bnp_certificates(None);
}

/// Certificates with more leaves than this are verified only by the ignored test (today
/// tarragona-k5, eia-k3 and eia-k4 are within it).
const QUICK_LEAVES: usize = 32;

fn stored_bnp_certificates(max_leaves: Option<usize>) {
    use microagg::bnp_certificate::BnpCertificate;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("instances/library");
    let (mut checked, mut rejected) = (0, 0);
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let Some(case) = name.strip_suffix(".bnp.json.gz") else {
            continue;
        };
        let (id, k) = case.split_once("-k").expect("<instance>-k<K>.bnp.json.gz");
        if common::casc(id).is_none() {
            continue;
        }
        let cert = BnpCertificate::read(&path).unwrap();
        if max_leaves.is_none_or(|m| cert.leaves.len() <= m) {
            let (code, text) = verify_exit(id, k, &path);
            assert_eq!(code, Some(0), "{name}: {text}");
            checked += 1;
        }
        let tmp = tempfile::tempdir().unwrap();
        let bad_path = tmp.path().join("bad.bnp.json.gz");
        let mut bad = cert.clone();
        let j = (0..bad.leaves.len())
            .find(|&j| bad.leaves[j].lower_bound.is_some() && !bad.leaves[j].nn_bound)
            .unwrap();
        bad.leaves.swap(0, j);
        bad.leaves[0].duals[0] += 0.1 * (1.0 + cert.lower_bound.abs() / cert.n as f64);
        bad.write(&bad_path).unwrap();
        let (code, text) = verify_exit(id, k, &bad_path);
        assert_eq!(code, Some(1), "{name} with a raised dual: {text}");
        rejected += 1;
    }
    if common::data_required() {
        assert!(
            checked >= 1 && rejected >= 1,
            "no stored bnp certificate was checked"
        );
    }
}

/// The k = 10 recipe of the stored CASC bounds through `microagg bound` itself (the flags
/// `--box-width`, `--stop-early`, `--tighten` next to the older ones), not only through
/// studies/probes/examples/casc_bounds: the box reaches the engine (smoothing off under a box, so every
/// progress line says alpha 0.000, against 0.500 without), the tightening runs, the
/// certificate verifies; bad values, a bound without these parameters and `--weights` are
/// refused by name.
#[test]
fn the_k10_recipe_runs_from_the_command_line_and_its_certificate_verifies() {
    let dir = tempfile::tempdir().unwrap();
    let spec = "gauss:n=200,d=3,clusters=20,seed=3";
    let recipe = [
        "bound",
        "--data",
        spec,
        "--k",
        "10",
        "--method",
        "colgen",
        "--time-limit",
        "6",
        "--param",
        "nn_ascent=0.2",
        "--param",
        "final_fraction=0.3",
        "--param",
        "lp_segment=true",
        "--param",
        "push_project=true",
        "--param",
        "ipm=true",
        "--param",
        "stop_early=true",
        "--param",
        "tighten_fraction=0.1",
        "--progress",
    ];
    let run = |extra: &[&str], cert: &Path| -> String {
        let mut args = recipe.to_vec();
        args.extend_from_slice(extra);
        args.extend_from_slice(&["--certificate", cert.to_str().unwrap()]);
        stderr(&cli_ok(&args))
    };
    let alpha_lines = |log: &str, alpha: &str| {
        log.lines()
            .filter(|l| l.starts_with("colgen:") && l.contains(&format!("alpha {alpha}")))
            .count()
    };
    let boxed = dir.path().join("boxed.json");
    let log = run(&["--param", "box_width=0.3"], &boxed);
    assert!(alpha_lines(&log, "0.000") > 0, "{log}");
    assert_eq!(alpha_lines(&log, "0.500"), 0, "{log}");
    let plain = dir.path().join("plain.json");
    let log = run(&[], &plain);
    assert!(alpha_lines(&log, "0.500") > 0, "{log}");
    assert_eq!(alpha_lines(&log, "0.000"), 0, "{log}");
    assert!(log.contains("tighten: threshold"), "{log}");
    // The slack rounds with the least-lowering projection: the candidates it picks are
    // certified like any other.
    let least = dir.path().join("least.json");
    let log = run(
        &["--param", "slack_push=0.1", "--param", "lp_projection=true"],
        &least,
    );
    assert!(log.contains("slack-push: round 0"), "{log}");
    // The pool's master after the slack rounds: its midpoints certified like any other.
    let pooled = dir.path().join("pooled.json");
    let log = run(
        &["--param", "slack_push=0.05", "--param", "pool_master=0.1"],
        &pooled,
    );
    assert!(log.contains("pool master: bound"), "{log}");
    for cert in [&boxed, &plain, &least, &pooled] {
        let (code, text) = verify_exit(spec, "10", cert);
        assert_eq!(code, Some(0), "{text}");
    }

    // `bound --data SPEC --k 10 --method METHOD --param P ...` exits with 2 and `expected`.
    let refused = |method: &str, params: &[&str], expected: &str| {
        let mut args = vec!["bound", "--data", spec, "--k", "10", "--method", method];
        for p in params {
            args.extend(["--param", p]);
        }
        assert_exit(&cli(&args), 2, expected);
    };
    refused(
        "colgen",
        &["box_width=-1"],
        "box_width must be a finite number >= 0",
    );
    refused(
        "colgen",
        &["box_width=inf"],
        "box_width: invalid type: string \"inf\"",
    );
    refused(
        "colgen",
        &["tighten_fraction=1.5"],
        "tighten_fraction must be in [0, 1)",
    );
    refused(
        "colgen",
        &["slack_push=1.5"],
        "slack_push must be in [0, 1)",
    );
    refused(
        "colgen",
        &["slack_push=0.6", "tighten_fraction=0.5"],
        "slack_push + tighten_fraction must be below final_fraction (their shares come out of the final phase)",
    );
    // The recipe's final phase is 0.3 of the time: slack rounds of 0.3 would starve the
    // line search before them.
    refused(
        "colgen",
        &["final_fraction=0.3", "slack_push=0.3"],
        "slack_push + tighten_fraction must be below final_fraction",
    );
    refused(
        "colgen",
        &["pool_master=1.5"],
        "pool_master must be in [0, 1)",
    );
    refused(
        "colgen",
        &[
            "final_fraction=0.3",
            "pool_master=0.2",
            "tighten_fraction=0.1",
        ],
        "slack_push + pool_master + tighten_fraction must be below final_fraction",
    );
    refused(
        "colgen",
        &["pool_master_moving_centre=true"],
        "pool_master_moving_centre needs pool_master above 0",
    );
    refused(
        "nn",
        &["box_width=0.3"],
        "bound nn has no parameter 'box_width'",
    );
    let csv = dir.path().join("w.csv");
    std::fs::write(&csv, "x,y,w\n0,0,1\n1,0,2\n0,1,1\n5,5,1\n6,5,3\n5,6,1\n").unwrap();
    for flag in [
        &["--param", "box_width=0.3"][..],
        &["--param", "push_project=true"],
        &["--param", "stop_early=true"],
        &["--param", "slack_push=0.3"],
        &["--param", "pool_master=0.3"],
        &["--param", "pool_master_moving_centre=true"],
        &["--param", "lp_projection=true"],
    ] {
        let mut extra = vec!["--method", "colgen"];
        extra.extend_from_slice(flag);
        let args = weighted_args("bound", csv.to_str().unwrap(), "3", &extra);
        let key = flag[1].split('=').next().unwrap();
        let expected = format!("parameter {key} does not apply to the weighted");
        assert_exit(&cli(&args), 2, &expected);
    }
}

/// A certificate written by the k = 10 recipe of the test above with `--time-limit 1` (one
/// run in 120 repeated runs; CI had rejected one such at 6 s) that the verifier then
/// rejected: its claim, the value of the producers' search with per-anchor size completion,
/// lay one step above what the verifier's other searches recompute at the same duals
/// (55.32130600409353 against 55.321306004093536). The verifier now runs the producers'
/// search first and gets the claim bit for bit; the other searches still give less (so the
/// fixture keeps testing the case). A claim lowered by `verifiable_claim` (what `bound` now
/// writes) verifies too.
#[test]
fn a_claim_of_the_producers_own_search_verifies_bit_for_bit() {
    let spec = "gauss:n=200,d=3,clusters=20,seed=3";
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/certificates/k10-local-completion-last-bit.json");
    let out = cli_ok(&[
        "verify-bound",
        "--data",
        spec,
        "--k",
        "10",
        "--certificate",
        path.to_str().unwrap(),
        "--json",
    ]);
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["valid"], true, "{v}");
    assert_eq!(v["recomputed"], v["claimed"], "{v}");

    let cert = BoundCertificate::read(&path).unwrap();
    let inst = microagg::data::load(spec, &microagg::data::ColumnSelection::All).unwrap();
    let (n, d, k) = (inst.n, inst.d, 10);
    let uncompleted = microagg_solvers::bounds::verify_lagrangian_anchored_at(
        &inst.z,
        n,
        d,
        k,
        &cert.duals,
        &[],
        &[],
        None,
        cert.anchor_threshold,
    )
    .unwrap();
    assert!(
        uncompleted.lower_bound < cert.lower_bound,
        "{uncompleted:?}"
    );
    assert!(cert.lower_bound - uncompleted.lower_bound < 1e-12 * cert.lower_bound);

    let geo = microagg_solvers::bounds::colgen::pricing::Geometry::new(&inst.z, n, d, k, 1);
    let none = microagg_solvers::bounds::colgen::cuts::CutDuals::none();
    let lowered =
        microagg_solvers::bounds::verifiable_claim(&geo, &cert.duals, d, &none, cert.lower_bound);
    assert!(lowered < cert.lower_bound && lowered > cert.lower_bound * (1.0 - 1e-9));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("lowered.json");
    let mut c = cert.clone();
    c.lower_bound = lowered;
    c.write(&file).unwrap();
    let (code, text) = verify_exit(spec, "10", &file);
    assert_eq!(code, Some(0), "{text}");
}

#[test]
fn a_certificate_below_the_reported_value_is_said_to_be() {
    // One master solve leaves the Lagrangian bound far below nn: the reported value is nn's,
    // and the file (still a valid certificate of its own value) is said to hold less.
    let dir = tempfile::tempdir().unwrap();
    let spec = "uniform:n=200,d=2,seed=1";
    let cert = dir.path().join("c.json");
    let path = cert.to_str().unwrap();
    let out = cli_ok(&common::method_args(
        "bound",
        spec,
        "3",
        "colgen",
        &[
            "--param",
            "max_iterations=1",
            "--certificate",
            path,
            "--json",
        ],
    ));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["produced_by"], "nn", "{v}");
    let held = BoundCertificate::read(&cert).unwrap().lower_bound;
    assert!(held < v["lower_bound"].as_f64().unwrap(), "{held} {v}");
    let said = format!("the file certifies {held:.12e}, below the reported");
    assert!(stderr(&out).contains(&said), "{}", stderr(&out));
    assert_verify(spec, "3", &cert, 0, |_| true);
    // A converged run reports its own certificate's value and says nothing more.
    let out = cli_ok(&common::method_args(
        "bound",
        "gauss:n=60,d=2,clusters=12,seed=7",
        "3",
        "colgen",
        &["--time-limit", "20", "--certificate", path],
    ));
    assert!(
        !stderr(&out).contains("below the reported"),
        "{}",
        stderr(&out)
    );
}
