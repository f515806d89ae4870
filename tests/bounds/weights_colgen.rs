//! Issue 22, the weighted column generation bound (proofs/P43-weighted-lagrangian-bound.md):
//! never above the weighted optimum (the weighted subset DP, which equals brute force over
//! all set partitions: tests/bounds/weights_bounds.rs) on small adversarial instances (weights
//! 1e-3..1e3, duplicated rows, far clusters, scales 1e-9..1e9); converged, never below the
//! weighted nn bound (P43 L3); per-anchor values between the brute-force minima over the
//! groups with that weighted medoid and over the groups holding that record; the verifier
//! recomputes the certified value from the duals.

use crate::common;
use common::adversarial_weighted;
use microagg_solvers::bounds::colgen::Quiet;
use microagg_solvers::bounds::colgen_weighted::pricing::{SearchLimits, WeightedPricing};
use microagg_solvers::bounds::colgen_weighted::{
    verify_weighted_lagrangian, weighted_colgen_bound, WeightedColgenOptions,
};
use microagg_solvers::bounds::nn_weighted::weighted_nn_bound;
use microagg_solvers::exact::dp::weighted_subset_dp;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn options(anchor_threshold: f64) -> WeightedColgenOptions {
    WeightedColgenOptions {
        time_limit: 20.0,
        anchor_threshold,
        ..Default::default()
    }
}

#[test]
fn weighted_colgen_bound_is_below_the_weighted_optimum_and_converges_above_nn() {
    let mut rng = ChaCha8Rng::seed_from_u64(43);
    let (mut above_nn, mut converged, mut cases) = (0, 0, 0);
    let mut ratio = 0.0;
    for case in 0..120 {
        let n = rng.random_range(4..=12);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3).min(n);
        let (x, w) = adversarial_weighted(&mut rng, n, d, true);
        let opt = weighted_subset_dp(&x, n, d, k, &w).unwrap().value;
        let nn = weighted_nn_bound(&x, n, d, k, &w).unwrap().lower_bound;
        let theta = if case % 2 == 0 { 0.0 } else { 1e-3 };
        let labels = common::chunk_labels(n, k);
        let b = weighted_colgen_bound(&x, n, d, k, &w, &[&labels], &options(theta), &mut Quiet)
            .unwrap();
        let at = format!("case {case}: n {n} d {d} k {k} w {w:?}");
        assert!(
            b.lower_bound <= opt,
            "{at}: bound {} > optimum {opt}",
            b.lower_bound
        );
        assert!(
            b.lagrangian <= opt,
            "{at}: lagrangian {} > {opt}",
            b.lagrangian
        );
        assert!(b.lower_bound >= nn, "{at}");
        assert_eq!(b.nn, nn, "{at}");
        cases += 1;
        if b.converged {
            converged += 1;
            // The LP is at least the weighted nn relaxation (P43 L3); the certified value
            // loses the threshold (at most theta UB) and the rounding margins.
            let eps = WeightedPricing::new(&x, n, d, k, &w).rc_margin(&b.duals, b.anchor_threshold);
            let slack = theta * b.start_sse * (1.0 + 1e-9) + (n / k) as f64 * eps + 1e-9 * nn;
            assert!(
                b.lagrangian >= nn - slack,
                "{at}: converged lagrangian {} below nn {nn}: {b:?}",
                b.lagrangian
            );
        }
        if b.lagrangian > nn {
            above_nn += 1;
        }
        if opt > 0.0 {
            ratio += b.lower_bound / opt;
        }
        // The verifier recomputes the same value from the duals (no HiGHS, no budget).
        let v = verify_weighted_lagrangian(&x, n, d, k, &w, &b.duals, b.anchor_threshold, None)
            .unwrap();
        assert!(v.pricing_exact, "{at}");
        assert!(
            b.lagrangian <= v.lower_bound,
            "{at}: claim {} not re-proven ({})",
            b.lagrangian,
            v.lower_bound
        );
    }
    eprintln!(
        "{cases} cases: {converged} converged, {above_nn} above nn, mean bound / optimum {:.4}",
        ratio / cases as f64
    );
    assert_eq!(
        converged, cases,
        "every small case converges within its time"
    );
    assert!(
        above_nn * 2 > cases,
        "the LP bound rises above nn on most cases"
    );
}

/// Weighted SSE of `members` by the centroid (two passes), independent of the pairwise
/// formula the pricing uses.
fn centroid_weighted_sse(x: &[f64], d: usize, w: &[f64], members: &[usize]) -> f64 {
    let total: f64 = members.iter().map(|&i| w[i]).sum();
    let mut c = vec![0.0; d];
    for &i in members {
        for t in 0..d {
            c[t] += w[i] * x[i * d + t] / total;
        }
    }
    members
        .iter()
        .map(|&i| w[i] * (0..d).map(|t| (x[i * d + t] - c[t]).powi(2)).sum::<f64>())
        .sum()
}

/// Every subset of 0..n with a size in lo..=hi.
fn subsets(n: usize, lo: usize, hi: usize) -> Vec<Vec<usize>> {
    (0u32..1 << n)
        .filter(|m| (lo..=hi).contains(&(m.count_ones() as usize)))
        .map(|m| (0..n).filter(|&i| m >> i & 1 == 1).collect())
        .collect()
}

#[test]
fn per_anchor_values_lie_between_the_brute_force_minima() {
    let mut rng = ChaCha8Rng::seed_from_u64(4343);
    for case in 0..60 {
        let n = rng.random_range(4..=10);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3).min(n);
        let (x, w) = adversarial_weighted(&mut rng, n, d, true);
        // Duals around the nn relaxation's scale, spread so that many groups are negative.
        let unit = centroid_weighted_sse(&x, d, &w, &(0..n).collect::<Vec<_>>()) / n as f64;
        let y: Vec<f64> = (0..n).map(|_| unit * rng.random_range(-0.5..2.0)).collect();
        let tau = if case % 3 == 0 { -0.1 * unit } else { 0.0 };
        let pr = WeightedPricing::new(&x, n, d, k, &w);
        let s = pr.anchor_values(&y, tau, SearchLimits::NONE);
        let eps = pr.rc_margin(&y, tau);
        assert!(s.exact);
        let groups = subsets(n, k, (2 * k - 1).min(n));
        for r in 0..n {
            let (mut holding, mut medoid) = (f64::INFINITY, f64::INFINITY);
            for g in &groups {
                if !g.contains(&r) {
                    continue;
                }
                let rc = centroid_weighted_sse(&x, d, &w, g) - g.iter().map(|&i| y[i]).sum::<f64>();
                holding = holding.min(rc);
                let star = |a: usize| -> f64 {
                    g.iter()
                        .map(|&b| {
                            w[b] * (0..d)
                                .map(|t| (x[a * d + t] - x[b * d + t]).powi(2))
                                .sum::<f64>()
                        })
                        .sum()
                };
                let mine = star(r);
                if g.iter().all(|&a| mine <= star(a)) {
                    medoid = medoid.min(rc);
                }
            }
            let v = s.per_anchor[r];
            let at =
                format!("case {case} anchor {r}: value {v}, holding {holding}, medoid {medoid}");
            assert!(v <= tau, "{at}");
            // Valid: at most the least reduced cost of a group with medoid r (and tau).
            assert!(v - eps <= medoid.min(tau), "{at}");
            // Sharp: with nothing cut, at least the least over the groups holding r
            // (every group the search evaluates holds r), capped at tau.
            assert!(v + eps >= holding.min(tau), "{at}");
        }
    }
}

#[test]
fn a_cut_search_proves_no_more_than_the_full_one() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for case in 0..40 {
        let n = rng.random_range(6..=12);
        let d = 2;
        let k = 3;
        let (x, w) = adversarial_weighted(&mut rng, n, d, true);
        let unit = centroid_weighted_sse(&x, d, &w, &(0..n).collect::<Vec<_>>()) / n as f64;
        let y: Vec<f64> = (0..n).map(|_| unit * rng.random_range(0.0..2.0)).collect();
        let pr = WeightedPricing::new(&x, n, d, k, &w);
        let full = pr.anchor_values(&y, 0.0, SearchLimits::NONE);
        let cut = pr.anchor_values(
            &y,
            0.0,
            SearchLimits {
                nodes_per_anchor: 1,
                deadline: None,
            },
        );
        for r in 0..n {
            assert!(
                cut.per_anchor[r] <= full.per_anchor[r],
                "case {case} anchor {r}"
            );
        }
    }
}

/// `bound --method colgen --weights` and `run --bound colgen --weights`: certified, at most
/// the weighted optimum (subset DP on the z-scores) and the run's weighted SSE, with the
/// weighted gap; the certificate verifies with the same weights column, is refused without
/// it or with another column, and a raised claim or raised duals are rejected.
#[test]
fn cli_weighted_colgen_bound_and_its_certificate() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("d.csv");
    let mut rng = ChaCha8Rng::seed_from_u64(22);
    let n = 12;
    let mut text = "a,b,w,v\n".to_string();
    for _ in 0..n {
        text += &format!(
            "{},{},{},{}\n",
            rng.random_range(-5.0..5.0),
            rng.random_range(-5.0..5.0),
            10f64.powf(rng.random_range(-3.0..3.0)),
            10f64.powf(rng.random_range(0.0..2.0)),
        );
    }
    std::fs::write(&path, text).unwrap();
    let d = path.to_str().unwrap();
    let cert = dir.path().join("c.json");
    let c = cert.to_str().unwrap();
    let base = [
        "--data",
        d,
        "--columns",
        "a,b",
        "--weights",
        "w",
        "--k",
        "3",
    ];
    let mut args = vec![
        "bound",
        "--method",
        "colgen",
        "--time-limit",
        "20",
        "--json",
    ];
    args.extend(base);
    args.extend(["--certificate", c]);
    let b = common::cli_json(&args);
    assert_eq!(b["method"], "colgen");
    assert_eq!(b["certified"], true);
    assert_eq!(b["details"]["weighted"], true);
    let lb = b["lower_bound"].as_f64().unwrap();
    let sel = microagg::data::ColumnSelection::parse("a,b");
    let inst = microagg::data::load_weighted(d, &sel, b',', "w").unwrap();
    let w = &inst.weights.as_ref().unwrap().values;
    let opt = weighted_subset_dp(&inst.z, n, 2, 3, w).unwrap().value;
    assert!(lb > 0.0 && lb <= opt, "{lb} vs {opt}");
    assert!(lb >= b["details"]["nn"].as_f64().unwrap());
    // The run reports it beside the weighted SSE, with the weighted gap.
    let mut args = vec![
        "run",
        "--method",
        "mdav+descent",
        "--bound",
        "colgen",
        "--json",
    ];
    args.extend(base);
    let r = common::cli_json(&args);
    let wb = &r["weights"]["bound"];
    assert_eq!(wb["method"], "colgen");
    let (rlb, sse_w) = (
        wb["lower_bound"].as_f64().unwrap(),
        r["weights"]["sse"].as_f64().unwrap(),
    );
    assert!(rlb <= opt && opt <= sse_w * (1.0 + 1e-12));
    let gap = wb["gap_percent"].as_f64().unwrap();
    assert!((gap - 100.0 * (sse_w - rlb) / rlb).abs() <= 1e-9 * gap.abs().max(1.0));
    // verify-bound: accepted with the weights, refused without or with another column.
    let mut verify = vec![
        "verify-bound",
        "--certificate",
        c,
        "--data",
        d,
        "--columns",
        "a,b",
    ];
    verify.extend(["--k", "3"]);
    let mut with_w = verify.clone();
    with_w.extend(["--weights", "w"]);
    common::cli_ok(&with_w);
    assert_eq!(common::cli(&verify).status.code(), Some(2));
    let mut other = verify.clone();
    other.extend(["--weights", "v"]);
    let out = common::cli(&other);
    assert_eq!(out.status.code(), Some(2));
    assert!(common::stderr(&out).contains("'w'"));
    // Tampering: a raised claim, then every dual raised, are rejected (exit 1).
    let original: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&cert).unwrap()).unwrap();
    let mut raised = original.clone();
    raised["lower_bound"] = (opt * 1.5 + 1.0).into();
    std::fs::write(&cert, raised.to_string()).unwrap();
    assert_eq!(common::cli(&with_w).status.code(), Some(1));
    let mut duals = original.clone();
    for v in duals["duals"].as_array_mut().unwrap() {
        *v = (v.as_f64().unwrap() + opt).into();
    }
    std::fs::write(&cert, duals.to_string()).unwrap();
    assert_eq!(common::cli(&with_w).status.code(), Some(1));
}
