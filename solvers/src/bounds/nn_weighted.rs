//! # The weighted nearest-neighbour lower bound
//!
//! A lower bound on the weighted SSE `sum_G sum_{i in G} w_i ||x_i - c_w(G)||^2` (weighted
//! centroids `c_w`, sampling weights `w_i > 0`) of every partition into groups of at least
//! `k` *records*. By the pairwise identity (P40 W1(c)), a group `S` with total weight `W_S`
//! has `SSE_w(S) = sum_{i in S} (w_i / 2) f_i(S \ {i})` with
//! `f_i(T) = sum_{j in T} w_j d_ij / (w_i + sum_{j in T} w_j)` (`d_ij` the squared
//! distance): a weighted mean of the distances from `x_i` to `T` and of `0` (record `i`
//! itself) with weight `w_i`. So `LB_w = sum_i (w_i / 2) lambda_i`, with `lambda_i` the
//! minimum of `f_i(T)` over all sets `T` of at least `k - 1` other records, is a lower
//! bound. With unit weights the minimum is at the `k - 1` nearest and `LB_w` is the nn bound
//! of P06. With unequal weights the minimiser may take far but light records, so it is found
//! by Dinkelbach's method (minimum ratio), and each `lambda_i` is *certified* by a check in
//! which every rounding is accounted for: `lambda <= min_T f_i(T)` iff
//! `Q(lambda) >= P(lambda) + w_i lambda`, with `P` the sum of `w_j (lambda - d_ij)` over the
//! records nearer than `lambda` and `Q` the sum of the smallest `k - 1 - |L|` values
//! `w_j (d_ij - lambda)` among the others (proofs/P41-weighted-nn-bound.md).
//!
//! Two entry points: [`weighted_nn_bound`] scans every pair (exact `lambda_i` up to the
//! certification margin); [`weighted_nn_bound_from_lists`] uses each record's `m >= k - 1`
//! nearest records and replaces every other record by a pseudo-record at the distance of
//! the `m`-th nearest with the smallest weight of the data set (a relaxation, weaker with
//! a short list and widely spread weights, valid whenever the lists are the nearest).
//!
//! ## Floating point
//! Each `lambda_i` is certified for the computed distances (exact check above, with
//! relative margins for the roundings of `P`, `Q` and an absolute one for underflow);
//! a computed distance is at most `(1 + u)^{3d}` times the exact one, so the exact
//! `lambda_i` of the stored data is at least the certified value divided by that factor,
//! and the sum `sum_i (w_i / 2) lambda_i` of nonnegative terms is rounded down by P10's
//! margin with `3d + n + 3` roundings.
//!
//! ## Complexity
//! [`weighted_nn_bound`]: O(n^2 d) distances plus O(n) per Dinkelbach iteration and record
//! (a few iterations; selection by `select_nth_unstable`), O(n) memory.
//! [`weighted_nn_bound_from_lists`]: O(n m d) plus O(m) per iteration and record.
//!
//! ## References
//! - Dinkelbach, W. (1967). On nonlinear fractional programming. Management Science 13(7),
//!   492-498.
//! - The unweighted bound: proofs/P06-nn-bound.md; weighted identities: proofs/P40.

use super::{round_down_sum, UNIT_ROUNDOFF};
use crate::error::check_weights;
use crate::sse::sq_dist;
use crate::SolverError;

/// The weighted nearest-neighbour bound and how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct WeightedNnBound {
    /// Certified lower bound on the optimal weighted SSE (rounded down).
    pub lower_bound: f64,
    /// `sum_i (w_i / 2) lambda_i` with the certified `lambda_i`, before outward rounding.
    pub computed: f64,
    /// `sum_i (w_i / 2) lambda_i` with the Dinkelbach values before certification (an
    /// estimate of the relaxation's exact value; not a bound).
    pub estimate: f64,
    /// Records whose `lambda_i` had to be lowered beyond the first certification margin.
    pub fallbacks: usize,
    /// Dinkelbach iterations over all records.
    pub iterations: usize,
}

/// The weighted nearest-neighbour bound on the weighted SSE of every partition of the `n`
/// records of `x` (row-major, `d` columns) with weights `w` into groups of at least `k`
/// records, by scanning every pair.
///
/// Errors: those of [`super::nn::nn_bound`], and [`SolverError::BadWeight`] for a weight
/// that is not finite and > 0 (or a count of weights other than `n`).
pub fn weighted_nn_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
) -> Result<WeightedNnBound, SolverError> {
    weighted_nn_bound_and_duals(x, n, d, k, w).map(|(bound, _)| bound)
}

/// [`weighted_nn_bound`] and, from the same scan, candidate duals for the weighted column
/// generation (`super::colgen_weighted`): `y_i = (w_i / 2) lambda_i` with each `lambda_i`
/// Dinkelbach's value over all other records, **not** certified. In exact arithmetic every
/// group of at least `k` records then has weighted SSE `>= y(S)` (proofs/P43, Lemma L3), so
/// the Lagrangian bound at these duals is the weighted nn bound; the column generation only
/// uses them as a starting point and certifies whatever duals it reports with its own exact
/// pricing. O(n^2 d), one pass for both.
///
/// Errors: those of [`weighted_nn_bound`].
pub fn weighted_nn_bound_and_duals(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
) -> Result<(WeightedNnBound, Vec<f64>), SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    check_weights(w, n)?;
    let mut acc = Accumulator::new(k - 1);
    let mut pool: Vec<(f64, f64)> = Vec::with_capacity(n);
    let mut y = Vec::with_capacity(n);
    for i in 0..n {
        pool.clear();
        let xi = &x[i * d..(i + 1) * d];
        for j in (0..n).filter(|&j| j != i) {
            pool.push((sq_dist(xi, &x[j * d..(j + 1) * d]), w[j]));
        }
        let lambda = acc.add(w[i], &mut pool, n);
        y.push(w[i] * lambda / 2.0);
    }
    Ok((acc.finish(n, d), y))
}

/// The same bound from neighbour lists: `nearest[i m..(i + 1) m]` are the `m` records
/// nearest to record `i` (other than `i`, nearest first, by [`sq_dist`]; `m >= k - 1`,
/// `m <= n - 1`). Every record outside a list is at least as far as the list's last one
/// (the caller answers for the lists being the nearest, as for
/// [`super::nn::nn_bound_from_lists`]); the kernel counts each of them as a pseudo-record at
/// that distance with the smallest weight of the data set, which can only lower the
/// bound. With `m = n - 1` the value is [`weighted_nn_bound`]'s (up to the order of the
/// sums).
///
/// Errors: those of [`weighted_nn_bound`], and [`SolverError::BadNeighbours`] for a
/// malformed list (length, range, the record itself, repeats, distances out of order).
pub fn weighted_nn_bound_from_lists(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    w: &[f64],
    m: usize,
    nearest: &[u32],
) -> Result<WeightedNnBound, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    check_weights(w, n)?;
    let r = k - 1;
    let bad = |record: usize, message: String| SolverError::BadNeighbours { record, message };
    if m < r || m > n - 1 || nearest.len() != n * m {
        return Err(bad(
            0,
            format!(
                "{} ids for {n} records with {m} neighbours each (need k - 1 = {r} <= m <= n - 1)",
                nearest.len()
            ),
        ));
    }
    let w_min = w.iter().copied().fold(f64::INFINITY, f64::min);
    let outside = n - 1 - m;
    let mut acc = Accumulator::new(r);
    let mut pool: Vec<(f64, f64)> = Vec::with_capacity(m + r);
    for i in 0..n {
        pool.clear();
        let xi = &x[i * d..(i + 1) * d];
        let list = &nearest[i * m..(i + 1) * m];
        for (p, &j) in list.iter().enumerate() {
            let j = j as usize;
            if j >= n || j == i || list[..p].contains(&(j as u32)) {
                return Err(bad(
                    i,
                    format!("id {j} at position {p} is out of range, the record or repeated"),
                ));
            }
            let dist = sq_dist(xi, &x[j * d..(j + 1) * d]);
            if p > 0 && dist < pool[p - 1].0 {
                return Err(bad(
                    i,
                    format!("neighbour {p} is nearer than neighbour {}", p - 1),
                ));
            }
            pool.push((dist, w[j]));
        }
        // Records outside the list: at computed distance >= the last listed one, weight
        // >= w_min. A set T takes at most r of them beyond the list's records, so r copies
        // of (last distance, w_min) stand for them (proofs/P41, "From lists").
        if outside > 0 && r > 0 {
            let last = pool.last().map_or(0.0, |p| p.0);
            pool.extend(std::iter::repeat_n((last, w_min), outside.min(r)));
        }
        acc.add_capped(w[i], &mut pool, n, outside > 0);
    }
    Ok(acc.finish(n, d))
}

/// The running sum over records of `w_i lambda_i` and the counters.
struct Accumulator {
    r: usize,
    total: f64,
    estimate: f64,
    fallbacks: usize,
    iterations: usize,
}

/// Multipliers tried in turn on the Dinkelbach value until the check certifies one; the
/// last, 0, always holds (`f_i >= 0`).
const MARGINS: [f64; 5] = [1.0 - 1e-10, 1.0 - 1e-7, 1.0 - 1e-4, 0.5, 0.0];

/// At most this many Dinkelbach iterations per record (it converges finitely, in a few;
/// the check makes any value safe).
const MAX_ITERATIONS: usize = 100;

impl Accumulator {
    fn new(r: usize) -> Self {
        Accumulator {
            r,
            total: 0.0,
            estimate: 0.0,
            fallbacks: 0,
            iterations: 0,
        }
    }

    /// [`Self::add_capped`] without pseudo-records; returns the Dinkelbach value.
    fn add(&mut self, wi: f64, pool: &mut [(f64, f64)], n: usize) -> f64 {
        self.add_capped(wi, pool, n, false)
    }

    /// Record `i` of weight `wi` with its candidates `pool` (distance, weight). With
    /// `capped`, the pool's last entries are pseudo-records standing for records outside a
    /// list, and `lambda` must not exceed their distance (else a real outside record could
    /// be nearer than `lambda`, which the check cannot see). Returns Dinkelbach's value
    /// (before certification; 0 when `k = 1`).
    fn add_capped(&mut self, wi: f64, pool: &mut [(f64, f64)], n: usize, capped: bool) -> f64 {
        if self.r == 0 {
            return 0.0;
        }
        let (lambda, iterations) = dinkelbach(wi, pool, self.r);
        self.iterations += iterations;
        let cap = if capped {
            pool.iter().map(|p| p.0).fold(0.0, f64::max)
        } else {
            f64::INFINITY
        };
        self.estimate += wi * lambda;
        let mut certified = 0.0;
        for (t, factor) in MARGINS.iter().enumerate() {
            let candidate = (lambda * factor).min(cap);
            if candidate == 0.0 || holds(wi, pool, self.r, candidate, n) {
                certified = candidate;
                if t > 0 {
                    self.fallbacks += 1;
                }
                break;
            }
        }
        self.total += wi * certified;
        lambda
    }

    fn finish(self, n: usize, d: usize) -> WeightedNnBound {
        let computed = self.total / 2.0;
        // Roundings on a term's path: 3d in a distance (its effect on lambda_i, P41), one
        // product w_i lambda_i, n additions over records, the halving (exact, counted).
        let ops = 3 * d + n + 3;
        WeightedNnBound {
            lower_bound: round_down_sum(computed, ops),
            computed,
            estimate: self.estimate / 2.0,
            fallbacks: self.fallbacks,
            iterations: self.iterations,
        }
    }
}

/// Dinkelbach's iteration for `min_T (sum_T w_j d_j) / (wi + sum_T w_j)` over sets `T` of at
/// least `r` entries of `pool`: start from the `r` nearest; given `lambda`, the set
/// minimising `sum_T w_j (d_j - lambda)` takes every entry nearer than `lambda` and the
/// `r - |L|` smallest nonnegative values among the rest; its ratio is the next `lambda`,
/// until it no longer decreases. Returns the last value and the iterations. Floating point;
/// the result is only a candidate, certified by [`holds`].
fn dinkelbach(wi: f64, pool: &mut [(f64, f64)], r: usize) -> (f64, usize) {
    let nearest = select_smallest(pool, r, |p| p.0);
    let (num, den) = nearest
        .iter()
        .fold((0.0, wi), |(a, b), p| (a + p.1 * p.0, b + p.1));
    let mut lambda = num / den;
    let mut iterations = 1;
    while iterations < MAX_ITERATIONS {
        let (mut num, mut den, mut near) = (0.0, wi, 0usize);
        for p in pool.iter().filter(|p| p.0 < lambda) {
            num += p.1 * p.0;
            den += p.1;
            near += 1;
        }
        if near < r {
            let need = r - near;
            let mut far: Vec<(f64, f64)> = pool.iter().filter(|p| p.0 >= lambda).copied().collect();
            for p in select_smallest(&mut far, need, |p| p.1 * (p.0 - lambda)) {
                num += p.1 * p.0;
                den += p.1;
            }
        }
        iterations += 1;
        let next = num / den;
        // Stop unless strictly lower (NaN stops too).
        if next.partial_cmp(&lambda) != Some(std::cmp::Ordering::Less) {
            break;
        }
        lambda = next;
    }
    (lambda, iterations)
}

/// The `r` entries of `v` with the smallest `key` (after partial selection, in `v[..r]`).
fn select_smallest<F: Fn(&(f64, f64)) -> f64>(
    v: &mut [(f64, f64)],
    r: usize,
    key: F,
) -> &[(f64, f64)] {
    let r = r.min(v.len());
    if r > 0 && r < v.len() {
        v.select_nth_unstable_by(r - 1, |a, b| key(a).total_cmp(&key(b)));
    }
    &v[..r]
}

/// The certification check (proofs/P41, Lemma B2): true only if, in exact arithmetic on the
/// given floating-point distances and weights, `sum_T w_j d_j >= lambda (wi + sum_T w_j)`
/// for every set `T` of at least `r` entries of `pool`, i.e. `lambda <= min_T f(T)`.
/// `n` bounds the number of terms in each sum (for the margins).
fn holds(wi: f64, pool: &[(f64, f64)], r: usize, lambda: f64, n: usize) -> bool {
    // P: entries strictly nearer than lambda, each w_j (lambda - d_j) > 0.
    let mut p_sum = 0.0;
    let mut near = 0usize;
    let mut far: Vec<f64> = Vec::with_capacity(pool.len());
    for &(dist, wj) in pool {
        if dist < lambda {
            p_sum += wj * (lambda - dist);
            near += 1;
        } else {
            far.push(wj * (dist - lambda));
        }
    }
    let rhs = p_sum + wi * lambda;
    let need = r.saturating_sub(near);
    let q_sum: f64 = if need == 0 {
        0.0
    } else if need > far.len() {
        return false; // fewer than r entries: cannot happen for r <= n - 1
    } else {
        if need < far.len() {
            far.select_nth_unstable_by(need - 1, f64::total_cmp);
        }
        far[..need].iter().sum()
    };
    if !(q_sum.is_finite() && rhs.is_finite()) {
        return false;
    }
    // Q_exact >= q_sum / (1 + u)^(r + 2) and rhs_exact <= rhs / (1 - u)^(n + 3), so
    // q_sum (1 - 2 (n + r + 5) u) >= rhs suffices; the margin below is twice that (it also
    // covers the rounding of the product), and the absolute slack covers underflow
    // (each of at most 2n + 4 operations loses at most 2^-1075 when subnormal).
    let margin = 4.0 * (n + r + 8) as f64 * UNIT_ROUNDOFF;
    let slack = f64::MIN_POSITIVE;
    q_sum * (1.0 - margin) >= rhs + slack
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bounds::nn::nn_bound;
    use crate::test_draw::Draw;

    #[test]
    fn unit_weights_give_the_nn_bound_up_to_the_certification_margin() {
        let mut draw = Draw(0x9e37_79b9_7f4a_7c15u64);
        for (n, d, k) in [(30, 2, 3), (40, 3, 5), (25, 1, 2), (50, 4, 10)] {
            let x: Vec<f64> = (0..n * d).map(|_| draw.unit() * 4.0 - 2.0).collect();
            let w = vec![1.0; n];
            let a = nn_bound(&x, n, d, k).unwrap();
            let b = weighted_nn_bound(&x, n, d, k, &w).unwrap();
            assert!(b.lower_bound <= a.computed, "n={n} k={k}");
            assert!(
                b.lower_bound >= a.lower_bound * (1.0 - 1e-9),
                "n={n} k={k}: {} vs {}",
                b.lower_bound,
                a.lower_bound
            );
            assert_eq!(b.fallbacks, 0);
        }
    }

    #[test]
    fn light_far_record_lowers_the_bound_as_it_should() {
        // Records 0 (w 1) and 1 (w 1) at distance 1, record 2 far (x = 10) and light; k = 2.
        // The partition {0, 1}, {2, ?} is infeasible with 3 records; the optimum is one
        // group or {0,2},{1}... only one group of 3 or a pair + a single: n = 3, k = 2 allows
        // only the single group. Its weighted SSE is checked against the bound.
        let x = [0.0, 1.0, 10.0];
        let w = [1.0, 1.0, 1e-3];
        let b = weighted_nn_bound(&x, 3, 1, 2, &w).unwrap();
        let wsum: f64 = w.iter().sum();
        let c = (0..3).map(|i| w[i] * x[i]).sum::<f64>() / wsum;
        let sse: f64 = (0..3).map(|i| w[i] * (x[i] - c).powi(2)).sum();
        assert!(b.lower_bound <= sse && b.lower_bound > 0.0);
        // Record 2's best partner is record 1: lambda_2 = w_1 81 / (1e-3 + 1).
        let lambda2 = 81.0 / 1.001;
        assert!(b.estimate >= 0.5 * 1e-3 * lambda2 * (1.0 - 1e-12));
    }

    #[test]
    fn lists_of_every_other_record_give_the_scan_value() {
        let x = [0.0, 0.3, 1.0, 2.5, 2.6, 4.0, 7.0];
        let w = [2.0, 0.01, 5.0, 1.0, 300.0, 0.2, 1.0];
        let n = 7;
        let mut lists = Vec::new();
        for i in 0..n {
            let mut c: Vec<(f64, u32)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| ((x[i] - x[j]) * (x[i] - x[j]), j as u32))
                .collect();
            c.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            lists.extend(c.iter().map(|p| p.1));
        }
        for k in 2..=3 {
            let a = weighted_nn_bound(&x, n, 1, k, &w).unwrap();
            let b = weighted_nn_bound_from_lists(&x, n, 1, k, &w, n - 1, &lists).unwrap();
            // Same candidates in another order (index vs distance order): the sums may
            // differ in the last bits.
            let rel = (a.computed - b.computed).abs() / a.computed;
            assert!(rel < 1e-12, "k={k}: {} vs {}", a.computed, b.computed);
            assert!(a.computed > 0.0);
        }
    }

    #[test]
    fn bad_weights_and_lists_are_rejected() {
        let x = [0.0, 1.0, 3.0];
        for (w, index) in [
            (vec![1.0, 0.0, 1.0], 1),
            (vec![1.0, 1.0, -2.0], 2),
            (vec![f64::NAN, 1.0, 1.0], 0),
            (vec![1.0, 1.0], 2),
        ] {
            assert_eq!(
                weighted_nn_bound(&x, 3, 1, 2, &w),
                Err(SolverError::BadWeight { index })
            );
        }
        let w = [1.0, 1.0, 1.0];
        assert!(weighted_nn_bound_from_lists(&x, 3, 1, 2, &w, 1, &[1, 0, 1]).is_ok());
        assert!(matches!(
            weighted_nn_bound_from_lists(&x, 3, 1, 2, &w, 1, &[1, 0]),
            Err(SolverError::BadNeighbours { .. })
        ));
        assert!(matches!(
            weighted_nn_bound_from_lists(&x, 3, 1, 2, &w, 1, &[0, 0, 1]),
            Err(SolverError::BadNeighbours { record: 0, .. })
        ));
    }
}
