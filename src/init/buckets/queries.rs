//! # The `Remaining` queries of the ball buckets
//!
//! The [`Remaining`] trait implementation of [`BucketRemaining`]: length, compensated
//! centroid, farthest and k-nearest queries with removal, and taking the rest, all on top
//! of the bucket walks of [`super`]. Moved out of [`super`] unchanged.
//!
//! ## Complexity
//! As in [`super`]: O(B d) per query for the centre distances plus the records the bounds
//! cannot exclude, O(m d) in the worst case.
//!
//! ## References
//! Fukunaga & Narendra (1975), IEEE Trans. Computers C-24(7); Micó, Oncina & Vidal (1994),
//! Pattern Recognition Letters 15(1) (see [`super`]).

use super::super::remaining::{anchor_budget, AnchorList, Remaining};
use super::{BucketRemaining, NONE};

impl Remaining for BucketRemaining<'_> {
    fn len(&self) -> usize {
        self.remaining
    }

    fn centroid(&self) -> Vec<f64> {
        let inv = 1.0 / self.remaining as f64;
        self.sum
            .iter()
            .zip(&self.compensation)
            .map(|(s, c)| (s + c) * inv)
            .collect()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.farthest(point).1
    }

    fn farthest_from_centroid(&mut self) -> usize {
        let c = self.centroid();
        let budget = anchor_budget(self.remaining);
        let slot_of_id = &self.slot_of_id;
        let here = |i: usize| slot_of_id[i] != NONE;
        if let Some(id) = self.anchors.farthest(self.inst, &c, here, budget) {
            return id;
        }
        // The centroid has drifted from the anchor: re-anchor at it and walk again.
        self.anchors = AnchorList::at(self.inst, &self.order, c.clone());
        if let Some(id) = self.anchors.farthest(self.inst, &c, here, budget) {
            return id;
        }
        self.farthest_from(&c)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        let best = self.nearest(point, k);
        let ids: Vec<usize> = best.iter().map(|e| e.1).collect();
        // Forget in the pool's order: highest pool position first.
        let mut by_pos: Vec<(usize, usize)> =
            ids.iter().map(|&id| (self.order_pos[id], id)).collect();
        by_pos.sort_unstable_by_key(|e| std::cmp::Reverse(e.0));
        for (_, id) in by_pos {
            // Slots move when a bucket is compacted: look each one up afresh.
            let s = self.slot_of_id[id];
            self.forget(id, s);
        }
        ids
    }

    fn remove(&mut self, id: usize) {
        let s = self.slot_of_id[id];
        debug_assert!(s != NONE && self.alive[s], "record {id} is not remaining");
        self.forget(id, s);
    }

    fn take_all(&mut self) -> Vec<usize> {
        let mut ids: Vec<usize> = std::mem::take(&mut self.order);
        ids.sort_unstable();
        for &i in &ids {
            self.order_pos[i] = NONE;
            self.slot_of_id[i] = NONE;
        }
        self.alive.iter_mut().for_each(|a| *a = false);
        self.live.iter_mut().for_each(|l| *l = 0);
        self.remaining = 0;
        self.sum.iter_mut().for_each(|s| *s = 0.0);
        self.compensation.iter_mut().for_each(|c| *c = 0.0);
        ids
    }
}
