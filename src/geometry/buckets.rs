//! # Ball buckets over the remaining records, with deletions and exact answers
//!
//! The [`Remaining`](super::remaining::Remaining) queries of the MDAV-lineage engine for
//! higher d (the kd-tree's bounds loosen there: see [`super::spatial::use_tree`]). The
//! records are split into about
//! 2 sqrt(m) buckets, each a Voronoi cell of a centre (two levels: sqrt of that many coarse
//! centres, then fine centres inside each coarse cell, all of them records picked evenly
//! along the id list; the bucket keeps the mean of its records as its centre). Inside a
//! bucket the records are stored row by row by decreasing distance to the centre. The
//! triangle inequality bounds every record's distance to a query q from its own radius r_x
//! and q's distance D to the centre, `|D - r_x| <= ||x - q|| <= D + r_x`, so
//!
//! - a farthest query walks the buckets by decreasing `D + r_max` and, inside one, the
//!   records from the outside in, stopping once `D + r_x` cannot reach the best distance;
//! - a k-nearest query walks the buckets by increasing lower bound and, inside one, skips
//!   the records whose `r_x - D` is too large (a binary search) and stops once `D - r_x` is.
//!
//! Both bounds carry the rounding margins of `proofs/P16-exact-spatial-queries.md` (g), and
//! records are skipped only when their bound is strictly worse than the current answer, so
//! the answers, ties by lowest id included, are the scan's bit for bit. The centroid is the
//! pool's compensated running sum with removals replayed in the pool's order, as in
//! [`super::kdtree`]. Removal marks a record dead; a bucket whose dead records outnumber its
//! live ones is compacted.
//!
//! ## Complexity
//! Build O(m d sqrt(B)) for B buckets (two-level assignment; rayon) plus a sort per bucket,
//! again each time half of the records are gone (O(m^(5/4) d) in all with B = 2 sqrt(m)).
//! A query costs O(B d) for the centre distances plus the records it cannot exclude (over
//! an MDAV run on Gaussian mixtures at d = 10 about a tenth of the remaining records;
//! `studies/study-engine.txt` section 15), so it stays O(m d) in the worst
//! case. O(m d) memory (a copy of the records).
//!
//! ## References
//! Fukunaga & Narendra (1975), IEEE Trans. Computers C-24(7) (branch and bound over
//! clustered data with the triangle inequality); Micó, Oncina & Vidal (1994), Pattern
//! Recognition Letters 15(1) (LAESA: pivot distances as bounds).

use super::pool::offer_nearest;
use super::remaining::{sq_dist_as_scan, AnchorList, MirroredCentroid};
use crate::data::Instance;
use margins::{block_distances, down, square_down, square_up, up, BLOCK};
use rayon::prelude::*;

mod margins;
mod queries;

const NONE: usize = usize::MAX;
/// A bucket as built: its centre and its (radius, id) pairs by decreasing radius.
type Cell = (Vec<f64>, Vec<(f64, usize)>);

/// Fewest remaining records for a new layout (below, the buckets are kept to the end).
const RELAYOUT_MIN: usize = 1024;

/// Buckets per m records: about 2 sqrt(m).
pub(crate) fn bucket_count(m: usize) -> usize {
    ((2.0 * (m as f64).sqrt()) as usize).clamp(1, m.max(1))
}

/// The remaining records in ball buckets (see the module doc).
pub struct BucketRemaining<'a> {
    inst: &'a Instance,
    d: usize,
    /// Bucket centres, row by row, and each bucket's slot range.
    centre: Vec<f64>,
    start: Vec<usize>,
    end: Vec<usize>,
    live: Vec<usize>,
    /// Slots: records bucket by bucket, by decreasing radius (ties: id), row by row.
    pts: Vec<f64>,
    /// Root of the computed squared distance to the bucket's centre.
    rad: Vec<f64>,
    slot_id: Vec<usize>,
    alive: Vec<bool>,
    /// Slot of each record id (indexed by id; NONE when absent).
    slot_of_id: Vec<usize>,
    remaining: usize,
    /// The pool's removal order and column sums ([`MirroredCentroid`]).
    mirror: MirroredCentroid,
    /// Scratch: distances from the last query to the centres.
    dq: Vec<f64>,
    dq_point: Vec<f64>,
    /// For farthest-from-centroid queries ([`AnchorList`]; the buckets' bounds are loose
    /// for a query inside the data).
    anchors: AnchorList,
    /// Buckets asked for, and the number of records, at the last layout: the buckets are
    /// laid out afresh over the remaining records when half of them are gone (radii of
    /// emptied buckets stop bounding anything useful; the answers do not change).
    requested: usize,
    built: usize,
}

/// The nearest of `centres` (row by row) to `x`, ties to the lowest index.
fn nearest_of(centres: &[f64], d: usize, x: &[f64]) -> usize {
    super::pool::nearest_row(centres, d, x, sq_dist_as_scan)
}

/// Assign `ids` to `count` centres picked evenly along `ids`; the cells (lists of ids).
fn voronoi(inst: &Instance, ids: &[usize], count: usize) -> Vec<Vec<usize>> {
    let d = inst.d;
    let count = count.clamp(1, ids.len().max(1));
    let mut centres = Vec::with_capacity(count * d);
    for t in 0..count {
        centres.extend_from_slice(inst.row(ids[t * ids.len() / count]));
    }
    let owner: Vec<usize> = crate::parallel::install(|| {
        ids.par_iter()
            .map(|&i| nearest_of(&centres, d, inst.row(i)))
            .collect()
    });
    let mut cells = vec![Vec::new(); count];
    for (&i, &c) in ids.iter().zip(&owner) {
        cells[c].push(i);
    }
    cells.retain(|c| !c.is_empty());
    cells
}

impl<'a> BucketRemaining<'a> {
    /// The records `ids` of `inst` in `bucket_count` buckets.
    pub fn new(inst: &'a Instance, ids: Vec<usize>) -> Self {
        let b = bucket_count(ids.len());
        Self::with_buckets(inst, ids, b)
    }

    /// The records `ids` of `inst` in about `b` buckets.
    pub fn with_buckets(inst: &'a Instance, ids: Vec<usize>, b: usize) -> Self {
        let d = inst.d;
        let m = ids.len();
        let b = b.clamp(1, m.max(1));
        let mut me = BucketRemaining {
            inst,
            d,
            centre: Vec::new(),
            start: Vec::new(),
            end: Vec::new(),
            live: Vec::new(),
            pts: Vec::new(),
            rad: Vec::new(),
            slot_id: Vec::new(),
            alive: Vec::new(),
            slot_of_id: vec![NONE; inst.n],
            remaining: m,
            mirror: MirroredCentroid::new(inst, ids),
            dq: Vec::new(),
            dq_point: Vec::new(),
            anchors: AnchorList::new(inst, &[]),
            requested: b,
            built: m,
        };
        me.anchors = AnchorList::new(inst, me.mirror.ids());
        me.lay_out(b);
        me
    }

    /// (Re)build the buckets over the remaining records (in pool order), about `b` of them.
    fn lay_out(&mut self, b: usize) {
        let (inst, d) = (self.inst, self.d);
        let ids = self.mirror.ids();
        let m = ids.len();
        let b = b.clamp(1, m.max(1));
        // Two-level Voronoi cells.
        let coarse = (b as f64).sqrt().ceil() as usize;
        let mut cells: Vec<Vec<usize>> = Vec::new();
        if m > 0 {
            for cell in voronoi(inst, ids, coarse) {
                let fine = (b * cell.len()).div_ceil(m.max(1)).max(1);
                cells.extend(voronoi(inst, &cell, fine));
            }
        }
        let sorted: Vec<Cell> = crate::parallel::install(|| {
            cells
                .par_iter()
                .map(|cell| {
                    let mut c = vec![0.0; d];
                    for &i in cell {
                        c.iter_mut().zip(inst.row(i)).for_each(|(a, v)| *a += v);
                    }
                    c.iter_mut().for_each(|a| *a /= cell.len() as f64);
                    let mut by: Vec<(f64, usize)> = cell
                        .iter()
                        .map(|&i| (sq_dist_as_scan(inst.row(i), &c).sqrt(), i))
                        .collect();
                    by.sort_unstable_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
                    (c, by)
                })
                .collect()
        });
        self.centre.clear();
        self.start.clear();
        self.end.clear();
        self.live.clear();
        self.pts.clear();
        self.rad.clear();
        self.slot_id.clear();
        self.alive.clear();
        self.alive.resize(m, true);
        self.dq.clear();
        self.dq.resize(sorted.len(), 0.0);
        self.dq_point.clear();
        self.dq_point.push(f64::NAN); // matches no query point
        for (c, by) in sorted {
            self.centre.extend_from_slice(&c);
            self.start.push(self.slot_id.len());
            for (r, i) in by {
                self.slot_of_id[i] = self.slot_id.len();
                self.slot_id.push(i);
                self.rad.push(r);
                self.pts.extend_from_slice(inst.row(i));
            }
            self.end.push(self.slot_id.len());
            self.live
                .push(self.end.last().unwrap() - self.start.last().unwrap());
        }
    }

    /// Number of buckets.
    pub fn buckets(&self) -> usize {
        self.start.len()
    }

    /// Roots of the computed squared distances from `q` to every centre, into `self.dq`
    /// (kept for the next query from the same point: MDAV asks for r's nearest, then for
    /// the farthest from r).
    fn centre_distances(&mut self, q: &[f64]) {
        if self.dq_point == q {
            return;
        }
        self.dq_point.clear();
        self.dq_point.extend_from_slice(q);
        let d = self.d;
        for (b, c) in self.centre.chunks_exact(d).enumerate() {
            self.dq[b] = sq_dist_as_scan(q, c).sqrt();
        }
    }

    /// Farthest record of bucket `b` into `best` (dist, id, slot).
    fn farthest_in(&self, b: usize, q: &[f64], best: &mut (f64, usize, usize)) {
        let (d, dq) = (self.d, up(self.dq[b]));
        let (mut s, end) = (self.start[b], self.end[b]);
        let mut dist = [0.0; BLOCK];
        while s < end {
            if square_up(dq + up(self.rad[s])) < best.0 {
                return;
            }
            let n = BLOCK.min(end - s);
            block_distances(&self.pts[s * d..(s + n) * d], d, q, &mut dist);
            for (t, &dt) in dist.iter().enumerate().take(n) {
                let slot = s + t;
                if square_up(dq + up(self.rad[slot])) < best.0 {
                    return;
                }
                if !self.alive[slot] {
                    continue;
                }
                let id = self.slot_id[slot];
                if dt > best.0 || (dt == best.0 && id < best.1) {
                    *best = (dt, id, slot);
                }
            }
            s += n;
        }
    }

    fn farthest(&mut self, q: &[f64]) -> (f64, usize, usize) {
        let mut best = (f64::NEG_INFINITY, NONE, NONE);
        if self.remaining == 0 {
            return best;
        }
        self.centre_distances(q);
        // Upper bound per non-empty bucket: its first slot has the largest radius.
        let mut ub: Vec<(f64, usize)> = (0..self.buckets())
            .filter(|&b| self.live[b] > 0)
            .map(|b| (square_up(up(self.dq[b]) + up(self.rad[self.start[b]])), b))
            .collect();
        // The most promising bucket first gives a good threshold for the others.
        let top = ub
            .iter()
            .copied()
            .max_by(|a, c| a.0.total_cmp(&c.0).then(c.1.cmp(&a.1)))
            .expect("a non-empty bucket");
        self.farthest_in(top.1, q, &mut best);
        ub.retain(|&(u, b)| b != top.1 && u >= best.0);
        ub.sort_unstable_by(|a, c| c.0.total_cmp(&a.0).then(a.1.cmp(&c.1)));
        for (u, b) in ub {
            if u < best.0 {
                break;
            }
            self.farthest_in(b, q, &mut best);
        }
        best
    }

    /// The k nearest of bucket `b` merged into `best` (sorted by (dist, id), at most k).
    fn nearest_in(&self, b: usize, q: &[f64], k: usize, best: &mut Vec<(f64, usize, usize)>) {
        let (dq_lo, dq_up) = (down(self.dq[b]), up(self.dq[b]));
        let kth = |best: &Vec<(f64, usize, usize)>| {
            if best.len() == k {
                best[k - 1].0
            } else {
                f64::INFINITY
            }
        };
        // Skip the outer records that lie too far beyond q's distance to the centre
        // (radii decrease along the slots, so the skipped ones form a prefix).
        let worst = kth(best);
        let (s0, s1) = (self.start[b], self.end[b]);
        let skip = self.rad[s0..s1].partition_point(|&r| square_down(down(r) - dq_up) > worst);
        let d = self.d;
        let mut s = s0 + skip;
        let mut dist = [0.0; BLOCK];
        while s < s1 {
            // Inner records: every later one is nearer the centre, so farther from q.
            if square_down(dq_lo - up(self.rad[s])) > kth(best) {
                return;
            }
            let n = BLOCK.min(s1 - s);
            block_distances(&self.pts[s * d..(s + n) * d], d, q, &mut dist);
            for (t, &dt) in dist.iter().enumerate().take(n) {
                let (slot, worst) = (s + t, kth(best));
                let r = self.rad[slot];
                if square_down(dq_lo - up(r)) > worst {
                    return;
                }
                if !self.alive[slot] || square_down(down(r) - dq_up) > worst {
                    continue;
                }
                offer_nearest(best, k, dt, self.slot_id[slot], slot);
            }
            s += n;
        }
    }

    /// The k nearest by (computed distance, id), nearest first, as (dist, id, slot).
    fn nearest(&mut self, q: &[f64], k: usize) -> Vec<(f64, usize, usize)> {
        let k = k.min(self.remaining);
        let mut best = Vec::with_capacity(k + 1);
        if k == 0 {
            return best;
        }
        self.centre_distances(q);
        let mut lb: Vec<(f64, usize)> = (0..self.buckets())
            .filter(|&b| self.live[b] > 0)
            .map(|b| {
                let (r_max, r_min) = (self.rad[self.start[b]], self.rad[self.end[b] - 1]);
                let outside = down(self.dq[b]) - up(r_max);
                let inside = down(r_min) - up(self.dq[b]);
                (square_down(outside.max(inside)), b)
            })
            .collect();
        // The most promising bucket first gives a threshold that excludes most others
        // before any sorting.
        let top = lb
            .iter()
            .copied()
            .min_by(|a, c| a.0.total_cmp(&c.0).then(a.1.cmp(&c.1)))
            .expect("a non-empty bucket");
        self.nearest_in(top.1, q, k, &mut best);
        if best.len() == k {
            let worst = best[k - 1].0;
            lb.retain(|&(l, b)| b != top.1 && l <= worst);
        } else {
            lb.retain(|&(_, b)| b != top.1);
        }
        lb.sort_unstable_by(|a, c| a.0.total_cmp(&c.0).then(a.1.cmp(&c.1)));
        for (l, b) in lb {
            if best.len() == k && l > best[k - 1].0 {
                break;
            }
            self.nearest_in(b, q, k, &mut best);
        }
        best
    }

    /// Remove `id` (in `slot`) from the centroid mirror, then from its bucket.
    fn forget(&mut self, id: usize, slot: usize) {
        self.mirror.remove(id, self.inst.row(id));
        self.slot_of_id[id] = NONE;
        self.alive[slot] = false;
        self.remaining -= 1;
        let b = self.bucket_of(slot);
        self.live[b] -= 1;
        let len = self.end[b] - self.start[b];
        if 2 * self.remaining <= self.built && self.remaining >= RELAYOUT_MIN {
            let b = (self.requested as f64 * (self.remaining as f64 / self.built as f64).sqrt())
                as usize;
            self.requested = b.max(1);
            self.built = self.remaining;
            self.lay_out(self.requested);
        } else if len >= 32 && 2 * self.live[b] < len {
            self.compact(b);
        }
    }

    fn bucket_of(&self, slot: usize) -> usize {
        self.start.partition_point(|&s| s <= slot) - 1
    }

    /// Drop the dead slots of bucket `b`, keeping the order (the range shrinks at its end).
    fn compact(&mut self, b: usize) {
        let d = self.d;
        let mut w = self.start[b];
        for s in self.start[b]..self.end[b] {
            if self.alive[s] {
                if w != s {
                    self.pts.copy_within(s * d..(s + 1) * d, w * d);
                    self.rad[w] = self.rad[s];
                    self.slot_id[w] = self.slot_id[s];
                    self.alive[w] = true;
                    self.slot_of_id[self.slot_id[w]] = w;
                }
                w += 1;
            }
        }
        for s in w..self.end[b] {
            self.alive[s] = false;
        }
        self.end[b] = w;
    }
}
