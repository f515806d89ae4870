//! The nn lower bound (proofs/P06, P10): below the exact optimum on random small instances
//! (exhaustive enumeration), equal to an independent implementation, the published-by-issue
//! value on Tarragona k = 3, and below every registered heuristic on the CASC files.

use crate::common;
use common::{brute_force_optimum, casc, clustered_rows, run_method, synthetic};
use microagg::data::Instance;
use microagg::method::MethodKind;
use microagg::registry::registry;
use microagg_solvers::bounds::nn_bound;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The bound by full sorting of each row of the distance matrix, summed in a different order
/// (per neighbour rank, then over records) with compensated summation: an independent check
/// of the selection-based kernel.
fn nn_by_sorting(inst: &Instance, k: usize) -> f64 {
    let n = inst.n;
    let mut per_rank = vec![(0.0f64, 0.0f64); k - 1]; // Kahan (sum, compensation)
    for i in 0..n {
        let mut row: Vec<f64> = (0..n)
            .filter(|&j| j != i)
            .map(|j| microagg::partition::sq_dist(inst.row(i), inst.row(j)))
            .collect();
        row.sort_by(f64::total_cmp);
        for (r, v) in row.iter().take(k - 1).enumerate() {
            let (s, c) = &mut per_rank[r];
            let y = v - *c;
            let t = *s + y;
            *c = (t - *s) - y;
            *s = t;
        }
    }
    per_rank.iter().map(|(s, _)| s).sum::<f64>() / (2 * k) as f64
}

#[test]
fn nn_bound_is_below_brute_force_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(20261123);
    let mut tight = 0;
    for case in 0..60 {
        let n = rng.random_range(4..=9);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=(n / 2).clamp(2, 4));
        // Clustered points make the bound nearly tight on some cases.
        let x = clustered_rows(&mut rng, n, d, 4.0);
        let opt = brute_force_optimum(&x, n, d, k);
        let b = nn_bound(&x, n, d, k).unwrap();
        assert!(
            b.lower_bound <= opt,
            "case {case} (n={n}, d={d}, k={k}): bound {} > optimum {opt}",
            b.lower_bound
        );
        assert!(b.lower_bound <= b.computed && b.computed - b.lower_bound <= 1e-12 * b.computed);
        if b.lower_bound > 0.5 * opt {
            tight += 1;
        }
    }
    // The bound is informative, not merely valid: on clustered data it is often within 2x.
    assert!(tight >= 20, "only {tight} of 60 cases within a factor 2");
}

#[test]
fn nn_bound_matches_an_independent_implementation_on_synthetic_data() {
    for spec in ["sim1:seed=1", "gauss:n=500,d=4,clusters=5,seed=2"] {
        let inst = synthetic(spec);
        for k in [2, 3, 5, 10] {
            let b = nn_bound(&inst.z, inst.n, inst.d, k).unwrap();
            let reference = nn_by_sorting(&inst, k);
            assert!(
                (b.computed - reference).abs() <= 1e-10 * reference,
                "{spec} k={k}: {} vs {reference}",
                b.computed
            );
            assert!(b.lower_bound <= reference);
        }
    }
}

#[test]
fn nn_bound_on_tarragona_k3_matches_the_independent_value() {
    let Some(inst) = casc("tarragona") else {
        return;
    };
    let b = microagg::bound::compute("nn", &inst, 3, None).unwrap();
    assert!(b.certified);
    // 9.855 % IL is the value quoted by the issue; an independent numpy computation (full
    // distance matrix, row sort; see the issue 8 note) gives 9.855116.
    assert!(
        (b.il_lower_bound - 9.855116).abs() < 1e-3,
        "IL bound {}",
        b.il_lower_bound
    );
    let reference = nn_by_sorting(&inst, 3);
    assert!((b.lower_bound - reference).abs() <= 1e-9 * reference);
}

/// The bound from the kd-tree's neighbour lists (what `bound nn` computes from 4096 records)
/// has the bits of the quadratic kernel: on the CASC files (the tree forced, whatever n),
/// on tied grid data and on Gaussian data above the tree threshold through `bound::compute`.
#[test]
fn nn_bound_from_tree_lists_equals_the_quadratic_bound_bit_for_bit() {
    use microagg::geometry::neighbours::Neighbours;
    use microagg_solvers::bounds::nn::nn_bound_from_lists;
    let same = |inst: &Instance, k: usize, lists: &Neighbours, what: &str| {
        let a = nn_bound(&inst.z, inst.n, inst.d, k).unwrap();
        let b = nn_bound_from_lists(&inst.z, inst.n, inst.d, k, lists.as_flat()).unwrap();
        assert_eq!(a.computed.to_bits(), b.computed.to_bits(), "{what} k={k}");
        assert_eq!(
            a.lower_bound.to_bits(),
            b.lower_bound.to_bits(),
            "{what} k={k}"
        );
    };
    for id in ["tarragona", "census", "eia"] {
        let Some(inst) = casc(id) else { continue };
        for k in [2, 3, 4, 5, 7, 10] {
            same(&inst, k, &Neighbours::build_by_tree(&inst, k - 1), id);
        }
    }
    // Values on a 3-level grid: many exact ties and duplicate rows, d = 1..12.
    let mut rng = ChaCha8Rng::seed_from_u64(24);
    for d in [1, 2, 3, 6, 12] {
        let n = 600;
        let raw: Vec<f64> = (0..n * d).map(|_| rng.random_range(0..3) as f64).collect();
        let cols = (0..d).map(|j| format!("c{j}")).collect();
        let inst = Instance::from_raw("grid", "test", cols, raw, String::new()).unwrap();
        for k in [2, 5, 10] {
            same(&inst, k, &Neighbours::build_by_tree(&inst, k - 1), "grid");
        }
    }
    let inst = synthetic("gauss:n=5000,d=10,clusters=5,seed=3");
    let b = microagg::bound::compute("nn", &inst, 5, None).unwrap();
    let a = nn_bound(&inst.z, inst.n, inst.d, 5).unwrap();
    assert_eq!(a.lower_bound.to_bits(), b.lower_bound.to_bits());
}

/// Ctrl-C during the nn bound's neighbour lists: no bound (an error saying so), never a
/// value from unfinished lists; without the flag the same call gives the bound.
#[test]
fn nn_bound_stops_on_interrupt_without_a_value() {
    use microagg::bound::compute_with;
    use std::sync::atomic::AtomicBool;
    let inst = synthetic("gauss:n=5000,d=4,clusters=5,seed=3");
    let stopped = compute_with(
        "nn",
        &inst,
        3,
        &serde_json::Value::Null,
        &AtomicBool::new(true),
    );
    match stopped {
        Err(microagg::error::Error::Interrupted(m)) => {
            assert!(m.contains("of 5000 records"), "{m}")
        }
        other => panic!(
            "expected an interrupt, got {:?}",
            other.map(|b| b.lower_bound)
        ),
    }
    let fine = compute_with(
        "nn",
        &inst,
        3,
        &serde_json::Value::Null,
        &AtomicBool::new(false),
    )
    .unwrap();
    assert_eq!(
        fine.lower_bound.to_bits(),
        nn_bound(&inst.z, inst.n, inst.d, 3)
            .unwrap()
            .lower_bound
            .to_bits()
    );
}

#[test]
fn every_heuristic_is_above_the_nn_bound_on_the_casc_files() {
    let methods: Vec<&str> = registry()
        .into_iter()
        .filter(|m| m.kind() == MethodKind::Initializer && !m.one_attribute)
        .map(|m| m.name)
        .collect();
    for id in ["tarragona", "census"] {
        let Some(inst) = casc(id) else { continue };
        for k in [3, 5] {
            let lb = nn_bound(&inst.z, inst.n, inst.d, k).unwrap().lower_bound;
            for m in &methods {
                let (sse, _) = run_method(&inst, m, k, 1);
                assert!(
                    lb <= sse,
                    "{m} on {id} k={k}: SSE {sse} below the bound {lb}"
                );
            }
        }
    }
}

/// `colgen-cuts`, the bound name `run --bound`, suites and Python use for the cut bound
/// (proofs/P14): certified, below the brute-force optimum, never below `colgen` (same root
/// computation, then the best over cut rounds), and it reports its cut rounds.
#[test]
fn colgen_cuts_by_name_is_valid_and_never_below_colgen() {
    let mut raised = 0;
    for seed in 0..8 {
        let n = 8 + seed % 3;
        let inst = synthetic(&format!("gauss:n={n},d=2,seed={seed}"));
        let k = 2 + seed % 2;
        let opt = brute_force_optimum(&inst.z, inst.n, inst.d, k);
        let plain = microagg::bound::compute("colgen", &inst, k, Some(20.0)).unwrap();
        let cuts = microagg::bound::compute("colgen-cuts", &inst, k, Some(20.0)).unwrap();
        assert!(cuts.certified && plain.certified);
        assert!(
            cuts.lower_bound <= opt,
            "seed {seed}: colgen-cuts {} > optimum {opt}",
            cuts.lower_bound
        );
        assert!(
            cuts.lower_bound >= plain.lower_bound,
            "seed {seed}: colgen-cuts {} < colgen {}",
            cuts.lower_bound,
            plain.lower_bound
        );
        assert_eq!(plain.details["cut_rounds"], 0, "{}", plain.details);
        if cuts.lower_bound > plain.lower_bound * (1.0 + 1e-9) {
            raised += 1;
        }
    }
    eprintln!("colgen-cuts raised the bound on {raised} of 8 instances");
    // The cuts are used, not only allowed (3 of 8 raised when written).
    assert!(raised >= 1, "colgen-cuts never raised the bound");
}

/// Every entry of the bound registry, computed through the registry (`bound::compute_with`,
/// the path of `bound`, `run --bound`, suites and Python, with one cut round so that the
/// cut bounds separate), stays at most the brute-force optimum on small clustered, duplicated
/// and scaled instances, and the column generation bounds never fall below nn. A bound added
/// to the registry is checked here without a new test.
#[test]
fn every_registered_bound_is_below_the_brute_force_optimum() {
    let mut rng = ChaCha8Rng::seed_from_u64(50_2026);
    let never = std::sync::atomic::AtomicBool::new(false);
    let mut checked = 0;
    for case in 0..8 {
        let n = rng.random_range(6..=9);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3usize);
        let scale = [1e-6, 1.0, 1e6][case % 3];
        let x = clustered_rows(&mut rng, n, d, 3.0);
        let rows: Vec<Vec<f64>> = x
            .chunks(d)
            .enumerate()
            .map(|(i, r)| {
                let dup = if case % 4 == 1 && i % 2 == 1 {
                    0.0
                } else {
                    1.0
                };
                r.iter().map(|v| scale * v * dup).collect()
            })
            .collect();
        if (0..d).any(|j| rows.iter().all(|r| r[j] == rows[0][j])) {
            continue; // a constant column cannot be z-scored
        }
        let inst = common::from_rows(&rows);
        let opt = brute_force_optimum(&inst.z, n, d, k);
        let nn = microagg::bound::compute("nn", &inst, k, None).unwrap();
        for b in microagg::bound::BOUNDS {
            // auto's own route search runs its incumbent pipeline for a fifth of its limit.
            let mut params = serde_json::json!({});
            if b.takes("time_limit") {
                params["time_limit"] = serde_json::json!(if b.name == "auto" { 3 } else { 20 });
            }
            if b.takes("cuts") {
                params["cuts"] = serde_json::json!(1);
            }
            let out = microagg::bound::compute_with(b.name, &inst, k, &params, &never).unwrap();
            assert!(out.certified && out.method == b.name);
            assert!(
                out.lower_bound <= opt * (1.0 + 1e-12) + 1e-12,
                "case {case} (n={n}, d={d}, k={k}) {}: {} > optimum {opt}",
                b.name,
                out.lower_bound
            );
            assert!(out.lower_bound >= nn.lower_bound, "case {case} {}", b.name);
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} bounds checked");
}
