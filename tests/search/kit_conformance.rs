//! Conformance of every part of the search kit the registry holds (issue 51): each
//! perturbation changes the partition only through the move log (undo restores labels and
//! SSE exactly) and leaves cached statistics equal to fresh ones; each descent operator's
//! offered delta equals the SSE change its move makes and keeps every group at k or more;
//! each acceptance rule keeps an improvement and is deterministic under a seed. Also: ILS's
//! nested parts give the labels of the flat keys they replace, and a part from outside the
//! crate is found by name once its registry is installed.

use crate::common;
use microagg::data::{load, ColumnSelection, Instance};
use microagg::geometry::neighbours::Neighbours;
use microagg::method::Ctx;
use microagg::partition::Partition;
use microagg::pipeline::Pipeline;
use microagg::registry::Registry;
use microagg::rng::Rng;
use microagg::search::local_search::LocalSearch;
use microagg::search::moves::MoveLog;
use microagg::search::moves::{Counters, Move};
use microagg::search::operators::shift::ShiftOp;
use microagg::search::operators::{Best, Operator, Phase, View};
use microagg::search::perturb::Workspace;
use microagg::search::shared_lists::ListCache;
use microagg::search::stop::Stops;
use rand::SeedableRng;
use serde_json::Map;
use std::sync::atomic::AtomicBool;

const K: usize = 3;

fn instance() -> Instance {
    load("gauss:n=240,d=3,clusters=6,seed=4", &ColumnSelection::All).unwrap()
}

/// MDAV's partition.
fn start(inst: &Instance) -> Partition {
    let never = AtomicBool::new(false);
    Pipeline::parse("mdav", &[])
        .unwrap()
        .run(inst, K, 3, None, &never)
        .unwrap()
        .partition
}

#[test]
fn every_perturbation_changes_the_partition_through_the_log_only() {
    let inst = instance();
    let reg = Registry::builtin();
    let nb = Neighbours::build(&inst, 30);
    let never = AtomicBool::new(false);
    let lists = ListCache::new();
    for info in &reg.perturbs {
        let mut perturb = info.make(&Map::new()).unwrap();
        let mut p = start(&inst);
        let mut rng = Rng::seed_from_u64(5);
        let mut ctx = Ctx::new(
            &inst,
            K,
            &mut rng,
            Stops::new(vec![]).view(),
            &never,
            &lists,
        );
        let (mut ls, mut log) = (LocalSearch::new(&inst, false, true), MoveLog::new());
        let (mut spare, mut groups) = (Vec::new(), Vec::new());
        let mut changed = 0;
        for r in (0..inst.n).step_by(7) {
            let (labels, sse) = (p.labels().to_vec(), p.sse());
            let mut ws = Workspace {
                nb: &nb,
                ls: &mut ls,
                log: &mut log,
                spare: &mut spare,
                groups: &mut groups,
            };
            let done = perturb.perturb(&mut p, &mut ctx, r, &mut ws);
            changed += usize::from(done);
            if !done {
                assert!(
                    log.is_empty(),
                    "{}: no change reported, log not empty",
                    info.name
                );
            }
            p.validate(&inst, 1e-9)
                .unwrap_or_else(|e| panic!("{} at record {r}: {e}", info.name));
            log.undo(&mut p, &inst);
            let restored: Vec<usize> = p.labels().to_vec();
            assert_eq!(restored, labels, "{}: undo restores the labels", info.name);
            assert!(
                (p.sse() - sse).abs() <= 1e-9 * sse,
                "{}: undo restores the SSE",
                info.name
            );
        }
        assert!(changed > 0, "{} never changed the partition", info.name);
    }
}

/// Run operator `op` over every record of a scrambled start (groups of 5, so every
/// operator has improving moves), applying each move it offers: the offered delta must be
/// the SSE change the move makes, and no group may fall below k. Returns the moves checked.
fn check_operator(inst: &Instance, mut op: Box<dyn Operator>) -> Result<usize, String> {
    let nb = Neighbours::build(inst, 30);
    let norms: Vec<f64> = (0..inst.n)
        .map(|i| inst.row(i).iter().map(|x| x * x).sum())
        .collect();
    let scrambled: Vec<usize> = (0..inst.n).map(|i| (i * 97 % inst.n) / 5).collect();
    let mut p = Partition::from_labels(inst, scrambled).unwrap();
    let mut checked = 0;
    for i in 0..inst.n {
        let view = View {
            p: &p,
            inst,
            k: K,
            nb: &nb,
            norms: &norms,
            eps: 0.0,
            sums: &microagg::objective::GroupSums::Plain,
        };
        let found = match op.phase() {
            Phase::Group => {
                let mut best = Best::new(0.0);
                let g = p.group_of(i);
                let mut seen = Vec::new();
                for &j in nb.of(i) {
                    let h = p.group_of(j as usize);
                    if h != g && !seen.contains(&h) {
                        seen.push(h);
                        op.scan_group(&view, i, h, false, &mut best);
                    }
                }
                best.found
            }
            Phase::Escape => op.escape(&view, i),
        };
        let Some((delta, mv)) = found else { continue };
        if delta >= 0.0 {
            return Err(format!("offered a non-improving move {mv:?}"));
        }
        let before = p.sse();
        op.apply(&mut p, inst, mv, &mut MoveLog::new());
        let made = p.fresh_sse(inst) - before;
        if (made - delta).abs() > 1e-9 * before.max(1.0) {
            return Err(format!("offered {delta} for {mv:?}, made {made}"));
        }
        if !p.is_feasible(K) {
            return Err(format!("{mv:?} left a group below k"));
        }
        p.validate(inst, 1e-9)?;
        checked += 1;
    }
    if checked == 0 {
        return Err("offered no move on a scrambled partition".into());
    }
    if (op.counters().applications as usize) < checked {
        return Err("does not count its applications".into());
    }
    Ok(checked)
}

#[test]
fn every_operator_offers_the_delta_its_move_makes() {
    let inst = instance();
    for info in &Registry::builtin().operators {
        let op = info.make(&Map::new()).unwrap();
        check_operator(&inst, op).unwrap_or_else(|e| panic!("{}: {e}", info.name));
    }
}

/// The check above can fail: a shift whose offered delta is off by 1 % is caught.
#[test]
fn an_operator_with_a_wrong_delta_fails_the_check() {
    struct SloppyShift(ShiftOp);
    impl Operator for SloppyShift {
        fn name(&self) -> &'static str {
            "sloppy_shift"
        }
        fn counters(&self) -> Counters {
            self.0.counters()
        }
        fn scan_group(
            &mut self,
            v: &View,
            i: usize,
            h: usize,
            first: bool,
            best: &mut Best,
        ) -> bool {
            let mut own = Best::new(0.0);
            self.0.scan_group(v, i, h, first, &mut own);
            own.found
                .is_some_and(|(delta, mv)| best.offer(1.01 * delta, mv) && first)
        }
        fn apply(&mut self, p: &mut Partition, inst: &Instance, mv: Move, log: &mut MoveLog) {
            self.0.apply(p, inst, mv, log);
        }
    }
    let e = check_operator(&instance(), Box::new(SloppyShift(ShiftOp::default()))).unwrap_err();
    assert!(e.contains("made"), "{e}");
}

#[test]
fn every_acceptance_rule_keeps_improvements_and_repeats_under_a_seed() {
    let reg = Registry::builtin();
    for info in &reg.accepts {
        let decide = || {
            let mut rule = info.make(&Map::new()).unwrap();
            let mut rng = Rng::seed_from_u64(9);
            rule.start(100.0, 10, Some(0.0));
            let mut out = Vec::new();
            for step in 0..200 {
                let delta = ((step * 37) % 11) as f64 - 5.0;
                out.push(rule.accept(100.0, delta, &mut rng));
                rule.after(100.0, Some(step as f64 / 200.0));
            }
            out
        };
        let a = decide();
        assert_eq!(a, decide(), "{}: same seed, same decisions", info.name);
        for (step, kept) in a.iter().enumerate() {
            if ((step * 37) % 11) < 5 {
                assert!(kept, "{}: an improvement was rejected", info.name);
            }
        }
    }
}

/// The nested parts that spell out ILS's defaults give the flat keys' labels, bit for bit.
#[test]
fn nested_parts_give_the_labels_of_the_flat_keys() {
    let inst = instance();
    let never = AtomicBool::new(false);
    let run = |params: &[&str]| {
        let params: Vec<String> = params.iter().map(|s| s.to_string()).collect();
        Pipeline::parse("mdav+ils", &params)
            .unwrap()
            .run_with(&inst, K, 21, None, Some(300), &never)
            .unwrap()
            .partition
    };
    let flat = run(&[
        "ils.dissolve_rate=0.3",
        "ils.temperature=0.2",
        "ils.cycles=false",
    ]);
    let nested = run(&[
        r#"ils.perturb=[{"pool_resplit": {}, "weight": 0.7}, {"dissolve_distill": {}, "weight": 0.3}]"#,
        r#"ils.accept={"annealing": {"temperature": 0.2}}"#,
        r#"ils.operators=[{"shift": {}}, {"swap": {}}]"#,
    ]);
    assert_eq!(flat.labels(), nested.labels());
    assert_ne!(
        flat.labels(),
        run(&[]).labels(),
        "the parameters matter on this instance"
    );
    let both = Pipeline::parse(
        "mdav+ils",
        &[
            "ils.dissolve_rate=0.3".to_string(),
            r#"ils.perturb=[{"pool_resplit": {}}]"#.to_string(),
        ],
    );
    let e = both
        .err()
        .expect("a flat key next to its nested part is refused")
        .to_string();
    assert!(e.contains("dissolve_rate"), "{e}");
    let e = Pipeline::parse(
        "mdav+ils",
        &[r#"ils.accept={"no_such_rule": {}}"#.to_string()],
    )
    .err()
    .unwrap()
    .to_string();
    common::assert_contains_all(&e, &["no_such_rule", "late_acceptance"]);
}
