//! `exact-lns`: with a neighbourhood that holds every record it is an exact solver (equal
//! to an independent subset DP on adversarial instances); with small neighbourhoods it
//! never worsens its start, repeats bit for bit whatever the seed, and its converged
//! partition is a fixed point (a second run changes nothing). Bad parameters are refused
//! with the key named.

use crate::common::{adversarial_family, from_rows, run_pipeline, run_with_params, subset_dp};
use rand::{Rng, SeedableRng};

fn rows_of(x: &[f64], d: usize) -> Vec<Vec<f64>> {
    x.chunks(d).map(<[f64]>::to_vec).collect()
}

#[test]
fn a_neighbourhood_of_every_record_gives_the_subset_dp_optimum() {
    let whole = [
        "exact-lns.records=1000",
        "exact-lns.nodes=1000000",
        "exact-lns.seconds=0",
    ];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(54_1206);
    let mut improved = 0;
    for case in 0..90 {
        let (n, d) = (rng.random_range(6..=13), rng.random_range(1..=3));
        let k = rng.random_range(2..=3);
        let inst = from_rows(&rows_of(&adversarial_family(&mut rng, case, n, d), d));
        let opt = subset_dp(&inst.z, n, d, k);
        let start = run_pipeline(&inst, "mdav", &[], k, 0, None).sse();
        let (sse, labels) = run_with_params(&inst, "mdav+exact-lns", &whole, k, 0).unwrap();
        let tol = 1e-9 * (1.0 + opt.abs());
        assert!(
            (sse - opt).abs() <= tol,
            "case {case} (n {n}, d {d}, k {k}): exact-lns {sse}, subset DP {opt}, mdav {start}"
        );
        assert!(microagg::partition::Partition::from_labels(&inst, labels)
            .unwrap()
            .is_feasible(k));
        improved += usize::from(start > opt + tol);
    }
    // The start must often be beaten, or the test would not show that anything is solved.
    assert!(
        improved >= 25,
        "mdav was optimal in all but {improved} cases"
    );
}

#[test]
fn small_neighbourhoods_never_worsen_repeat_and_converge_to_a_fixed_point() {
    let small = ["exact-lns.records=12", "exact-lns.nodes=200"];
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(54_1207);
    let mut lowered = 0;
    for case in 0..12 {
        let (n, d, k) = (rng.random_range(40..=90), rng.random_range(1..=3), 3);
        let x: Vec<f64> = (0..n * d).map(|_| rng.random_range(-2.0..2.0)).collect();
        let inst = from_rows(&rows_of(&x, d));
        let start = run_pipeline(&inst, "mdav", &[], k, 0, None).sse();
        let (sse, labels) = run_with_params(&inst, "mdav+exact-lns", &small, k, 0).unwrap();
        let (sse_seed, labels_seed) =
            run_with_params(&inst, "mdav+exact-lns", &small, k, 9).unwrap();
        assert!(
            sse <= start * (1.0 + 1e-12),
            "case {case}: {sse} above mdav's {start}"
        );
        assert_eq!(
            (sse.to_bits(), &labels),
            (sse_seed.to_bits(), &labels_seed),
            "case {case}"
        );
        let p = microagg::partition::Partition::from_labels(&inst, labels).unwrap();
        assert!(p.is_feasible(k), "case {case}");
        let expected = p.canonical_labels();
        lowered += usize::from(sse < start * (1.0 - 1e-9));
        // From its own result, a run changes nothing: the first pass finds no better grouping.
        let mut again = microagg::registry::find("exact-lns")
            .unwrap()
            .make_refiner(&serde_json::from_str(r#"{"records": 12, "nodes": 200}"#).unwrap())
            .unwrap();
        let out = microagg::search::refine(
            again.as_mut(),
            &inst,
            k,
            p,
            &mut microagg::rng::Rng::seed_from_u64(1),
            None,
            &std::sync::atomic::AtomicBool::new(false),
        )
        .unwrap();
        assert_eq!(out.partition.canonical_labels(), expected, "case {case}");
    }
    assert!(
        lowered >= 6,
        "exact-lns lowered mdav's SSE in only {lowered} of 12 cases"
    );
}

#[test]
fn bad_parameters_are_refused_with_the_key_named() {
    let inst = from_rows(&[vec![0.0], vec![1.0], vec![2.0], vec![3.0]]);
    for (param, key) in [
        ("exact-lns.records=1", "records"),
        ("exact-lns.nodes=0", "nodes"),
        ("exact-lns.seconds=-1", "seconds"),
        ("exact-lns.radius=3", "radius"),
    ] {
        let e = run_with_params(&inst, "mdav+exact-lns", &[param], 2, 0).unwrap_err();
        assert!(e.contains(key), "{param}: {e}");
    }
}
