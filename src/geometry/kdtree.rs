//! # Kd-tree over the remaining records, with deletions and exact answers
//!
//! The [`Remaining`] queries of the MDAV-lineage engine (farthest from a point, the k
//! nearest to a point, removal) answered through a kd-tree instead of a pass over every
//! remaining record. Leaves hold up to [`LEAF`] records stored row by row; every node keeps
//! the number of its remaining records and the bounding box of those (shrunk on deletion
//! when a removed record lay on the box, so the boxes follow MDAV's peeling of the hull).
//!
//! **Exactness.** A record's squared distance is computed exactly as the scan computes it:
//! the terms `t * t` with `t = x_j - q_j` added in column order from 0.0. A box's lower
//! bound takes per column the term of the box face nearest to q (0 inside), its upper bound
//! the term of the farther face, added in the same order. Rounding is monotone, so for every
//! record x in the box `fl(lo_j - q_j) <= fl(x_j - q_j) <= fl(hi_j - q_j)`, the squares and
//! the running sums keep that order, and the computed bounds bracket the computed distance of
//! every record in the box: no rounding slack is needed. A box is skipped only when its
//! bound is strictly worse than the current k-th best (or best) distance, so records tied
//! with it are still compared, by lowest id as in the scan. The answers are therefore the
//! scan's, bit for bit. The centroid is the compensated running sum of [`super::pool::Pool`]
//! with removals replayed in the pool's order ([`MirroredCentroid`]), so it is
//! bit-identical too.
//!
//! ## Complexity
//! Build O(n log n d) (median splits on the widest column of the box). A query visits the
//! leaves whose box can beat the current answer: for low d and NN queries a few leaves
//! (O(log n + k) in practice); farthest-point queries in higher d visit more, as kd-tree
//! bounds loosen with d; the measured crossover with the scan is in
//! [`super::spatial::use_tree`]. Deletion O(d (LEAF + depth)) worst case, O(d) when the
//! record is inside its leaf's box. O(n d) memory (a copy of the records in tree order).
//!
//! ## References
//! Bentley (1975), "Multidimensional binary search trees used for associative searching",
//! CACM 18(9) (kd-trees); Friedman, Bentley & Finkel (1977), ACM TOMS 3(3) (nearest
//! neighbour search with bounds-overlap-ball pruning).

use super::pool::offer_nearest;
use super::remaining::{
    anchor_budget, inflate_radius, inflate_square, sq_dist_as_scan, AnchorList, MirroredCentroid,
    Remaining,
};
use crate::data::Instance;

/// Largest number of records in a leaf.
pub const LEAF: usize = 16;
const NONE: usize = usize::MAX;

struct Node {
    start: usize,
    end: usize,
    left: usize,
    right: usize,
    parent: usize,
    count: usize,
}

/// The remaining records in a kd-tree (see the module doc).
pub struct KdRemaining<'a> {
    inst: &'a Instance,
    d: usize,
    /// Records in tree order, row by row, with their ids and whether they remain.
    pts: Vec<f64>,
    slot_id: Vec<usize>,
    /// Slot of each record id (indexed by id).
    slot_of_id: Vec<usize>,
    alive: Vec<bool>,
    leaf_of: Vec<usize>,
    nodes: Vec<Node>,
    lo: Vec<f64>,
    hi: Vec<f64>,
    /// Per node a centre (the mean of its records at build time, row by row) and a radius
    /// that covers its records, and the radius around the anchor (the mean of all records)
    /// that covers them: upper bounds for farthest queries, tighter than the box's far
    /// corner in higher d. Both radii are inflated by [`SLACK`] (they come from rounded
    /// distances) and only shrink as records leave, so they stay valid.
    cen: Vec<f64>,
    ball: Vec<f64>,
    anchor: Vec<f64>,
    anchor_r: Vec<f64>,
    remaining: usize,
    /// For farthest-from-centroid queries ([`AnchorList`]).
    anchors: AnchorList,
    /// The pool's removal order and column sums, so the centroid is the pool's bit for bit.
    mirror: MirroredCentroid,
}

impl<'a> KdRemaining<'a> {
    /// The records `ids` of `inst`.
    pub fn new(inst: &'a Instance, ids: Vec<usize>) -> Self {
        let d = inst.d;
        let m = ids.len();
        let mut perm = ids.clone();
        let mut tree = KdRemaining {
            inst,
            d,
            pts: Vec::new(),
            slot_id: Vec::new(),
            slot_of_id: vec![NONE; inst.n],
            alive: vec![true; m],
            leaf_of: vec![NONE; m],
            nodes: Vec::new(),
            lo: Vec::new(),
            hi: Vec::new(),
            cen: Vec::new(),
            ball: Vec::new(),
            anchor: vec![0.0; d],
            anchor_r: Vec::new(),
            remaining: m,
            anchors: AnchorList::new(inst, &ids),
            mirror: MirroredCentroid::new(inst, ids),
        };
        if m > 0 {
            for &i in tree.mirror.ids() {
                tree.anchor
                    .iter_mut()
                    .zip(inst.row(i))
                    .for_each(|(a, v)| *a += v);
            }
            tree.anchor.iter_mut().for_each(|a| *a /= m as f64);
            tree.build(inst, &mut perm, 0, m, NONE);
        }
        tree.pts = Vec::with_capacity(m * d);
        for &i in &perm {
            tree.pts.extend_from_slice(inst.row(i));
        }
        for (slot, &i) in perm.iter().enumerate() {
            tree.slot_of_id[i] = slot;
        }
        tree.slot_id = perm;
        tree
    }

    /// Build the node over `perm[start..end]`; returns its index.
    fn build(
        &mut self,
        inst: &Instance,
        perm: &mut [usize],
        start: usize,
        end: usize,
        parent: usize,
    ) -> usize {
        let d = self.d;
        let me = self.nodes.len();
        self.nodes.push(Node {
            start,
            end,
            left: NONE,
            right: NONE,
            parent,
            count: end - start,
        });
        let (mut lo, mut hi) = (vec![f64::INFINITY; d], vec![f64::NEG_INFINITY; d]);
        for &i in &perm[start..end] {
            for (j, &v) in inst.row(i).iter().enumerate() {
                lo[j] = lo[j].min(v);
                hi[j] = hi[j].max(v);
            }
        }
        let split = (0..d)
            .max_by(|&a, &b| (hi[a] - lo[a]).total_cmp(&(hi[b] - lo[b])).then(b.cmp(&a)))
            .unwrap_or(0);
        let wide = d > 0 && hi[split] > lo[split];
        self.lo.extend_from_slice(&lo);
        self.hi.extend_from_slice(&hi);
        let mut cen = vec![0.0; d];
        for &i in &perm[start..end] {
            cen.iter_mut().zip(inst.row(i)).for_each(|(c, v)| *c += v);
        }
        cen.iter_mut().for_each(|c| *c /= (end - start) as f64);
        let (mut ball, mut anchor_r) = (0.0f64, 0.0f64);
        for &i in &perm[start..end] {
            ball = ball.max(sq_dist_as_scan(inst.row(i), &cen));
            anchor_r = anchor_r.max(sq_dist_as_scan(inst.row(i), &self.anchor));
        }
        self.cen.extend_from_slice(&cen);
        self.ball.push(inflate_radius(ball));
        self.anchor_r.push(inflate_radius(anchor_r));
        if end - start <= LEAF || !wide {
            for s in start..end {
                self.leaf_of[s] = me;
            }
            return me;
        }
        let mid = start + (end - start) / 2;
        perm[start..end].select_nth_unstable_by(mid - start, |&a, &b| {
            inst.row(a)[split]
                .total_cmp(&inst.row(b)[split])
                .then(a.cmp(&b))
        });
        let left = self.build(inst, perm, start, mid, me);
        let right = self.build(inst, perm, mid, end, me);
        self.nodes[me].left = left;
        self.nodes[me].right = right;
        me
    }

    /// The sum over the columns of the squared `gap(q_j, lo_j, hi_j)` for the box of `node`.
    #[inline]
    fn box_sum(&self, node: usize, q: &[f64], gap: impl Fn(f64, f64, f64) -> f64) -> f64 {
        let d = self.d;
        let (lo, hi) = (
            &self.lo[node * d..(node + 1) * d],
            &self.hi[node * d..(node + 1) * d],
        );
        let mut acc = 0.0;
        for j in 0..d {
            let t = gap(q[j], lo[j], hi[j]);
            acc += t * t;
        }
        acc
    }

    fn lower_bound(&self, node: usize, q: &[f64]) -> f64 {
        self.box_sum(node, q, |q, lo, hi| {
            if q < lo {
                lo - q
            } else if q > hi {
                hi - q
            } else {
                0.0
            }
        })
    }

    /// Upper bound on the computed squared distance from q to any record of `node`: the
    /// smallest of the box, ball and anchor bounds (`q_anchor`: the inflated distance from
    /// q to the anchor).
    fn upper_bound(&self, node: usize, q: &[f64], q_anchor: f64) -> f64 {
        let d = self.d;
        let q_cen = inflate_radius(sq_dist_as_scan(q, &self.cen[node * d..(node + 1) * d]));
        let ball = inflate_square(q_cen + self.ball[node]);
        let anchor = inflate_square(q_anchor + self.anchor_r[node]);
        ball.min(anchor).min(self.box_upper_bound(node, q))
    }

    fn box_upper_bound(&self, node: usize, q: &[f64]) -> f64 {
        self.box_sum(node, q, |q, lo, hi| (lo - q).abs().max((hi - q).abs()))
    }

    fn row(&self, s: usize) -> &[f64] {
        &self.pts[s * self.d..(s + 1) * self.d]
    }

    /// The record ids in tree order (leaf by leaf): ids next to each other here are near in
    /// space, so queries issued in this order reuse the cached parts of the tree.
    pub fn ids_in_tree_order(&self) -> &[usize] {
        &self.slot_id
    }

    /// The remaining records of leaf `nd` in slot order, as (distance to `q` computed as the
    /// scan computes it, id, slot).
    fn live_in_leaf<'s>(
        &'s self,
        nd: &Node,
        q: &'s [f64],
    ) -> impl Iterator<Item = (f64, usize, usize)> + 's {
        (nd.start..nd.end)
            .filter(|&s| self.alive[s])
            .map(move |s| (sq_dist_as_scan(self.row(s), q), self.slot_id[s], s))
    }

    /// k nearest into `best` (sorted by (distance, id), at most k entries of (dist, id,
    /// slot)).
    fn nearest(&self, node: usize, q: &[f64], k: usize, best: &mut Vec<(f64, usize, usize)>) {
        let nd = &self.nodes[node];
        if nd.left == NONE {
            for (dist, id, s) in self.live_in_leaf(nd, q) {
                offer_nearest(best, k, dist, id, s);
            }
            return;
        }
        let (a, b) = (nd.left, nd.right);
        let (la, lb) = (self.lower_bound(a, q), self.lower_bound(b, q));
        let (first, lf, second, ls) = if la <= lb {
            (a, la, b, lb)
        } else {
            (b, lb, a, la)
        };
        for (child, bound) in [(first, lf), (second, ls)] {
            if self.nodes[child].count == 0 {
                continue;
            }
            // Strictly worse only: a record at the k-th distance may have a lower id.
            if best.len() == k && bound > best[k - 1].0 {
                continue;
            }
            self.nearest(child, q, k, best);
        }
    }

    /// Farthest record into `best` = (dist, id, slot).
    fn farthest(&self, node: usize, q: &[f64], q_anchor: f64, best: &mut (f64, usize, usize)) {
        let nd = &self.nodes[node];
        if nd.left == NONE {
            for (dist, id, s) in self.live_in_leaf(nd, q) {
                if dist > best.0 || (dist == best.0 && id < best.1) {
                    *best = (dist, id, s);
                }
            }
            return;
        }
        let (a, b) = (nd.left, nd.right);
        let (ua, ub) = (
            self.upper_bound(a, q, q_anchor),
            self.upper_bound(b, q, q_anchor),
        );
        let (first, uf, second, us) = if ua >= ub {
            (a, ua, b, ub)
        } else {
            (b, ub, a, ua)
        };
        for (child, bound) in [(first, uf), (second, us)] {
            if self.nodes[child].count == 0 || bound < best.0 {
                continue;
            }
            self.farthest(child, q, q_anchor, best);
        }
    }

    /// Remove the record in `slot` from the tree (the mirror is updated by the caller).
    fn remove_slot(&mut self, s: usize) {
        let d = self.d;
        self.alive[s] = false;
        self.remaining -= 1;
        let leaf = self.leaf_of[s];
        // Shrink the leaf's box if the record lay on it, then the ancestors' while they
        // change; counts all the way up.
        let on_box = {
            let x = &self.pts[s * d..(s + 1) * d];
            (0..d).any(|j| x[j] == self.lo[leaf * d + j] || x[j] == self.hi[leaf * d + j])
        };
        let mut node = leaf;
        let mut changed = on_box;
        while node != NONE {
            self.nodes[node].count -= 1;
            if changed {
                changed = self.refit(node);
            }
            node = self.nodes[node].parent;
        }
    }

    /// Recompute a node's box from its remaining records (leaf) or children; true if it
    /// changed.
    fn refit(&mut self, node: usize) -> bool {
        let d = self.d;
        let (mut lo, mut hi) = (vec![f64::INFINITY; d], vec![f64::NEG_INFINITY; d]);
        let nd = &self.nodes[node];
        if nd.count > 0 {
            if nd.left == NONE {
                for s in nd.start..nd.end {
                    if self.alive[s] {
                        for j in 0..d {
                            let v = self.pts[s * d + j];
                            lo[j] = lo[j].min(v);
                            hi[j] = hi[j].max(v);
                        }
                    }
                }
            } else {
                for c in [nd.left, nd.right] {
                    if self.nodes[c].count > 0 {
                        for j in 0..d {
                            lo[j] = lo[j].min(self.lo[c * d + j]);
                            hi[j] = hi[j].max(self.hi[c * d + j]);
                        }
                    }
                }
            }
        }
        if nd.left == NONE && nd.count > 0 {
            let (mut ball, mut anchor_r) = (0.0f64, 0.0f64);
            for s in nd.start..nd.end {
                if self.alive[s] {
                    let x = &self.pts[s * d..(s + 1) * d];
                    ball = ball.max(sq_dist_as_scan(x, &self.cen[node * d..(node + 1) * d]));
                    anchor_r = anchor_r.max(sq_dist_as_scan(x, &self.anchor));
                }
            }
            self.ball[node] = inflate_radius(ball);
            self.anchor_r[node] = inflate_radius(anchor_r);
        } else if nd.left != NONE {
            let (l, r) = (nd.left, nd.right);
            let covered = |c: usize| {
                if self.nodes[c].count > 0 {
                    self.anchor_r[c]
                } else {
                    0.0
                }
            };
            self.anchor_r[node] = self.anchor_r[node].min(covered(l).max(covered(r)));
        }
        let range = node * d..(node + 1) * d;
        let same = self.lo[range.clone()] == lo[..] && self.hi[range.clone()] == hi[..];
        self.lo[range.clone()].copy_from_slice(&lo);
        self.hi[range].copy_from_slice(&hi);
        !same
    }

    /// Remove `id` (in `slot`) from the centroid mirror and the tree.
    fn remove_record(&mut self, id: usize, slot: usize) {
        self.mirror.remove(id, self.inst.row(id));
        self.remove_slot(slot);
    }
}

impl Remaining for KdRemaining<'_> {
    fn len(&self) -> usize {
        self.remaining
    }

    fn centroid(&self) -> Vec<f64> {
        self.mirror.centroid()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        let mut best = (f64::NEG_INFINITY, NONE, NONE);
        if self.remaining > 0 {
            let q_anchor = inflate_radius(sq_dist_as_scan(point, &self.anchor));
            self.farthest(0, point, q_anchor, &mut best);
        }
        best.1
    }

    fn anchored_farthest(&mut self, c: &[f64]) -> Option<usize> {
        let budget = anchor_budget(self.remaining);
        let (slot_of_id, alive) = (&self.slot_of_id, &self.alive);
        let here = |i: usize| alive[slot_of_id[i]];
        let ids = self.mirror.ids();
        self.anchors
            .farthest_reanchoring(self.inst, ids, c, here, budget)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        let k = k.min(self.remaining);
        let mut best = Vec::with_capacity(k + 1);
        if k > 0 {
            self.nearest(0, point, k, &mut best);
        }
        let ids: Vec<usize> = best.into_iter().map(|(_, id, _)| id).collect();
        for id in self.mirror.by_descending_position(&ids) {
            self.remove_record(id, self.slot_of_id[id]);
        }
        ids
    }

    fn remove(&mut self, id: usize) {
        let s = self.slot_of_id[id];
        debug_assert!(s != NONE && self.alive[s], "record {id} is not remaining");
        self.remove_record(id, s);
    }

    fn take_all(&mut self) -> Vec<usize> {
        let ids = self.mirror.take_all();
        self.alive.iter_mut().for_each(|a| *a = false);
        self.nodes.iter_mut().for_each(|n| n.count = 0);
        self.remaining = 0;
        ids
    }
}
