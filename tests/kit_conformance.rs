//! Conformance of every part of the search kit the registry holds (issue 51): each
//! perturbation changes the partition only through the move log (undo restores labels and
//! SSE exactly) and leaves cached statistics equal to fresh ones; each descent operator's
//! offered delta equals the SSE change its move makes and keeps every group at k or more;
//! each acceptance rule keeps an improvement and is deterministic under a seed. Also: ILS's
//! nested parts give the labels of the flat keys they replace, and a part from outside the
//! crate is found by name once its registry is installed.

use microagg::data::{load, ColumnSelection, Instance};
use microagg::method::Ctx;
use microagg::partition::Partition;
use microagg::pipeline::Pipeline;
use microagg::registry::Registry;
use microagg::rng::Rng;
use microagg::search::local_search::LocalSearch;
use microagg::search::moves::MoveLog;
use microagg::search::neighbours::Neighbours;
use microagg::search::operators::{Best, Phase, View};
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

#[test]
fn every_operator_offers_the_delta_its_move_makes() {
    let inst = instance();
    let reg = Registry::builtin();
    let nb = Neighbours::build(&inst, 30);
    let norms: Vec<f64> = (0..inst.n)
        .map(|i| inst.row(i).iter().map(|x| x * x).sum())
        .collect();
    // A scrambled start of groups of 5: every operator has improving moves there.
    let scrambled: Vec<usize> = (0..inst.n).map(|i| (i * 97 % inst.n) / 5).collect();
    for info in &reg.operators {
        let mut op = info.make(&Map::new()).unwrap();
        let mut p = Partition::from_labels(&inst, scrambled.clone()).unwrap();
        let mut checked = 0;
        for i in 0..inst.n {
            let view = View {
                p: &p,
                inst: &inst,
                k: K,
                nb: &nb,
                norms: &norms,
                eps: 0.0,
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
            assert!(delta < 0.0, "{}: offered a non-improving move", info.name);
            let before = p.sse();
            let mut log = MoveLog::new();
            op.apply(&mut p, &inst, mv, &mut log);
            let made = p.fresh_sse(&inst) - before;
            assert!(
                (made - delta).abs() <= 1e-9 * before.max(1.0),
                "{}: offered {delta}, made {made}",
                info.name
            );
            assert!(p.is_feasible(K), "{}: a group fell below k", info.name);
            p.validate(&inst, 1e-9).unwrap();
            checked += 1;
        }
        assert!(
            checked > 0,
            "{} offered no move on MDAV's partition",
            info.name
        );
        assert!(
            op.counters().applications as usize >= checked,
            "{}: counts applications",
            info.name
        );
    }
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
    assert!(
        e.contains("no_such_rule") && e.contains("late_acceptance"),
        "{e}"
    );
}
