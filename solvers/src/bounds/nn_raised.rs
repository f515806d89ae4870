//! # The raised nearest-neighbour bound
//!
//! The nn bound is the Lagrangian value of the duals `y_i = NN_{k-1}(i) / (2k)`, at which
//! every group of `k..2k-1` records has a reduced cost `rc(S) = SSE(S) - y(S) >= 0`
//! (proofs/P06, P09 Part C). Most groups have a positive one: a record's neighbours do not
//! have it among their own nearest. This bound spends that slack. For every record `a` and
//! size `m` it bounds, from neighbour lists alone, the reduced cost of every group of `m`
//! records that contains `a`:
//!
//! `rc(S) >= sum of the m - 1 smallest w_ab(m) over b != a, minus y_a`, with
//! `w_ab(m) = D_ab / (2m) + max(0, max(NN_{m-1}(b), D_ab + NN_{m-2}(b)) / (2m) - y_b)`,
//!
//! calls the larger of that and 0 `lambda_a(m)`, and raises `y_a` by
//! `min_m lambda_a(m) / m`. A group of `m` records then loses at most `m` times its
//! smallest member's `lambda / m`, which its reduced cost covers, so every reduced cost
//! stays nonnegative and the raised duals' sum is a lower bound on the optimal SSE:
//! `nn + sum_a raise_a`. Derivation and the floating-point argument:
//! `proofs/P25-raised-nn-bound.md`.
//!
//! Only each record's `width` nearest others are examined; every other record is at least
//! as far as the last of them, which bounds its `w_ab` from below.
//!
//! ## Floating point
//! Every computed quantity is replaced by a bound in the safe direction: positive terms
//! are lowered and subtracted ones raised by a relative margin that covers their roundings
//! ([`margin`]), the division by `m` is rounded down, and the sum of the raises is rounded
//! down as a sum of nonnegative terms ([`super::round_down_sum`], proofs/P10).
//!
//! ## Complexity
//! O(n w (d + k log w)) for lists of width `w` (the caller builds them; the main crate with
//! its exact kd-tree), O(n w) memory.
//!
//! ## References
//! proofs/P06 (the nn bound), P09 Part C (its duals), P25.

use super::nn::{list_distances, NnBound};
use super::{round_down_sum, UNIT_ROUNDOFF};
use crate::SolverError;

/// The raised bound, the nn bound it starts from and the raises.
#[derive(Debug, Clone, PartialEq)]
pub struct RaisedNn {
    /// Certified lower bound on the optimal SSE: `nn` plus the raises, rounded down.
    pub lower_bound: f64,
    /// The nn bound from the same lists (the first `k - 1` of each), bit for bit
    /// [`super::nn::nn_bound_from_lists`]'s value.
    pub nn: NnBound,
    /// The sum of the raises, rounded down.
    pub raised_by: f64,
    /// Records whose dual was raised.
    pub raised_records: usize,
}

/// The relative margin covering the roundings of one distance (`3d`), a sum of at most
/// `2k` of them and a few operations on the result: twice the count times the unit
/// roundoff, as in [`super::round_down_sum`].
fn margin(d: usize, k: usize) -> f64 {
    2.0 * (3 * d + 4 * k + 8) as f64 * UNIT_ROUNDOFF
}

/// The raised nn bound of the `n` records of `x` (row-major, `d` columns) for groups of at
/// least `k`, from neighbour lists `nearest` of `width` records each (`nearest[i w..(i + 1)
/// w]`: the `width` records nearest to `i` by [`crate::sse::sq_dist`], nearest first, as
/// for [`super::nn::nn_bound_from_lists`]); the nn bound comes from the same lists.
///
/// `width` must be at least `min(2k - 2, n - 1)` and at most `n - 1`. Errors: those of the
/// nn bound, and [`SolverError::BadNeighbours`] for a malformed list or a wrong width.
pub fn raised_nn_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    nearest: &[u32],
    width: usize,
) -> Result<RaisedNn, SolverError> {
    crate::error::check_rows(x, n, d, k)?;
    if k < 2 {
        // Groups of one record: the optimum is 0, and so is every dual.
        let nn = super::nn::nn_bound(x, n, d, k)?;
        return Ok(RaisedNn {
            lower_bound: nn.lower_bound,
            nn,
            raised_by: 0.0,
            raised_records: 0,
        });
    }
    let lists = Lists::new(x, n, d, nearest, width, k)?;
    // The same sums in the same order as the nn bound from lists of k - 1.
    let nn_total = (0..n).fold(0.0, |t, i| t + lists.prefix(i, k - 1));
    let nn = super::nn::finish(nn_total, n, d, k);
    let eps = margin(d, k);
    let y_hi: Vec<f64> = (0..n)
        .map(|b| lists.prefix(b, k - 1) / (2 * k) as f64 * (1.0 + eps))
        .collect();
    let mut w = Vec::with_capacity(width + 2 * k);
    let (mut raises, mut raised_records) = (0.0, 0);
    for a in 0..n {
        let r = raise(&lists, &y_hi, a, k, eps, &mut w);
        raises += r;
        raised_records += usize::from(r > 0.0);
    }
    let raised_by = round_down_sum(raises, n + 1);
    // Both are valid bounds; the rounding of the sum must not fall below nn.
    let lower_bound = round_down_sum(nn.lower_bound + raised_by, 1).max(nn.lower_bound);
    Ok(RaisedNn {
        lower_bound,
        nn,
        raised_by,
        raised_records,
    })
}

/// The raise of record `a`: `min over m of lambda_a(m) / m`, each factor bounded in the
/// safe direction (module doc); 0 when some size leaves no slack. `w` is scratch.
fn raise(lists: &Lists, y_hi: &[f64], a: usize, k: usize, eps: f64, w: &mut Vec<f64>) -> f64 {
    let mut best = f64::INFINITY;
    for m in k..=(2 * k - 1).min(lists.n) {
        let half = (2 * m) as f64;
        w.clear();
        for (t, &b) in lists.list(a).iter().enumerate() {
            let (b, dab) = (b as usize, lists.dist(a, t));
            let others = lists.prefix(b, m - 1).max(dab + lists.prefix(b, m - 2));
            let slack_b = others / half * (1.0 - eps) - y_hi[b];
            w.push(dab / half * (1.0 - eps) + slack_b.max(0.0));
        }
        if lists.width < lists.n - 1 {
            // Records beyond the list are at least as far as its last one.
            let cap = lists.dist(a, lists.width - 1) / half * (1.0 - eps);
            w.extend(std::iter::repeat_n(cap, m - 1));
        }
        w.sort_unstable_by(f64::total_cmp);
        let smallest: f64 = w[..m - 1].iter().sum();
        let lambda = smallest * (1.0 - eps) - y_hi[a];
        // Nothing to raise (a NaN lambda included).
        if lambda.is_nan() || lambda <= 0.0 {
            return 0.0;
        }
        best = best.min((lambda / m as f64).next_down());
    }
    best.max(0.0)
}

/// Neighbour lists with their distances and prefix sums, checked.
struct Lists<'a> {
    n: usize,
    width: usize,
    nearest: &'a [u32],
    /// `dist[i w + t]`: squared distance from `i` to its `t`-th listed record.
    dist: Vec<f64>,
    /// `sums[i (w + 1) + r]`: the sum of the `r` nearest distances of `i`.
    sums: Vec<f64>,
}

impl<'a> Lists<'a> {
    fn new(
        x: &[f64],
        n: usize,
        d: usize,
        nearest: &'a [u32],
        width: usize,
        k: usize,
    ) -> Result<Self, SolverError> {
        let bad = |message: String| SolverError::BadNeighbours { record: 0, message };
        if width > n - 1 || width < (2 * k - 2).min(n - 1) || width == 0 {
            return Err(bad(format!(
                "width {width}: at least min(2k - 2, n - 1) = {} and at most n - 1 = {}",
                (2 * k - 2).min(n - 1),
                n - 1
            )));
        }
        if nearest.len() != n * width {
            return Err(bad(format!(
                "{} ids given, {n} records x {width} neighbours expected",
                nearest.len()
            )));
        }
        let mut dist = vec![0.0; n * width];
        let mut sums = vec![0.0; n * (width + 1)];
        for i in 0..n {
            let row = &mut dist[i * width..(i + 1) * width];
            list_distances(x, n, d, i, &nearest[i * width..(i + 1) * width], row)?;
            for t in 0..width {
                sums[i * (width + 1) + t + 1] = sums[i * (width + 1) + t] + row[t];
            }
        }
        Ok(Lists {
            n,
            width,
            nearest,
            dist,
            sums,
        })
    }

    fn list(&self, i: usize) -> &[u32] {
        &self.nearest[i * self.width..(i + 1) * self.width]
    }

    fn dist(&self, i: usize, t: usize) -> f64 {
        self.dist[i * self.width + t]
    }

    /// The sum of the `r` nearest distances of `i` (`r <= width`).
    fn prefix(&self, i: usize, r: usize) -> f64 {
        self.sums[i * (self.width + 1) + r]
    }
}

#[cfg(test)]
mod tests;
