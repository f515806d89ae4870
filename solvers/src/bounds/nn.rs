//! # The nearest-neighbour lower bound
//!
//! For a group `S` with `|S| = m >= k` and centroid `c`,
//! `SSE(S) = 1/(2m) sum_{i in S} sum_{j in S} ||x_i - x_j||^2 >= 1/(2m) sum_{i in S} NN_{m-1}(i)
//! >= sum_{i in S} NN_{k-1}(i) / (2k)`, where `NN_r(i)` is the sum of the squared distances from
//! record `i` to its `r` nearest other records. The last step holds because `NN_r(i) / (r+1)` does
//! not decrease with `r` (each new neighbour is at least as far as the average of the previous
//! ones). Summing over the groups of any feasible partition gives
//! `SSE >= LB_nn = sum_i NN_{k-1}(i) / (2k)`. Full derivation: `proofs/P06-nn-bound.md`.
//!
//! The bound is cheap, always valid, and tight when every record's `k - 1` nearest neighbours
//! form, with it, a cluster of exactly `k` coincident-distance points. On the CASC files at
//! k = 3 it lies 27-37 % below the best known SSE (IL 9.855 vs 14.469 on Tarragona, 3.444 vs
//! 4.689 on Census, 0.2204 vs 0.3489 on EIA): certified but loose; column generation closes
//! most of that gap.
//!
//! ## Floating point
//! The computed value is rounded down by a rigorous relative margin (see
//! [`super::round_down_sum`] and `proofs/P10-outward-rounding.md`): every term is nonnegative,
//! so the computed sum exceeds the exact one by at most a factor `(1 + u)^ops`.
//!
//! Each record's `k - 1` distances are added nearest first and the records in index order,
//! in both entry points, so they return the same bits.
//!
//! ## Complexity
//! [`nn_bound`]: O(n^2 d) time (all pairwise distances, one row at a time) and O(n) extra
//! memory; the `k - 1` smallest of each row are found by selection in O(n). About 0.1 s on
//! EIA (n = 4092, d = 11). [`nn_bound_from_lists`]: O(n k d) given the lists; the main crate
//! builds them with its kd-tree (`microagg::bound`, where the measured times are cited).
//!
//! ## References
//! The bound is folklore in the microaggregation literature as the "k-nearest-neighbour" bound;
//! the issue that asked for it quotes it as computed independently (Tarragona k = 3: 9.855 % IL).

use super::round_down_sum;
use crate::sse::sq_dist;
use crate::SolverError;

/// The nearest-neighbour bound and how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct NnBound {
    /// Certified lower bound on the optimal SSE (rounded down).
    pub lower_bound: f64,
    /// The bound as computed, before outward rounding.
    pub computed: f64,
}

/// The nearest-neighbour lower bound on the SSE of every partition of the `n` records of `x`
/// (row-major, `d` columns) into groups of at least `k` records, by scanning every pair.
///
/// Errors: `k == 0`, `n < k`, `x.len() != n d`, or a non-finite value.
pub fn nn_bound(x: &[f64], n: usize, d: usize, k: usize) -> Result<NnBound, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    let r = k - 1;
    let mut total = 0.0;
    if r > 0 {
        let mut dist = vec![0.0; n - 1];
        for i in 0..n {
            let xi = &x[i * d..(i + 1) * d];
            for (w, j) in (0..n).filter(|&j| j != i).enumerate() {
                dist[w] = sq_dist(xi, &x[j * d..(j + 1) * d]);
            }
            // The r smallest values occupy dist[..r] after selection (any order); summed
            // nearest first, the order of a neighbour list, so that [`nn_bound_from_lists`]
            // adds the same values in the same order and gets the same bits.
            if r < dist.len() {
                dist.select_nth_unstable_by(r - 1, f64::total_cmp);
            }
            let nearest = &mut dist[..r];
            nearest.sort_unstable_by(f64::total_cmp);
            total += nearest.iter().sum::<f64>();
        }
    }
    Ok(finish(total, n, d, k))
}

/// The same bound from neighbour lists computed by the caller: `nearest[i r..(i + 1) r]`
/// (`r = k - 1`) are the `r` records nearest to record `i`, other than `i`, nearest first,
/// by the squared distance [`sq_dist`] computes (any order among equal distances). Each
/// distance is recomputed here by [`sq_dist`], exactly as [`nn_bound`] computes it, and
/// added in list order, so exact lists give [`nn_bound`]'s value bit for bit in O(n k d).
///
/// The caller answers for the lists being the *nearest* (a farther record would raise the
/// sum above `NN_{k-1}(i)` and void the bound, proofs/P06); the main crate takes them from
/// its exact kd-tree (proofs/P16). What can be checked cheaply is checked: list length,
/// ids in range, no record in its own list, no repeated id, distances not decreasing.
///
/// Errors: those of [`nn_bound`], and [`SolverError::BadNeighbours`] for a malformed list.
pub fn nn_bound_from_lists(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    nearest: &[u32],
) -> Result<NnBound, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    let r = k - 1;
    let bad = |record: usize, message: String| SolverError::BadNeighbours { record, message };
    if nearest.len() != n * r {
        return Err(bad(
            n.min(nearest.len() / r.max(1)),
            format!(
                "{} ids given, {n} records x {r} neighbours expected",
                nearest.len()
            ),
        ));
    }
    let mut total = 0.0;
    let mut dist = vec![0.0; r];
    for i in 0..n {
        list_distances(x, n, d, i, &nearest[i * r..(i + 1) * r], &mut dist)?;
        total += dist.iter().sum::<f64>();
    }
    Ok(finish(total, n, d, k))
}

/// The squared distances ([`sq_dist`]) from record `i` to the records of its neighbour
/// `list`, into `dist` (as long as the list), after the cheap checks of
/// [`nn_bound_from_lists`]: ids in range, not `i`, not repeated, distances not decreasing.
pub(crate) fn list_distances(
    x: &[f64],
    n: usize,
    d: usize,
    i: usize,
    list: &[u32],
    dist: &mut [f64],
) -> Result<(), SolverError> {
    let bad = |message: String| SolverError::BadNeighbours { record: i, message };
    let xi = &x[i * d..(i + 1) * d];
    for (w, &j) in list.iter().enumerate() {
        let j = j as usize;
        if j >= n || j == i || list[..w].contains(&(j as u32)) {
            return Err(bad(format!(
                "id {j} at position {w} is out of range, the record or repeated"
            )));
        }
        dist[w] = sq_dist(xi, &x[j * d..(j + 1) * d]);
        if w > 0 && dist[w] < dist[w - 1] {
            return Err(bad(format!(
                "neighbour {w} is nearer than neighbour {}",
                w - 1
            )));
        }
    }
    Ok(())
}

/// The bound from the sum over records of their `NN_{k-1}`, rounded down.
pub(crate) fn finish(total: f64, n: usize, d: usize, k: usize) -> NnBound {
    let r = k - 1;
    let computed = total / (2 * k) as f64;
    // Roundings per term: d subtractions, d squarings, d - 1 additions inside a distance,
    // r - 1 additions over neighbours, n additions over records, one division.
    let ops = 3 * d + r + n + 2;
    NnBound {
        lower_bound: round_down_sum(computed, ops),
        computed,
    }
}

/// Test support: the `r` nearest other records of each record by full sorting on
/// (distance, id), an independent reference for neighbour lists.
#[cfg(test)]
pub(crate) fn lists_by_sorting(x: &[f64], n: usize, d: usize, r: usize) -> Vec<u32> {
    let mut out = Vec::new();
    for i in 0..n {
        let near = crate::sse::others_by_distance(x, n, d, i);
        out.extend(near[..r].iter().map(|p| p.1 as u32));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sse::partition_sse;
    use crate::test_draw::Draw;

    #[test]
    fn two_tight_pairs_in_one_dimension() {
        // Records 0, 1, 10, 11 with k = 2: each record's nearest other is at distance 1, so
        // LB = 4 * 1 / 4 = 1, and the optimum {0,1},{10,11} has SSE 0.5 + 0.5 = 1: tight.
        let x = [0.0, 1.0, 10.0, 11.0];
        let b = nn_bound(&x, 4, 1, 2).unwrap();
        assert_eq!(b.computed, 1.0);
        assert!(b.lower_bound <= 1.0 && b.lower_bound > 1.0 - 1e-12);
        assert_eq!(partition_sse(&x, 1, &[0, 0, 1, 1]), 1.0);
    }

    #[test]
    fn lists_give_the_scan_value_bit_for_bit() {
        // Coarse grid values (many ties and duplicate rows) and irregular ones.
        let mut draw = Draw(0x2545_f491_4f6c_dd1du64);
        for (n, d, k, grid) in [
            (40, 1, 2, true),
            (60, 2, 5, true),
            (50, 3, 10, false),
            (80, 5, 4, true),
            (30, 11, 7, false),
        ] {
            let x: Vec<f64> = (0..n * d)
                .map(|_| {
                    let u = draw.next();
                    if grid {
                        (u % 3) as f64
                    } else {
                        (u >> 11) as f64 / (1u64 << 53) as f64 * 7.0 - 3.0
                    }
                })
                .collect();
            let lists = lists_by_sorting(&x, n, d, k - 1);
            let a = nn_bound(&x, n, d, k).unwrap();
            let b = nn_bound_from_lists(&x, n, d, k, &lists).unwrap();
            assert_eq!(
                a.computed.to_bits(),
                b.computed.to_bits(),
                "n={n} d={d} k={k}"
            );
            assert_eq!(a.lower_bound.to_bits(), b.lower_bound.to_bits());
        }
    }

    #[test]
    fn malformed_lists_are_rejected() {
        let x = [0.0, 1.0, 3.0, 7.0];
        // k = 3: two neighbours each; the right lists first.
        let good = [1, 2, 0, 2, 1, 0, 2, 1];
        assert!(nn_bound_from_lists(&x, 4, 1, 3, &good).is_ok());
        let cases: [(&[u32], usize); 5] = [
            (&[1, 2, 0, 2, 1, 0, 2], 3),    // one id short
            (&[1, 2, 0, 2, 1, 0, 2, 4], 3), // id out of range
            (&[0, 2, 0, 2, 1, 0, 2, 1], 0), // the record itself
            (&[1, 1, 0, 2, 1, 0, 2, 1], 0), // repeated
            (&[2, 1, 0, 2, 1, 0, 2, 1], 0), // farther first
        ];
        for (lists, record) in cases {
            match nn_bound_from_lists(&x, 4, 1, 3, lists) {
                Err(SolverError::BadNeighbours { record: r, .. }) => assert_eq!(r, record),
                other => panic!("{lists:?}: {other:?}"),
            }
        }
    }

    #[test]
    fn k_one_gives_zero() {
        let b = nn_bound(&[1.0, 2.0, 3.0], 3, 1, 1).unwrap();
        assert_eq!(b.lower_bound, 0.0);
    }

    #[test]
    fn bad_input_is_rejected() {
        assert_eq!(nn_bound(&[1.0], 1, 1, 0), Err(SolverError::ZeroGroupSize));
        assert_eq!(
            nn_bound(&[1.0, 2.0], 2, 1, 3),
            Err(SolverError::Infeasible { n: 2, k: 3 })
        );
        assert_eq!(
            nn_bound(&[1.0, f64::NAN], 2, 1, 2),
            Err(SolverError::NonFinite { index: 1 })
        );
        assert_eq!(
            nn_bound(&[1.0, 2.0, 3.0], 2, 2, 2),
            Err(SolverError::BadDimension { len: 3, d: 2 })
        );
    }
}
