//! # Remaining records: the queries of the MDAV-lineage engine
//!
//! The seed-and-grow heuristics ([`crate::init::lineage::engine`]) need four things of the records not yet
//! grouped: their centroid, the record farthest from a point, the k records nearest to a
//! point (removed as they are taken), and removal of given records. [`Remaining`] names
//! them; four implementations give identical answers:
//!
//! - [`Scan`]: a distance pass over every remaining record per query ([`Pool`]), best for
//!   small n or large d;
//! - [`super::kdtree::KdRemaining`]: a kd-tree with deletions, exact (bounds that hold in
//!   floating point; see its module doc);
//! - [`super::buckets::BucketRemaining`]: ball buckets (triangle-inequality bounds from
//!   each record's distance to its bucket's centre), for higher d and large m;
//! - [`super::filter_scan::FilterScan`]: the scan's passes in single precision, the answer
//!   recomputed in double precision among the records within a proven error bound.
//!
//! All compute a squared distance the same way (the terms `(x_j - q_j)^2` added in column
//! order from 0.0), break ties by the lowest record id, and keep the centroid as the
//! compensated running sums of [`Pool`], updated in the same removal order (a batch is
//! removed from the highest pool position down, as [`Pool`] does; the backends that do not
//! keep a [`Pool`] replay it through one [`MirroredCentroid`]), so every choice and every
//! centroid is bit-identical. [`super::spatial::open`] picks one by n and d.
//!
//! ## Complexity
//! [`Scan`]: O(m d) per query over m remaining records. Tree: see its module doc. Removal
//! O(d) per record in both (plus the tree's box updates).

use super::pool::{neumaier_add, Pool};
use crate::data::Instance;

/// Squared distance with the scan's operations in the scan's order.
#[inline]
pub fn sq_dist_as_scan(x: &[f64], q: &[f64]) -> f64 {
    let mut acc = 0.0;
    for (a, b) in x.iter().zip(q) {
        let t = a - b;
        acc += t * t;
    }
    acc
}

/// Relative slack on radii from rounded distances (the rounding error of a squared
/// distance over d terms is below (d + 2) 2^-53 relative, far below this for any d the
/// workbench meets), plus an absolute term for underflow: squares below 2^-1022 lose up to
/// 2^-1075 each, d 2^-1075 in all, whose square root is below 1e-150 for any d < 10^140.
const SLACK: f64 = 1e-9;
const TINY: f64 = 1e-150;

/// An upper bound on the exact distance given a computed squared distance.
#[inline]
pub(crate) fn inflate_radius(sq: f64) -> f64 {
    sq.sqrt() * (1.0 + SLACK) + TINY
}

/// An upper bound on a computed squared distance given an upper bound on the exact distance.
#[inline]
pub(crate) fn inflate_square(r: f64) -> f64 {
    r * r * (1.0 + SLACK) + TINY
}

/// What the engine asks of the records not yet grouped. Ties: lowest record id.
pub trait Remaining {
    /// Number of remaining records.
    fn len(&self) -> usize;
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// Centroid of the remaining records (compensated running sums, as [`Pool::centroid`]).
    fn centroid(&self) -> Vec<f64>;
    /// Id of the remaining record farthest from `point`.
    fn farthest_from(&mut self, point: &[f64]) -> usize;
    /// Id of the remaining record farthest from [`Remaining::centroid`]: the anchor walk's
    /// answer when it has one, else [`Remaining::farthest_from`].
    fn farthest_from_centroid(&mut self) -> usize {
        let c = self.centroid();
        match self.anchored_farthest(&c) {
            Some(id) => id,
            None => self.farthest_from(&c),
        }
    }
    /// The remaining record farthest from the centroid `c` by the backend's anchor list
    /// ([`AnchorList::farthest_reanchoring`]), or None (no list, or its walks ran over
    /// their budget): the caller then scans.
    fn anchored_farthest(&mut self, _c: &[f64]) -> Option<usize> {
        None
    }
    /// Remove and return the `k` remaining records nearest to `point`, by increasing
    /// distance (fewer if fewer remain).
    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize>;
    /// Remove the remaining record `id` (it must be remaining).
    fn remove(&mut self, id: usize);
    /// Remove and return every remaining record, ascending ids.
    fn take_all(&mut self) -> Vec<usize>;
}

/// Records listed by decreasing distance to a fixed anchor (the mean of all of them), for
/// farthest queries from points near the anchor, above all the centroid of the remaining
/// records, which moves little as MDAV peels groups off both ends: with D the distance from
/// the query q to the anchor, a record x is at most |x - a| + D from q, so the walk down the
/// list stops once that bound (inflated for rounding as in [`super::kdtree`]) is strictly
/// below the best computed squared distance: the answer, ties included, is the scan's.
pub(crate) struct AnchorList {
    anchor: Vec<f64>,
    /// Ids by decreasing anchor distance, with their inflated anchor distances.
    order: Vec<usize>,
    radius: Vec<f64>,
    /// No remaining record before this index of `order`.
    first: usize,
}

/// Lists below this size are not worth keeping: a scan of them is as fast.
pub(crate) const ANCHOR_MIN: usize = 512;

/// Records an anchor walk may visit before the list is re-anchored at the query (the
/// centroid has drifted) and, failing again, the query falls back to a full pass.
pub(crate) fn anchor_budget(m: usize) -> usize {
    m / 32 + 64
}

impl AnchorList {
    pub fn new(inst: &Instance, ids: &[usize]) -> Self {
        let d = inst.d;
        let mut anchor = vec![0.0; d];
        for &i in ids {
            anchor
                .iter_mut()
                .zip(inst.row(i))
                .for_each(|(a, v)| *a += v);
        }
        anchor
            .iter_mut()
            .for_each(|a| *a /= ids.len().max(1) as f64);
        Self::at(inst, ids, anchor)
    }

    /// The records `ids` by decreasing distance to `anchor`.
    pub fn at(inst: &Instance, ids: &[usize], anchor: Vec<f64>) -> Self {
        let mut by: Vec<(f64, usize)> = ids
            .iter()
            .map(|&i| (inflate_radius(sq_dist_as_scan(inst.row(i), &anchor)), i))
            .collect();
        by.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        AnchorList {
            anchor,
            radius: by.iter().map(|e| e.0).collect(),
            order: by.into_iter().map(|e| e.1).collect(),
            first: 0,
        }
    }

    /// [`AnchorList::farthest`] from the centroid `c` of the remaining records `ids`; when
    /// the walk runs over its budget (the centroid has drifted from the anchor) the list is
    /// re-anchored at `c` and walked once more. None: the caller scans.
    pub(crate) fn farthest_reanchoring(
        &mut self,
        inst: &Instance,
        ids: &[usize],
        c: &[f64],
        remaining: impl Fn(usize) -> bool,
        budget: usize,
    ) -> Option<usize> {
        if let Some(id) = self.farthest(inst, c, &remaining, budget) {
            return Some(id);
        }
        *self = AnchorList::at(inst, ids, c.to_vec());
        self.farthest(inst, c, &remaining, budget)
    }

    /// The remaining record farthest from `q` (ties: lowest id), or None when the walk
    /// would visit more than `budget` records (the caller then scans). The walk drops the
    /// removed records it passes (the live ones it passed move up, in order, to end where
    /// it stopped), so a later walk does not pass them again; the live records and their
    /// order, and so every answer, stay the same.
    pub fn farthest(
        &mut self,
        inst: &Instance,
        q: &[f64],
        remaining: impl Fn(usize) -> bool,
        budget: usize,
    ) -> Option<usize> {
        let dq = inflate_radius(sq_dist_as_scan(q, &self.anchor));
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        let mut visited = 0;
        // Live entries passed so far are copied down to first..kept.
        let mut kept = self.first;
        let mut at = self.first;
        let mut over = false;
        while at < self.order.len() {
            let (i, r) = (self.order[at], self.radius[at]);
            if inflate_square(r + dq) < best.0 {
                break;
            }
            at += 1;
            if !remaining(i) {
                continue;
            }
            self.order[kept] = i;
            self.radius[kept] = r;
            kept += 1;
            visited += 1;
            if visited > budget {
                over = true;
                break;
            }
            let dist = sq_dist_as_scan(inst.row(i), q);
            if dist > best.0 || (dist == best.0 && i < best.1) {
                best = (dist, i);
            }
        }
        // Move the live entries passed (first..kept) to end at `at`, in order.
        let live = kept - self.first;
        let start = at - live;
        self.order.copy_within(self.first..kept, start);
        self.radius.copy_within(self.first..kept, start);
        self.first = start;
        if over {
            return None;
        }
        (best.1 != usize::MAX).then_some(best.1)
    }
}

/// The pool's removal order and compensated column sums, replayed by a backend that keeps
/// its records in another order (or in the pool's order but not in a [`Pool`]), so that its
/// centroid is [`Pool::centroid`] bit for bit: the sums start column by column over the
/// records in the order given, and each removal swap-removes the record's position (the
/// last record moves into it) and subtracts its row, as the pool does. A batch is removed
/// from the highest position down ([`MirroredCentroid::by_descending_position`]), as the
/// scan removes the k nearest.
pub struct MirroredCentroid {
    /// Ids by pool position, and the position of each id (indexed by id; NONE if absent).
    order: Vec<usize>,
    position: Vec<usize>,
    sum: Vec<f64>,
    compensation: Vec<f64>,
}

const ABSENT: usize = usize::MAX;

impl MirroredCentroid {
    /// The records `ids` of `inst`, in the pool's initial order.
    pub fn new(inst: &Instance, ids: Vec<usize>) -> Self {
        let d = inst.d;
        let mut sum = vec![0.0; d];
        let mut compensation = vec![0.0; d];
        // Column by column in id order, as the pool sums them.
        for j in 0..d {
            for &i in &ids {
                neumaier_add(&mut sum[j], &mut compensation[j], inst.z[i * d + j]);
            }
        }
        let mut position = vec![ABSENT; inst.n];
        for (p, &i) in ids.iter().enumerate() {
            position[i] = p;
        }
        MirroredCentroid {
            order: ids,
            position,
            sum,
            compensation,
        }
    }

    pub fn len(&self) -> usize {
        self.order.len()
    }

    pub fn is_empty(&self) -> bool {
        self.order.is_empty()
    }

    /// The remaining ids in pool order.
    pub fn ids(&self) -> &[usize] {
        &self.order
    }

    /// Pool position of the remaining record `id`.
    pub fn position(&self, id: usize) -> usize {
        debug_assert!(self.position[id] != ABSENT, "record {id} is not remaining");
        self.position[id]
    }

    /// The centroid of the remaining records, as [`Pool::centroid`] computes it.
    pub fn centroid(&self) -> Vec<f64> {
        let inv = 1.0 / self.order.len() as f64;
        self.sum
            .iter()
            .zip(&self.compensation)
            .map(|(s, c)| (s + c) * inv)
            .collect()
    }

    /// Remove the record at pool position `p` (its row is `row`); returns its id.
    pub(crate) fn remove_at(&mut self, p: usize, row: &[f64]) -> usize {
        for ((s, c), &v) in self.sum.iter_mut().zip(&mut self.compensation).zip(row) {
            neumaier_add(s, c, -v);
        }
        let id = self.order.swap_remove(p);
        if let Some(&moved) = self.order.get(p) {
            self.position[moved] = p;
        }
        self.position[id] = ABSENT;
        id
    }

    /// Remove the remaining record `id` (its row is `row`).
    pub fn remove(&mut self, id: usize, row: &[f64]) {
        let p = self.position(id);
        self.remove_at(p, row);
    }

    /// `ids` (remaining) in the order the pool removes a batch: highest position first.
    pub fn by_descending_position(&self, ids: &[usize]) -> Vec<usize> {
        let mut by: Vec<(usize, usize)> = ids.iter().map(|&i| (self.position(i), i)).collect();
        by.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
        by.into_iter().map(|e| e.1).collect()
    }

    /// Remove every remaining record; their ids ascending.
    pub fn take_all(&mut self) -> Vec<usize> {
        let mut ids = std::mem::take(&mut self.order);
        ids.sort_unstable();
        ids.iter().for_each(|&i| self.position[i] = ABSENT);
        self.sum.iter_mut().for_each(|s| *s = 0.0);
        self.compensation.iter_mut().for_each(|c| *c = 0.0);
        ids
    }
}

/// The quadratic path: one distance pass per query.
pub struct Scan<'a> {
    inst: &'a Instance,
    pool: Pool,
    /// For the farthest-from-centroid query (large pools only), with which records remain.
    anchors: Option<(AnchorList, Vec<bool>)>,
    /// The point whose distances the pool's buffer holds (the buffer stays aligned through
    /// removals), so "farthest from r" right after "nearest to r" needs no second pass.
    last_query: Option<Vec<f64>>,
    /// Id and position of the last farthest record, valid until the next removal (the
    /// engine removes a seed right after choosing it: no search for its position).
    last_far: Option<(usize, usize)>,
}

impl<'a> Scan<'a> {
    /// The records `ids` of `inst`.
    pub fn new(inst: &'a Instance, ids: Vec<usize>) -> Self {
        let anchors = (ids.len() >= ANCHOR_MIN).then(|| {
            let mut here = vec![false; inst.n];
            ids.iter().for_each(|&i| here[i] = true);
            (AnchorList::new(inst, &ids), here)
        });
        Scan {
            inst,
            anchors,
            pool: Pool::from_ids(inst, ids),
            last_query: None,
            last_far: None,
        }
    }

    fn query(&mut self, point: &[f64]) {
        if self.last_query.as_deref() != Some(point) {
            self.pool.distances_to(point);
            self.last_query = Some(point.to_vec());
        }
    }

    fn remove_at(&mut self, p: usize) -> usize {
        self.last_far = None;
        let id = self.pool.remove_at(p);
        if let Some((_, here)) = self.anchors.as_mut() {
            here[id] = false;
        }
        id
    }
}

impl Remaining for Scan<'_> {
    fn len(&self) -> usize {
        self.pool.len()
    }

    fn centroid(&self) -> Vec<f64> {
        self.pool.centroid()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.query(point);
        let p = self.pool.argmax_distance();
        let id = self.pool.id_at(p);
        self.last_far = Some((id, p));
        id
    }

    fn anchored_farthest(&mut self, c: &[f64]) -> Option<usize> {
        let budget = anchor_budget(self.pool.len());
        let (list, here) = self.anchors.as_mut()?;
        list.farthest_reanchoring(self.inst, self.pool.ids(), c, |i| here[i], budget)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        self.query(point);
        let chosen = self.pool.nearest_positions_by_current_distances(k);
        let ids: Vec<usize> = chosen.iter().map(|&p| self.pool.id_at(p)).collect();
        let mut desc = chosen;
        desc.sort_unstable_by(|a, b| b.cmp(a));
        for p in desc {
            self.remove_at(p);
        }
        ids
    }

    fn remove(&mut self, id: usize) {
        match self.last_far {
            Some((i, p)) if i == id => {
                self.remove_at(p);
            }
            _ => {
                self.last_far = None;
                let found = self.pool.remove_id(id);
                debug_assert!(found, "record {id} is not remaining");
                if let Some((_, here)) = self.anchors.as_mut() {
                    here[id] = false;
                }
            }
        }
    }

    fn take_all(&mut self) -> Vec<usize> {
        self.last_far = None;
        let ids = self.pool.take_all();
        if let Some((_, here)) = self.anchors.as_mut() {
            ids.iter().for_each(|&i| here[i] = false);
        }
        ids
    }
}
