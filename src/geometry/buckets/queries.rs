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

use super::super::remaining::{anchor_budget, Remaining};
use super::{BucketRemaining, NONE};

impl Remaining for BucketRemaining<'_> {
    fn len(&self) -> usize {
        self.remaining
    }

    fn centroid(&self) -> Vec<f64> {
        self.mirror.centroid()
    }

    fn farthest_from(&mut self, point: &[f64]) -> usize {
        self.farthest(point).1
    }

    fn anchored_farthest(&mut self, c: &[f64]) -> Option<usize> {
        let budget = anchor_budget(self.remaining);
        let slot_of_id = &self.slot_of_id;
        let here = |i: usize| slot_of_id[i] != NONE;
        let ids = self.mirror.ids();
        self.anchors
            .farthest_reanchoring(self.inst, ids, c, here, budget)
    }

    fn take_nearest(&mut self, point: &[f64], k: usize) -> Vec<usize> {
        let best = self.nearest(point, k);
        let ids: Vec<usize> = best.iter().map(|e| e.1).collect();
        // Forget in the pool's order: highest pool position first.
        for id in self.mirror.by_descending_position(&ids) {
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
        let ids = self.mirror.take_all();
        for &i in &ids {
            self.slot_of_id[i] = NONE;
        }
        self.alive.iter_mut().for_each(|a| *a = false);
        self.live.iter_mut().for_each(|l| *l = 0);
        self.remaining = 0;
        ids
    }
}
