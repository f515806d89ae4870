//! Issue 48 item 5: exact-solver errors that should be answers. Branch-and-price on far-apart
//! clusters (degenerate masters HiGHS once ended with "solve error" / "unknown"), the
//! certificate of a search the nn bound closed, a start cut by a tiny time limit, a master LP
//! that cannot be solved at all (forced), and set-partitioning's overrun of its time limit.

use microagg::bnp_certificate::{self, BnpCertificate};
use microagg::bound::bnp::run_with;
use microagg::data::Instance;
use microagg::exact::solve_from_mdav;
use microagg_solvers::bnp::BnpOptions;
use microagg_solvers::bounds::colgen::master::fail_next_runs_for_test;
use microagg_solvers::bounds::colgen::{colgen_bound_from, ColgenOptions};
use microagg_solvers::exact::ExactMethod;
use std::sync::atomic::AtomicBool;

/// A CSV file of `tests/fixtures/far_clusters` as an instance.
fn far_cluster(name: &str) -> Instance {
    let path = format!(
        "{}/tests/fixtures/far_clusters/{name}.csv",
        env!("CARGO_MANIFEST_DIR")
    );
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines = text.lines();
    let d = lines.next().unwrap().split(',').count();
    let raw: Vec<f64> = lines
        .flat_map(|l| {
            l.split(',')
                .map(|v| v.parse::<f64>().unwrap())
                .collect::<Vec<_>>()
        })
        .collect();
    super::instance(&raw, d).unwrap()
}

/// The optimum proven by `solve-exact --method auto` (subset DP or set-partitioning MIP).
fn proven_optimum(inst: &Instance, k: usize) -> f64 {
    let never = AtomicBool::new(false);
    let (s, _) = solve_from_mdav(inst, k, ExactMethod::Auto, None, &never).unwrap();
    assert!(s.proven_optimal);
    s.sse
}

fn bnp(inst: &Instance, k: usize, seconds: f64) -> microagg::Result<microagg::bound::bnp::BnpRun> {
    let never = AtomicBool::new(false);
    run_with(
        inst,
        k,
        Some(seconds),
        None,
        "",
        &BnpOptions::default(),
        &never,
        &mut |_| {},
    )
}

#[test]
fn branch_and_price_proves_the_far_cluster_instances_its_master_once_failed_on() {
    // Two or three clusters 100 apart, spread 1e-3 to 1e-4, d = 3-4, n = 20-25, k = 3:
    // before the master's retries each ended with "HiGHS: master LP not solved to
    // optimality (model status 15)" (status 4 for the last).
    for name in [
        "fc006_n20_d3_c2",
        "fc011_n20_d4_c2",
        "fc028_n22_d4_c3",
        "fc074_n25_d4_c3",
    ] {
        let inst = far_cluster(name);
        let run = bnp(&inst, 3, 60.0).unwrap_or_else(|e| panic!("{name}: {e}"));
        let r = &run.result;
        assert!(r.proven_optimal, "{name}: {:?}", r.stopped);
        let opt = proven_optimum(&inst, 3);
        assert!(
            (r.sse - opt).abs() <= 1e-9 * opt.max(1e-300),
            "{name}: {} vs {opt}",
            r.sse
        );
        assert!(r.lower_bound <= opt, "{name}");
    }
}

#[test]
fn a_search_the_nn_bound_closed_writes_a_certificate_that_verifies() {
    // Three points, each three times: optimum 0, reached by the start; the nn bound (0)
    // closes the gap before any Lagrangian bound (was: "leaf 0 has no Lagrangian bound yet").
    let raw: Vec<f64> = (0..9)
        .flat_map(|i| [(i % 3) as f64, (i % 3) as f64 * 2.0])
        .collect();
    let inst = super::instance(&raw, 2).unwrap();
    let run = bnp(&inst, 3, 10.0).unwrap();
    assert!(run.result.proven_optimal && run.result.sse == 0.0);
    let cert = BnpCertificate::from_result(&inst, 3, &run.result).unwrap();
    assert!(cert.leaves.iter().all(|l| l.nn_bound));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("dup.bnp.json");
    cert.write(&path).unwrap();
    let back = BnpCertificate::read(&path).unwrap();
    assert_eq!(back, cert);
    let verdict = bnp_certificate::verify(&back, &inst, 3, None).unwrap();
    assert!(verdict.valid, "{:?}", verdict.reason);
    // A claim above the nn bound is refused.
    let mut raised = cert.clone();
    raised.lower_bound = 1e-9;
    raised.leaves[0].lower_bound = Some(1e-9);
    let verdict = bnp_certificate::verify(&raised, &inst, 3, None).unwrap();
    assert!(!verdict.valid);
    assert!(verdict.reason.unwrap().contains("nn bound"));
    // Duals beside an nn bound are refused when read.
    let mut text = std::fs::read_to_string(&path).unwrap();
    text = text.replace("\"duals\":[]", &format!("\"duals\":{:?}", vec![0.0; 9]));
    assert!(BnpCertificate::parse(&text, "t").is_err());
}

#[test]
fn a_tiny_time_limit_answers_with_the_start_and_no_proof() {
    // Was: "mdav: stopped (interrupt or time limit) after 0 groups; an initializer has no
    // partial partition to return". Now MDAV in full is the incumbent, the bound is nn, and
    // its certificate (an nn leaf) verifies.
    let inst = far_cluster("fc028_n22_d4_c3");
    // 1 ns: the start pipeline is always cut before its first group (at 1e-4 s a fast
    // machine finished MDAV on these 22 rows).
    let run = bnp(&inst, 3, 1e-9).unwrap();
    let r = &run.result;
    assert!(!r.proven_optimal);
    assert!(r.stopped.is_some());
    assert_eq!(run.start, microagg::bound::bnp::FALLBACK_START);
    assert_eq!(r.labels.len(), inst.n);
    let opt = proven_optimum(&inst, 3);
    assert!(r.lower_bound <= opt && r.sse >= opt);
    let cert = BnpCertificate::from_result(&inst, 3, r).unwrap();
    assert!(
        bnp_certificate::verify(&cert, &inst, 3, None)
            .unwrap()
            .valid
    );
}

#[test]
fn a_master_lp_that_cannot_be_solved_leaves_a_valid_bound() {
    // Every HiGHS run of the master is made to fail (status "unknown"), the retries too.
    for (name, k) in [("fc006_n20_d3_c2", 3), ("fc011_n20_d4_c2", 4)] {
        let inst = far_cluster(name);
        let opt = proven_optimum(&inst, k);
        let labels = microagg::pipeline::Pipeline::parse("mdav", &[])
            .unwrap()
            .run(&inst, k, 0, None, &AtomicBool::new(false))
            .unwrap()
            .partition
            .labels()
            .to_vec();
        let opts = ColgenOptions {
            time_limit: 10.0,
            ..Default::default()
        };
        fail_next_runs_for_test(usize::MAX);
        let b = colgen_bound_from(&inst.z, inst.n, inst.d, k, &[&labels], &opts);
        fail_next_runs_for_test(0);
        let b = b.unwrap();
        let why = b.lp_error.as_deref().expect("the failure is reported");
        assert!(why.contains("not solved to optimality"), "{why}");
        assert!(b.lower_bound >= b.nn && b.lower_bound <= opt, "{name}");
        // Branch-and-price: the node stays open, the answer has no proof but a valid bound.
        fail_next_runs_for_test(usize::MAX);
        let run = bnp(&inst, k, 10.0);
        fail_next_runs_for_test(0);
        let r = run.unwrap().result;
        assert!(!r.proven_optimal);
        assert!(
            r.stopped.as_deref().unwrap().contains("master LP"),
            "{:?}",
            r.stopped
        );
        assert!(r.lower_bound <= opt && r.sse >= opt);
        // One failed run: the first retry solves the master and the proof is found.
        fail_next_runs_for_test(1);
        let run = bnp(&inst, k, 60.0);
        fail_next_runs_for_test(0);
        let r = run.unwrap().result;
        assert!(r.proven_optimal, "{name}: {:?}", r.stopped);
        assert!((r.sse - opt).abs() <= 1e-9 * opt.max(1e-300));
    }
}
