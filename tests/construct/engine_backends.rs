//! The MDAV-lineage engine on its backends: the kd-tree, the ball buckets and the filtered
//! scans (single-precision, 16-bit and 8-bit fixed-point passes, and 8-bit then 16-bit)
//! answer exactly as the scan, so every lineage rule set gives identical groups (same
//! records, same order, same group order) on random data with ties and duplicate rows,
//! d = 1..20, on all records and on a subset; and a stopped initializer returns
//! `Error::Interrupted`, never a partition.

use crate::common;
use microagg::error::Error;
use microagg::geometry::buckets::BucketRemaining;
use microagg::geometry::filter_scan::{
    ByteScan, FilterScan, Filtered, FixedScan, Pass, TieredScan,
};
use microagg::geometry::kdtree::KdRemaining;
use microagg::geometry::remaining::{Remaining, Scan};
use microagg::geometry::spatial::Backend;
use microagg::init::lineage::engine::{self, Grow, Leftover, Rules, Scope, Selection};
use microagg::method::StopRule;
use microagg::pipeline::Pipeline;
use proptest::prelude::*;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// Every rule set a registered method or order uses.
fn all_rules() -> Vec<Rules> {
    let mut out = Vec::new();
    for selection in [
        Selection::MdavPair,
        Selection::FarthestFromCentroid,
        Selection::DiameterPair,
    ] {
        for grow in [
            Grow::NearestToSeedPoint,
            Grow::SeedAndNearest,
            Grow::NearestToCentroid,
        ] {
            for (rounds_while, then_one_if) in [(2, None), (3, Some(2)), (2, Some(1)), (1, None)] {
                for leftover in [
                    Leftover::EachToNearestCentroid,
                    Leftover::BlockToNearestCentroid,
                ] {
                    out.push(Rules {
                        selection,
                        grow,
                        rounds_while,
                        then_one_if,
                        leftover,
                    });
                }
            }
        }
    }
    out
}

/// [`common::xorshift64`] seeded from `seed` (mixed, and made odd so never zero).
fn xorshift(seed: u64) -> impl FnMut() -> u64 {
    common::xorshift64(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
}

/// n rows of d values on a small integer grid (many ties), with duplicated rows; every
/// column holds both 0 and 1 so none is constant.
fn tied_rows(n: usize, d: usize, levels: u64, seed: u64) -> Vec<Vec<f64>> {
    let mut next = xorshift(seed);
    let mut rows: Vec<Vec<f64>> = Vec::with_capacity(n);
    for i in 0..n {
        if i >= 2 && next().is_multiple_of(5) {
            let j = (next() % i as u64) as usize;
            rows.push(rows[j].clone());
        } else {
            rows.push((0..d).map(|_| (next() % levels) as f64).collect());
        }
    }
    rows[0] = vec![0.0; d];
    rows[1] = vec![1.0; d];
    rows
}

fn scope(ids: Option<Vec<usize>>, backend: Backend) -> Scope<'static> {
    Scope {
        ids,
        backend,
        stop: StopRule::NEVER,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn tree_groups_equal_scan_groups(
        n in 12usize..260,
        d in 1usize..=20,
        levels in 2u64..6,
        k in 2usize..6,
        seed in 0u64..10_000,
    ) {
        let inst = common::from_rows(&tied_rows(n, d, levels, seed));
        let subset: Vec<usize> = (0..n).filter(|i| i % 3 != 1).collect();
        let others = [Backend::Tree, Backend::Buckets, Backend::Filter, Backend::Fixed, Backend::Byte];
        for rules in all_rules() {
            let groups = |ids: Option<&Vec<usize>>, backend| {
                engine::groups_in("t", &inst, k, rules, scope(ids.cloned(), backend)).unwrap()
            };
            let scan = groups(None, Backend::Scan);
            for backend in others {
                prop_assert_eq!(&scan, &groups(None, backend), "{:?}, rules {:?}", backend, rules);
            }
            let mut all: Vec<usize> = scan.iter().flatten().copied().collect();
            all.sort_unstable();
            prop_assert_eq!(all, (0..n).collect::<Vec<_>>());
            prop_assert!(scan.iter().all(|g| g.len() >= k) || scan.len() == 1);
            if subset.len() >= k {
                let a = groups(Some(&subset), Backend::Scan);
                for backend in others {
                    let b = groups(Some(&subset), backend);
                    prop_assert_eq!(&a, &b, "subset, {:?}, rules {:?}", backend, rules);
                }
            }
        }
    }

    /// Queries one by one, interleaved with removals, from arbitrary points (not only the
    /// ones MDAV asks from): same answers.
    #[test]
    fn tree_queries_equal_scan_queries(
        n in 2usize..200,
        d in 1usize..=20,
        levels in 2u64..5,
        k in 1usize..8,
        seed in 0u64..10_000,
        buckets in 1usize..6,
    ) {
        let inst = common::from_rows(&tied_rows(n, d, levels, seed));
        let ids: Vec<usize> = (0..n).collect();
        let mut scan = Scan::new(&inst, ids.clone());
        let mut copies = other_copies(&inst, &ids, buckets);
        let mut step = 0usize;
        while !scan.is_empty() {
            let centroid = scan.centroid();
            let q: Vec<f64> = inst.row((step * 7 + seed as usize) % n).iter().map(|v| v * 0.5).collect();
            let far = scan.farthest_from(&q);
            let far_centroid = scan.farthest_from_centroid();
            let nearest = scan.take_nearest(&q, k);
            for (name, copy) in &mut copies {
                prop_assert_eq!(&centroid, &copy.centroid(), "{}", name);
                prop_assert_eq!(far, copy.farthest_from(&q), "{}", name);
                prop_assert_eq!(far_centroid, copy.farthest_from_centroid(), "{}", name);
                prop_assert_eq!(&nearest, &copy.take_nearest(&q, k), "{}", name);
                prop_assert_eq!(scan.len(), copy.len(), "{}", name);
            }
            if !scan.is_empty() && step.is_multiple_of(2) {
                let f = scan.farthest_from_centroid();
                scan.remove(f);
                for (name, copy) in &mut copies {
                    prop_assert_eq!(f, copy.farthest_from_centroid(), "{}", name);
                    copy.remove(f);
                }
            }
            step += 1;
        }
        let all = scan.take_all();
        for (name, copy) in &mut copies {
            prop_assert_eq!(&all, &copy.take_all(), "{}", name);
        }
    }
}

/// Every remaining-records structure but the scan, by name, over `ids`: the copies the
/// query test holds to the scan's answers.
fn other_copies<'a>(
    inst: &'a microagg::data::Instance,
    ids: &[usize],
    buckets: usize,
) -> Vec<(&'static str, Box<dyn Remaining + 'a>)> {
    let ids = ids.to_vec();
    vec![
        ("tree", Box::new(KdRemaining::new(inst, ids.clone()))),
        // Few large buckets, so that removals compact them.
        (
            "buckets",
            Box::new(BucketRemaining::with_buckets(inst, ids.clone(), buckets)),
        ),
        ("filter", Box::new(FilterScan::new(inst, ids.clone()))),
        ("fixed", Box::new(FixedScan::new(inst, ids.clone()))),
        ("byte", Box::new(ByteScan::new(inst, ids.clone()))),
        // 8-bit passes while more than half the records remain, 16-bit ones after.
        (
            "tiered",
            Box::new(TieredScan::with_byte_from(inst, ids, inst.n / 2 + 1)),
        ),
    ]
}

/// `n` rows of `d` values on the grid 0, 1, 2, each plus a noise of 0..999 times `step`
/// (xorshift from `seed`).
fn grid_rows(n: usize, d: usize, seed: u64, step: f64) -> Vec<Vec<f64>> {
    let mut next = xorshift(seed);
    (0..n)
        .map(|_| {
            (0..d)
                .map(|_| (next() % 3) as f64 + (next() % 1000) as f64 * step)
                .collect()
        })
        .collect()
}

/// Rows on a small grid plus noise of relative size 1e-9: distances that tie in single
/// precision but not in double, ordered differently by the two.
fn near_tied_rows(n: usize, d: usize, seed: u64) -> Vec<Vec<f64>> {
    grid_rows(n, d, seed, 1e-9)
}

/// One case of [`loosened_disagreements`]: an instance, its records and k.
struct TiedCase<'a> {
    inst: &'a microagg::data::Instance,
    ids: &'a [usize],
    seed: u64,
    k: usize,
}

impl<'a> TiedCase<'a> {
    /// [`filter_agrees`] on this case.
    fn agrees<P: Pass>(&self, filter: Filtered<P>) -> bool {
        filter_agrees(self.inst, self.k, filter)
    }

    /// Asserts that the copy `new` builds agrees with the scan on this case, and returns
    /// whether the copy `with_margin_factor` builds with its allowance set to zero agrees
    /// too: the check each copy's near-tie test makes.
    fn exact_agrees_and_loosened<P: Pass>(
        &self,
        new: fn(&'a microagg::data::Instance, Vec<usize>) -> Filtered<'a, P>,
        with_margin_factor: fn(&'a microagg::data::Instance, Vec<usize>, f64) -> Filtered<'a, P>,
    ) -> bool {
        let (inst, ids) = (self.inst, self.ids.to_vec());
        assert!(self.agrees(new(inst, ids.clone())), "{self}");
        self.agrees(with_margin_factor(inst, ids, 0.0))
    }
}

impl std::fmt::Display for TiedCase<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "seed {} k {}", self.seed, self.k)
    }
}

/// For 40 instances of `rows` (300 records, d = 1..6, all suited to the copy by `suits`)
/// and k = 1, 3, `check` asserts the exact copies' answers and returns whether the
/// loosened copy agreed with the scan; the loosened copy (its `allowance` set to zero)
/// disagrees on at least 10 of the 80 cases.
fn assert_loosened_disagrees(
    rows: fn(usize, usize, u64) -> Vec<Vec<f64>>,
    suits: fn(&microagg::data::Instance, &[usize]) -> bool,
    allowance: &str,
    check: impl Fn(TiedCase) -> bool,
) {
    let mut differs = 0;
    for seed in 0..40u64 {
        let d = 1 + (seed as usize % 6);
        let inst = common::from_rows(&rows(300, d, seed));
        let ids: Vec<usize> = (0..inst.n).collect();
        assert!(suits(&inst, &ids));
        for k in [1, 3] {
            let case = TiedCase {
                inst: &inst,
                ids: &ids,
                seed,
                k,
            };
            differs += usize::from(!check(case));
        }
    }
    assert!(
        differs >= 10,
        "a zero {allowance} changed answers on only {differs} of 80 cases"
    );
}

/// Farthest and k-nearest queries of `filter` against the scan's, from records and from
/// halved records, with removals; true when every answer agrees.
fn filter_agrees<P: Pass>(
    inst: &microagg::data::Instance,
    k: usize,
    mut filter: Filtered<P>,
) -> bool {
    let n = inst.n;
    let mut scan = Scan::new(inst, (0..n).collect());
    let mut step = 0;
    while !scan.is_empty() {
        let q: Vec<f64> = inst.row((step * 7) % n).iter().map(|v| v * 0.5).collect();
        let r = inst.row((step * 13 + 5) % n).to_vec();
        if scan.farthest_from(&q) != filter.farthest_from(&q)
            || scan.farthest_from(&r) != filter.farthest_from(&r)
            || scan.farthest_from_centroid() != filter.farthest_from_centroid()
            || scan.take_nearest(&r, k) != filter.take_nearest(&r, k)
            || scan.take_nearest(&q, k) != filter.take_nearest(&q, k)
        {
            return false;
        }
        step += 1;
    }
    true
}

/// The single-precision filter keeps every record within its error bound of the answer:
/// on near-tied data it equals the scan, and with the bound set to zero (a loosened
/// exclusion) it does not, so the bound is what makes the answers exact.
#[test]
fn filter_scan_needs_its_error_bound_on_near_ties() {
    assert_loosened_disagrees(near_tied_rows, FilterScan::suits, "margin", |case| {
        case.exact_agrees_and_loosened(FilterScan::new, FilterScan::with_margin_factor)
    });
}

/// Values single precision cannot hold (|z| >= 1e15) send the filter backend to the plain
/// scan, with the scan's groups; the bound of a huge query point is infinite, so the
/// filter then compares every record exactly.
#[test]
fn filter_backend_falls_back_on_huge_values() {
    let (inst, ids) = backend_falls_back_from_a_huge_value(FilterScan::suits, Backend::Filter);
    let mut scan = Scan::new(&inst, ids.clone());
    let mut filter = FilterScan::new(&inst, ids);
    assert_answers_from(&mut scan, &mut filter, &[1e300, -1e300]);
}
/// Larger instances where the automatic choice picks the tree for real (d = 2, n = 6000):
/// same labels as the forced scan.
#[test]
fn auto_backend_on_a_large_low_dimensional_instance_equals_the_scan() {
    let inst = common::synthetic("gauss:n=6000,d=2,clusters=4,seed=3");
    assert!(microagg::geometry::spatial::use_tree(inst.n, inst.d));
    for rules in [
        Rules::MDAV,
        Rules {
            selection: Selection::FarthestFromCentroid,
            grow: Grow::NearestToCentroid,
            rounds_while: 1,
            ..Rules::MDAV
        },
    ] {
        let scan = engine::groups_in("t", &inst, 3, rules, scope(None, Backend::Scan)).unwrap();
        let auto = engine::groups_in("t", &inst, 3, rules, scope(None, Backend::Auto)).unwrap();
        assert_eq!(scan, auto);
    }
}

#[test]
fn a_set_stop_flag_or_a_passed_deadline_interrupts_the_initializer() {
    let inst = common::synthetic("gauss:n=300,d=3,clusters=3,seed=1");
    let flag = AtomicBool::new(true);
    let out = engine::groups("mdav", &inst, 3, Rules::MDAV, StopRule::new(&flag, None));
    assert!(matches!(out, Err(Error::Interrupted(_))), "{:?}", out.err());
    // Without a stop rule nothing stops it.
    assert!(engine::groups("mdav", &inst, 3, Rules::MDAV, StopRule::NEVER).is_ok());
    let clear = AtomicBool::new(false);
    let passed = StopRule::new(&clear, Some(Instant::now()));
    let out = engine::groups("mdav", &inst, 3, Rules::MDAV, passed);
    assert!(matches!(out, Err(Error::Interrupted(_))));
    // Through the pipeline: an interrupted initializer is an error, not a partition.
    let pipeline = Pipeline::parse("mdav", &[]).unwrap();
    let out = pipeline.run(&inst, 3, 0, None, &flag);
    assert!(matches!(out, Err(Error::Interrupted(_))));
    let ok = pipeline.run(&inst, 3, 0, None, &clear).unwrap();
    assert!(ok.partition.is_feasible(3));
}

/// The thread count changes neither a distance pass (bit for bit) nor the groups of a run
/// long enough to take the parallel path (n above `pool::PARALLEL_MIN`), on the scan and on
/// the filtered scan.
#[test]
fn thread_count_does_not_change_distances_or_groups() {
    use microagg::geometry::pool::{squared_distances, PARALLEL_MIN};
    let n = PARALLEL_MIN + 1234;
    let inst = common::synthetic(&format!("gauss:n={n},d=5,clusters=4,seed=9"));
    let cols: Vec<Vec<f64>> = (0..inst.d)
        .map(|j| (0..n).map(|i| inst.row(i)[j]).collect())
        .collect();
    let q = inst.row(17).to_vec();
    let run = |threads: usize| {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        pool.install(|| {
            let mut dist = vec![0.0; n];
            squared_distances(&cols, &q, &mut dist);
            let groups =
                engine::groups_in("t", &inst, 40, Rules::MDAV, scope(None, Backend::Scan)).unwrap();
            let filter =
                engine::groups_in("t", &inst, 40, Rules::MDAV, scope(None, Backend::Filter))
                    .unwrap();
            let fixed = engine::groups_in("t", &inst, 40, Rules::MDAV, scope(None, Backend::Fixed))
                .unwrap();
            let byte =
                engine::groups_in("t", &inst, 40, Rules::MDAV, scope(None, Backend::Byte)).unwrap();
            (
                dist.iter().map(|v| v.to_bits()).collect::<Vec<_>>(),
                groups,
                filter,
                fixed,
                byte,
            )
        })
    };
    let (d1, g1, f1, x1, b1) = run(1);
    let (d3, g3, f3, x3, b3) = run(3);
    assert_eq!(g1, x1);
    assert_eq!(g1, x3);
    assert_eq!(g1, b1);
    assert_eq!(g1, b3);
    assert_eq!(d1, d3);
    assert_eq!(g1, g3);
    // The filtered scan's parallel pass (over PARALLEL_MIN records) gives the scan's groups
    // for every thread count.
    assert_eq!(g1, f1);
    assert_eq!(g1, f3);
}

/// The ball buckets on larger instances with many ties and duplicate rows (buckets of
/// hundreds of records, compacted as they empty) and on a Gaussian mixture at d = 10 large
/// enough for a new layout of the buckets as they empty: the scan's groups, for any thread
/// count (the buckets are built on rayon's threads).
#[test]
fn buckets_equal_the_scan_on_larger_tied_and_gaussian_instances() {
    for (n, d, levels, seed) in [(3000, 3, 3, 1), (3000, 10, 2, 2), (2500, 20, 3, 3)] {
        let inst = common::from_rows(&tied_rows(n, d, levels, seed));
        for rules in [Rules::MDAV, all_rules()[13], all_rules()[50]] {
            let scan = engine::groups_in("t", &inst, 4, rules, scope(None, Backend::Scan)).unwrap();
            let ball =
                engine::groups_in("t", &inst, 4, rules, scope(None, Backend::Buckets)).unwrap();
            assert_eq!(scan, ball, "n {n} d {d} rules {rules:?}");
        }
    }
    use microagg::geometry::spatial::by_size;
    assert_eq!(by_size(200_000, 10), Backend::Fixed);
    assert_eq!(by_size(1_000, 10), Backend::Scan);
    let inst = common::synthetic("gauss:n=24000,d=10,clusters=5,seed=4");
    let scan = engine::groups_in("t", &inst, 5, Rules::MDAV, scope(None, Backend::Scan)).unwrap();
    for threads in [1, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let ball = pool.install(|| {
            engine::groups_in("t", &inst, 5, Rules::MDAV, scope(None, Backend::Buckets)).unwrap()
        });
        assert_eq!(scan, ball, "threads {threads}");
    }
}

/// The centroid mirror of the exact backends ([`MirroredCentroid`]) follows the scan's pool
/// through single removals and k-nearest batches: same ids in the same positions and the
/// same centroid bits after every step. A mirror that removes a batch lowest position
/// first (the wrong order) drifts from the pool: that check fails when the order rule is
/// loosened.
#[test]
fn mirrored_centroid_replays_the_pool_bit_for_bit() {
    use microagg::geometry::pool::Pool;
    use microagg::geometry::remaining::MirroredCentroid;
    let inst = common::synthetic("gauss:n=3000,d=7,clusters=4,seed=5");
    let ids: Vec<usize> = (0..inst.n).rev().filter(|i| i % 7 != 3).collect();
    let mut pool = Pool::from_ids(&inst, ids.clone());
    let mut mirror = MirroredCentroid::new(&inst, ids.clone());
    let mut loose = MirroredCentroid::new(&inst, ids);
    let bits = |c: Vec<f64>| c.into_iter().map(f64::to_bits).collect::<Vec<_>>();
    let (mut step, mut drifted) = (0usize, 0usize);
    while pool.len() > 10 {
        assert_eq!(mirror.ids(), pool.ids());
        assert_eq!(bits(mirror.centroid()), bits(pool.centroid()));
        if bits(loose.centroid()) != bits(pool.centroid()) || loose.ids() != pool.ids() {
            drifted += 1;
        }
        step += 1;
        if step % 3 == 0 {
            // One record by id (the engine's seed removal).
            let id = pool.ids()[(step * 7919) % pool.len()];
            assert!(pool.remove_id(id));
            mirror.remove(id, inst.row(id));
            loose.remove(id, inst.row(id));
        } else {
            let q = inst.row(pool.ids()[step % pool.len()]).to_vec();
            let taken = pool.take_nearest(&q, 6);
            for id in mirror.by_descending_position(&taken) {
                mirror.remove(id, inst.row(id));
            }
            let mut up = loose.by_descending_position(&taken);
            up.reverse();
            for id in up {
                loose.remove(id, inst.row(id));
            }
        }
    }
    assert_eq!(bits(mirror.centroid()), bits(pool.centroid()));
    assert_eq!(mirror.take_all(), pool.take_all());
    assert!(
        drifted > 0,
        "removing a batch in the wrong order went unnoticed"
    );
}

/// Rows on a small grid plus noise of a few fixed-point steps: distances whose order the
/// 16-bit copy gets wrong unless its error allowance keeps the near ones.
fn step_tied_rows(n: usize, d: usize, seed: u64) -> Vec<Vec<f64>> {
    grid_rows(n, d, seed, 2e-6)
}

/// The fixed-point filter keeps every record within its error allowance of the answer: on
/// data with noise of a few quantisation steps it equals the scan, and with the allowance
/// for the quantisation set to zero (a loosened exclusion) it does not, so the allowance
/// is what makes the answers exact.
#[test]
fn fixed_scan_needs_its_error_allowance_on_near_ties() {
    assert_loosened_disagrees(step_tied_rows, FixedScan::suits, "allowance", |case| {
        case.exact_agrees_and_loosened(FixedScan::new, FixedScan::with_margin_factor)
    });
}

/// The same for the 8-bit copy, whose grid is coarser than the noise here (so records a few
/// noise steps apart share their integers), and for the tiered copy switching halfway.
#[test]
fn byte_scan_needs_its_error_allowance_on_near_ties() {
    assert_loosened_disagrees(step_tied_rows, ByteScan::suits, "allowance", |case| {
        let tiered = TieredScan::with_byte_from(case.inst, case.ids.to_vec(), 150);
        assert!(case.agrees(tiered), "tiered, {case}");
        case.exact_agrees_and_loosened(ByteScan::new, ByteScan::with_margin_factor)
    });
}

/// 200 records on a small grid, which `suits` the copy until one value is 3e20; then the
/// `backend` gives the scan's groups. Returns the rows' instance (without the huge value)
/// and their ids.
fn backend_falls_back_from_a_huge_value(
    suits: fn(&microagg::data::Instance, &[usize]) -> bool,
    backend: Backend,
) -> (microagg::data::Instance, Vec<usize>) {
    let rows: Vec<Vec<f64>> = (0..200)
        .map(|i| vec![(i % 7) as f64, (i % 11) as f64])
        .collect();
    let mut inst = common::from_rows(&rows);
    let ids: Vec<usize> = (0..inst.n).collect();
    assert!(suits(&inst, &ids));
    inst.z[2 * 17] = 3e20;
    assert!(!suits(&inst, &ids));
    let scan = engine::groups_in("t", &inst, 3, Rules::MDAV, scope(None, Backend::Scan)).unwrap();
    let other = engine::groups_in("t", &inst, 3, Rules::MDAV, scope(None, backend)).unwrap();
    assert_eq!(scan, other, "{backend:?}");
    (common::from_rows(&rows), ids)
}

/// The copy answers the farthest and the 4-nearest queries from `far` as the scan does.
fn assert_answers_from(scan: &mut Scan, copy: &mut impl Remaining, far: &[f64]) {
    assert_eq!(scan.farthest_from(far), copy.farthest_from(far));
    assert_eq!(scan.take_nearest(far, 4), copy.take_nearest(far, 4));
}

/// Data the fixed-point copy cannot hold (a huge value) go to the single-precision filter
/// or the scan, with the scan's groups; a query
/// point outside the copy's range is compared exactly.
#[test]
fn fixed_backend_falls_back_on_unsuited_data_and_points() {
    let (inst, ids) = backend_falls_back_from_a_huge_value(FixedScan::suits, Backend::Fixed);
    let mut scan = Scan::new(&inst, ids.clone());
    let mut fixed = FixedScan::new(&inst, ids);
    for far in [vec![1e300, -1e300], vec![40.0, 0.5]] {
        assert_answers_from(&mut scan, &mut fixed, &far);
    }
}

/// The anchor list's farthest-from-centroid walk (lists of ANCHOR_MIN records and more;
/// the walk drops the removed records it passes) against a brute force over the remaining
/// records, through MDAV-like removals on tied data: the same record every time. A walk
/// that lost a live record while dropping dead ones would miss the farthest.
#[test]
fn anchor_walk_equals_brute_force_while_records_leave() {
    use microagg::geometry::remaining::sq_dist_as_scan;
    for (n, d, levels, seed) in [(3000, 3, 3, 11), (2000, 10, 4, 12), (1500, 2, 40, 13)] {
        let inst = common::from_rows(&tied_rows(n, d, levels, seed));
        let mut scan = Scan::new(&inst, (0..n).collect());
        let mut live = vec![true; n];
        while scan.len() > 8 {
            let c = scan.centroid();
            let mut best = (f64::NEG_INFINITY, usize::MAX);
            for i in (0..n).filter(|&i| live[i]) {
                let s = sq_dist_as_scan(inst.row(i), &c);
                if s > best.0 {
                    best = (s, i);
                }
            }
            let r = scan.farthest_from_centroid();
            assert_eq!(r, best.1, "n {n} d {d}");
            let q = inst.row(r).to_vec();
            for id in scan.take_nearest(&q, 3) {
                live[id] = false;
            }
        }
    }
}
