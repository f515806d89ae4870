//! # Optimal segmentation of a given order
//!
//! Given multivariate records and an order (a path) over them, split the order into
//! contiguous runs of sizes `k..=2k-1` minimising the total within-group SSE. This is the
//! engine of the MHM heuristics and of IMHM's path refinement: a shortest path in the DAG
//! whose vertices are the cut positions `0..=m` and whose edge `i -> j` (for
//! `k <= j - i <= 2k-1`) costs the SSE of the records `order[i..j]`. Restricting sizes to
//! `k..=2k-1` loses nothing: a contiguous run of `>= 2k` records splits into two runs of
//! `>= k` without increasing the SSE (`proofs/P04-univariate-contiguity-dp.md`, Lemma 3).
//!
//! Edge costs are produced in O(d) each with the incremental updates of the IMHM paper's
//! appendix (`proofs/P07-incremental-group-sse.md`): the first group `[i, i+k)` of each start
//! position is obtained from the previous one by replacing one record (Lemma 2, "slide"),
//! longer groups by appending one record (Lemma 1, Welford's update). Appending only ever
//! adds non-negative terms and is stable; sliding subtracts, so a slide is replaced by an
//! exact two-pass recomputation whenever it would amplify rounding error by more than
//! [`SLIDE_AMPLIFICATION_LIMIT`], and in any case after `k` consecutive slides (bounding
//! drift at O(d) amortised cost). The records are first copied in path order and centred on
//! their column means, because the updates lose about `log10(|centroid| / spread)` digits.
//!
//! API: [`segment_order`] (optimal), [`fixed_cut`] (baseline: runs of `k`, the last run
//! absorbs the remainder), both returning a [`Segmentation`] whose `sse` is recomputed
//! exactly (two-pass per group, compensated sum) from the chosen sizes. `order` may list a
//! subset of the records, but each record at most once. Ties between equal-cost
//! segmentations are broken towards the smaller predecessor cut (the DP relaxes with a strict
//! `<` in increasing order of the predecessor), so the result is deterministic.
//!
//! ## Complexity
//! O(m k d) time and O(m d) extra memory (the centred copy of the records in path order), for
//! an order of `m` records in dimension `d`.
//!
//! ## References
//! - Hansen, S. L. and Mukherjee, S. (2003). A polynomial algorithm for optimal univariate
//!   microaggregation. IEEE Transactions on Knowledge and Data Engineering 15(4), 1043-1044.
//! - Domingo-Ferrer, J., Martinez-Balleste, A., Mateo-Sanz, J. M. and Sebe, F. (2006).
//!   Efficient multivariate data-oriented microaggregation. The VLDB Journal 15(4), 355-369
//!   (MHM).
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544 (IMHM; Fig. 4, ImprovedMHM,
//!   and the appendix, Lemmas 1 and 2).

use crate::error::SolverError;

/// A slide whose error magnitude (`base_sse + sum_l |update_l|` plus the rounding of the
/// centroid, `2 |D_l| max(|entering_l|, |c'_l|)`) exceeds this multiple of the resulting SSE
/// is recomputed from scratch: the relative error of an accepted slide is then at most about
/// this many units in the last place (about 1e-13).
pub const SLIDE_AMPLIFICATION_LIMIT: f64 = 1024.0;

/// A segmentation of an order into consecutive groups.
#[derive(Debug, Clone, PartialEq)]
pub struct Segmentation {
    /// Consecutive group sizes along the order (their sum is the number of records).
    pub sizes: Vec<usize>,
    /// Total within-group SSE, recomputed exactly from `sizes` (two-pass per group).
    pub sse: f64,
}

impl Segmentation {
    /// Number of records covered (sum of the group sizes).
    pub fn n_records(&self) -> usize {
        self.sizes.iter().sum()
    }

    /// Number of groups.
    pub fn n_groups(&self) -> usize {
        self.sizes.len()
    }

    /// Group label of each position along the order: `labels()[p]` is the group of the
    /// `p`-th record of the order. Groups are numbered `0..n_groups()` in order.
    pub fn labels(&self) -> Vec<usize> {
        self.sizes
            .iter()
            .enumerate()
            .flat_map(|(g, &s)| std::iter::repeat_n(g, s))
            .collect()
    }

    /// Group label of each record, for an `order` that is a permutation of
    /// `0..n_records()`: `labels_along(order)?[order[p]]` is the group of position `p`.
    /// Fails with [`SolverError::BadOrder`] if `order` is not such a permutation.
    pub fn labels_along(&self, order: &[usize]) -> Result<Vec<usize>, SolverError> {
        let n = self.n_records();
        if order.len() != n {
            return Err(SolverError::BadOrder {
                position: order.len().min(n),
                record: usize::MAX,
            });
        }
        let mut labels = vec![usize::MAX; n];
        for (position, (&record, group)) in order.iter().zip(self.labels()).enumerate() {
            if record >= n || labels[record] != usize::MAX {
                return Err(SolverError::BadOrder { position, record });
            }
            labels[record] = group;
        }
        Ok(labels)
    }
}

/// Neumaier's compensated sum: the running sum and the lost low-order bits.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct CompensatedSum {
    sum: f64,
    compensation: f64,
}

impl CompensatedSum {
    pub(crate) fn add(&mut self, value: f64) {
        let t = self.sum + value;
        // Recover the bits of whichever operand was smaller in magnitude.
        if self.sum.abs() >= value.abs() {
            self.compensation += (self.sum - t) + value;
        } else {
            self.compensation += (value - t) + self.sum;
        }
        self.sum = t;
    }

    pub(crate) fn value(&self) -> f64 {
        self.sum + self.compensation
    }
}

/// Checks `k`, `d`, the order and the finiteness of the referenced records.
/// Returns the number of records in `x`.
fn validate(x: &[f64], d: usize, order: &[usize], k: usize) -> Result<usize, SolverError> {
    if k == 0 {
        return Err(SolverError::ZeroGroupSize);
    }
    if d == 0 || !x.len().is_multiple_of(d) {
        return Err(SolverError::BadDimension { len: x.len(), d });
    }
    let n_records = x.len() / d;
    let mut seen = vec![false; n_records];
    for (position, &record) in order.iter().enumerate() {
        if record >= n_records || seen[record] {
            return Err(SolverError::BadOrder { position, record });
        }
        seen[record] = true;
        if let Some(offset) = x[record * d..(record + 1) * d]
            .iter()
            .position(|v| !v.is_finite())
        {
            return Err(SolverError::NonFinite {
                index: record * d + offset,
            });
        }
    }
    if order.len() < k {
        return Err(SolverError::Infeasible { n: order.len(), k });
    }
    Ok(n_records)
}

/// Exact SSE of consecutive groups of `order` with the given sizes: two-pass per group
/// (no cancellation), groups summed with compensation.
fn segmentation_sse(x: &[f64], d: usize, order: &[usize], sizes: &[usize]) -> f64 {
    let mut total = CompensatedSum::default();
    let mut start = 0;
    for &size in sizes {
        total.add(crate::sse::group_sse(x, d, &order[start..start + size]));
        start += size;
    }
    total.value()
}

/// Centroid and SSE of a group, maintained incrementally.
#[derive(Debug, Clone)]
struct GroupStats {
    centroid: Vec<f64>,
    sse: f64,
    size: usize,
}

impl GroupStats {
    fn new(d: usize) -> Self {
        GroupStats {
            centroid: vec![0.0; d],
            sse: 0.0,
            size: 0,
        }
    }

    /// Exact two-pass statistics of the consecutive row-major records `rows`.
    fn recompute(&mut self, rows: &[f64], d: usize) {
        let size = rows.len() / d;
        self.centroid.iter_mut().for_each(|c| *c = 0.0);
        for record in rows.chunks_exact(d) {
            for (c, v) in self.centroid.iter_mut().zip(record) {
                *c += v;
            }
        }
        let inv = 1.0 / size as f64;
        self.centroid.iter_mut().for_each(|c| *c *= inv);
        self.sse = rows
            .chunks_exact(d)
            .map(|record| {
                record
                    .iter()
                    .zip(&self.centroid)
                    .map(|(v, c)| (v - c) * (v - c))
                    .sum::<f64>()
            })
            .sum();
        self.size = size;
    }

    /// Lemma 1 (IMHM appendix, Eqs. 4-5): append one record.
    /// `c' = c + (x - c)/(s+1)`, `SSE' = SSE + sum_l (x_l - c'_l)(x_l - c_l)`; every term is
    /// non-negative because `c'_l` lies between `c_l` and `x_l`.
    fn append(&mut self, record: &[f64]) {
        self.size += 1;
        let inv = 1.0 / self.size as f64;
        let mut added = 0.0;
        for (c, &v) in self.centroid.iter_mut().zip(record) {
            let old = *c;
            *c = old + (v - old) * inv;
            added += (v - *c) * (v - old);
        }
        self.sse += added;
    }

    /// Lemma 2 (IMHM appendix, Eq. 6): replace `leaving` by `entering` (size unchanged).
    /// With `D = entering - leaving`, `c' = c + D/s` and
    /// `SSE' = SSE + sum_l D_l((1-s) D_l + 2 s (entering_l - c'_l)) / s`.
    /// Returns `false` (leaving `self` unspecified) when the update would amplify rounding
    /// error by more than [`SLIDE_AMPLIFICATION_LIMIT`]; the caller then recomputes.
    fn slide(&mut self, leaving: &[f64], entering: &[f64]) -> bool {
        let s = self.size as f64;
        let inv = 1.0 / s;
        let mut change = 0.0;
        let mut magnitude = self.sse.abs();
        for ((c, &out), &inn) in self.centroid.iter_mut().zip(leaving).zip(entering) {
            let delta = inn - out;
            *c += delta * inv;
            let term = delta * ((1.0 - s) * delta + 2.0 * s * (inn - *c)) * inv;
            change += term;
            // `inn - c'` carries the absolute rounding error of `c'` (and of `inn`), which is
            // relative to their magnitude, not to the group's spread.
            magnitude += term.abs() + 2.0 * delta.abs() * inn.abs().max(c.abs());
        }
        self.sse += change;
        // Also rejects a non-positive result unless every term was exactly zero.
        magnitude <= SLIDE_AMPLIFICATION_LIMIT * self.sse || magnitude == 0.0
    }
}

/// Optimal segmentation of `order` into consecutive groups of `k..=2k-1` records
/// (a single group when `order.len() < 2k`), minimising the total SSE.
///
/// `x` is row-major with `d` columns (record `r` is `x[r*d..(r+1)*d]`); `order` lists
/// distinct record indices. Errors: `k = 0`, bad `d`, a repeated or out-of-range index in
/// `order`, a non-finite value in a listed record, or `order.len() < k` (infeasible).
pub fn segment_order(
    x: &[f64],
    d: usize,
    order: &[usize],
    k: usize,
) -> Result<Segmentation, SolverError> {
    validate(x, d, order, k)?;
    let m = order.len();
    if m < 2 * k {
        return Ok(Segmentation {
            sizes: vec![m],
            sse: segmentation_sse(x, d, order, &[m]),
        });
    }
    // Copy the records in path order (contiguous, cache-friendly) and centre each column on
    // its mean: the incremental updates lose about log10(|centroid| / group spread) digits,
    // so the centroids should be small (P07, Section 3).
    let mut ordered = Vec::with_capacity(m * d);
    for &r in order {
        ordered.extend_from_slice(&x[r * d..(r + 1) * d]);
    }
    let mut column_mean = vec![0.0; d];
    for record in ordered.chunks_exact(d) {
        for (c, v) in column_mean.iter_mut().zip(record) {
            *c += v;
        }
    }
    column_mean.iter_mut().for_each(|c| *c /= m as f64);
    for record in ordered.chunks_exact_mut(d) {
        for (v, c) in record.iter_mut().zip(&column_mean) {
            *v -= c;
        }
    }
    let record = |p: usize| &ordered[p * d..(p + 1) * d];

    // best[j]: minimum SSE of a segmentation of the first j records; pred[j]: its last cut.
    let mut best = vec![f64::INFINITY; m + 1];
    let mut pred = vec![usize::MAX; m + 1];
    best[0] = 0.0;

    let mut base = GroupStats::new(d); // the group order[i..i+k]
    let mut grown = GroupStats::new(d); // the group order[i..j] for j > i+k
    let mut slides_since_refresh = 0;
    for i in 0..=m - k {
        // Keep the base group current for every i (it is needed to slide to i + 1).
        let refresh = if i == 0 || slides_since_refresh >= k {
            true
        } else {
            !base.slide(record(i - 1), record(i + k - 1))
        };
        if refresh {
            base.recompute(&ordered[i * d..(i + k) * d], d);
            slides_since_refresh = 0;
        } else {
            slides_since_refresh += 1;
        }
        // Prefixes of 1..k-1 records cannot be segmented: they are never relaxed.
        if i != 0 && pred[i] == usize::MAX {
            continue;
        }
        let from = best[i];
        let relax = |j: usize, cost: f64, best: &mut [f64], pred: &mut [usize]| {
            let candidate = from + cost.max(0.0);
            // The second test only matters if costs overflow to inf: the path stays valid.
            if candidate < best[j] || pred[j] == usize::MAX {
                best[j] = candidate;
                pred[j] = i;
            }
        };
        relax(i + k, base.sse, &mut best, &mut pred);
        let last = m.min(i + 2 * k - 1);
        if i + k < last {
            grown.clone_from(&base);
            for j in i + k + 1..=last {
                grown.append(record(j - 1));
                relax(j, grown.sse, &mut best, &mut pred);
            }
        }
    }

    let mut sizes = Vec::with_capacity(m / k);
    let mut j = m;
    while j > 0 {
        let i = pred[j];
        sizes.push(j - i);
        j = i;
    }
    sizes.reverse();
    let sse = segmentation_sse(x, d, order, &sizes);
    Ok(Segmentation { sizes, sse })
}

/// Fixed-size cut of `order`: consecutive groups of `k` records, the last group absorbing
/// the remainder (`k..=2k-1` records). Same input rules and errors as [`segment_order`].
pub fn fixed_cut(
    x: &[f64],
    d: usize,
    order: &[usize],
    k: usize,
) -> Result<Segmentation, SolverError> {
    validate(x, d, order, k)?;
    let m = order.len();
    let mut sizes = vec![k; m / k];
    if let Some(last) = sizes.last_mut() {
        *last += m % k;
    }
    let sse = segmentation_sse(x, d, order, &sizes);
    Ok(Segmentation { sizes, sse })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sse::group_sse;

    /// SplitMix64 in [0, 1).
    fn uniform(state: &mut u64) -> f64 {
        *state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^= z >> 31;
        (z >> 11) as f64 / (1u64 << 53) as f64
    }

    /// P07 Lemmas 1 and 2: appending and sliding agree with the two-pass SSE, including on
    /// data far from the origin and with outliers (where the guard must trigger).
    #[test]
    fn incremental_updates_match_two_pass() {
        let mut state = 7;
        for trial in 0..200 {
            let d = 1 + trial % 4;
            let n = 40;
            let offset = if trial % 3 == 0 { 1e6 } else { 0.0 };
            let x: Vec<f64> = (0..n * d)
                .map(|p| {
                    let outlier = if p % 97 == 0 { 1e4 } else { 0.0 };
                    offset + outlier + uniform(&mut state)
                })
                .collect();
            let order: Vec<usize> = (0..n).collect();
            let rows = |a: usize, b: usize| &x[a * d..b * d];
            let s = 3 + trial % 5;
            // Appending and sliding lose about log10(|centroid| / spread) digits (P07, Sec. 3),
            // which is why `segment_order` recentres the records first.
            let tolerance = if offset == 0.0 { 1e-11 } else { 1e-7 };
            let mut stats = GroupStats::new(d);
            stats.recompute(rows(0, s), d);
            let mut refreshed = 0;
            for i in 1..=n - s {
                let ok = stats.slide(&x[(i - 1) * d..i * d], &x[(i + s - 1) * d..(i + s) * d]);
                if !ok {
                    refreshed += 1;
                    stats.recompute(rows(i, i + s), d);
                }
                let exact = group_sse(&x, d, &order[i..i + s]);
                assert!(
                    (stats.sse - exact).abs() <= tolerance * exact,
                    "slide trial {trial} i {i}: {} vs {exact}",
                    stats.sse
                );
                let mut grown = stats.clone();
                for j in i + s..n.min(i + 2 * s) {
                    grown.append(&x[j * d..(j + 1) * d]);
                    let exact = group_sse(&x, d, &order[i..=j]);
                    assert!(
                        (grown.sse - exact).abs() <= tolerance * exact,
                        "append trial {trial} i {i} j {j}: {} vs {exact}",
                        grown.sse
                    );
                }
            }
            if offset == 0.0 {
                // The outliers enter and leave windows: the guard must have fired.
                assert!(refreshed > 0, "trial {trial}: guard never fired");
            }
        }
    }

    #[test]
    fn labels_along_inverts_the_order() {
        let seg = Segmentation {
            sizes: vec![2, 3],
            sse: 0.0,
        };
        assert_eq!(seg.labels(), vec![0, 0, 1, 1, 1]);
        assert_eq!(
            seg.labels_along(&[4, 0, 3, 1, 2]).unwrap(),
            vec![0, 1, 1, 1, 0]
        );
        assert!(seg.labels_along(&[0, 0, 1, 2, 3]).is_err());
        assert!(seg.labels_along(&[0, 1]).is_err());
    }

    #[test]
    fn segment_order_rejects_invalid_input() {
        let x = [0.0, 1.0, 2.0, 3.0];
        assert_eq!(
            segment_order(&x, 1, &[0, 1], 0),
            Err(SolverError::ZeroGroupSize)
        );
        assert_eq!(
            segment_order(&x, 3, &[0], 1),
            Err(SolverError::BadDimension { len: 4, d: 3 })
        );
        assert_eq!(
            segment_order(&x, 1, &[0, 4], 1),
            Err(SolverError::BadOrder {
                position: 1,
                record: 4
            })
        );
        assert_eq!(
            segment_order(&x, 1, &[1, 1], 1),
            Err(SolverError::BadOrder {
                position: 1,
                record: 1
            })
        );
        assert_eq!(
            segment_order(&x, 1, &[0, 1, 2], 4),
            Err(SolverError::Infeasible { n: 3, k: 4 })
        );
        assert_eq!(
            fixed_cut(&[0.0, f64::NAN], 1, &[0, 1], 1),
            Err(SolverError::NonFinite { index: 1 })
        );
    }
}
