use super::*;
use crate::parts::{solve_split, SplitOutcome, UnitSolver};

/// How [`mdav_in_blocks`] cuts and repairs.
#[derive(Clone, Copy)]
struct BlockRun {
    k: usize,
    block: usize,
    cut: CutRule,
    repair: RepairMode,
    tuning: RepairTuning,
    /// A pool of this many threads, or None for the global pool.
    threads: Option<usize>,
}

impl BlockRun {
    /// Blocks of about `block` records cut by `cut`, repaired by `repair` with the default
    /// tuning, on the global pool.
    fn new(k: usize, block: usize, cut: CutRule, repair: RepairMode) -> BlockRun {
        let (tuning, threads) = (RepairTuning::default(), None);
        BlockRun {
            k,
            block,
            cut,
            repair,
            tuning,
            threads,
        }
    }

    fn on_threads(self, threads: usize) -> BlockRun {
        BlockRun {
            threads: Some(threads),
            ..self
        }
    }

    fn tuned(self, tuning: RepairTuning) -> BlockRun {
        BlockRun { tuning, ..self }
    }
}

/// MDAV (seed 0, no limits) in blocks of about `run.block` records of `inst`.
fn mdav_in_blocks(inst: &Instance, run: BlockRun) -> SplitOutcome {
    let pipeline = crate::pipeline::Pipeline::parse("mdav", &[]).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let solver = UnitSolver {
        repair: run.repair,
        cut: run.cut,
        tuning: run.tuning,
        ..UnitSolver::new(inst, &pipeline, run.k, 0, &never)
    };
    let solve = || solve_split(&solver, None, Some(run.block), None);
    match run.threads {
        None => solve(),
        Some(threads) => {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(solve)
        }
    }
    .unwrap()
}

/// `groups` hold each of the `n` rows once, in groups of at least `k` (`what` names the run).
fn assert_groups_partition(groups: &[Vec<usize>], n: usize, k: usize, what: &str) {
    let mut rows: Vec<usize> = groups.concat();
    rows.sort_unstable();
    assert_eq!(rows, (0..n).collect::<Vec<_>>(), "{what}");
    assert!(groups.iter().all(|m| m.len() >= k), "{what}");
}

/// The SSE of `groups` of `inst`'s records.
fn groups_sse(inst: &Instance, groups: &[Vec<usize>]) -> f64 {
    groups
        .iter()
        .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
        .sum()
}

/// The blocks of `s` hold each of the `n` rows once, every block of a size in `sizes`.
fn assert_blocks_cover_every_row_once(s: &Split, n: usize, sizes: std::ops::RangeInclusive<usize>) {
    let mut all: Vec<usize> = s.blocks.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..n).collect::<Vec<_>>());
    for b in &s.blocks {
        assert!(sizes.contains(&b.len()), "block of {}", b.len());
    }
}

#[test]
fn blocks_cover_every_row_once_with_about_the_asked_size() {
    let inst =
        crate::data::load("gauss:n=1003,d=3,clusters=4,seed=2", &Default::default()).unwrap();
    let s = split(&inst, (0..inst.n).collect(), 100);
    assert_eq!(s.blocks.len(), 10);
    assert_eq!(s.cuts.len(), 9);
    assert_blocks_cover_every_row_once(&s, inst.n, 95..=106);
    // Each cut separates its blocks: left ones at or below the value, right ones above.
    for cut in &s.cuts {
        let r = cut.blocks.clone();
        let half = r.start + (r.end - r.start) / 2;
        assert_eq!(cut.right, half);
        for b in r.clone() {
            for &i in &s.blocks[b] {
                let v = cut.side(&inst, i);
                assert!(if b < half { v <= 0.0 } else { v >= 0.0 });
            }
        }
    }
}

#[test]
fn every_repair_mode_keeps_a_partition_and_never_raises_the_sse() {
    let inst =
        crate::data::load("gauss:n=3000,d=3,clusters=4,seed=7", &Default::default()).unwrap();
    let sse_of = |repair: RepairMode| {
        let out = mdav_in_blocks(&inst, BlockRun::new(3, 500, CutRule::Kd, repair));
        assert_groups_partition(&out.groups, inst.n, 3, &format!("{repair:?}"));
        let r = &out.repair[0];
        assert_eq!(r.mode, repair);
        let sse = groups_sse(&inst, &out.groups);
        (sse, r.improved, r.sse_before)
    };
    let (none, improved, before) = sse_of(RepairMode::None);
    assert_eq!(improved, 0);
    assert_eq!(none.to_bits(), before.to_bits());
    let (descent, improved, _) = sse_of(RepairMode::Descent);
    assert!(descent < none && improved > 0, "{descent} vs {none}");
    let (resolve, _, _) = sse_of(RepairMode::Resolve);
    assert!(resolve <= none, "{resolve} vs {none}");
}

/// Groups of k consecutive rows by the sum of their values (the last one takes the
/// rest): poor groups, so that many cuts have something to repair.
fn chunked(inst: &Instance, rows: &[usize], k: usize) -> Vec<Vec<usize>> {
    let key = |i: usize| inst.z[i * inst.d..(i + 1) * inst.d].iter().sum::<f64>();
    let mut rows = rows.to_vec();
    rows.sort_by(|&a, &b| key(a).total_cmp(&key(b)).then(a.cmp(&b)));
    let mut out: Vec<Vec<usize>> = rows.chunks(k).map(<[usize]>::to_vec).collect();
    if out.len() > 1 && out.last().unwrap().len() < k {
        let tail = out.pop().unwrap();
        out.last_mut().unwrap().extend(tail);
    }
    out
}

#[test]
fn waves_hold_disjoint_cuts_after_every_cut_inside_them() {
    let inst =
        crate::data::load("gauss:n=5000,d=4,clusters=3,seed=5", &Default::default()).unwrap();
    let s = split(&inst, (0..inst.n).collect(), 130);
    let waves = waves_by_height(&s.cuts);
    assert!(waves.len() >= 4, "{} waves", waves.len());
    let mut wave_of = vec![usize::MAX; s.cuts.len()];
    for (w, cuts) in waves.iter().enumerate() {
        for &c in cuts {
            assert_eq!(wave_of[c], usize::MAX, "cut {c} twice");
            wave_of[c] = w;
        }
    }
    for (a, ca) in s.cuts.iter().enumerate() {
        assert_ne!(wave_of[a], usize::MAX, "cut {a} in no wave");
        for (b, cb) in s.cuts.iter().enumerate().filter(|&(b, _)| b != a) {
            let disjoint = ca.blocks.end <= cb.blocks.start || cb.blocks.end <= ca.blocks.start;
            let a_inside_b = cb.blocks.start <= ca.blocks.start && ca.blocks.end <= cb.blocks.end;
            assert!(disjoint || a_inside_b || wave_of[b] < wave_of[a], "{a} {b}");
            if a_inside_b {
                assert!(wave_of[a] < wave_of[b], "{a} inside {b}");
            }
        }
    }
}

#[test]
fn parallel_repair_equals_the_one_by_one_repair_byte_for_byte_on_1_and_2_threads() {
    let inst =
        crate::data::load("gauss:n=6000,d=3,clusters=4,seed=11", &Default::default()).unwrap();
    let k = 3;
    let s = split(&inst, (0..inst.n).collect(), 300);
    assert!(s.cuts.len() >= 15);
    let start: Vec<Vec<usize>> = s.blocks.iter().flat_map(|b| chunked(&inst, b, k)).collect();
    let never = std::sync::atomic::AtomicBool::new(false);
    let params = serde_json::Map::new();
    let refine = |groups: &[Vec<usize>], name: &str| {
        descent_on_groups(&inst, groups, k, &params, name, &never)
    };
    // A solver for `resolve`: the chunks of the pool improved by descent.
    let solve = |rows: &[usize], name: &str| refine(&chunked(&inst, rows, k), name);
    for mode in [RepairMode::Descent, RepairMode::Resolve] {
        let (reference, rs) =
            repair_in_order(&inst, &s, start.clone(), mode, &refine, &solve, &never).unwrap();
        assert!(rs.improved >= 5, "{mode:?}: {} improved", rs.improved);
        for threads in [1, 2] {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            let (got, gs) = pool
                .install(|| {
                    let slab = mode.slab();
                    repair_with_slab(
                        &inst,
                        &s,
                        start.clone(),
                        mode,
                        slab,
                        &refine,
                        &solve,
                        &never,
                    )
                })
                .unwrap();
            assert_eq!(got, reference, "{mode:?} threads={threads}");
            assert_eq!(
                (gs.improved, gs.pooled_records, gs.sse_after.to_bits()),
                (rs.improved, rs.pooled_records, rs.sse_after.to_bits())
            );
        }
    }
}

#[test]
fn valley_blocks_cover_every_row_once_and_each_cut_separates_its_blocks() {
    let inst =
        crate::data::load("gauss:n=5003,d=4,clusters=5,seed=3", &Default::default()).unwrap();
    let s = split_by(&inst, (0..inst.n).collect(), 300, CutRule::Valley);
    assert_eq!(s.blocks.len(), block_count(inst.n, 300));
    assert_eq!(s.cuts.len(), s.blocks.len() - 1);
    assert_blocks_cover_every_row_once(&s, inst.n, 150..=600);
    for cut in &s.cuts {
        let Normal::Unit(u) = &cut.normal else {
            panic!("a valley cut along an axis on data that do not coincide")
        };
        assert!((u.iter().map(|v| v * v).sum::<f64>() - 1.0).abs() < 1e-12);
        assert!(cut.blocks.start < cut.right && cut.right < cut.blocks.end);
        for b in cut.blocks.clone() {
            for &i in &s.blocks[b] {
                let v = cut.side(&inst, i);
                assert!(if b < cut.right { v <= 0.0 } else { v >= 0.0 }, "{v}");
            }
        }
    }
    // The same split again, bit for bit.
    let again = split_by(&inst, (0..inst.n).collect(), 300, CutRule::Valley);
    assert_eq!(again.blocks, s.blocks);
    for (a, c) in again.cuts.iter().zip(&s.cuts) {
        assert_eq!(
            (a.value.to_bits(), &a.blocks),
            (c.value.to_bits(), &c.blocks)
        );
    }
}

/// Two clusters far apart, of 450 and 550 records (d = 3, rows interleaved): the balanced
/// cut at 500 goes through the larger one.
fn two_clusters() -> Instance {
    use rand::{Rng, SeedableRng};
    let mut rng = crate::rng::Rng::seed_from_u64(9);
    let mut raw = Vec::new();
    for i in 0..1000 {
        let centre = if i % 20 < 9 {
            [0.0, 0.0, 0.0]
        } else {
            [8.0, 5.0, -3.0]
        };
        for c in centre {
            raw.push(c + rng.random_range(-1.0..1.0));
        }
    }
    let cols = (0..3).map(|j| format!("c{j}")).collect();
    Instance::from_raw("two", "test", cols, raw, String::new()).unwrap()
}

#[test]
fn a_valley_cut_falls_between_two_clusters_where_the_kd_cut_splits_one() {
    let inst = two_clusters();
    let small: Vec<usize> = (0..1000).filter(|i| i % 20 < 9).collect();
    let valley = split_by(&inst, (0..1000).collect(), 500, CutRule::Valley);
    assert_eq!(valley.blocks.len(), 2);
    let one = if valley.blocks[0].len() == 450 { 0 } else { 1 };
    assert_eq!(valley.blocks[one], small, "the small cluster is one block");
    let kd = split(&inst, (0..1000).collect(), 500);
    assert_eq!((kd.blocks[0].len(), kd.blocks[1].len()), (500, 500));
    // And the blocks' MDAV is better with the valley cut (nothing to repair there).
    let sse_of = |cut: CutRule| {
        let run = BlockRun::new(3, 500, cut, RepairMode::None);
        groups_sse(&inst, &mdav_in_blocks(&inst, run).groups)
    };
    assert!(sse_of(CutRule::Valley) < sse_of(CutRule::Kd));
}

#[test]
fn valley_blocks_and_their_repair_do_not_depend_on_the_thread_count() {
    let inst =
        crate::data::load("gauss:n=6000,d=5,clusters=4,seed=13", &Default::default()).unwrap();
    let run = |threads: usize, repair: RepairMode| {
        let run = BlockRun::new(4, 400, CutRule::Valley, repair).on_threads(threads);
        mdav_in_blocks(&inst, run)
    };
    let none = run(1, RepairMode::None);
    let one = run(1, RepairMode::Descent);
    let two = run(2, RepairMode::Descent);
    assert_eq!(one.groups, two.groups);
    let r = &one.repair[0];
    assert!(r.improved > 0 && r.sse_after < r.sse_before, "{r:?}");
    let sse = |g: &[Vec<usize>]| groups_sse(&inst, g);
    assert_eq!(sse(&none.groups).to_bits(), r.sse_before.to_bits());
    assert!(sse(&one.groups) <= sse(&none.groups));
    assert_groups_partition(&one.groups, inst.n, 4, "descent");
}

#[test]
fn a_wider_strip_with_approximate_lists_pools_more_and_does_not_depend_on_threads() {
    // Two blocks of 10 000 in d = 10: the one pool passes the 4 096 records from which
    // descent's `approx` builds approximate lists.
    let inst =
        crate::data::load("gauss:n=20000,d=10,clusters=4,seed=17", &Default::default()).unwrap();
    let run = |threads: usize, repair: RepairMode, tuning: RepairTuning| {
        let run = BlockRun::new(5, 10000, CutRule::Valley, repair);
        mdav_in_blocks(&inst, run.tuned(tuning).on_threads(threads))
    };
    let wide = RepairTuning {
        slab: Some(0.65),
        approx: Some(1.0),
    };
    // The repair before 24-defaults: half a radius, exact lists.
    let before = RepairTuning {
        slab: Some(0.5),
        approx: Some(0.0),
    };
    let none = run(1, RepairMode::None, Default::default());
    let half = run(2, RepairMode::Descent, before);
    let one = run(1, RepairMode::Descent, wide);
    let two = run(2, RepairMode::Descent, wide);
    assert_eq!(one.groups, two.groups);
    // The default is the wide strip with approximate lists.
    let default = run(2, RepairMode::Descent, Default::default());
    assert_eq!(default.groups, one.groups);
    let (r, h) = (&one.repair[0], &half.repair[0]);
    assert_eq!((r.slab, h.slab), (0.65, 0.5));
    assert_eq!(default.repair[0].slab, RepairMode::Descent.slab());
    assert!(r.pooled_records > h.pooled_records, "{r:?} vs {h:?}");
    assert!(
        r.cuts == 1 && r.pooled_records >= 4096,
        "a pool too small for approximate lists: {r:?}"
    );
    // The same strip with exact lists: `approx` reaches the repair's descent.
    let exact = RepairTuning {
        approx: Some(0.0),
        ..wide
    };
    let exact = run(2, RepairMode::Descent, exact);
    assert_eq!(exact.repair[0].pooled_records, r.pooled_records);
    assert_ne!(exact.groups, one.groups);
    let sse = |g: &[Vec<usize>]| groups_sse(&inst, g);
    assert_eq!(sse(&none.groups).to_bits(), r.sse_before.to_bits());
    assert!(
        r.improved > 0 && sse(&one.groups) < sse(&none.groups),
        "{r:?}"
    );
    assert_groups_partition(&one.groups, inst.n, 5, "descent");
}

#[test]
fn repair_tuning_refuses_a_strip_or_eps_out_of_range_and_sets_only_what_is_given() {
    let ok = RepairTuning {
        slab: Some(0.65),
        approx: Some(0.0),
    };
    assert!(ok.check().is_ok());
    assert_eq!(ok.slab_for(RepairMode::Resolve), 0.65);
    assert_eq!(RepairTuning::default().slab_for(RepairMode::Resolve), 1.0);
    assert_eq!(
        RepairTuning::default().slab_for(RepairMode::Descent),
        DESCENT_SLAB
    );
    assert_eq!(DESCENT_SLAB, 0.65);
    for slab in [0.0, -1.0, f64::NAN, f64::INFINITY] {
        let t = RepairTuning {
            slab: Some(slab),
            approx: None,
        };
        let e = t.check().unwrap_err().to_string();
        assert!(e.contains("--block-slab"), "{e}");
    }
    for approx in [-0.5, f64::NAN] {
        let t = RepairTuning {
            slab: None,
            approx: Some(approx),
        };
        let e = t.check().unwrap_err().to_string();
        assert!(e.contains("--block-approx"), "{e}");
    }
    let mut stage = serde_json::Map::new();
    stage.insert("neighbours".into(), 30.into());
    stage.insert("approx".into(), 0.0.into());
    let eps = RepairTuning {
        slab: None,
        approx: Some(1.0),
    };
    let p = eps.descent_params(stage.clone());
    assert_eq!(
        (p["neighbours"].as_u64(), p["approx"].as_f64()),
        (Some(30), Some(1.0))
    );
    assert_eq!(RepairTuning::default().descent_params(stage.clone()), stage);
    assert!(RepairTuning::default()
        .descent_params(serde_json::Map::new())
        .is_empty());
}
