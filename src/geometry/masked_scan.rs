//! # The masked scan: remaining-records queries on records with missing cells
//!
//! Under `run --missing ignore` (`src/base/missing/`) the engine ([`crate::init::lineage::engine`]) runs on a
//! copy of the z-scores with NaN at every missing cell. A point (a record, a centroid) is
//! then a slice whose NaN entries are "not observed", and:
//!
//! - the distance (`nan_sq_dist`) runs over the columns observed in both points, rescaled
//!   by d / d_ab (d_ab such columns; none: infinitely far), Gower's convention;
//! - a centroid is per column the mean over the observed cells (NaN where there are none):
//!   `group_centroids`, `grow_to_centroid` and `MaskedScan`'s running sums;
//! - the leftover goes to the nearest centroid by that distance (`nearest_centroid`);
//! - `MaskedScan` answers the [`Remaining`] queries by a scan with that distance. The
//!   kd-tree and the ball buckets are not used: their pruning rests on the triangle
//!   inequality, which the masked distance does not satisfy (a = (0, .), b = (0, 5),
//!   c = (., 5): d(a, c) = inf but d(a, b) = d(b, c) = 0).
//!
//! On complete data every function here performs the operations of its unmasked
//! counterpart in the same order (the distance adds the same terms from 0.0 and is not
//! rescaled, the centroids divide the same sums by the same count, `MaskedScan` removes
//! records from its [`Pool`] in the order [`crate::geometry::remaining::Scan`] does, and Neumaier's
//! update with 0.0 is the identity), so the engine's groups are bit for bit those of the
//! unmasked methods (`tests/release/missing.rs`). That is why the helpers, which the engine and the
//! pool-based methods share, are NaN-aware on every run (one code path, no masked copy):
//! `nan_sq_dist`, `group_centroids` and `nearest_centroid` live in [`crate::geometry::pool`],
//! `grow_to_centroid` in [`crate::init::lineage::growth`]. Only the remaining-records queries need a
//! masked backend of their own, `MaskedScan` ([`crate::geometry::spatial::Backend::Masked`]).
//!
//! ## Complexity
//! `MaskedScan`: O(m d) per query over m remaining records (no pruning), so a masked
//! MDAV costs O(n^2 d / k). The helpers cost what their unmasked counterparts cost.
//!
//! ## References
//! Gower (1971), Biometrics 27(4); Kaufman & Rousseeuw (1990), Finding Groups in Data
//! (`daisy`'s rescaling).

use crate::data::Instance;
use crate::geometry::pool::{nan_sq_dist, Pool};
use crate::geometry::remaining::Remaining;

/// The z-scores with NaN at every missing cell (the masked representation the lineage
/// engine and the masked neighbour lists read).
pub(crate) fn nan_marked(inst: &Instance) -> Instance {
    let mut marked = inst.clone();
    for (z, raw) in marked.z.iter_mut().zip(&inst.raw) {
        if raw.is_nan() {
            *z = f64::NAN;
        }
    }
    marked
}

/// The remaining records of an instance with NaN at missing cells, by a scan with
/// `nan_sq_dist`. The column sums are the [`Pool`]'s compensated running sums over the
/// records with NaN read as 0 (Neumaier's update with 0 changes nothing, so they are the
/// sums of the observed values), divided per column by the number of remaining records
/// that observe it.
pub(crate) struct MaskedScan<'a> {
    inst: &'a Instance,
    pool: Pool,
    /// Remaining records observing each column.
    count: Vec<usize>,
    dist: Vec<f64>,
}

impl<'a> MaskedScan<'a> {
    /// The records `ids` of `inst` (NaN at missing cells).
    pub fn new(inst: &'a Instance, ids: Vec<usize>) -> Self {
        let d = inst.d;
        // The pool reads z; a copy with 0 at the missing cells (its sums then add nothing
        // there). O(n d) once per run.
        let mut filled = inst.clone();
        filled
            .z
            .iter_mut()
            .filter(|v| v.is_nan())
            .for_each(|v| *v = 0.0);
        let mut count = vec![0usize; d];
        for &i in &ids {
            for (n, v) in count.iter_mut().zip(inst.row(i)) {
                *n += usize::from(!v.is_nan());
            }
        }
        MaskedScan {
            inst,
            pool: Pool::from_ids(&filled, ids),
            count,
            dist: Vec::new(),
        }
    }

    fn distances_to(&mut self, point: &[f64]) {
        let (inst, pool) = (self.inst, &self.pool);
        self.dist.clear();
        self.dist
            .extend(pool.ids().iter().map(|&i| nan_sq_dist(inst.row(i), point)));
    }

    fn remove_at(&mut self, p: usize) -> usize {
        let id = self.pool.remove_at(p);
        for (n, v) in self.count.iter_mut().zip(self.inst.row(id)) {
            *n -= usize::from(!v.is_nan());
        }
        id
    }
}

impl Remaining for MaskedScan<'_> {
    fn len(&self) -> usize {
        self.pool.len()
    }

    fn centroid(&self) -> Vec<f64> {
        self.pool
            .column_sums()
            .into_iter()
            .zip(&self.count)
            .map(|(s, &n)| {
                if n == 0 {
                    f64::NAN
                } else {
                    s * (1.0 / n as f64)
                }
            })
            .collect()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.distances_to(point);
        let ids = self.pool.ids();
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for (&i, &v) in ids.iter().zip(&self.dist) {
            if v > best.0 || (v == best.0 && i < best.1) {
                best = (v, i);
            }
        }
        best.1
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.distances_to(point);
        let ids = self.pool.ids();
        let mut pos: Vec<usize> = (0..ids.len()).collect();
        pos.sort_by(|&a, &b| {
            self.dist[a]
                .total_cmp(&self.dist[b])
                .then(ids[a].cmp(&ids[b]))
        });
        pos.truncate(k);
        let chosen: Vec<usize> = pos.iter().map(|&p| ids[p]).collect();
        // Swap-remove from the highest position down, as the scan does (same sums).
        pos.sort_unstable_by(|a, b| b.cmp(a));
        for p in pos {
            self.remove_at(p);
        }
        chosen
    }

    fn remove(&mut self, id: usize) {
        let p = self.pool.ids().iter().position(|&i| i == id);
        debug_assert!(p.is_some(), "record {id} is not remaining");
        if let Some(p) = p {
            self.remove_at(p);
        }
    }

    fn take_all(&mut self) -> Vec<usize> {
        self.count.iter_mut().for_each(|n| *n = 0);
        self.pool.take_all()
    }
}
