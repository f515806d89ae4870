//! The `auto` bound and its large-data route (proofs/P23): the local anchored Lagrangian is
//! below the brute-force optimum for any duals on adversarial small instances (duplicates,
//! ties, collinear, scaled, outliers), equals the full-matrix anchored bound when every
//! local set is searched, and beats nn on a constructed case; `auto` is between nn and the
//! optimum on every route.

use crate::common;
use common::{adversarial_family, brute_force_optimum, for_each_set_partition, from_rows};
use microagg::bound::auto::{auto_bound, auto_bound_with, choose_route, Route, SMALL_K_PRESET};
use microagg::bound::bnp_guard::{should_stop, GUARD_CHECKPOINT};
use microagg::bound::gap_percent;
use microagg::bound::local_route::{self, LocalRouteOptions};
use microagg::bound::presets;
use microagg::bound::registry::BoundRun;
use microagg::data::Instance;
use microagg::partition::Partition;
use microagg_solvers::bounds::colgen::anchors::anchored_lagrangian;
use microagg_solvers::bounds::colgen::cuts::CutDuals;
use microagg_solvers::bounds::colgen::pricing::{
    per_anchor_minima, weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry,
};
use microagg_solvers::bounds::colgen::rc_margin;
use microagg_solvers::bounds::local_lagrangian::{local_lagrangian, nn_sums_by_scan, LocalOptions};
use microagg_solvers::bounds::{colgen_bound, nn_bound, ColgenOptions};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// `route` on a bound run of `inst` with no start, no progress shown and no interrupt.
fn quiet_run<T>(inst: &Instance, k: usize, route: impl FnOnce(&mut BoundRun) -> T) -> T {
    let never = AtomicBool::new(false);
    let mut run = BoundRun {
        inst,
        k,
        start: None,
        show: microagg::progress::Show::Never,
        interrupt: &never,
        report: &mut |_| {},
    };
    route(&mut run)
}

/// Rows of an adversarial family (`case % 7`): the six shared ones, and collinear points.
fn rows(rng: &mut ChaCha8Rng, case: usize, n: usize, d: usize) -> Vec<f64> {
    if case % 7 == 6 {
        // Collinear: t (1, 2, ..) with repeated t values.
        return (0..n)
            .flat_map(|_| {
                let t = rng.random_range(0..4) as f64 * 0.5;
                (1..=d).map(move |c| t * c as f64)
            })
            .collect();
    }
    adversarial_family(rng, case, n, d)
}

/// Duals of one of four kinds: nn shares, column generation's, noisy shares (some
/// negative), or far too large (every group negative).
fn duals(rng: &mut ChaCha8Rng, kind: usize, x: &[f64], n: usize, d: usize, k: usize) -> Vec<f64> {
    let sums = nn_sums_by_scan(x, n, d, k);
    let share: Vec<f64> = (0..n)
        .map(|i| sums[i * (2 * k - 1) + k - 1] / (2 * k) as f64)
        .collect();
    match kind % 4 {
        0 => share,
        1 => {
            let labels = common::chunk_labels(n, k);
            let opts = ColgenOptions {
                time_limit: 5.0,
                ..Default::default()
            };
            let b = colgen_bound(x, n, d, k, &labels, &opts).expect("colgen runs");
            if b.duals.len() == n {
                b.duals
            } else {
                share
            }
        }
        2 => share
            .iter()
            .map(|s| s * rng.random_range(0.0..3.0) - 0.1 * s)
            .collect(),
        _ => share.iter().map(|s| 10.0 * s + 1.0).collect(),
    }
}

fn far() -> Instant {
    Instant::now() + Duration::from_secs(60)
}

/// The full-matrix anchored bound (proofs/P20) with unlimited exact per-anchor pricing, and
/// its pricing margin (`rc_margin`, from the largest distance of the whole data).
fn full_anchored(x: &[f64], n: usize, d: usize, k: usize, y: &[f64]) -> (f64, f64) {
    let geo = Geometry::new(x, n, d, k, 4);
    let none = CutDuals::none();
    let budget = ExactBudget {
        nodes: u64::MAX,
        deadline: far().into(),
        max_columns: 1,
        stop_after_columns: usize::MAX,
    };
    let mut per_size = Vec::new();
    let out = ExactSearch::new(&none)
        .anchors(Anchors::PerSize { threshold: 0.0 })
        .run(&geo, y, budget, &mut per_size);
    let per = per_anchor_minima(&geo, &per_size, 0.0);
    assert!(out.exact);
    let eps = rc_margin(&geo, y, d, &none);
    let value = anchored_lagrangian(&geo, y, d, &none, n / k, &per, weak_rc_bound(&geo, y));
    (value, eps)
}

#[test]
fn local_lagrangian_is_valid_against_brute_force_and_equals_the_full_anchored_bound() {
    let mut rng = ChaCha8Rng::seed_from_u64(23_2026);
    let mut strictly_above_nn = 0;
    for case in 0..84 {
        let n = rng.random_range(6..=11);
        let d = rng.random_range(1..=3);
        let k = rng.random_range(2..=3usize.min(n / 2));
        let x = rows(&mut rng, case, n, d);
        let y = duals(&mut rng, case / 7, &x, n, d, k);
        let sums = nn_sums_by_scan(&x, n, d, k);
        let opt = brute_force_optimum(&x, n, d, k);
        let nn = nn_bound(&x, n, d, k).unwrap().lower_bound;
        // Blocks of 1..3 records with room for every local set: the same values as the
        // full matrix (up to the margins, which are smaller on a local set).
        let roomy = LocalOptions {
            block_size: rng.random_range(1..=3),
            max_local: 100,
            threshold: 0.0,
            nodes_per_block: u64::MAX,
        };
        let b = local_lagrangian(&x, n, d, k, &y, &sums, &roomy, far(), None).unwrap();
        let (full, eps) = full_anchored(&x, n, d, k, &y);
        // The local margins are at most the full one (smaller distances): the local bound
        // is the full one up to rounding, plus at most the full margin per charged anchor.
        let tol = 1e-12 * (1.0 + y.iter().map(|v| v.abs()).sum::<f64>());
        let above = (n / k) as f64 * eps;
        assert!(b.exact, "case {case}: an unlimited budget must finish");
        assert!(
            b.lower_bound <= opt + 1e-12 * opt.abs(),
            "case {case} (n={n}, d={d}, k={k}): local bound {} above the optimum {opt}",
            b.lower_bound
        );
        assert!(
            b.lower_bound >= full - tol && b.lower_bound <= full + above + tol,
            "case {case} (n={n}, d={d}, k={k}): local bound {} vs full-matrix anchored {full}",
            b.lower_bound
        );
        // Tiny local sets: most anchors fall back to the weak bound; still valid.
        let cramped = LocalOptions {
            block_size: 1,
            max_local: k + 1,
            ..roomy
        };
        let c = local_lagrangian(&x, n, d, k, &y, &sums, &cramped, far(), None).unwrap();
        assert!(
            c.lower_bound <= opt + 1e-12 * opt.abs(),
            "case {case}: cramped"
        );
        if b.lower_bound > nn * (1.0 + 1e-9) {
            strictly_above_nn += 1;
        }
    }
    common::assert_shown_in("above nn", strictly_above_nn, 84, 5);
}

#[test]
fn local_route_beats_nn_on_uniform_data_with_small_blocks() {
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let n = 240;
    let raw: Vec<Vec<f64>> = (0..n)
        .map(|_| vec![rng.random_range(0.0..1.0), rng.random_range(0.0..1.0)])
        .collect();
    let inst = from_rows(&raw);
    let k = 3;
    let nn = nn_bound(&inst.z, n, 2, k).unwrap().lower_bound;
    let opts = LocalRouteOptions {
        dual_block: 120,
        local: LocalOptions {
            block_size: 32,
            max_local: 400,
            ..Default::default()
        },
        ..Default::default()
    };
    let never = AtomicBool::new(false);
    let r = local_route::compute(&inst, k, nn, 20.0, &opts, &never).unwrap();
    assert!(
        r.above_nn && r.lower_bound > nn * 1.001,
        "local route {} vs nn {nn}: {}",
        r.lower_bound,
        r.details
    );
}

#[test]
fn auto_is_between_nn_and_the_optimum_on_every_route() {
    let mut rng = ChaCha8Rng::seed_from_u64(503);
    let mut routes = Vec::new();
    for case in 0..10 {
        let (n, k) = if case % 5 == 4 {
            (12, 6)
        } else {
            (10, 2 + case % 2)
        };
        let d = 2;
        let x = rows(&mut rng, case, n, d);
        let raw: Vec<Vec<f64>> = x.chunks(d).map(|r| r.to_vec()).collect();
        let inst = from_rows(&raw);
        let opt = brute_force_optimum(&inst.z, n, d, k);
        let nn = nn_bound(&inst.z, n, d, k).unwrap().lower_bound;
        // Cases 0, 1 take the local route (limit lowered to 5 records).
        let local_from = if case < 2 { 5 } else { 8000 };
        let seconds = if case == 2 { 1.0 } else { 4.0 };
        let a = quiet_run(&inst, k, |run| auto_bound(run, seconds, local_from)).unwrap();
        assert_eq!(a.route, choose_route(n, k, seconds, local_from));
        routes.push(a.route);
        assert!(
            a.lower_bound >= nn,
            "case {case}: auto {} below nn {nn}",
            a.lower_bound
        );
        assert!(
            a.lower_bound <= opt + 1e-12 * opt.abs(),
            "case {case} ({:?}): auto {} above the optimum {opt}",
            a.route,
            a.lower_bound
        );
        if a.route != Route::Nn {
            let inc = a.incumbent.expect("every route but nn keeps an incumbent");
            assert!(inc.sse >= opt - 1e-9 * opt.abs());
        }
    }
    for r in [Route::Nn, Route::Local, Route::Bnp, Route::Colgen] {
        assert!(routes.contains(&r), "route {r:?} not exercised: {routes:?}");
    }
}

/// The local route honours its time limit: on 20 000 clustered records (k = 5, the local
/// route past 8000 records) `auto` with T = 10 s returns within T + 5 s, above nn.
#[test]
fn the_local_route_ends_within_its_time_limit() {
    let mut rng = ChaCha8Rng::seed_from_u64(50_10);
    let (n, d, k) = (20_000, 4, 5);
    let centres: Vec<Vec<f64>> = (0..100)
        .map(|_| (0..d).map(|_| rng.random_range(0.0..100.0)).collect())
        .collect();
    let raw: Vec<Vec<f64>> = (0..n)
        .map(|i| {
            centres[i % 100]
                .iter()
                .map(|c| c + rng.random_range(-1.0..1.0))
                .collect()
        })
        .collect();
    let inst = from_rows(&raw);
    let seconds = 10.0;
    let t = Instant::now();
    let a = quiet_run(&inst, k, |run| auto_bound(run, seconds, 8000)).unwrap();
    let took = t.elapsed().as_secs_f64();
    assert_eq!(a.route, Route::Local);
    assert!(
        took <= seconds + 5.0,
        "took {took} s for a {seconds} s limit"
    );
    let nn = nn_bound(&inst.z, n, d, k).unwrap().lower_bound;
    assert!(a.lower_bound >= nn, "{} below nn {nn}", a.lower_bound);
}

#[test]
fn route_choice_follows_n_k_and_the_time_limit() {
    assert_eq!(choose_route(834, 3, 1.0, 8000), Route::Nn);
    assert_eq!(choose_route(834, 3, 60.0, 8000), Route::Bnp);
    assert_eq!(choose_route(834, 10, 60.0, 8000), Route::Colgen);
    assert_eq!(choose_route(20000, 3, 60.0, 8000), Route::Local);
}

/// `n` rows of `d` values uniform in [0, 10), standardised as a data file would be.
fn uniform_instance(rng: &mut ChaCha8Rng, n: usize, d: usize) -> microagg::data::Instance {
    let raw: Vec<Vec<f64>> = (0..n)
        .map(|_| (0..d).map(|_| rng.random_range(0.0..10.0)).collect())
        .collect();
    from_rows(&raw)
}

/// The bnp route runs `bnp` with the settings of its preset ([`SMALL_K_PRESET`]: rank-1
/// cuts and cuts on fractional blocks of up to 24 records) and the time left, and says so
/// in its details; the `bnp` entry accepts them (an unknown key or a bad value would fail
/// the run).
#[test]
fn the_bnp_route_runs_bnp_with_its_documented_cut_settings() {
    let mut rng = ChaCha8Rng::seed_from_u64(5031);
    let (n, d, k) = (40, 3, 3);
    let inst = uniform_instance(&mut rng, n, d);
    let a = quiet_run(&inst, k, |run| auto_bound(run, 5.0, 8000)).unwrap();
    assert_eq!(a.route, Route::Bnp);
    let given = &a.details["inner_params"];
    let preset = presets::find(SMALL_K_PRESET).unwrap();
    assert_eq!(preset.bound, "bnp");
    assert_eq!(given["rank1_cuts"], true, "{given}");
    assert!(given["big_cuts"].as_u64().unwrap() > 0, "{given}");
    let left = given["time_limit"].as_f64().unwrap();
    assert!(left > 0.0 && left <= 5.0, "{given}");
    let mut cuts = given.as_object().unwrap().clone();
    cuts.remove("time_limit");
    assert_eq!(cuts, preset.given());
    assert!(
        a.details["inner"]["cuts_by_kind"].is_object(),
        "{}",
        a.details
    );
}

/// The bnp route's guard does what the route table says: with its checkpoint at the start
/// (bnp has certified nothing yet) it stops bnp and runs colgen (the nn line search, then
/// column generation), whose bound is kept when larger (`produced_by` names it); with the checkpoint past the limit
/// it never fires, and bnp runs as without it. Either way the value is between nn and the
/// optimum.
#[test]
fn the_bnp_guard_fires_only_when_bnp_has_nothing_above_nn_at_its_checkpoint() {
    let mut rng = ChaCha8Rng::seed_from_u64(50_50);
    let (n, d, k) = (10, 2, 3);
    let inst = uniform_instance(&mut rng, n, d);
    let opt = brute_force_optimum(&inst.z, n, d, k);
    let nn = nn_bound(&inst.z, n, d, k).unwrap().lower_bound;
    for (checkpoint, fires) in [(0.0, true), (2.0, false)] {
        let a = quiet_run(&inst, k, |run| auto_bound_with(run, 4.0, 8000, checkpoint)).unwrap();
        assert_eq!(a.route, Route::Bnp);
        let guard = &a.details["guard"];
        assert_eq!(guard["fired"], fires, "checkpoint {checkpoint}: {guard}");
        assert_eq!(guard["colgen"].is_object(), fires, "{guard}");
        let bnp = guard["bnp_bound"].as_f64().unwrap();
        if fires {
            // The larger bound is kept, and named.
            let cg = guard["colgen_bound"].as_f64().unwrap();
            assert_eq!(a.lower_bound, bnp.max(cg).max(nn), "{guard}");
            assert_eq!(a.produced_by == "colgen", cg > bnp.max(nn), "{guard}");
        } else {
            assert_eq!(a.lower_bound, bnp.max(nn), "{guard}");
            assert_ne!(a.produced_by, "colgen");
        }
        assert!(a.lower_bound >= nn && a.lower_bound <= opt + 1e-12 * opt.abs());
    }
    // The decision itself: before the checkpoint, or with a bound above nn, bnp goes on.
    let now = Instant::now();
    let later = now + Duration::from_secs(1);
    assert!(!should_stop(now, later, false));
    assert!(!should_stop(later, now, true));
    assert!(should_stop(later, now, false));
    assert!((0.0..1.0).contains(&GUARD_CHECKPOINT));
}

/// `auto` reports the best partition it found beside the bound (SSE, gap to the bound and,
/// when the bound proves it, optimality), in the outcome, its JSON and its text; given the
/// optimal partition (found by enumeration) as its start, it keeps bnp's proof of it, which
/// bnp gives at equal SSE. Bounds that search no partition report none.
#[test]
fn auto_reports_its_best_partition_and_keeps_the_proof_of_an_optimal_start() {
    let mut rng = ChaCha8Rng::seed_from_u64(509);
    let (n, d, k) = (9, 2, 3);
    for case in 0..7 {
        let x = rows(&mut rng, case, n, d);
        let raw: Vec<Vec<f64>> = x.chunks(d).map(|r| r.to_vec()).collect();
        let inst = from_rows(&raw);
        let mut best = (f64::INFINITY, Vec::new());
        for_each_set_partition(n, k, &mut |labels| {
            let sse = Partition::from_labels(&inst, labels.to_vec())
                .unwrap()
                .sse();
            if sse < best.0 {
                best = (sse, labels.to_vec());
            }
        });
        let (opt, optimal) = best;
        let never = AtomicBool::new(false);
        let mut run = BoundRun {
            inst: &inst,
            k,
            start: Some((&optimal, "the enumerated optimum")),
            show: microagg::progress::Show::Never,
            interrupt: &never,
            report: &mut |_| {},
        };
        let a = auto_bound(&mut run, 20.0, 8000).unwrap();
        assert_eq!(a.route, Route::Bnp);
        let inc = a.incumbent.expect("the bnp route keeps an incumbent");
        assert!(
            inc.proven_optimal,
            "case {case}: the optimal start lost its proof"
        );
        assert!(
            (inc.sse - opt).abs() <= 1e-9 * opt,
            "case {case}: {} vs {opt}",
            inc.sse
        );

        let b = microagg::bound::compute("auto", &inst, k, Some(20.0)).unwrap();
        let p = b
            .best_partition
            .clone()
            .expect("auto reports its best partition");
        let found = b.incumbent.as_ref().unwrap();
        assert_eq!(p.sse, found.sse);
        assert_eq!(p.proven_optimal, found.proven_optimal);
        assert!(
            p.sse >= opt - 1e-9 * opt,
            "case {case}: {} below {opt}",
            p.sse
        );
        assert_eq!(p.gap_percent, gap_percent(p.sse, b.lower_bound));
        if p.proven_optimal {
            assert!((p.sse - opt).abs() <= 1e-9 * opt, "case {case}");
        }
        let json: serde_json::Value =
            serde_json::from_str(&microagg::render::bound::bound_json(&b, &inst, k)).unwrap();
        assert_eq!(json["best_partition"]["sse"].as_f64(), Some(p.sse));
        assert_eq!(json["best_partition"]["proven_optimal"], p.proven_optimal);
        let text = microagg::render::bound::bound_text(&b, &inst, k);
        let line = text
            .lines()
            .nth(1)
            .expect("a second line for the partition");
        assert!(line.starts_with("best partition found: SSE "), "{text}");
        assert_eq!(line.contains("proven optimal"), p.proven_optimal, "{text}");

        let nn = microagg::bound::compute("nn", &inst, k, None).unwrap();
        assert!(nn.best_partition.is_none());
        let json = microagg::render::bound::bound_json(&nn, &inst, k);
        assert!(!json.contains("best_partition"), "{json}");
        assert_eq!(
            microagg::render::bound::bound_text(&nn, &inst, k)
                .lines()
                .count(),
            1
        );
    }
}
