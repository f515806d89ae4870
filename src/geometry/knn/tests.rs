use super::*;
use crate::geometry::test_draw::xorshift;

/// The m nearest others by full sorting on (sq_dist, id).
fn by_sorting(z: &[f64], d: usize, m: usize) -> Vec<u32> {
    let n = z.len() / d;
    let mut out = Vec::new();
    for i in 0..n {
        let xi = &z[i * d..(i + 1) * d];
        let mut c: Vec<(f64, u32)> = (0..n)
            .filter(|&j| j != i)
            .map(|j| {
                let xj = &z[j * d..(j + 1) * d];
                (crate::partition::sq_dist(xi, xj), j as u32)
            })
            .collect();
        c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        out.extend(c[..m].iter().map(|p| p.1));
    }
    out
}

#[test]
fn lists_equal_full_sorting_with_ties_duplicates_and_extreme_scales() {
    for (n, d, m, kind) in [
        (200, 1, 5, 0),
        (300, 2, 12, 0),
        (250, 3, 30, 1),
        (150, 5, 4, 2),
        (300, 10, 9, 0),
        (120, 20, 7, 1),
        (100, 4, 99, 0),
        (64, 2, 3, 3),
        (90, 6, 10, 4),
    ] {
        let mut next = xorshift((n * 31 + d * 7 + m) as u64);
        let z: Vec<f64> = (0..n * d)
            .map(|_| {
                let u = next();
                match kind {
                    0 => (u % 3) as f64,                               // coarse grid
                    1 => (u >> 11) as f64 / (1u64 << 53) as f64 - 0.5, // irregular
                    2 => ((u % 5) as f64) * 1e-300,                    // subnormal gaps
                    3 => 7.0,                                          // all equal
                    _ => ((u % 7) as f64 - 3.0) * 1e150,               // huge
                }
            })
            .collect();
        let got = all_nearest(&z, d, m, || false, |_| {}).unwrap();
        assert_eq!(got, by_sorting(&z, d, m), "n={n} d={d} m={m} kind={kind}");
    }
}

#[test]
fn lists_equal_full_sorting_on_tied_grids_in_every_dimension_up_to_20() {
    // Values on a grid of 3 (many exact ties and duplicate rows), 2 copies of some rows.
    for d in 1..=20 {
        let n = 160;
        let mut next = xorshift(d as u64 * 977);
        let mut z: Vec<f64> = (0..n * d).map(|_| (next() % 3) as f64).collect();
        z.copy_within(0..10 * d, 50 * d);
        for m in [1, 4, 29] {
            let got = all_nearest(&z, d, m, || false, |_| {}).unwrap();
            assert_eq!(got, by_sorting(&z, d, m), "d={d} m={m}");
        }
    }
}

#[test]
fn stop_before_the_first_chunk_gives_none_and_progress_counts_every_record() {
    let z: Vec<f64> = (0..40).map(|i| (i % 7) as f64).collect();
    assert!(all_nearest(&z, 2, 3, || true, |_| {}).is_none());
    let mut seen = 0;
    all_nearest(&z, 2, 3, || false, |done| seen = done).unwrap();
    assert_eq!(seen, 20);
}

#[test]
fn lists_equal_full_sorting_with_a_large_equal_leaf_and_any_leaf_size() {
    // Clustered irregular rows plus a block of 100 identical rows (a leaf far larger than
    // LEAF) and grid rows tied across leaves.
    let (n, d, m) = (1500, 6, 4);
    let mut next = xorshift(2024);
    let mut z: Vec<f64> = (0..n * d)
        .map(|i| {
            let u = next();
            if i < 400 * d {
                (u % 3) as f64
            } else {
                ((i / d) % 5) as f64 * 3.0 + (u >> 11) as f64 / (1u64 << 53) as f64
            }
        })
        .collect();
    for r in 600..700 {
        z.copy_within(500 * d..501 * d, r * d);
    }
    let sorted = by_sorting(&z, d, m);
    assert_eq!(all_nearest(&z, d, m, || false, |_| {}).unwrap(), sorted);
    // Every leaf size (the studies' trees): the same lists, query by query.
    for leaf in [1, 5, 64] {
        let tree = StaticKdTree::with_leaf_size(&z, d, leaf);
        let (mut scratch, mut one) = (Scratch::default(), Vec::new());
        for i in 0..n {
            tree.nearest_of(i as u32, m, &mut scratch, &mut one);
            assert_eq!(one, sorted[i * m..(i + 1) * m], "leaf {leaf} record {i}");
        }
    }
}

#[test]
fn lists_equal_full_sorting_on_clustered_gaussian_data_in_d_10() {
    let inst =
        crate::data::load("gauss:n=3000,d=10,clusters=5,seed=9", &Default::default()).unwrap();
    for m in [1, 4, 10] {
        let got = all_nearest(&inst.z, inst.d, m, || false, |_| {}).unwrap();
        assert_eq!(got, by_sorting(&inst.z, inst.d, m), "m={m}");
    }
}

#[test]
fn the_parallel_build_gives_the_one_thread_tree_node_for_node() {
    // Above PARALLEL_BUILD records, with tied grid values in one coordinate.
    let (n, d) = (3 * PARALLEL_BUILD + 77, 3);
    let mut next = xorshift(77);
    let z: Vec<f64> = (0..n * d)
        .map(|i| {
            let u = next();
            if i % d == 0 {
                (u % 5) as f64
            } else {
                (u >> 11) as f64 / (1u64 << 53) as f64
            }
        })
        .collect();
    for leaf in [LEAF, 7] {
        let mut one: Vec<u32> = (0..n as u32).collect();
        let mut many = one.clone();
        let (mut nodes, mut leaves) = (Vec::new(), Vec::new());
        build(&z, d, leaf, &mut one, 0, &mut nodes, &mut leaves);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(2)
            .build()
            .unwrap();
        let (pn, pl) = pool.install(|| build_parallel(&z, d, leaf, &mut many, 0));
        assert_eq!(one, many, "leaf {leaf}: tree order");
        assert_eq!(nodes, pn, "leaf {leaf}: nodes");
        assert_eq!(leaves, pl, "leaf {leaf}: leaves");
        assert!(nodes.len() > 1000);
    }
}

/// The (1 + eps)-approximate lists: eps = 0 gives the exact lists; with eps > 0 every
/// listed record is another record, listed once, and the i-th one's squared distance is
/// within (1 + eps)^2 of the true i-th smallest (rounding allowance 1e-9 relative); the
/// lists are the same on one thread as on two.
#[test]
fn approximate_lists_keep_the_rank_guarantee_and_do_not_depend_on_threads() {
    let mut differ = 0;
    for (n, d, m, seed) in [(3000, 10, 10, 3u64), (2000, 4, 6, 5), (1500, 20, 8, 7)] {
        let mut next = xorshift(seed);
        // Clustered values so that the tree has both dense and sparse parts.
        let z: Vec<f64> = (0..n * d)
            .map(|t| ((t / d) % 7) as f64 + (next() % 10_000) as f64 / 10_000.0)
            .collect();
        let exact = by_sorting(&z, d, m);
        assert_eq!(
            all_nearest_approx(&z, d, m, 0.0, || false, |_| {}).unwrap(),
            exact
        );
        for eps in [0.5, 1.0, 3.0] {
            let pool = |t| {
                rayon::ThreadPoolBuilder::new()
                    .num_threads(t)
                    .build()
                    .unwrap()
            };
            let run = || all_nearest_approx(&z, d, m, eps, || false, |_| {}).unwrap();
            let one = pool(1).install(run);
            assert_eq!(one, pool(2).install(run), "n={n} d={d} eps={eps}");
            let dist = |i: usize, j: u32| {
                crate::partition::sq_dist(&z[i * d..(i + 1) * d], &z[j as usize * d..][..d])
            };
            let factor = (1.0 + eps) * (1.0 + eps) * (1.0 + 1e-9);
            for i in 0..n {
                let got = &one[i * m..(i + 1) * m];
                let mut seen = got.to_vec();
                seen.sort_unstable();
                seen.dedup();
                assert_eq!(seen.len(), m, "record {i}: a record listed twice");
                assert!(
                    got.iter().all(|&j| j as usize != i),
                    "record {i} lists itself"
                );
                for (r, &j) in got.iter().enumerate() {
                    let truth = dist(i, exact[i * m + r]);
                    assert!(
                        dist(i, j) <= truth * factor,
                        "n={n} d={d} eps={eps} record {i} rank {r}: {} > (1+eps)^2 {truth}",
                        dist(i, j)
                    );
                }
                differ += usize::from(got != &exact[i * m..(i + 1) * m]);
            }
        }
    }
    // The approximation is used: some lists differ from the exact ones.
    assert!(differ > 0);
}
