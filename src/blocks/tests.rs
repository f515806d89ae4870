use super::*;

#[test]
fn blocks_cover_every_row_once_with_about_the_asked_size() {
    let inst =
        crate::data::load("gauss:n=1003,d=3,clusters=4,seed=2", &Default::default()).unwrap();
    let s = split(&inst, (0..inst.n).collect(), 100);
    assert_eq!(s.blocks.len(), 10);
    assert_eq!(s.cuts.len(), 9);
    let mut all: Vec<usize> = s.blocks.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..inst.n).collect::<Vec<_>>());
    for b in &s.blocks {
        assert!((95..=106).contains(&b.len()), "block of {}", b.len());
    }
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
    use crate::parts::{solve_split, UnitSolver};
    let inst =
        crate::data::load("gauss:n=3000,d=3,clusters=4,seed=7", &Default::default()).unwrap();
    let pipeline = crate::pipeline::Pipeline::parse("mdav", &[]).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let sse_of = |repair: RepairMode| {
        let solver = UnitSolver {
            inst: &inst,
            pipeline: &pipeline,
            k: 3,
            seed: 0,
            time_limit: None,
            max_steps: None,
            interrupt: &never,
            repair,
            cut: CutRule::Kd,
            tuning: Default::default(),
        };
        let out = solve_split(&solver, None, Some(500), None).unwrap();
        let mut rows: Vec<usize> = out.groups.concat();
        rows.sort_unstable();
        assert_eq!(rows, (0..inst.n).collect::<Vec<_>>(), "{repair:?}");
        assert!(out.groups.iter().all(|m| m.len() >= 3), "{repair:?}");
        let r = &out.repair[0];
        assert_eq!(r.mode, repair);
        let sse: f64 = out
            .groups
            .iter()
            .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
            .sum();
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
                .install(|| repair(&inst, &s, start.clone(), mode, &refine, &solve, &never))
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
    let mut all: Vec<usize> = s.blocks.iter().flatten().copied().collect();
    all.sort_unstable();
    assert_eq!(all, (0..inst.n).collect::<Vec<_>>());
    for b in &s.blocks {
        assert!((150..=600).contains(&b.len()), "block of {}", b.len());
    }
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
    use crate::parts::{solve_split, UnitSolver};
    let pipeline = crate::pipeline::Pipeline::parse("mdav", &[]).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let sse_of = |cut: CutRule| {
        let solver = UnitSolver {
            inst: &inst,
            pipeline: &pipeline,
            k: 3,
            seed: 0,
            time_limit: None,
            max_steps: None,
            interrupt: &never,
            repair: RepairMode::None,
            cut,
            tuning: Default::default(),
        };
        let g = solve_split(&solver, None, Some(500), None).unwrap().groups;
        g.iter()
            .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
            .sum::<f64>()
    };
    assert!(sse_of(CutRule::Valley) < sse_of(CutRule::Kd));
}

#[test]
fn valley_blocks_and_their_repair_do_not_depend_on_the_thread_count() {
    use crate::parts::{solve_split, UnitSolver};
    let inst =
        crate::data::load("gauss:n=6000,d=5,clusters=4,seed=13", &Default::default()).unwrap();
    let pipeline = crate::pipeline::Pipeline::parse("mdav", &[]).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let run = |threads: usize, repair: RepairMode| {
        let solver = UnitSolver {
            inst: &inst,
            pipeline: &pipeline,
            k: 4,
            seed: 0,
            time_limit: None,
            max_steps: None,
            interrupt: &never,
            repair,
            cut: CutRule::Valley,
            tuning: Default::default(),
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| solve_split(&solver, None, Some(400), None))
            .unwrap()
    };
    let none = run(1, RepairMode::None);
    let one = run(1, RepairMode::Descent);
    let two = run(2, RepairMode::Descent);
    assert_eq!(one.groups, two.groups);
    let r = &one.repair[0];
    assert!(r.improved > 0 && r.sse_after < r.sse_before, "{r:?}");
    let sse = |g: &[Vec<usize>]| -> f64 {
        g.iter()
            .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
            .sum()
    };
    assert_eq!(sse(&none.groups).to_bits(), r.sse_before.to_bits());
    assert!(sse(&one.groups) <= sse(&none.groups));
    let mut rows: Vec<usize> = one.groups.concat();
    rows.sort_unstable();
    assert_eq!(rows, (0..inst.n).collect::<Vec<_>>());
    assert!(one.groups.iter().all(|m| m.len() >= 4));
}

#[test]
fn a_wider_strip_with_approximate_lists_pools_more_and_does_not_depend_on_threads() {
    use crate::parts::{solve_split, UnitSolver};
    // Two blocks of 10 000 in d = 10: the one pool passes the 4 096 records from which
    // descent's `approx` builds approximate lists.
    let inst =
        crate::data::load("gauss:n=20000,d=10,clusters=4,seed=17", &Default::default()).unwrap();
    let pipeline = crate::pipeline::Pipeline::parse("mdav", &[]).unwrap();
    let never = std::sync::atomic::AtomicBool::new(false);
    let run = |threads: usize, repair: RepairMode, tuning: RepairTuning| {
        let solver = UnitSolver {
            inst: &inst,
            pipeline: &pipeline,
            k: 5,
            seed: 0,
            time_limit: None,
            max_steps: None,
            interrupt: &never,
            repair,
            cut: CutRule::Valley,
            tuning,
        };
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| solve_split(&solver, None, Some(10000), None))
            .unwrap()
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
    let sse = |g: &[Vec<usize>]| -> f64 {
        g.iter()
            .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
            .sum()
    };
    assert_eq!(sse(&none.groups).to_bits(), r.sse_before.to_bits());
    assert!(
        r.improved > 0 && sse(&one.groups) < sse(&none.groups),
        "{r:?}"
    );
    let mut rows: Vec<usize> = one.groups.concat();
    rows.sort_unstable();
    assert_eq!(rows, (0..inst.n).collect::<Vec<_>>());
    assert!(one.groups.iter().all(|m| m.len() >= 5));
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
