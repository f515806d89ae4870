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

use super::remaining::{
    anchor_budget, sq_dist_as_scan, AnchorList, MirroredCentroid, Remaining, ANCHOR_MIN,
};
use crate::data::Instance;

mod kernels;
pub use kernels::error_bound;
use kernels::{block_range, distances_f32, kth_smallest_f32, max_f32, BLOCK};

/// Largest magnitude for which the single-precision copy is used (squares and sums stay far
/// below `f32::MAX`).
const MAX_MAGNITUDE: f64 = 1e15;

/// The remaining records with a single-precision copy (see the module doc).
pub struct FilterScan<'a> {
    inst: &'a Instance,
    /// The ids by position (the pool's positions) and the pool's column sums.
    mirror: MirroredCentroid,
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
        for j in 0..d {
            for &i in &ids {
                let v = inst.z[i * d + j];
                cols[j].push(v as f32);
                col_abs[j] = col_abs[j].max(v.abs());
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
            mirror: MirroredCentroid::new(inst, ids),
            cols,
            last_query: None,
            margin: f64::INFINITY,
            col_abs,
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
            let m = self.mirror.len();
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
        let m = self.mirror.len();
        let mut best = (f64::NEG_INFINITY, usize::MAX, 0usize);
        let mut consider = |p: usize| {
            let id = self.mirror.ids()[p];
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
        let m = self.mirror.len();
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
            .map(|p| (self.exact(self.mirror.ids()[p]), self.mirror.ids()[p], p))
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
        let m = self.mirror.len();
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

    /// Swap-remove position `p` (the pool's removal).
    fn remove_at(&mut self, p: usize) -> usize {
        self.last_far = None;
        let id = self.mirror.ids()[p];
        self.mirror.remove_at(p, self.inst.row(id));
        self.cols.iter_mut().for_each(|c| {
            c.swap_remove(p);
        });
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
        self.mirror.len()
    }

    fn centroid(&self) -> Vec<f64> {
        self.mirror.centroid()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.query(point);
        let p = self.farthest_position();
        let id = self.mirror.ids()[p];
        self.last_far = Some((id, p));
        id
    }

    fn farthest_from_centroid(&mut self) -> usize {
        let c = self.centroid();
        let budget = anchor_budget(self.mirror.len());
        if let Some((list, here)) = self.anchors.as_mut() {
            let ids = self.mirror.ids();
            if let Some(id) = list.farthest_reanchoring(self.inst, ids, &c, |i| here[i], budget) {
                return id;
            }
        }
        self.farthest_from(&c)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.query(point);
        let chosen = self.nearest_positions(k);
        let ids: Vec<usize> = chosen.iter().map(|&p| self.mirror.ids()[p]).collect();
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
            _ => self.mirror.position(id),
        };
        self.remove_at(p);
    }

    fn take_all(&mut self) -> Vec<usize> {
        self.last_far = None;
        let ids = self.mirror.take_all();
        self.cols.iter_mut().for_each(Vec::clear);
        self.approx.clear();
        if let Some((_, here)) = self.anchors.as_mut() {
            ids.iter().for_each(|&i| here[i] = false);
        }
        ids
    }
}

#[cfg(test)]
mod tests;
