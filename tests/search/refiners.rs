//! Conformance of every registered refiner (enumerated from the registry, so a new one is
//! tested without being listed here) after MDAV: the result is feasible, never worse than
//! MDAV, identical for the same seed, also on tiny and duplicate instances; its stats reach
//! the stage record; an interrupt before its first step returns its input. Descent ends in a
//! local optimum of its neighbourhood; a time limit and an interrupt stop the search with a
//! feasible never-worse partition (an interrupt before the pipeline starts stops the
//! initializer with an error).

use crate::common;
use common::run_pipeline;
use microagg::data::Instance;
use microagg::geometry::neighbours::Neighbours;
use microagg::pipeline::Pipeline;
use std::sync::atomic::AtomicBool;

/// Every registered refiner, in registry order.
fn refiners() -> Vec<&'static str> {
    microagg::registry::registry()
        .into_iter()
        .filter(|m| m.kind() == microagg::method::MethodKind::Refiner)
        .map(|m| m.name)
        .collect()
}

/// Parameters that make the stochastic refiners stop by themselves, quickly.
const QUICK: &[&str] = &[
    "ils.stall=300",
    "lahc.stall=300",
    "sa.reheat_after=20",
    "sa.max_reheats=1",
    "sa.moves_per_temp=200",
    "exact-lns.records=20",
];

fn quick_for(spec: &str) -> Vec<&'static str> {
    QUICK
        .iter()
        .copied()
        .filter(|p| spec.contains(p.split('.').next().unwrap()))
        .collect()
}

/// The registered refiner `name` (default parameters, rng seed 3) on MDAV's partition,
/// interrupted before its first step.
fn refine_interrupted(name: &str, inst: &Instance, k: usize) -> microagg::search::RefineOutcome {
    let mut refiner = microagg::registry::find(name)
        .unwrap()
        .make_refiner(&serde_json::Map::new())
        .unwrap();
    let start = run_pipeline(inst, "mdav", &[], k, 0, None);
    microagg::search::refine(
        refiner.as_mut(),
        inst,
        k,
        start,
        &mut <microagg::rng::Rng as rand::SeedableRng>::seed_from_u64(3),
        None,
        &AtomicBool::new(true),
    )
    .unwrap()
}

#[test]
fn refiners_are_feasible_never_worse_and_deterministic() {
    let inst = common::synthetic("gauss:n=300,d=3,clusters=6,seed=4");
    for k in [2, 3, 5] {
        let (mdav_sse, _) = common::run_method(&inst, "mdav", k, 0);
        let all = refiners();
        assert!(all.len() >= 7 && all.contains(&"imhm"), "{all:?}");
        for refiner in all {
            let spec = format!("mdav+{refiner}");
            let params = quick_for(&spec);
            let case = format!("{spec} k={k}");
            common::assert_refined_twice(&case, &inst, &spec, &params, k, 7, mdav_sse);
        }
        // The search refiners improve on MDAV on this clustered instance.
        for refiner in ["descent", "ils"] {
            let spec = format!("mdav+{refiner}");
            let p = run_pipeline(&inst, &spec, &quick_for(&spec), k, 1, None);
            assert!(p.sse() < mdav_sse, "{spec} k={k} did not improve MDAV");
        }
    }
}

/// Every refiner reports counters, and they reach the stage record; every refiner stopped
/// before its first step returns its input unchanged.
#[test]
fn every_refiner_reports_stats_and_stops_before_its_first_step() {
    let inst = common::synthetic("gauss:n=240,d=3,clusters=6,seed=8");
    let k = 3;
    let (mdav_sse, _) = common::run_method(&inst, "mdav", k, 0);
    for refiner in refiners() {
        let spec = format!("mdav+{refiner}");
        let out = Pipeline::parse(
            &spec,
            &quick_for(&spec)
                .iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>(),
        )
        .unwrap()
        .run(&inst, k, 5, None, &AtomicBool::new(false))
        .unwrap();
        let stage = out.stages.last().unwrap();
        let stats = stage.stats.as_ref().expect("a refiner stage has stats");
        assert!(!stats.is_empty(), "{spec}: no counters");
        assert!(
            stats.0.values().any(|&v| v > 0),
            "{spec}: all counters zero {stats:?}"
        );
        let out = refine_interrupted(refiner, &inst, k);
        assert_eq!(
            out.stop,
            microagg::search::StopReason::Interrupted,
            "{spec}"
        );
        assert_eq!(out.partition.sse(), mdav_sse, "{spec}");
    }
}

#[test]
fn descent_ends_in_a_local_optimum_of_its_neighbourhood() {
    let inst = common::synthetic("uniform:n=200,d=2,seed=9");
    let k = 3;
    for (strategy, cycles) in [("first", false), ("best", false), ("first", true)] {
        let params = [
            format!("descent.strategy={strategy}"),
            format!("descent.cycles={cycles}"),
        ];
        let p = run_pipeline(&inst, "mdav+descent", &[&params[0], &params[1]], k, 0, None);
        let nb = Neighbours::build(&inst, 30);
        let eps = 1e-10 * inst.sst / inst.n as f64;
        let ls = microagg::search::descent::LocalSearch::new(&inst, false, true);
        let norms: Vec<f64> = (0..inst.n)
            .map(|i| inst.row(i).iter().map(|v| v * v).sum())
            .collect();
        let view = microagg::search::operators::View {
            p: &p,
            inst: &inst,
            k,
            nb: &nb,
            norms: &norms,
            eps: ls.improvement_eps(),
            sums: &microagg::objective::GroupSums::Plain,
        };
        let mut cyc = microagg::search::operators::cycle3::Cycle3::default();
        let with_cycle = (0..inst.n)
            .filter(|&i| cyc.best_cycle(&view, i).is_some())
            .count();
        if cycles {
            assert_eq!(with_cycle, 0, "{strategy}: improving 3-cycles left");
        } else if strategy == "first" {
            // Not vacuous: the shift/swap optimum of the same start still has some.
            assert!(with_cycle > 0, "no 3-cycle to find on this instance");
        }
        for i in 0..inst.n {
            let g = p.group_of(i);
            for &j in nb.of(i) {
                let h = p.group_of(j as usize);
                if h == g {
                    continue;
                }
                if p.size(g) > k {
                    assert!(
                        p.shift_delta(&inst, i, h) >= -eps,
                        "{strategy}: improving shift {i}->{h}"
                    );
                }
                for &m in p.members(h) {
                    assert!(
                        p.swap_delta(&inst, i, m) >= -eps,
                        "{strategy}: improving swap {i}<->{m}"
                    );
                }
            }
        }
    }
}

#[test]
fn time_limit_and_interrupt_return_feasible_never_worse_partitions() {
    let inst = common::synthetic("gauss:n=2000,d=4,clusters=8,seed=2");
    let k = 4;
    let (mdav_sse, _) = common::run_method(&inst, "mdav", k, 0);
    for spec in ["mdav+ils", "mdav+sa", "mdav+decompose-shrink+ils"] {
        let out = Pipeline::parse(spec, &[])
            .unwrap()
            .run(&inst, k, 3, Some(0.3), &AtomicBool::new(false))
            .unwrap();
        assert!(out.partition.is_feasible(k));
        assert!(out.partition.sse() <= mdav_sse);
        let last = out.stages.last().unwrap();
        assert_eq!(
            last.stop,
            Some(microagg::search::StopReason::TimeLimit),
            "{spec}"
        );
        // Interrupted before the pipeline starts: the initializer stops between its groups
        // and the run is an error (an initializer has no partial partition to return).
        let stop = AtomicBool::new(true);
        let out = Pipeline::parse(spec, &[])
            .unwrap()
            .run(&inst, k, 3, None, &stop);
        assert!(
            matches!(out, Err(microagg::error::Error::Interrupted(_))),
            "{spec}"
        );
        // A refiner interrupted before its first step returns its input unchanged.
        let last = spec.rsplit('+').next().unwrap();
        let out = refine_interrupted(last, &inst, k);
        assert_eq!(out.stop, microagg::search::StopReason::Interrupted);
        assert!((out.partition.sse() - mdav_sse).abs() <= 1e-9 * mdav_sse);
    }
}

#[test]
fn refiners_handle_tiny_and_duplicate_instances() {
    let k = 3;
    // Duplicated rows: two distinct points, each five times.
    let dup = common::from_rows(
        &(0..10)
            .map(|i| vec![(i % 2) as f64, 2.0 * (i % 2) as f64])
            .collect::<Vec<_>>(),
    );
    let one_d = common::from_rows(&(0..11).map(|i| vec![(i * i) as f64]).collect::<Vec<_>>());
    for rows in [k, 2 * k - 1, 2 * k, 3 * k + 1] {
        let inst = common::from_rows(
            &(0..rows)
                .map(|i| vec![i as f64, (i % 3) as f64])
                .collect::<Vec<_>>(),
        );
        for inst in [&inst, &dup, &one_d] {
            for refiner in refiners() {
                let spec = format!("mdav+{refiner}");
                let (mdav_sse, _) = common::run_method(inst, "mdav", k, 0);
                let p = run_pipeline(inst, &spec, &quick_for(&spec), k, 0, None);
                assert!(p.is_feasible(k), "{spec} n={}", inst.n);
                assert!(p.sse() <= mdav_sse + 1e-12, "{spec} n={}", inst.n);
            }
        }
    }
}

/// The descent's improvement threshold (P02, "Rounding"): 1e-10 x SST / n on ordinary data,
/// raised to the rounding bound 72 (d + 5) 2^-53 max |x|^2 when one record is an extreme
/// outlier, so a move selected by the one-dot-product evaluation always truly improves.
#[test]
fn improvement_threshold_covers_the_rounding_of_the_dot_product_evaluation() {
    use microagg::search::descent::{LocalSearch, IMPROVE_EPS};
    let threshold = |inst: &Instance| {
        let plain = IMPROVE_EPS * inst.sst / inst.n as f64;
        let max_norm = (0..inst.n)
            .map(|i| inst.row(i).iter().map(|v| v * v).sum::<f64>())
            .fold(0.0, f64::max);
        let rounding = 72.0 * (inst.d as f64 + 5.0) * 2f64.powi(-53) * max_norm;
        (
            plain,
            rounding,
            LocalSearch::new(inst, false, false).improvement_eps(),
        )
    };
    // Ordinary data: the relative threshold applies.
    let inst = common::synthetic("gauss:n=300,d=3,clusters=3,seed=1");
    let (plain, rounding, eps) = threshold(&inst);
    assert!(rounding < plain && eps == plain, "{plain} {rounding} {eps}");
    // 3000 records at 0 and one at 1: its z-score is sqrt(n - 1), |x|^2 = 3000 in one
    // dimension, and the rounding bound (about 2.9e-9) exceeds 1e-10 x SST / n = 1e-10.
    let mut values = vec![0.0; 3000];
    values.push(1.0);
    let inst = common::line(&values);
    let (plain, rounding, eps) = threshold(&inst);
    assert!(
        rounding > plain && eps == rounding,
        "{plain} {rounding} {eps}"
    );
}
