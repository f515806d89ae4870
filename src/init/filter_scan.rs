//! # Filtered scan: single-precision distance passes, exact double-precision answers
//!
//! The scan's queries ([`super::remaining::Scan`]) with the distance pass done in `f32` on a
//! single-precision copy of the records: half the bytes per record and twice the records per
//! vector instruction. Every `f32` squared distance differs from the scan's `f64` one by at
//! most a bound E fixed per query point (from the largest magnitude of each column and of
//! the query; `proofs/P16-exact-spatial-queries.md` (h)). A query keeps as candidates only
//! the records whose approximate distance lies within 2E of the approximate answer (the
//! largest for a farthest query, the k-th smallest for a k-nearest query), recomputes their
//! distances with the scan's `f64` operations and answers from those, ties by lowest id. A
//! record left out is strictly worse than a candidate, so the answer is the scan's bit for
//! bit. The candidates are the answer plus records within rounding of it (about k records
//! on continuous data, the tied ones on grids).
//!
//! Records are kept at the scan's positions (same swap-removals in the same order) and the
//! centroid is the pool's compensated running sum replayed in that order, so the centroid
//! too is bit-identical. The farthest-from-centroid query keeps the scan's anchor list.
//! The pass runs on rayon's threads in fixed chunks and each record's distance is computed
//! by one thread; the selection then depends only on those values, so the thread count
//! changes nothing.
//!
//! Data that single precision cannot hold (a magnitude of 10^15 or more, or a non-finite
//! value) go to the plain scan ([`FilterScan::suits`]).
//!
//! ## Complexity
//! O(m d) per query over m remaining records, as the scan, with `f32` arithmetic, plus
//! O(c d) for c candidates; O(m d) memory (`f32`, half the pool's).
//!
//! ## References
//! Higham (2002), Accuracy and Stability of Numerical Algorithms, 2nd ed., ch. 3 (the
//! rounding-error bounds of sums and products).

use super::pool::neumaier_add;
use super::remaining::{anchor_budget, sq_dist_as_scan, AnchorList, Remaining, ANCHOR_MIN};
use crate::data::Instance;

/// Largest magnitude for which the single-precision copy is used (squares and sums stay far
/// below `f32::MAX`).
const MAX_MAGNITUDE: f64 = 1e15;

/// Records per parallel task of the pass, and fewest records for a parallel pass.
const CHUNK: usize = 16_384;
const PARALLEL_MIN: usize = 32_768;

/// The remaining records with a single-precision copy (see the module doc).
pub struct FilterScan<'a> {
    inst: &'a Instance,
    ids: Vec<usize>,
    cols: Vec<Vec<f32>>,
    /// Approximate squared distances to `last_query`, aligned with `ids`.
    approx: Vec<f32>,
    /// Per block of [`BLOCK`] positions, a lower and an upper bound on its `approx` values
    /// (exact after a pass; removals only widen them, so they stay bounds).
    block_min: Vec<f32>,
    block_max: Vec<f32>,
    last_query: Option<Vec<f64>>,
    /// Bound on |approx - scan distance| for `last_query` (already widened for the
    /// threshold arithmetic); infinite when the query point is too large for `f32`.
    margin: f64,
    /// Largest |value| of each column over the records given at the start.
    col_abs: Vec<f64>,
    /// Compensated column sums, as [`super::pool::Pool`] keeps them.
    sum: Vec<f64>,
    compensation: Vec<f64>,
    anchors: Option<(AnchorList, Vec<bool>)>,
    last_far: Option<(usize, usize)>,
    /// Multiplies the margin; 1 except in the test that loosens it on purpose.
    margin_factor: f64,
}

impl<'a> FilterScan<'a> {
    /// True when every value of the records `ids` is finite and below 10^15 in magnitude.
    pub fn suits(inst: &Instance, ids: &[usize]) -> bool {
        ids.iter().all(|&i| {
            inst.row(i)
                .iter()
                .all(|v| v.is_finite() && v.abs() < MAX_MAGNITUDE)
        })
    }

    /// The records `ids` of `inst` (they must [`FilterScan::suits`]).
    pub fn new(inst: &'a Instance, ids: Vec<usize>) -> Self {
        let d = inst.d;
        debug_assert!(Self::suits(inst, &ids));
        let mut cols = vec![Vec::with_capacity(ids.len()); d];
        let mut col_abs = vec![0.0f64; d];
        let mut sum = vec![0.0; d];
        let mut compensation = vec![0.0; d];
        // Column by column in id order, as the pool sums them.
        for j in 0..d {
            for &i in &ids {
                let v = inst.z[i * d + j];
                cols[j].push(v as f32);
                col_abs[j] = col_abs[j].max(v.abs());
                neumaier_add(&mut sum[j], &mut compensation[j], v);
            }
        }
        let anchors = (ids.len() >= ANCHOR_MIN).then(|| {
            let mut here = vec![false; inst.n];
            ids.iter().for_each(|&i| here[i] = true);
            (AnchorList::new(inst, &ids), here)
        });
        let blocks = ids.len().div_ceil(BLOCK);
        FilterScan {
            inst,
            approx: vec![0.0; ids.len()],
            block_min: vec![0.0; blocks],
            block_max: vec![0.0; blocks],
            ids,
            cols,
            last_query: None,
            margin: f64::INFINITY,
            col_abs,
            sum,
            compensation,
            anchors,
            last_far: None,
            margin_factor: 1.0,
        }
    }

    /// As [`FilterScan::new`] with the margin multiplied by `factor`: only for the test that
    /// shows a loosened margin (factor < 1) changes answers.
    #[doc(hidden)]
    pub fn with_margin_factor(inst: &'a Instance, ids: Vec<usize>, factor: f64) -> Self {
        let mut s = Self::new(inst, ids);
        s.margin_factor = factor;
        s
    }

    /// Fill `approx` for `point` (unless it already holds it) and set the margin.
    fn query(&mut self, point: &[f64]) {
        if self.last_query.as_deref() == Some(point) {
            return;
        }
        self.margin = self.margin_factor * error_bound(&self.col_abs, point);
        if self.margin.is_finite() {
            let q: Vec<f32> = point.iter().map(|&v| v as f32).collect();
            let m = self.ids.len();
            let nb = m.div_ceil(BLOCK);
            distances_f32(
                &self.cols,
                &q,
                &mut self.approx[..m],
                &mut self.block_min[..nb],
                &mut self.block_max[..nb],
            );
        }
        self.last_query = Some(point.to_vec());
    }

    /// The scan's distance from record `id` to the last query point.
    fn exact(&self, id: usize) -> f64 {
        let q = self.last_query.as_deref().expect("a query point is set");
        sq_dist_as_scan(self.inst.row(id), q)
    }

    /// Position of the record farthest from the last query point (ties: lowest id).
    fn farthest_position(&self) -> usize {
        let m = self.ids.len();
        let mut best = (f64::NEG_INFINITY, usize::MAX, 0usize);
        let mut consider = |p: usize| {
            let id = self.ids[p];
            let dist = self.exact(id);
            if dist > best.0 || (dist == best.0 && id < best.1) {
                best = (dist, id, p);
            }
        };
        if !self.margin.is_finite() {
            (0..m).for_each(&mut consider);
            return best.2;
        }
        // A value some record has (the best block's own largest), then every block that may
        // hold a value within 2E of the largest.
        let nb = m.div_ceil(BLOCK);
        let (b, _) =
            self.block_max[..nb]
                .iter()
                .enumerate()
                .fold(
                    (0, f32::NEG_INFINITY),
                    |a, (b, &v)| if v > a.1 { (b, v) } else { a },
                );
        let some = max_f32(&self.approx[block_range(b, m)]) as f64;
        let mut found: Vec<(f32, usize)> = Vec::new();
        for (b, &hi) in self.block_max[..nb].iter().enumerate() {
            if hi as f64 >= some - 2.0 * self.margin {
                for p in block_range(b, m) {
                    found.push((self.approx[p], p));
                }
            }
        }
        let top = found.iter().fold(f32::NEG_INFINITY, |a, e| a.max(e.0)) as f64;
        let low = top - 2.0 * self.margin;
        for &(a, p) in &found {
            if a as f64 >= low {
                consider(p);
            }
        }
        best.2
    }

    /// Positions of the `k` records nearest to the last query point by increasing (scan
    /// distance, id).
    fn nearest_positions(&self, k: usize) -> Vec<usize> {
        let m = self.ids.len();
        let k = k.min(m);
        if k == 0 {
            return Vec::new();
        }
        let candidates: Vec<usize> = if self.margin.is_finite() {
            self.near_candidates(k)
        } else {
            (0..m).collect()
        };
        let mut keyed: Vec<(f64, usize, usize)> = candidates
            .into_iter()
            .map(|p| (self.exact(self.ids[p]), self.ids[p], p))
            .collect();
        let by = |a: &(f64, usize, usize), b: &(f64, usize, usize)| {
            a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
        };
        if keyed.len() > k {
            keyed.select_nth_unstable_by(k - 1, by);
            keyed.truncate(k);
        }
        keyed.sort_unstable_by(by);
        keyed.into_iter().map(|e| e.2).collect()
    }

    /// Positions whose approximate distance is within 2E of the k-th smallest (every record
    /// that can be among the k nearest).
    fn near_candidates(&self, k: usize) -> Vec<usize> {
        let m = self.ids.len();
        let nb = m.div_ceil(BLOCK);
        // An upper bound on the k-th smallest value: the k-th smallest of the values held by
        // the k blocks with the lowest bounds (k records from distinct blocks, each at
        // most its block's smallest value from the lowest ones).
        let mut lowest: Vec<(f32, usize)> = Vec::with_capacity(k + 1);
        for (b, &v) in self.block_min[..nb].iter().enumerate() {
            if lowest.len() == k && v >= lowest[k - 1].0 {
                continue;
            }
            let at = lowest.partition_point(|e| e.0 <= v);
            lowest.insert(at, (v, b));
            lowest.truncate(k);
        }
        let mut seen: Vec<f32> = Vec::with_capacity(lowest.len() * BLOCK);
        lowest
            .iter()
            .for_each(|&(_, b)| seen.extend_from_slice(&self.approx[block_range(b, m)]));
        let upper = kth_smallest_f32(&seen, k) as f64;
        // Every value within 2E of `upper` (a superset of the k smallest), then the exact
        // k-th smallest among them and the records within 2E of it.
        let reach = upper + 2.0 * self.margin;
        let mut found: Vec<(f32, usize)> = Vec::new();
        for (b, &lo) in self.block_min[..nb].iter().enumerate() {
            if lo as f64 <= reach {
                for p in block_range(b, m) {
                    if self.approx[p] as f64 <= reach {
                        found.push((self.approx[p], p));
                    }
                }
            }
        }
        let values: Vec<f32> = found.iter().map(|e| e.0).collect();
        let high = kth_smallest_f32(&values, k) as f64 + 2.0 * self.margin;
        found
            .into_iter()
            .filter(|e| e.0 as f64 <= high)
            .map(|e| e.1)
            .collect()
    }

    /// Swap-remove position `p` (the pool's removal: sums first, then the arrays).
    fn remove_at(&mut self, p: usize) -> usize {
        self.last_far = None;
        let id = self.ids[p];
        let row = self.inst.row(id);
        for (j, c) in self.cols.iter_mut().enumerate() {
            neumaier_add(&mut self.sum[j], &mut self.compensation[j], -row[j]);
            c.swap_remove(p);
        }
        self.ids.swap_remove(p);
        self.approx.swap_remove(p);
        // The record moved into p widens p's block bounds.
        if p < self.approx.len() {
            let (b, v) = (p / BLOCK, self.approx[p]);
            self.block_min[b] = self.block_min[b].min(v);
            self.block_max[b] = self.block_max[b].max(v);
        }
        if let Some((_, here)) = self.anchors.as_mut() {
            here[id] = false;
        }
        id
    }
}

impl Remaining for FilterScan<'_> {
    fn len(&self) -> usize {
        self.ids.len()
    }

    fn centroid(&self) -> Vec<f64> {
        let inv = 1.0 / self.ids.len() as f64;
        self.sum
            .iter()
            .zip(&self.compensation)
            .map(|(s, c)| (s + c) * inv)
            .collect()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.query(point);
        let p = self.farthest_position();
        let id = self.ids[p];
        self.last_far = Some((id, p));
        id
    }

    fn farthest_from_centroid(&mut self) -> usize {
        let c = self.centroid();
        let budget = anchor_budget(self.ids.len());
        if let Some((list, here)) = self.anchors.as_mut() {
            if let Some(id) = list.farthest(self.inst, &c, |i| here[i], budget) {
                return id;
            }
            // The centroid has drifted from the anchor: re-anchor at it and walk again.
            *list = AnchorList::at(self.inst, &self.ids, c.clone());
            if let Some(id) = list.farthest(self.inst, &c, |i| here[i], budget) {
                return id;
            }
        }
        self.farthest_from(&c)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.query(point);
        let chosen = self.nearest_positions(k);
        let ids: Vec<usize> = chosen.iter().map(|&p| self.ids[p]).collect();
        let mut desc = chosen;
        desc.sort_unstable_by(|a, b| b.cmp(a));
        for p in desc {
            self.remove_at(p);
        }
        ids
    }

    fn remove(&mut self, id: usize) {
        let p = match self.last_far {
            Some((i, p)) if i == id => p,
            _ => self
                .ids
                .iter()
                .position(|&i| i == id)
                .expect("the record is remaining"),
        };
        self.remove_at(p);
    }

    fn take_all(&mut self) -> Vec<usize> {
        self.last_far = None;
        let mut ids = std::mem::take(&mut self.ids);
        ids.sort_unstable();
        self.cols.iter_mut().for_each(Vec::clear);
        self.approx.clear();
        self.sum.iter_mut().for_each(|s| *s = 0.0);
        self.compensation.iter_mut().for_each(|c| *c = 0.0);
        if let Some((_, here)) = self.anchors.as_mut() {
            ids.iter().for_each(|&i| here[i] = false);
        }
        ids
    }
}

/// A bound on |f32 pass - f64 scan| for every record whose column magnitudes are at most
/// `col_abs`, from the query `point` (P16 (h)); infinite when `point` is too large for
/// `f32`. Widened by 1 % for the rounding of the bound itself and of the thresholds.
pub fn error_bound(col_abs: &[f64], point: &[f64]) -> f64 {
    const U: f64 = 1.0 / (1u64 << 24) as f64; // f32 unit roundoff
    const ETA: f64 = 1.401_298_464_324_817e-45; // 2^-149: f32 underflow, generous
    const U64: f64 = 1.0 / (1u64 << 53) as f64;
    let d = col_abs.len() as f64;
    if point
        .iter()
        .any(|v| !v.is_finite() || v.abs() >= MAX_MAGNITUDE)
    {
        return f64::INFINITY;
    }
    let gamma = |n: f64, u: f64| n * u / (1.0 - n * u);
    let (mut single, mut terms, mut a_sq) = (0.0, 0.0, 0.0);
    for (&xa, &qv) in col_abs.iter().zip(point) {
        let a = xa + qv.abs(); // |x_j - q_j| <= a
                               // Conversions of x and q, then the rounded subtraction.
        let delta = U * a + 2.0 * ETA + U * (a * (1.0 + U) + 2.0 * ETA);
        let b = (a * (1.0 + U) + 2.0 * ETA) * (1.0 + U); // |computed difference| <= b
        single += delta * (b + a) + U * b * b + ETA;
        terms += b * b * (1.0 + U) + ETA;
        a_sq += a * a;
    }
    single += gamma(d, U) * terms;
    // The scan's own rounding: d + 2 roundings of at most sum a_j^2, plus underflow.
    let double = gamma(d + 2.0, U64) * a_sq + d * f64::from_bits(1);
    (single + double) * 1.01
}

/// Positions of block `b` among `m` records.
fn block_range(b: usize, m: usize) -> std::ops::Range<usize> {
    b * BLOCK..((b + 1) * BLOCK).min(m)
}

/// Squared distances in `f32` from `q` to every record of `cols` (columns), into `out`, and
/// each block's smallest and largest value; parallel over fixed chunks for large passes
/// (each value computed by one thread).
fn distances_f32(cols: &[Vec<f32>], q: &[f32], out: &mut [f32], lo: &mut [f32], hi: &mut [f32]) {
    let m = out.len();
    if m >= PARALLEL_MIN && rayon::current_num_threads() > 1 {
        use rayon::prelude::*;
        const BLOCKS: usize = CHUNK / BLOCK;
        out.par_chunks_mut(CHUNK)
            .zip(lo.par_chunks_mut(BLOCKS))
            .zip(hi.par_chunks_mut(BLOCKS))
            .enumerate()
            .for_each(|(c, ((chunk, lo), hi))| {
                let start = c * CHUNK;
                let part: Vec<&[f32]> = cols
                    .iter()
                    .map(|col| &col[start..start + chunk.len()])
                    .collect();
                distances_f32_serial(&part, q, chunk, lo, hi);
            });
    } else {
        distances_f32_serial(cols, q, out, lo, hi);
    }
}

fn distances_f32_serial<C: AsRef<[f32]>>(
    cols: &[C],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { distances_f32_avx2(cols, q, out, lo, hi) };
            return;
        }
    }
    distances_f32_portable(cols, q, out, lo, hi);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn distances_f32_avx2<C: AsRef<[f32]>>(
    cols: &[C],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    use std::arch::x86_64::*;
    let m = out.len();
    let full = m / BLOCK;
    for b in 0..full {
        let start = b * BLOCK;
        // Eight accumulators of eight lanes in registers across the columns; per lane the
        // portable path's operations: t = v - c, acc = acc + t * t (no fused multiply-add).
        let mut acc = [_mm256_setzero_ps(); BLOCK / 8];
        for (col, &c) in cols.iter().zip(q) {
            let x = &col.as_ref()[start..start + BLOCK];
            let cv = _mm256_set1_ps(c);
            for (i, a) in acc.iter_mut().enumerate() {
                // SAFETY: x holds BLOCK values, so 8 i .. 8 i + 8 is in bounds.
                let v = _mm256_loadu_ps(x.as_ptr().add(8 * i));
                let t = _mm256_sub_ps(v, cv);
                *a = _mm256_add_ps(*a, _mm256_mul_ps(t, t));
            }
        }
        let dst = &mut out[start..start + BLOCK];
        for (i, a) in acc.iter().enumerate() {
            // SAFETY: dst holds BLOCK values.
            _mm256_storeu_ps(dst.as_mut_ptr().add(8 * i), *a);
        }
        lo[b] = min_f32(dst);
        hi[b] = max_f32(dst);
    }
    if full < lo.len() {
        let tail: Vec<&[f32]> = cols.iter().map(|c| &c.as_ref()[full * BLOCK..m]).collect();
        distances_f32_portable(
            &tail,
            q,
            &mut out[full * BLOCK..],
            &mut lo[full..],
            &mut hi[full..],
        );
    }
}

/// Records per block: kept in registers across the columns, and the unit of the block
/// bounds.
const BLOCK: usize = 64;

#[inline(always)]
fn distances_f32_portable<C: AsRef<[f32]>>(
    cols: &[C],
    q: &[f32],
    out: &mut [f32],
    lo: &mut [f32],
    hi: &mut [f32],
) {
    let m = out.len();
    for (b, (lo, hi)) in lo.iter_mut().zip(hi.iter_mut()).enumerate() {
        let range = block_range(b, m);
        if range.len() == BLOCK {
            // A full block: a fixed-size accumulator the compiler keeps in registers across
            // the columns (same operations per record as below).
            let mut acc = [0.0f32; BLOCK];
            for (col, &c) in cols.iter().zip(q) {
                let x: &[f32; BLOCK] = col.as_ref()[range.clone()]
                    .try_into()
                    .expect("a full block");
                for (a, &v) in acc.iter_mut().zip(x) {
                    let t = v - c;
                    *a += t * t;
                }
            }
            *lo = min_f32(&acc);
            *hi = max_f32(&acc);
            out[range].copy_from_slice(&acc);
            continue;
        }
        let mut acc = [0.0f32; BLOCK];
        let acc = &mut acc[..range.len()];
        for (col, &c) in cols.iter().zip(q) {
            for (a, &v) in acc.iter_mut().zip(&col.as_ref()[range.clone()]) {
                let t = v - c;
                *a += t * t;
            }
        }
        *lo = min_f32(acc);
        *hi = max_f32(acc);
        out[range].copy_from_slice(acc);
    }
}

/// Smallest value (the values are never NaN).
#[inline(always)]
fn min_f32(v: &[f32]) -> f32 {
    let mut lanes = [f32::INFINITY; 16];
    let chunks = v.chunks_exact(16);
    let tail = chunks.remainder();
    for ch in chunks {
        for (l, &x) in lanes.iter_mut().zip(ch) {
            *l = if x < *l { x } else { *l };
        }
    }
    lanes
        .iter()
        .chain(tail)
        .fold(f32::INFINITY, |a, &b| if b < a { b } else { a })
}

/// Largest value (the values are never NaN).
#[inline(always)]
fn max_f32(v: &[f32]) -> f32 {
    let mut lanes = [f32::NEG_INFINITY; 16];
    let chunks = v.chunks_exact(16);
    let tail = chunks.remainder();
    for ch in chunks {
        for (l, &x) in lanes.iter_mut().zip(ch) {
            *l = if x > *l { x } else { *l };
        }
    }
    lanes
        .iter()
        .chain(tail)
        .fold(f32::NEG_INFINITY, |a, &b| if b > a { b } else { a })
}

/// The k-th smallest value counted with multiplicity (1 <= k <= len; never NaN).
fn kth_smallest_f32(v: &[f32], k: usize) -> f32 {
    if k > 32 {
        let mut copy = v.to_vec();
        let (_, kth, _) = copy.select_nth_unstable_by(k - 1, f32::total_cmp);
        return *kth;
    }
    // The k smallest so far, ascending; most values fail the first test.
    let mut best: Vec<f32> = Vec::with_capacity(k + 1);
    let mut worst = f32::INFINITY;
    for ch in v.chunks(16) {
        // One vectorisable test per chunk before looking at its values one by one.
        if best.len() == k && ch.iter().fold(f32::INFINITY, |a, &b| a.min(b)) >= worst {
            continue;
        }
        for &x in ch {
            if best.len() == k && x >= worst {
                continue;
            }
            let at = best.partition_point(|&b| b <= x);
            best.insert(at, x);
            best.truncate(k);
            if best.len() == k {
                worst = best[k - 1];
            }
        }
    }
    best[k - 1]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kth_smallest_counts_duplicates() {
        let v = [3.0f32, 1.0, 1.0, 2.0, 5.0, 0.5];
        assert_eq!(kth_smallest_f32(&v, 1), 0.5);
        assert_eq!(kth_smallest_f32(&v, 2), 1.0);
        assert_eq!(kth_smallest_f32(&v, 3), 1.0);
        assert_eq!(kth_smallest_f32(&v, 4), 2.0);
        assert_eq!(kth_smallest_f32(&v, 6), 5.0);
        let long: Vec<f32> = (0..100).map(|i| ((i * 37) % 100) as f32).collect();
        assert_eq!(kth_smallest_f32(&long, 40), 39.0);
        assert_eq!(max_f32(&long), 99.0);
    }

    /// The bound holds against the difference of the two computations on values chosen to
    /// round badly in `f32` (and the bound is not vacuous: well below the distances).
    #[test]
    fn error_bound_covers_the_single_precision_error() {
        let mut s = 0x2545_F491_4F6C_DD1Du64;
        let mut next = || {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            (s >> 11) as f64 / (1u64 << 53) as f64
        };
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
}
