//! Every phase of the column-generation engine, run alone after the root column generation
//! (with only the phases it needs before it), keeps the bound valid: on small instances the
//! bound is at most the brute-force optimum, the phase started (and over the cases its
//! progress line appears: it did its work at least once), and the certificate of the bound
//! verifies with a recomputed value at most the optimum.

use crate::common;
use common::{brute_force_optimum, clustered_rows};
use microagg::certificate::{verify, BoundCertificate};
use microagg_solvers::bounds::colgen::observer::Lines;
use microagg_solvers::bounds::colgen::{
    colgen_bound_scheduled, ColgenOptions, Phase, Schedule, Step, TimeShares,
};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The phase under test, the phases it needs between the root and it, and a piece of the
/// detail line it sends when it runs.
const CASES: &[(Phase, &[Phase], &str)] = &[
    (Phase::NnAscent, &[], "nn line search"),
    (Phase::BoxAscent, &[], "subgradient: bound"),
    (
        Phase::CertifiedSmoothing,
        &[Phase::NnAscent],
        "certified smoothing",
    ),
    (Phase::FinalEvaluations, &[Phase::FinalSolve], "  it "),
    (Phase::LpSegment, &[Phase::FinalSolve], "line search toward"),
    (
        Phase::PushProject,
        &[Phase::FinalSolve, Phase::LpSegment],
        "push-project: bound",
    ),
    (
        Phase::SlackPush,
        &[Phase::FinalSolve, Phase::LpSegment],
        "slack push: bound",
    ),
    (
        Phase::PoolMaster,
        &[Phase::FinalSolve, Phase::LpSegment],
        "pool master: bound",
    ),
    (
        Phase::Tighten,
        &[Phase::FinalSolve, Phase::LpSegment],
        "tighten: threshold",
    ),
];

/// Options that give every phase its parameters: a short run whose root column generation
/// stops after one master solve, anchored searches at a threshold, a box in odd cases.
fn options(case: usize) -> ColgenOptions {
    ColgenOptions {
        time_limit: 0.6,
        max_iterations: 1,
        // The root's one iteration certifies a bound at the anchor threshold, so that the
        // final phases have a centre to start from and a threshold to tighten.
        exact_every: 1,
        anchor_bound: true,
        final_fraction: 0.7,
        nn_ascent: 0.1,
        subgradient: 0.1,
        box_width: [0.0, 0.3][case % 2],
        anchor_threshold: [0.05, 0.2][case / 2 % 2],
        slack_push: 0.1,
        pool_master: 0.1,
        tighten_fraction: 0.1,
        progress: true,
        ..Default::default()
    }
}

/// The root column generation, then `before`, then `phase`: each with the share the options
/// give it.
fn schedule(opts: &ColgenOptions, phase: Phase, before: &[Phase]) -> Schedule {
    let shares = TimeShares::of(opts);
    let mut phases = vec![Phase::ColumnGeneration];
    phases.extend_from_slice(before);
    phases.push(phase);
    let steps = phases
        .into_iter()
        .map(|phase| Step {
            phase,
            share: shares.share(phase, false),
        })
        .collect();
    Schedule::new(steps).expect("a checked schedule")
}

#[test]
fn every_phase_alone_after_the_root_keeps_the_bound_below_brute_force_and_verified() {
    let mut rng = ChaCha8Rng::seed_from_u64(50_2026);
    let mut worked = vec![0usize; CASES.len()];
    for case in 0..8 {
        let n = rng.random_range(8..=11);
        let d = rng.random_range(1..=2);
        let k = rng.random_range(2..=3);
        let x = clustered_rows(&mut rng, n, d, [2.0, 6.0][case % 2]);
        let rows: Vec<Vec<f64>> = x.chunks(d).map(|r| r.to_vec()).collect();
        let inst = common::from_rows(&rows);
        let opt = brute_force_optimum(&inst.z, n, d, k);
        // A consecutive (poor) start, so that one master solve does not converge.
        let labels = common::chunk_labels(n, k);
        let opts = options(case);
        for (c, &(phase, before, line)) in CASES.iter().enumerate() {
            let what = format!("case {case} (n={n}, d={d}, k={k}), {phase:?}");
            let sched = schedule(&opts, phase, before);
            let mut seen = Lines::default();
            let b = colgen_bound_scheduled(
                &inst.z,
                n,
                d,
                k,
                &[&labels],
                &opts,
                &sched,
                None,
                &mut seen,
            )
            .unwrap();
            assert_eq!(
                seen.phases.last(),
                Some(&phase),
                "{what}: {:?}",
                seen.phases
            );
            worked[c] += usize::from(seen.details.iter().any(|l| l.contains(line)));
            assert!(b.lower_bound <= opt, "{what}: {} > {opt}", b.lower_bound);
            assert!(b.lagrangian <= opt, "{what}: {} > {opt}", b.lagrangian);
            if !b.duals.is_empty() {
                let cert = BoundCertificate::lagrangian(&inst, k, b.lagrangian, b.duals.clone())
                    .with_anchor_threshold(b.anchor_threshold);
                let v = verify(&cert, &inst, k, None).unwrap();
                assert!(v.valid && v.recomputed <= opt, "{what}: {v:?}");
            }
        }
    }
    for (&(phase, _, line), &w) in CASES.iter().zip(&worked) {
        assert!(w > 0, "{phase:?} never sent '{line}'");
    }
}

/// When column generation gets no iteration (here `max_iterations = 0`; in a short run, when
/// the nn line search used the main share), the final master solve still runs on the start
/// columns and the final phases use the rest of the run: the master has a value and the line
/// search toward its duals runs, with the bound still below the optimum and verified.
#[test]
fn the_final_phases_run_when_column_generation_had_no_iteration() {
    let mut rng = ChaCha8Rng::seed_from_u64(503);
    let mut searched = 0;
    for case in 0..4 {
        let (n, d, k) = (10, 2, 3);
        let x = clustered_rows(&mut rng, n, d, 4.0);
        let rows: Vec<Vec<f64>> = x.chunks(d).map(|r| r.to_vec()).collect();
        let inst = common::from_rows(&rows);
        let opt = brute_force_optimum(&inst.z, n, d, k);
        let labels = common::chunk_labels(n, k);
        let opts = ColgenOptions {
            max_iterations: 0,
            time_limit: 5.0,
            ..options(case)
        };
        let sched = schedule(
            &opts,
            Phase::LpSegment,
            &[Phase::NnAscent, Phase::FinalSolve],
        );
        let mut seen = Lines::default();
        let b =
            colgen_bound_scheduled(&inst.z, n, d, k, &[&labels], &opts, &sched, None, &mut seen)
                .unwrap();
        assert_eq!(b.iterations, 0, "case {case}");
        assert!(b.lp_value.is_finite(), "case {case}: no final master solve");
        searched += usize::from(
            seen.details
                .iter()
                .any(|l| l.contains("line search toward")),
        );
        assert!(
            b.lower_bound <= opt,
            "case {case}: {} > {opt}",
            b.lower_bound
        );
        if !b.duals.is_empty() {
            let cert = BoundCertificate::lagrangian(&inst, k, b.lagrangian, b.duals.clone())
                .with_anchor_threshold(b.anchor_threshold);
            let v = verify(&cert, &inst, k, None).unwrap();
            assert!(v.valid && v.recomputed <= opt, "case {case}: {v:?}");
        }
    }
    assert!(
        searched > 0,
        "the line search toward the master duals never ran"
    );
}

#[test]
fn a_schedule_refuses_a_phase_before_the_one_it_needs() {
    let opts = ColgenOptions::default();
    let shares = TimeShares::of(&opts);
    let step = |phase| Step {
        phase,
        share: shares.share(phase, false),
    };
    let err = Schedule::new(vec![
        step(Phase::ColumnGeneration),
        step(Phase::PushProject),
    ])
    .unwrap_err()
    .to_string();
    assert!(err.contains("PushProject needs LpSegment"), "{err}");
    let err = Schedule::new(vec![step(Phase::LpSegment), step(Phase::FinalSolve)])
        .unwrap_err()
        .to_string();
    assert!(err.contains("LpSegment needs FinalSolve"), "{err}");
    let late = Step {
        phase: Phase::NnAscent,
        share: microagg_solvers::bounds::colgen::Share::FromStart(1.5),
    };
    assert!(Schedule::new(vec![late]).is_err());
    // The options' own schedule passes its checks and runs the phases in their order.
    let opts = ColgenOptions {
        nn_ascent: 0.1,
        lp_segment: true,
        push_project: true,
        tighten_fraction: 0.05,
        ..Default::default()
    };
    let phases: Vec<Phase> = Schedule::from_options(&opts)
        .unwrap()
        .steps()
        .iter()
        .map(|s| s.phase)
        .collect();
    assert_eq!(
        phases,
        [
            Phase::NnAscent,
            Phase::ColumnGeneration,
            Phase::FinalSolve,
            Phase::LpSegment,
            Phase::PushProject,
            Phase::Tighten,
            Phase::FinalEvaluations
        ]
    );
}
