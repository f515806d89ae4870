use super::kernels::*;
use super::*;

#[test]
fn kth_smallest_counts_duplicates() {
    let v = [3.0f32, 1.0, 1.0, 2.0, 5.0, 0.5];
    assert_eq!(kth_smallest(&v, 1), 0.5);
    assert_eq!(kth_smallest(&v, 2), 1.0);
    assert_eq!(kth_smallest(&v, 3), 1.0);
    assert_eq!(kth_smallest(&v, 4), 2.0);
    assert_eq!(kth_smallest(&v, 6), 5.0);
    let long: Vec<f32> = (0..100).map(|i| ((i * 37) % 100) as f32).collect();
    assert_eq!(kth_smallest(&long, 40), 39.0);
    assert_eq!(max_of(&long), 99.0);
}

/// The fixed-array selection equals sorting, for every k it serves (1..=32) and beyond,
/// on values with many duplicates and lengths around the chunk size.
#[test]
fn kth_smallest_matches_sorting() {
    let mut state = 0x9e37_79b9_7f4a_7c15u64;
    for len in [1usize, 2, 15, 16, 17, 33, 64, 200] {
        for _ in 0..20 {
            let v: Vec<i32> = (0..len)
                .map(|_| {
                    state = state
                        .wrapping_mul(6_364_136_223_846_793_005)
                        .wrapping_add(1_442_695_040_888_963_407);
                    ((state >> 33) % 23) as i32 - 11
                })
                .collect();
            let mut sorted = v.clone();
            sorted.sort_unstable();
            for k in 1..=len.min(40) {
                assert_eq!(
                    kth_smallest(&v, k),
                    sorted[k - 1],
                    "len {len}, k {k}, {v:?}"
                );
            }
        }
    }
}

/// The bound holds against the difference of the two computations on values chosen to
/// round badly in `f32` (and the bound is not vacuous: well below the distances).
#[test]
fn error_bound_covers_the_single_precision_error() {
    // An odd seed, which `unit` keeps as it is: the draws of the former inline stream.
    let mut next = crate::geometry::test_draw::unit(0x2545_F491_4F6C_DD1D);
    for d in [1usize, 3, 10, 20] {
        for scale in [1e-30, 1e-3, 1.0, 7.0, 1e6, 1e14] {
            let rows: Vec<Vec<f64>> = (0..200)
                .map(|_| (0..d).map(|_| (next() * 2.0 - 1.0) * scale).collect())
                .collect();
            let mut col_abs = vec![0.0f64; d];
            rows.iter().for_each(|r| {
                r.iter()
                    .enumerate()
                    .for_each(|(j, v)| col_abs[j] = col_abs[j].max(v.abs()))
            });
            for q in rows.iter().take(20) {
                let e = error_bound(&col_abs, q);
                let q32: Vec<f32> = q.iter().map(|&v| v as f32).collect();
                for r in &rows {
                    let cols: Vec<Vec<f32>> = r.iter().map(|&v| vec![v as f32]).collect();
                    let (mut out, mut lo, mut hi) = ([0.0f32], [0.0f32], [0.0f32]);
                    distances_f32_serial(&cols, &q32, &mut out, &mut lo, &mut hi);
                    assert_eq!((lo[0], hi[0]), (out[0], out[0]));
                    let exact = sq_dist_as_scan(r, q);
                    assert!((out[0] as f64 - exact).abs() <= e, "d {d} scale {scale}");
                }
                assert!(e <= 1e-5 * scale * scale * d as f64 * 4.0 + 1e-40);
            }
        }
    }
}
