//! IMHM (`imhm` refiner) and the RIMHM initialisation (`rimhm`): never worse than the
//! input, feasible, deterministic, the path contains the current partition as a
//! segmentation, blocks are runs of whole groups, time limit and interrupt respected, and
//! the published IMHM values (Mortazavi, Jalili & Gohargazi 2013, Table 3).

use crate::common;
use microagg::data::Instance;
use microagg::partition::Partition;
use microagg::pipeline::Pipeline;
use microagg::rng::Rng;
use microagg::search::imhm::{construct_path, sort_centers, Imhm, ImhmParams};
use microagg::search::{refine, RefineOutcome, StopReason};
use rand::SeedableRng;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// [`common::run_pipeline`] without a time limit.
fn run(inst: &Instance, spec: &str, params: &[&str], k: usize, seed: u64) -> Partition {
    common::run_pipeline(inst, spec, params, k, seed, None)
}

/// `imhm` refining `start` (rng seed 0) until `deadline` or `interrupt`: the call every
/// test here makes of the refiner on its own.
fn refine_imhm(
    imhm: &mut Imhm,
    inst: &Instance,
    k: usize,
    start: &Partition,
    deadline: Option<Instant>,
    interrupt: &AtomicBool,
) -> RefineOutcome {
    let mut rng = Rng::seed_from_u64(0);
    refine(imhm, inst, k, start.clone(), &mut rng, deadline, interrupt).unwrap()
}

/// IMHM with its default parameters.
fn default_imhm() -> Imhm {
    Imhm::new(ImhmParams::default())
}

#[test]
fn imhm_is_feasible_never_worse_than_its_input_and_deterministic() {
    for spec in [
        "gauss:n=300,d=3,clusters=6,seed=4",
        "uniform:n=241,d=5,seed=2",
        "sim2:seed=3",
    ] {
        let inst = common::synthetic(spec);
        for k in [2, 3, 5] {
            for init in ["mdav", "cbfs", "rimhm", "vmdav"] {
                let (input_sse, _) = common::run_method(&inst, init, k, 5);
                for params in [
                    vec![],
                    vec!["imhm.cost=squared"],
                    vec!["imhm.npb=3"],
                    vec!["imhm.warm_start=false"],
                ] {
                    let pipeline = format!("{init}+imhm");
                    let case = format!("{spec} {pipeline} {params:?} k={k}");
                    let a = common::assert_refined_twice(
                        &case, &inst, &pipeline, &params, k, 5, input_sse,
                    );
                    a.validate(&inst, 1e-9).unwrap();
                }
            }
        }
    }
}

#[test]
fn imhm_never_returns_worse_than_a_strong_input() {
    // A local optimum of another refiner: IMHM may not improve it, but must not lose it.
    let inst = common::synthetic("gauss:n=200,d=4,clusters=5,seed=9");
    for k in [3, 4] {
        let start = run(&inst, "mdav+decompose-shrink", &[], k, 1);
        let out = run(&inst, "mdav+decompose-shrink+imhm", &[], k, 1);
        assert!(out.sse() <= start.sse() * (1.0 + 1e-12));
        assert!(out.is_feasible(k));
    }
}

#[test]
fn imhm_handles_tiny_duplicate_and_oversized_inputs() {
    let never = AtomicBool::new(false);
    // n = k, 2k - 1, 2k, 3k - 1 and a few more, including exact duplicate rows (ties).
    for k in [2, 3, 5] {
        for n in [k, 2 * k - 1, 2 * k, 3 * k - 1, 4 * k + 1] {
            let inst = common::synthetic(&format!("uniform:n={n},d=3,seed={n}"));
            let p = run(&inst, "mdav+imhm", &[], k, 0);
            assert!(p.is_feasible(k), "n={n} k={k}");
            let mut rows: Vec<Vec<f64>> = (0..n).map(|i| vec![(i % 3) as f64, 1.0]).collect();
            rows.push(vec![5.0, 0.0]);
            let dup = common::from_rows(&rows);
            let q = run(&dup, "mdav+imhm", &[], k, 0);
            assert!(q.is_feasible(k), "duplicates n={n} k={k}");
        }
    }
    // An input with one group of all records (sizes outside k..2k-1): re-segmented first.
    let inst = common::synthetic("gauss:n=120,d=3,clusters=4,seed=8");
    for k in [3, 4] {
        let start = Partition::from_labels(&inst, vec![0; inst.n]).unwrap();
        let out = refine_imhm(&mut default_imhm(), &inst, k, &start, None, &never);
        assert!(out.partition.is_feasible(k));
        assert!(out.partition.sse() < start.sse());
        assert!(out.partition.size_range().1 < 2 * k);
    }
}

#[test]
fn construct_path_visits_every_record_once_with_groups_contiguous() {
    let inst = common::synthetic("gauss:n=157,d=4,clusters=6,seed=11");
    for k in [2, 3, 5] {
        let p = run(&inst, "mdav", &[], k, 0);
        let groups = p.slots();
        let labels = p.labels().to_vec();
        let centroids: Vec<f64> = (0..groups).flat_map(|g| p.centroid(g).to_vec()).collect();
        let path = construct_path(&inst.z, inst.d, &labels, groups, &centroids);
        let mut seen = vec![false; inst.n];
        for &r in &path {
            assert!(!seen[r]);
            seen[r] = true;
        }
        assert!(seen.iter().all(|&s| s));
        // Each group is one contiguous run, so the input is a segmentation of the path and
        // the optimal segmentation can never be worse (Sect. 4.5 of the paper).
        let runs = 1 + path
            .windows(2)
            .filter(|w| labels[w[0]] != labels[w[1]])
            .count();
        assert_eq!(runs, groups);
        let seg = microagg_solvers::segment_order(&inst.z, inst.d, &path, k).unwrap();
        assert!(seg.sse <= p.sse() * (1.0 + 1e-12));
    }
}

#[test]
fn blocks_are_runs_of_whole_groups_covering_every_record() {
    let inst = common::synthetic("gauss:n=400,d=3,clusters=8,seed=2");
    let k = 3;
    let start = run(&inst, "mdav", &[], k, 0);
    let order = sort_centers(&start, inst.d);
    assert_eq!(order.len(), start.num_groups());
    for npb in [1, 2, 4, 7] {
        let mut imhm = Imhm::new(ImhmParams {
            npb,
            max_iteration: 1,
            ..ImhmParams::default()
        });
        let never = AtomicBool::new(false);
        let out = refine_imhm(&mut imhm, &inst, k, &start, None, &never);
        assert!(out.partition.sse() <= start.sse());
        let blocks = imhm.block_records();
        assert!(blocks.len() <= npb && !blocks.is_empty());
        let mut seen = vec![false; inst.n];
        for b in &blocks {
            for &r in b {
                assert!(!seen[r]);
                seen[r] = true;
            }
            // Whole input groups only.
            for &r in b {
                let g = start.group_of(r);
                assert!(start.members(g).iter().all(|m| b.contains(m)));
            }
        }
        assert!(seen.iter().all(|&s| s));
        // Blocks of about n / npb records (whole groups of at most 2k - 1 records).
        if npb > 1 {
            for b in &blocks {
                assert!(
                    b.len() <= inst.n / npb + 2 * k,
                    "npb {npb}: block of {}",
                    b.len()
                );
            }
        }
    }
}

#[test]
fn imhm_respects_interrupt_and_time_limit() {
    let inst = common::synthetic("gauss:n=600,d=4,clusters=10,seed=3");
    let k = 3;
    let start = run(&inst, "mdav", &[], k, 0);
    let stop = AtomicBool::new(true);
    let out = refine_imhm(&mut default_imhm(), &inst, k, &start, None, &stop);
    assert_eq!(out.stop, StopReason::Interrupted);
    assert_eq!(out.partition.labels(), start.labels());
    let (never, now) = (AtomicBool::new(false), Some(Instant::now()));
    let out = refine_imhm(&mut default_imhm(), &inst, k, &start, now, &never);
    assert_eq!(out.stop, StopReason::TimeLimit);
    assert!(out.partition.is_feasible(k));
    assert!(out.partition.sse() <= start.sse());
}

#[test]
fn bad_parameters_are_rejected_before_running() {
    for bad in [
        "imhm.npb=0",
        "imhm.cost=manhattan",
        "imhm.max_iteration=0",
        "imhm.min_il_change=-1",
        "imhm.blocks=2",
    ] {
        assert!(
            Pipeline::parse("mdav+imhm", &[bad.to_string()]).is_err(),
            "{bad}"
        );
    }
    for bad in ["rimhm.p=1.5", "rimhm.p=-0.1"] {
        assert!(
            Pipeline::parse("rimhm", &[bad.to_string()]).is_err(),
            "{bad}"
        );
    }
}

#[test]
fn rimhm_is_seeded_and_p_zero_is_the_deterministic_order() {
    let inst = common::synthetic("gauss:n=300,d=3,clusters=6,seed=4");
    let k = 3;
    let a = run(&inst, "rimhm", &[], k, 1);
    let b = run(&inst, "rimhm", &[], k, 1);
    let c = run(&inst, "rimhm", &[], k, 2);
    assert_eq!(a.labels(), b.labels());
    assert_ne!(a.labels(), c.labels(), "different seeds, same shuffle");
    assert!(a.is_feasible(k) && c.is_feasible(k));
    let z1 = run(&inst, "rimhm", &["rimhm.p=0"], k, 1);
    let z2 = run(&inst, "rimhm", &["rimhm.p=0"], k, 2);
    assert_eq!(z1.labels(), z2.labels());
    // The full RIMHM pipeline improves its start.
    let r = run(&inst, "rimhm+imhm", &[], k, 1);
    assert!(r.sse() <= a.sse());
}

/// The IL of `mdav+imhm` with `npb` blocks on the CASC data set `data` (None when it is not
/// here), its partition checked feasible: one entry of the paper's Table 3.
fn table3_il(data: &str, k: usize, npb: usize) -> Option<f64> {
    let inst = common::casc(data)?;
    let npb_param = format!("imhm.npb={npb}");
    let p = run(&inst, "mdav+imhm", &[&npb_param], k, 0);
    assert!(p.is_feasible(k), "{data} k={k} npb={npb}");
    Some(inst.il(p.sse()))
}

/// Table 3 of the paper (IL of IMHM after MDAV). Tarragona and Census (NPB = 1) and EIA
/// k = 3 and 10 (NPB = 4) are reproduced to every printed decimal. EIA k = 4 and 5 (NPB = 4)
/// are within 1 %: we get 0.52298 (paper 0.52236, +0.12 %) and 0.75764 (paper 0.75761,
/// +0.004 %). The paper does not define how Partition(T, Centroids, MAX_SIZE) cuts the sorted
/// groups into blocks; our cut (blocks of about n/NPB records, module doc of imhm) is one
/// reading, and with blocks the result depends on which groups fall into which block: a
/// greedy fill up to MAX_SIZE = ceil(n / NPB) records (which makes 5 blocks for k = 4, 5 and
/// 10) gave 0.37499, 0.52244, 0.75746 and 2.18185 in a trial run, no closer overall, so we
/// keep exactly NPB balanced blocks.
/// Runs in about 2 s in release mode.
#[test]
fn published_table3_values() {
    let cases: &[(&str, usize, usize, f64, f64)] = &[
        ("tarragona", 3, 1, 16.9305, 0.5e-4),
        ("tarragona", 4, 1, 19.5150, 0.5e-4),
        ("tarragona", 5, 1, 22.1861, 0.5e-4),
        ("tarragona", 10, 1, 30.7841, 0.5e-4),
        ("census", 3, 1, 5.3668, 0.5e-4),
        ("census", 4, 1, 6.8577, 0.5e-4),
        ("census", 5, 1, 8.4165, 0.5e-4),
        ("census", 10, 1, 12.2284, 0.5e-4),
        ("eia", 3, 4, 0.37499, 0.5e-5),
        ("eia", 4, 4, 0.52236, 0.01 * 0.52236),
        ("eia", 5, 4, 0.75761, 0.01 * 0.75761),
        ("eia", 10, 4, 2.1788, 0.5e-4),
    ];
    for &(data, k, npb, paper, tol) in cases {
        let Some(il) = table3_il(data, k, npb) else {
            continue;
        };
        assert!(
            (il - paper).abs() <= tol,
            "{data} k={k} npb={npb}: IL {il} vs paper {paper}"
        );
    }
}

/// The other k of Table 3 (checked within 1 % relative; measured values in comments).
/// Exact to the printed decimals: Tarragona k = 6 (25.5058) and 25 (43.4523), Census k = 6
/// (9.3118), 25 (18.6134) and 50 (25.0804). Better than printed: Tarragona k = 50 (56.3058
/// vs 56.4309), EIA NPB = 4 k = 25 (7.3798 vs 7.3893) and 50 (12.9156 vs 12.9248). Slightly
/// worse: Tarragona k = 100 (68.1976 vs 68.1937), Census k = 100 (32.6967 vs 32.6775), EIA
/// NPB = 4 k = 6 (0.95402 vs 0.94998), EIA NPB = 1 k = 100 (19.7975 vs 19.7969). IMHM is a
/// local search whose end point depends on tie-breaks and on the LP vertex chosen among equal-
/// cost assignments; we see no single cause. Runs in about 5 s in release mode.
#[test]
fn published_table3_values_other_k() {
    let cases: &[(&str, usize, usize, f64)] = &[
        ("tarragona", 6, 1, 25.5058),
        ("tarragona", 25, 1, 43.4523),
        ("tarragona", 50, 1, 56.4309),
        ("tarragona", 100, 1, 68.1937),
        ("census", 6, 1, 9.3118),
        ("census", 25, 1, 18.6134),
        ("census", 50, 1, 25.0804),
        ("census", 100, 1, 32.6775),
        ("eia", 6, 4, 0.94998),
        ("eia", 25, 4, 7.3893),
        ("eia", 50, 4, 12.9248),
        ("eia", 100, 1, 19.7969),
    ];
    for &(data, k, npb, paper) in cases {
        let Some(il) = table3_il(data, k, npb) else {
            continue;
        };
        assert!(
            (il - paper).abs() <= 0.01 * paper,
            "{data} k={k} npb={npb}: IL {il} vs paper {paper}"
        );
    }
}
