//! Property tests of the moves (src/search/moves/): every `evaluate` predicts exactly
//! (relative 1e-9) the change of a fresh two-pass SSE after `apply`; moves keep a feasible
//! partition feasible; the move log undoes every change exactly; neighbour lists are the
//! true nearest records. Proofs: P02 (shift, swap), P30 (dissolve, distill, split, merge).

use crate::common;
use microagg::geometry::neighbours::Neighbours;
use microagg::partition::Partition;
use microagg::search::moves::dissolve::Dissolve;
use microagg::search::moves::distill::Distill;
use microagg::search::moves::merge::Merge;
use microagg::search::moves::shift::Shift;
use microagg::search::moves::split::Split;
use microagg::search::moves::swap::Swap;
use microagg::search::moves::{Move, MoveLog};
use microagg::search::operators::{cycle3::Cycle3, Operator, View};
use proptest::prelude::*;

fn feasible_start(
    n: usize,
    d: usize,
    k: usize,
    seed: u64,
) -> (microagg::data::Instance, Partition) {
    let inst = common::synthetic(&format!("gauss:n={n},d={d},clusters=3,seed={seed}"));
    // Groups of k consecutive records (in a seeded scrambled order), the rest in the last.
    let g = (n / k).max(1);
    let labels: Vec<usize> = (0..n)
        .map(|i| ((i * 37 + seed as usize) % n / k).min(g - 1))
        .collect();
    let p = Partition::from_labels(&inst, labels).unwrap();
    assert!(p.is_feasible(k));
    (inst, p)
}

/// The sizes the move properties draw for [`feasible_start`]: n in 12..80 records of d in
/// 1..5 attributes, k in 2..5 and a data seed in 0..500.
fn start_sizes() -> impl Strategy<Value = (usize, usize, usize, u64)> {
    (12usize..80, 1usize..5, 2usize..5, 0u64..500)
}

fn close(a: f64, b: f64, scale: f64) -> bool {
    (a - b).abs() <= 1e-9 * scale.max(1.0)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn every_move_delta_matches_recomputation(
        (n, d, k, seed) in start_sizes(),
        picks in prop::collection::vec((any::<usize>(), any::<usize>(), 0usize..6), 1..60),
    ) {
        let (inst, mut p) = feasible_start(n, d, k, seed);
        let nb = Neighbours::build(&inst, 8);
        let (mut shift, mut swap, mut dissolve, mut distill, mut split, mut merge) = (
            Shift::default(), Swap::default(), Dissolve::default(), Distill::default(),
            Split::default(), Merge::default(),
        );
        let mut spare = Vec::new();
        let mut log = MoveLog::new();
        for (a, b, kind) in picks {
            let (i, j) = (a % n, b % n);
            let before = p.fresh_sse(&inst);
            let predicted = match kind {
                0 => {
                    let to = p.group_of(j);
                    shift.evaluate(&p, &inst, k, i, to).inspect(|_| shift.apply(&mut p, &inst, i, to, &mut log))
                }
                1 => swap.evaluate(&p, &inst, i, j).inspect(|_| swap.apply(&mut p, &inst, i, j, &mut log)),
                2 => dissolve.evaluate(&p, &inst, p.group_of(i), Some(&nb)).map(|plan| {
                    dissolve.apply(&mut p, &inst, &plan, &mut log);
                    plan.delta
                }),
                3 => distill.evaluate(&p, &inst, k, i, &nb).map(|plan| {
                    distill.apply(&mut p, &inst, &plan, &mut spare, &mut log);
                    plan.delta
                }),
                4 => split.evaluate(&p, &inst, k, p.group_of(i)).map(|plan| {
                    split.apply(&mut p, &inst, &plan, &mut spare, &mut log);
                    plan.delta
                }),
                _ => {
                    let (into, from) = (p.group_of(i), p.group_of(j));
                    merge
                        .evaluate(&p, into, from)
                        .inspect(|_| merge.apply(&mut p, &inst, into, from, &mut log))
                }
            };
            if let Some(delta) = predicted {
                let after = p.fresh_sse(&inst);
                prop_assert!(close(after - before, delta, before),
                    "move {kind}: predicted {delta}, actual {}", after - before);
                prop_assert!(p.is_feasible(k), "move {kind} broke feasibility");
                prop_assert!(p.validate(&inst, 1e-9).is_ok());
            }
        }
        prop_assert!(shift.counters.applications <= shift.counters.evaluations);
        // Undo everything: back to the start exactly (labels) and the same SSE.
        let (_, start) = feasible_start(n, d, k, seed);
        log.undo(&mut p, &inst);
        prop_assert_eq!(p.labels(), start.labels());
        prop_assert!(close(p.sse(), start.sse(), start.sse()));
    }

    /// The 3-cycle of the descent (P02, three one-group exchange terms): its predicted delta
    /// is the change of a fresh SSE after the two swaps, it improves, and it keeps every size.
    #[test]
    fn three_cycle_delta_matches_recomputation(
        (n, d, k, seed) in start_sizes(),
        starts in prop::collection::vec(any::<usize>(), 1..40),
    ) {
        let (inst, mut p) = feasible_start(n, d, k, seed);
        let nb = Neighbours::build(&inst, 8);
        let ls = microagg::search::descent::LocalSearch::new(&inst, false, true);
        let (norms, mut cyc) = (norms(&inst), Cycle3::default());
        let mut log = MoveLog::new();
        for a in starts {
            let a = a % n;
            let view = View { p: &p, inst: &inst, k, nb: &nb, norms: &norms, eps: ls.improvement_eps(), sums: &microagg::objective::GroupSums::Plain };
            let Some((delta, Move::Cycle { a: a2, b, c })) = cyc.best_cycle(&view, a) else { continue };
            prop_assert_eq!(a2, a);
            let (ga, gb, gc) = (p.group_of(a), p.group_of(b), p.group_of(c));
            prop_assert!(ga != gb && gb != gc && gc != ga, "not a 3-cycle");
            prop_assert!(delta < 0.0);
            let sizes = (p.size(ga), p.size(gb), p.size(gc));
            let before = p.fresh_sse(&inst);
            cyc.apply(&mut p, &inst, Move::Cycle { a, b, c }, &mut log);
            let after = p.fresh_sse(&inst);
            prop_assert!(close(after - before, delta, before), "predicted {delta}, actual {}", after - before);
            prop_assert_eq!((p.group_of(a), p.group_of(b), p.group_of(c)), (gb, gc, ga));
            prop_assert_eq!((p.size(ga), p.size(gb), p.size(gc)), sizes);
            prop_assert!(p.validate(&inst, 1e-9).is_ok());
        }
    }

    /// The descent's inline shift/swap scan (`LocalSearch::best_move`, one dot product per
    /// swap partner, P02): in best mode its move is the minimum over the independent `Shift`
    /// and `Swap` evaluations of every candidate, and its delta is the change of a fresh SSE.
    #[test]
    fn best_move_is_the_true_best_shift_or_swap(
        (n, d, k, seed) in start_sizes(),
        starts in prop::collection::vec(any::<usize>(), 1..40),
    ) {
        let (inst, mut p) = feasible_start(n, d, k, seed);
        let mut ls = microagg::search::descent::LocalSearch::new(&inst, true, false);
        let nb = Neighbours::build(&inst, 8);
        let (mut shift, mut swap) = (Shift::default(), Swap::default());
        let mut log = MoveLog::new();
        let eps = ls.improvement_eps();
        for i in starts {
            let i = i % n;
            let groups: Vec<usize> = (0..p.slots()).collect();
            let g = p.group_of(i);
            let mut reference: Option<f64> = None;
            for &h in &groups {
                if h == g || p.size(h) == 0 { continue; }
                let mut cands: Vec<f64> = shift.evaluate(&p, &inst, k, i, h).into_iter().collect();
                cands.extend(p.members(h).iter().filter_map(|&j| swap.evaluate(&p, &inst, i, j)));
                for c in cands.into_iter().filter(|&c| c < -eps) {
                    reference = Some(reference.map_or(c, |r: f64| r.min(c)));
                }
            }
            let best = ls.best_move(&p, &inst, k, &nb, i, &groups, false);
            match (best.found, reference) {
                (None, None) => {}
                (Some((delta, mv)), Some(r)) => {
                    prop_assert!(close(delta, r, p.sse()), "best_move {delta}, reference {r}");
                    let of_i = matches!(mv, Move::Shift { record, .. } | Move::Swap { a: record, .. } if record == i);
                    prop_assert!(of_i, "a move of record {}: {:?}", i, mv);
                    let before = p.fresh_sse(&inst);
                    ls.apply_move(&mut p, &inst, best.op, mv, &mut log);
                    let after = p.fresh_sse(&inst);
                    prop_assert!(close(after - before, delta, before), "predicted {delta}, actual {}", after - before);
                    prop_assert!(p.is_feasible(k));
                }
                (a, b) => prop_assert!(false, "best_move {a:?} but reference {b:?}"),
            }
        }
    }

    #[test]
    fn neighbour_lists_hold_the_nearest_records(n in 2usize..60, d in 1usize..4, seed in 0u64..100) {
        let inst = common::synthetic(&format!("uniform:n={n},d={d},seed={seed}"));
        let m = 5;
        let nb = Neighbours::build(&inst, m);
        for i in 0..n {
            let mut all: Vec<(f64, usize)> = (0..n).filter(|&j| j != i)
                .map(|j| (microagg::partition::sq_dist(inst.row(i), inst.row(j)), j)).collect();
            all.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let expect: Vec<u32> = all.iter().take(m).map(|x| x.1 as u32).collect();
            prop_assert_eq!(nb.of(i), &expect[..]);
        }
    }
}

#[test]
fn move_names_are_distinct() {
    let moves = [
        Move::Shift { record: 0, to: 1 },
        Move::Swap { a: 0, b: 1 },
        Move::Cycle { a: 0, b: 1, c: 2 },
        Move::Dissolve { group: 0 },
        Move::Distill { seed: 0 },
        Move::Split { group: 0 },
        Move::Merge { into: 0, from: 1 },
    ];
    let mut names: Vec<&str> = moves.iter().map(Move::name).collect();
    names.sort_unstable();
    names.dedup();
    assert_eq!(
        names,
        ["cycle", "dissolve", "distill", "merge", "shift", "split", "swap"]
    );
}

/// The property above is not vacuous: on a scrambled start the search finds cycles.
#[test]
fn three_cycles_are_found_on_a_scrambled_start() {
    let (inst, p) = feasible_start(60, 2, 3, 7);
    let nb = Neighbours::build(&inst, 8);
    let ls = microagg::search::descent::LocalSearch::new(&inst, false, true);
    let (norms, mut cyc) = (norms(&inst), Cycle3::default());
    let view = View {
        p: &p,
        inst: &inst,
        k: 3,
        nb: &nb,
        norms: &norms,
        eps: ls.improvement_eps(),
        sums: &microagg::objective::GroupSums::Plain,
    };
    let found = (0..60)
        .filter(|&a| cyc.best_cycle(&view, a).is_some())
        .count();
    assert!(
        found >= 10,
        "only {found} of 60 records have an improving 3-cycle"
    );
}

/// |x|^2 of every record (what the descent's operators read from their view).
fn norms(inst: &microagg::data::Instance) -> Vec<f64> {
    (0..inst.n)
        .map(|i| inst.row(i).iter().map(|v| v * v).sum())
        .collect()
}
