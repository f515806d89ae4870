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
use std::cmp::Ordering;

/// Unassigned records, column-major, with a distance buffer aligned to them.
pub struct Pool {
    d: usize,
    cols: Vec<Vec<f64>>,
    ids: Vec<usize>,
    /// Squared distances from the last query point, aligned with `ids`.
    dist: Vec<f64>,
}

/// Order by distance, then by record id (lowest first).
#[inline]
fn closer(da: f64, ia: usize, db: f64, ib: usize) -> bool {
    match da.total_cmp(&db) {
        Ordering::Less => true,
        Ordering::Greater => false,
        Ordering::Equal => ia < ib,
    }
}

impl Pool {
    /// All records of the instance.
    pub fn new(inst: &Instance) -> Self {
        Self::from_ids(inst, (0..inst.n).collect())
    }

    /// The given records only.
    pub fn from_ids(inst: &Instance, ids: Vec<usize>) -> Self {
        let d = inst.d;
        let cols = (0..d)
            .map(|j| ids.iter().map(|&i| inst.z[i * d + j]).collect())
            .collect();
        Pool {
            d,
            cols,
            dist: vec![0.0; ids.len()],
            ids,
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

    /// Centroid of the pooled records (fresh column sums; no running totals to drift).
    pub fn centroid(&self) -> Vec<f64> {
        let inv = 1.0 / self.len() as f64;
        self.cols.iter().map(|c| c.iter().sum::<f64>() * inv).collect()
    }

    /// Fill the distance buffer with squared distances to `point`.
    pub fn distances_to(&mut self, point: &[f64]) {
        let m = self.len();
        let dist = &mut self.dist[..m];
        dist.iter_mut().for_each(|x| *x = 0.0);
        for (col, &c) in self.cols.iter().zip(point) {
            for (dd, &v) in dist.iter_mut().zip(col) {
                let t = v - c;
                *dd += t * t;
            }
        }
    }

    /// Position of the record farthest from the last query point (ties: lowest id).
    pub fn argmax_distance(&self) -> usize {
        let mut best = 0;
        for p in 1..self.len() {
            let (dp, db) = (self.dist[p], self.dist[best]);
            if dp > db || (dp == db && self.ids[p] < self.ids[best]) {
                best = p;
            }
        }
        best
    }

    /// Id of the record farthest from `point` (ties: lowest id).
    pub fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.distances_to(point);
        self.ids[self.argmax_distance()]
    }

    /// Coordinates of pooled record at position `p`.
    pub fn point_at(&self, p: usize) -> Vec<f64> {
        self.cols.iter().map(|c| c[p]).collect()
    }

    /// Remove and return the `k` records nearest to `point` (ties: lowest id), in order of
    /// increasing distance. The distance buffer stays valid for the records that remain.
    pub fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.distances_to(point);
        self.take_nearest_by_current_distances(k)
    }

    /// As [`Pool::take_nearest`], using the distances already in the buffer.
    pub fn take_nearest_by_current_distances(&mut self, k: usize) -> Vec<usize> {
        let m = self.len();
        let k = k.min(m);
        let mut chosen: Vec<usize> = if k <= 64 {
            // Bounded insertion buffer of positions, sorted by (distance, id).
            let mut buf: Vec<usize> = Vec::with_capacity(k + 1);
            for p in 0..m {
                let (dp, ip) = (self.dist[p], self.ids[p]);
                if buf.len() == k {
                    let w = buf[k - 1];
                    if !closer(dp, ip, self.dist[w], self.ids[w]) {
                        continue;
                    }
                    buf.pop();
                }
                let at = buf
                    .iter()
                    .position(|&q| closer(dp, ip, self.dist[q], self.ids[q]))
                    .unwrap_or(buf.len());
                buf.insert(at, p);
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
        };
        let ids: Vec<usize> = chosen.iter().map(|&p| self.ids[p]).collect();
        // Swap-remove from the highest position down so lower positions stay valid.
        chosen.sort_unstable_by(|a, b| b.cmp(a));
        for p in chosen {
            self.swap_remove(p);
        }
        ids
    }

    /// Remove and return every pooled record (ascending ids).
    pub fn take_all(&mut self) -> Vec<usize> {
        let mut ids = std::mem::take(&mut self.ids);
        ids.sort_unstable();
        self.cols.iter_mut().for_each(Vec::clear);
        self.dist.clear();
        ids
    }

    /// Remove the record at position `p` and return its id (swap-remove: the record that
    /// was last moves to `p`; the distance buffer stays aligned).
    pub fn remove_at(&mut self, p: usize) -> usize {
        let id = self.ids[p];
        self.swap_remove(p);
        id
    }

    fn swap_remove(&mut self, p: usize) {
        for c in &mut self.cols {
            c.swap_remove(p);
        }
        self.ids.swap_remove(p);
        self.dist.swap_remove(p);
    }

    /// Dimension of the records.
    pub fn dim(&self) -> usize {
        self.d
    }
}

/// Centroids of groups of records (row-major, one per group).
pub fn group_centroids(inst: &Instance, groups: &[Vec<usize>]) -> Vec<f64> {
    let d = inst.d;
    let mut c = vec![0.0; groups.len() * d];
    for (g, members) in groups.iter().enumerate() {
        let row = &mut c[g * d..(g + 1) * d];
        for &i in members {
            row.iter_mut().zip(inst.row(i)).for_each(|(m, v)| *m += v);
        }
        let inv = 1.0 / members.len() as f64;
        row.iter_mut().for_each(|m| *m *= inv);
    }
    c
}

/// Index of the centroid nearest to `x` (ties: lowest index).
pub fn nearest_centroid(centroids: &[f64], d: usize, x: &[f64]) -> usize {
    let mut best = (f64::INFINITY, 0);
    for (g, c) in centroids.chunks_exact(d).enumerate() {
        let dist = crate::partition::sq_dist(x, c);
        if dist < best.0 {
            best = (dist, g);
        }
    }
    best.1
}
