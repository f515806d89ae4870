//! Brute force on small adversarial instances: every group of k..2k-1 records keeps a
//! nonnegative reduced cost at the raised duals, and the bound never exceeds the optimum.

use super::*;
use crate::bounds::nn::{lists_by_sorting, nn_bound, nn_bound_from_lists};
use crate::exact::solve_exact;
use crate::sse::{group_sse, sq_dist};
use crate::test_draw::Draw;

/// Small instances of several shapes: irregular, a coarse grid (ties, duplicate rows),
/// heavy tails (a few far records), two tight clusters with a straggler, collinear, and
/// records at geometrically growing spacing (each record's nearest ones lie to one side and
/// the next one out is barely farther than the last listed: the case the list's cap decides).
fn instance(shape: usize, n: usize, d: usize, draw: &mut Draw) -> Vec<f64> {
    (0..n * d)
        .map(|c| {
            let (row, u) = (c / d, draw.unit());
            match shape {
                0 => u * 6.0 - 3.0,
                1 => (draw.next() % 3) as f64,
                2 => (1.0 - u).powf(-0.5) - 1.0,
                3 if row + 1 == n => 40.0 + u,
                3 => (row % 2) as f64 * 10.0 + u * 0.1,
                4 => row as f64 * (1.0 + (c % d) as f64),
                _ if c % d == 0 => 1.3f64.powi(row as i32),
                _ => u * 0.01,
            }
        })
        .collect()
}

/// The nn duals `NN_{k-1}(i) / (2k)` by sorting.
fn nn_duals(x: &[f64], n: usize, d: usize, k: usize) -> Vec<f64> {
    (0..n)
        .map(|i| {
            let mut row: Vec<f64> = (0..n)
                .filter(|&j| j != i)
                .map(|j| sq_dist(&x[i * d..(i + 1) * d], &x[j * d..(j + 1) * d]))
                .collect();
            row.sort_by(f64::total_cmp);
            row[..k - 1].iter().sum::<f64>() / (2 * k) as f64
        })
        .collect()
}

/// Every subset of `0..n` with `lo..=hi` members, as bit masks.
fn groups(n: usize, lo: usize, hi: usize) -> impl Iterator<Item = Vec<usize>> {
    (1u32..1 << n)
        .filter(move |m| (lo..=hi).contains(&(m.count_ones() as usize)))
        .map(move |m| (0..n).filter(|&i| m >> i & 1 == 1).collect())
}

/// Each record's raise from lists of `width`.
fn raises(x: &[f64], n: usize, d: usize, k: usize, width: usize) -> Vec<f64> {
    let nearest = lists_by_sorting(x, n, d, width);
    let lists = Lists::new(x, n, d, &nearest, width, k).unwrap();
    let eps = margin(d, k);
    let y_hi: Vec<f64> = (0..n)
        .map(|b| lists.prefix(b, k - 1) / (2 * k) as f64 * (1.0 + eps))
        .collect();
    let mut w = Vec::new();
    (0..n)
        .map(|a| raise(&lists, &y_hi, a, k, eps, &mut w))
        .collect()
}

#[test]
fn every_group_keeps_a_nonnegative_reduced_cost() {
    let mut draw = Draw(0x9e37_79b9_7f4a_7c15);
    let mut checked = 0;
    let mut raised = 0;
    for case in 0..60 {
        let (shape, k) = (case % 6, 2 + case % 3);
        let (n, d) = (2 * k + 1 + case % 5, 1 + case % 3);
        let x = instance(shape, n, d, &mut draw);
        // With every other record listed no cap is used; shorter lists bound the
        // records beyond them from below, so their raises may only be smaller.
        let full = raises(&x, n, d, k, n - 1);
        for width in [(2 * k - 2).min(n - 1), (2 * k).min(n - 1), n - 1] {
            let r = raises(&x, n, d, k, width);
            for a in 0..n {
                assert!(r[a] <= full[a], "case {case} width {width} record {a}");
            }
            raised += r.iter().filter(|&&v| v > 0.0).count();
            let y = nn_duals(&x, n, d, k);
            for s in groups(n, k, 2 * k - 1) {
                let rc = group_sse(&x, d, &s) - s.iter().map(|&i| y[i]).sum::<f64>();
                let spent: f64 = s.iter().map(|&i| r[i]).sum();
                // The raises are bounded in the safe direction by a relative margin far
                // above the few roundings of this reference computation.
                let scale = group_sse(&x, d, &s) + s.iter().map(|&i| y[i]).sum::<f64>();
                assert!(
                    spent <= rc + 1e-12 * scale,
                    "case {case} width {width} group {s:?}: raises {spent} > rc {rc}"
                );
                checked += 1;
            }
        }
    }
    assert!(checked > 10_000, "{checked} groups checked");
    // The check is not vacuous: many records were raised.
    assert!(raised > 200, "{raised} raises");
}

#[test]
fn the_bound_never_exceeds_the_optimum_and_often_beats_nn() {
    let mut draw = Draw(0x2545_f491_4f6c_dd1d);
    let mut above = 0;
    for case in 0..100 {
        let (shape, k) = (case % 6, 2 + case % 2);
        let (n, d) = (2 * k + 2 + case % 6, 1 + case % 3);
        let x = instance(shape, n, d, &mut draw);
        let opt = solve_exact(&x, n, d, k, None).unwrap().sse;
        let nn = nn_bound(&x, n, d, k).unwrap().lower_bound;
        let width = (3 * k).min(n - 1);
        let nearest = lists_by_sorting(&x, n, d, width);
        let b = raised_nn_bound(&x, n, d, k, &nearest, width).unwrap();
        assert!(
            b.lower_bound >= nn,
            "case {case}: {} < nn {nn}",
            b.lower_bound
        );
        assert!(
            b.lower_bound <= opt,
            "case {case} (shape {shape}, n {n}, d {d}, k {k}): bound {} > optimum {opt}",
            b.lower_bound
        );
        above += usize::from(b.lower_bound > nn);
    }
    assert!(
        above >= 50,
        "the bound beat nn in only {above} of 100 cases"
    );
}

#[test]
fn the_nn_value_from_the_same_lists_is_unchanged() {
    // `list_distances` is shared with the nn bound: the nn value from lists is still the
    // scan's value bit for bit.
    let mut draw = Draw(7);
    let x = instance(0, 40, 3, &mut draw);
    let lists = lists_by_sorting(&x, 40, 3, 4);
    let a = nn_bound(&x, 40, 3, 5).unwrap();
    let b = nn_bound_from_lists(&x, 40, 3, 5, &lists).unwrap();
    assert_eq!(a.computed.to_bits(), b.computed.to_bits());
}

#[test]
fn a_width_outside_its_range_is_refused() {
    let mut draw = Draw(11);
    let x = instance(0, 12, 2, &mut draw);
    for width in [0, 3, 12] {
        let nearest = lists_by_sorting(&x, 12, 2, width.min(11));
        let r = raised_nn_bound(&x, 12, 2, 3, &nearest, width);
        assert!(
            matches!(r, Err(SolverError::BadNeighbours { .. })),
            "width {width}: {r:?}"
        );
    }
    // A list that is not nearest first is refused as for the nn bound.
    let mut nearest = lists_by_sorting(&x, 12, 2, 4);
    nearest.swap(0, 3);
    let r = raised_nn_bound(&x, 12, 2, 3, &nearest, 4);
    assert!(matches!(
        r,
        Err(SolverError::BadNeighbours { record: 0, .. })
    ));
}

#[test]
fn the_bound_holds_from_tiny_to_huge_scales_and_scales_exactly_by_powers_of_two() {
    // Scaling by a power of two is exact in floating point, so every rounding of the bound
    // scales with it: a bound that is s^2 times the unscaled one bit for bit shows that no
    // absolute tolerance (wrong at one end of the range or the other) enters it. Decimal
    // scales round each coordinate; there the bound must still stay below the optimum.
    let mut draw = Draw(0x5851_f42d_4c95_7f2d);
    for case in 0..36 {
        let (shape, k) = (case % 6, 2 + case % 2);
        let (n, d) = (2 * k + 2 + case % 5, 1 + case % 3);
        let x = instance(shape, n, d, &mut draw);
        let width = (3 * k).min(n - 1);
        let bound_of = |x: &[f64]| {
            let nearest = lists_by_sorting(x, n, d, width);
            raised_nn_bound(x, n, d, k, &nearest, width)
                .unwrap()
                .lower_bound
        };
        let base = bound_of(&x);
        for e in [-30, -12, 12, 30] {
            let s = 2f64.powi(e);
            let xs: Vec<f64> = x.iter().map(|v| v * s).collect();
            assert_eq!(
                bound_of(&xs).to_bits(),
                (base * s * s).to_bits(),
                "case {case} (shape {shape}): scale 2^{e}"
            );
        }
        for s in [1e-9, 1e-3, 1e3, 1e9] {
            let xs: Vec<f64> = x.iter().map(|v| v * s).collect();
            let opt = solve_exact(&xs, n, d, k, None).unwrap().sse;
            let b = bound_of(&xs);
            assert!(
                b <= opt,
                "case {case} (shape {shape}, n {n}, d {d}, k {k}) scale {s:e}: bound {b} > optimum {opt}"
            );
        }
    }
}
