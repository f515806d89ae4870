//! # Pool of unassigned records
//!
//! The working set of the MDAV-like constructive heuristics: the records not yet in a group,
//! stored column by column (structure of arrays) so that the distance pass over all of them,
//! which dominates the running time, streams through memory and vectorises. Removal is
//! swap-remove, so positions are scrambled; every choice therefore compares record ids
//! explicitly, which gives the workbench's rule "ties go to the lowest record index".
//!
//! ## Complexity
//! A distance pass is O(m d) for m pooled records; taking the k nearest is O(m + k log k)
//! expected (a bounded insertion buffer for small k, selection otherwise); removal O(k d).

use crate::data::Instance;
use crate::parallel::{install, threads};
use std::cmp::Ordering;

/// Unassigned records, column-major, with a distance buffer aligned to them.
pub struct Pool {
    cols: Vec<Vec<f64>>,
    ids: Vec<usize>,
    /// Squared distances from the last query point, aligned with `ids`.
    dist: Vec<f64>,
    /// Column sums of the pooled records with Neumaier compensation terms, updated on every
    /// removal, so the centroid costs O(d) instead of a pass over the pool.
    sum: Vec<f64>,
    compensation: Vec<f64>,
}

/// Neumaier's compensated addition of `v` into (`sum`, `comp`).
#[inline]
pub(crate) fn neumaier_add(sum: &mut f64, comp: &mut f64, v: f64) {
    let t = *sum + v;
    if sum.abs() >= v.abs() {
        *comp += (*sum - t) + v;
    } else {
        *comp += (v - t) + *sum;
    }
    *sum = t;
}

/// Order by distance, then by record id (lowest first).
#[inline]
pub(super) fn closer(da: f64, ia: usize, db: f64, ib: usize) -> bool {
    match da.total_cmp(&db) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => ia < ib,
    }
}

/// Offer the record `id` (slot `slot`) at squared distance `dist` to `best`, the `k`
/// nearest so far by increasing [`closer`] order: it goes in at its place when there is
/// room or it is closer than the k-th, which then drops out.
#[inline]
pub(super) fn offer_nearest(
    best: &mut Vec<(f64, usize, usize)>,
    k: usize,
    dist: f64,
    id: usize,
    slot: usize,
) {
    if best.len() == k {
        let w = best[k - 1];
        if !closer(dist, id, w.0, w.1) {
            return;
        }
        best.pop();
    }
    let at = best
        .iter()
        .position(|e| closer(dist, id, e.0, e.1))
        .unwrap_or(best.len());
    best.insert(at, (dist, id, slot));
}

impl Pool {
    /// All records of the instance.
    pub fn new(inst: &Instance) -> Self {
        Self::from_ids(inst, (0..inst.n).collect())
    }

    /// The given records only.
    pub fn from_ids(inst: &Instance, ids: Vec<usize>) -> Self {
        let d = inst.d;
        let cols: Vec<Vec<f64>> = (0..d)
            .map(|j| ids.iter().map(|&i| inst.z[i * d + j]).collect())
            .collect();
        let mut sum = vec![0.0; d];
        let mut compensation = vec![0.0; d];
        for (j, col) in cols.iter().enumerate() {
            for &v in col {
                neumaier_add(&mut sum[j], &mut compensation[j], v);
            }
        }
        Pool {
            cols,
            dist: vec![0.0; ids.len()],
            ids,
            sum,
            compensation,
        }
    }

    pub fn len(&self) -> usize {
        self.ids.len()
    }

    pub fn is_empty(&self) -> bool {
        self.ids.is_empty()
    }

    /// Ids of the pooled records (in scrambled order).
    pub fn ids(&self) -> &[usize] {
        &self.ids
    }

    /// Centroid of the pooled records, from the compensated running column sums (their
    /// error is a few units in the last place of the sum of magnitudes, independent of how
    /// many records were removed).
    pub fn centroid(&self) -> Vec<f64> {
        let inv = 1.0 / self.len() as f64;
        self.sum
            .iter()
            .zip(&self.compensation)
            .map(|(s, c)| (s + c) * inv)
            .collect()
    }

    /// The compensated column sums (sum + compensation) that [`Pool::centroid`] scales by
    /// 1 / len (the masked scan, `crate::geometry::masked_scan`, divides them by per-column counts).
    pub(crate) fn column_sums(&self) -> Vec<f64> {
        self.sum
            .iter()
            .zip(&self.compensation)
            .map(|(s, c)| s + c)
            .collect()
    }

    /// Fill the distance buffer with squared distances to `point`.
    pub(crate) fn distances_to(&mut self, point: &[f64]) {
        let m = self.len();
        squared_distances(&self.cols, point, &mut self.dist[..m]);
    }

    /// Position of the record farthest from the last query point (ties: lowest id).
    pub(crate) fn argmax_distance(&self) -> usize {
        let m = self.len();
        let dist = &self.dist[..m];
        // The largest value by an 8-lane reduction (vectorises; distances are never NaN),
        // then the lowest id among the positions holding it.
        let mut lanes = [f64::NEG_INFINITY; 8];
        let chunks = dist.chunks_exact(8);
        let tail = chunks.remainder();
        for ch in chunks {
            for (l, &v) in lanes.iter_mut().zip(ch) {
                *l = if v > *l { v } else { *l };
            }
        }
        let max = lanes
            .iter()
            .chain(tail)
            .fold(f64::NEG_INFINITY, |a, &b| if b > a { b } else { a });
        let mut best = (usize::MAX, 0);
        for (p, &v) in dist.iter().enumerate() {
            if v == max && self.ids[p] < best.0 {
                best = (self.ids[p], p);
            }
        }
        best.1
    }

    /// Id of the record farthest from `point` (ties: lowest id).
    pub fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.distances_to(point);
        self.ids[self.argmax_distance()]
    }

    /// Coordinates of pooled record at position `p`.
    pub(crate) fn point_at(&self, p: usize) -> Vec<f64> {
        self.cols.iter().map(|c| c[p]).collect()
    }

    /// Remove and return the `k` records nearest to `point` (ties: lowest id), in order of
    /// increasing distance. The distance buffer stays valid for the records that remain.
    pub fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.distances_to(point);
        self.take_nearest_by_current_distances(k)
    }

    /// As [`Pool::take_nearest`], using the distances already in the buffer.
    pub(crate) fn take_nearest_by_current_distances(&mut self, k: usize) -> Vec<usize> {
        let mut chosen = self.nearest_positions_by_current_distances(k);
        let ids: Vec<usize> = chosen.iter().map(|&p| self.ids[p]).collect();
        // Swap-remove from the highest position down so lower positions stay valid.
        chosen.sort_unstable_by(|a, b| b.cmp(a));
        for p in chosen {
            self.swap_remove(p);
        }
        ids
    }

    /// Positions of the `k` records nearest to the last query point (ties: lowest id), in
    /// order of increasing distance; nothing is removed.
    pub(crate) fn nearest_positions_by_current_distances(&self, k: usize) -> Vec<usize> {
        let m = self.len();
        let k = k.min(m);
        if k <= 64 {
            // Bounded insertion buffer of positions, sorted by (distance, id).
            let mut buf: Vec<usize> = Vec::with_capacity(k + 1);
            // (distance, id) of the k-th best so far: most records fail this one test.
            let (mut worst_d, mut worst_id) = (f64::INFINITY, usize::MAX);
            for p in 0..m {
                let (dp, ip) = (self.dist[p], self.ids[p]);
                if dp > worst_d || (dp == worst_d && ip > worst_id) {
                    continue;
                }
                if buf.len() == k {
                    buf.pop();
                }
                let at = buf
                    .iter()
                    .position(|&q| closer(dp, ip, self.dist[q], self.ids[q]))
                    .unwrap_or(buf.len());
                buf.insert(at, p);
                if buf.len() == k {
                    let w = buf[k - 1];
                    (worst_d, worst_id) = (self.dist[w], self.ids[w]);
                }
            }
            buf
        } else {
            let mut pos: Vec<usize> = (0..m).collect();
            let cmp = |a: &usize, b: &usize| {
                self.dist[*a]
                    .total_cmp(&self.dist[*b])
                    .then(self.ids[*a].cmp(&self.ids[*b]))
            };
            if k < m {
                pos.select_nth_unstable_by(k - 1, cmp);
            }
            pos.truncate(k);
            pos.sort_by(cmp);
            pos
        }
    }

    /// Id of the pooled record at position `p`.
    pub(crate) fn id_at(&self, p: usize) -> usize {
        self.ids[p]
    }

    /// Remove the record with id `id` if it is pooled (O(m) search); true if it was.
    pub fn remove_id(&mut self, id: usize) -> bool {
        match self.ids.iter().position(|&i| i == id) {
            Some(p) => {
                self.swap_remove(p);
                true
            }
            None => false,
        }
    }

    /// Remove and return every pooled record (ascending ids).
    pub fn take_all(&mut self) -> Vec<usize> {
        let mut ids = std::mem::take(&mut self.ids);
        ids.sort_unstable();
        self.cols.iter_mut().for_each(Vec::clear);
        self.dist.clear();
        self.sum.iter_mut().for_each(|s| *s = 0.0);
        self.compensation.iter_mut().for_each(|c| *c = 0.0);
        ids
    }

    /// Squared distances from the last query point, aligned with [`Pool::ids`].
    pub fn distances(&self) -> &[f64] {
        &self.dist[..self.ids.len()]
    }

    /// Remove every pooled record whose id satisfies `gone` (O(m + removed d)).
    pub(crate) fn remove_where(&mut self, gone: impl Fn(usize) -> bool) {
        for p in (0..self.len()).rev() {
            if gone(self.ids[p]) {
                self.swap_remove(p);
            }
        }
    }

    /// Remove the record at position `p` and return its id (swap-remove: the record that
    /// was last moves to `p`; the distance buffer stays aligned).
    pub(crate) fn remove_at(&mut self, p: usize) -> usize {
        let id = self.ids[p];
        self.swap_remove(p);
        id
    }

    fn swap_remove(&mut self, p: usize) {
        for (j, c) in self.cols.iter_mut().enumerate() {
            neumaier_add(&mut self.sum[j], &mut self.compensation[j], -c[p]);
            c.swap_remove(p);
        }
        self.ids.swap_remove(p);
        self.dist.swap_remove(p);
    }
}

/// Squared distances from `point` to every record of column-major `cols`, into `dist`.
///
/// The hot loop of every MDAV-like method. It is compiled twice: for the baseline target and
/// with AVX2 enabled, chosen at run time. Both perform the same additions and
/// multiplications in the same order per record (no fused multiply-add, no reassociation),
/// so the results are bit-identical; only the number of records per instruction differs.
pub fn squared_distances(cols: &[Vec<f64>], point: &[f64], dist: &mut [f64]) {
    let m = dist.len();
    if m >= PARALLEL_MIN && threads() > 1 {
        // Chunks of records on rayon's threads: each record's sum is computed by one thread
        // with the same operations, so the result does not depend on the thread count.
        use rayon::prelude::*;
        install(|| {
            dist.par_chunks_mut(PARALLEL_CHUNK)
                .enumerate()
                .for_each(|(c, chunk)| {
                    let start = c * PARALLEL_CHUNK;
                    let end = start + chunk.len();
                    let part: Vec<&[f64]> = cols.iter().map(|col| &col[start..end]).collect();
                    squared_distances_serial(&part, point, chunk);
                })
        });
        return;
    }
    squared_distances_serial(cols, point, dist);
}

/// Passes over fewer records run on one thread (the hand-off costs more than it saves).
pub const PARALLEL_MIN: usize = 32_768;
/// Records per parallel task.
pub(crate) const PARALLEL_CHUNK: usize = 8_192;

fn squared_distances_serial<C: AsRef<[f64]>>(cols: &[C], point: &[f64], dist: &mut [f64]) {
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx2") {
            // SAFETY: the CPU supports AVX2 (checked just above).
            unsafe { squared_distances_avx2(cols, point, dist) };
            return;
        }
    }
    squared_distances_portable(cols, point, dist);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn squared_distances_avx2<C: AsRef<[f64]>>(cols: &[C], point: &[f64], dist: &mut [f64]) {
    squared_distances_portable(cols, point, dist);
}

#[inline(always)]
fn squared_distances_portable<C: AsRef<[f64]>>(cols: &[C], point: &[f64], dist: &mut [f64]) {
    let m = dist.len();
    dist.iter_mut().for_each(|x| *x = 0.0);
    for (col, &c) in cols.iter().zip(point) {
        for (dd, &v) in dist.iter_mut().zip(&col.as_ref()[..m]) {
            let t = v - c;
            *dd += t * t;
        }
    }
}

/// Squared distance over the columns where neither point is NaN, rescaled by d / d_ab;
/// infinite when no column is observed in both. With no NaN: the plain squared Euclidean
/// distance of the scan, bit for bit (terms added in column order from 0.0, factor 1).
#[inline]
pub(crate) fn nan_sq_dist(a: &[f64], b: &[f64]) -> f64 {
    let d = a.len();
    let (mut acc, mut common) = (0.0, 0usize);
    for (x, y) in a.iter().zip(b) {
        let t = x - y;
        if !t.is_nan() {
            acc += t * t;
            common += 1;
        }
    }
    match common {
        c if c == d => acc,
        0 => f64::INFINITY,
        c => acc * (d as f64 / c as f64),
    }
}

/// Per-group column means over the observed cells (NaN where a group has none), groups
/// row by row. With no NaN
/// (complete data) the plain centroids; NaN marks missing cells under `--missing ignore`
/// ([`crate::geometry::masked_scan`]).
pub(crate) fn group_centroids(inst: &Instance, groups: &[Vec<usize>]) -> Vec<f64> {
    let d = inst.d;
    let mut c = vec![0.0; groups.len() * d];
    let mut count = vec![0usize; d];
    for (g, members) in groups.iter().enumerate() {
        let row = &mut c[g * d..(g + 1) * d];
        count.iter_mut().for_each(|n| *n = 0);
        for &i in members {
            for ((m, n), &v) in row.iter_mut().zip(count.iter_mut()).zip(inst.row(i)) {
                if !v.is_nan() {
                    *m += v;
                    *n += 1;
                }
            }
        }
        for (m, &n) in row.iter_mut().zip(&count) {
            *m = if n == 0 {
                f64::NAN
            } else {
                *m * (1.0 / n as f64)
            };
        }
    }
    c
}

/// Index of the centroid nearest to `x` by [`nan_sq_dist`] (ties: lowest index).
pub(crate) fn nearest_centroid(centroids: &[f64], d: usize, x: &[f64]) -> usize {
    nearest_row(centroids, d, x, nan_sq_dist)
}

/// Index of the row of `rows` (row-major, `d` columns) nearest to `x` by `dist(x, row)`
/// (ties: lowest index).
pub(crate) fn nearest_row(
    rows: &[f64],
    d: usize,
    x: &[f64],
    dist: impl Fn(&[f64], &[f64]) -> f64,
) -> usize {
    let mut best = (f64::INFINITY, 0);
    for (g, row) in rows.chunks_exact(d).enumerate() {
        let s = dist(x, row);
        if s < best.0 {
            best = (s, g);
        }
    }
    best.1
}
