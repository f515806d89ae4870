//! # Weighted group sums and move deltas
//!
//! The sums the weighted SSE (`proofs/P40-weighted-sse.md`) needs beyond the partition's
//! own: per group slot the total weight `W`, the weighted centroid `c` and the weighted
//! SSE. The descent asks them for the change of a shift or swap (Lemma W5): for a group `G`
//! that gains record `b` and loses record `a`,
//!
//! `Δ = w_b ||b - c||^2 - w_a ||a - c||^2 - ||w_b (b - c) - w_a (a - c)||^2 / (W - w_a + w_b)`
//!
//! (a shift is the case without `a` on the receiving side and without `b` on the giving
//! side). After an applied move the two groups' sums are recomputed from their members
//! (two passes, no drift along the descent).
//!
//! A move counts as improving only when its delta is below `-threshold`,
//! `threshold = max(IMPROVE_EPS SST_w / n, 72 (d + 5) u max_i w_i ||z_i||^2)`
//! (`improvement_threshold`, the weighted analogue of the plain one, P40),
//! so rounding noise cannot cycle.
//!
//! ## Complexity
//! O(n d) to build; O(d) per delta; O(|G| d) to refresh group G.
//!
//! ## References
//! - Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Section 2.2 (weighted means).

use crate::data::Instance;
use crate::partition::Partition;
use crate::weighted::weighted_group_stats;

/// The weighted descent's move threshold, `max(improve_eps SST_w / n, 72 (d + 5) u max_i
/// w_i norms_i)` for weights `w` and the records' squared norms `norms` (P40 W5; the
/// weighted SST is the masked one on data with missing cells).
pub(crate) fn improvement_threshold(
    inst: &Instance,
    w: &[f64],
    norms: &[f64],
    improve_eps: f64,
) -> f64 {
    let sst_w = crate::weighted::weighted_sst(inst, w);
    let max_wnorm = (0..inst.n).map(|i| w[i] * norms[i]).fold(0.0, f64::max);
    let rounding = 72.0 * (inst.d as f64 + 5.0) * (f64::EPSILON / 2.0) * max_wnorm;
    (improve_eps * sst_w / inst.n.max(1) as f64).max(rounding)
}

/// Per group slot: total weight, weighted centroid (d values) and weighted SSE, with the
/// weights they are taken with.
#[derive(Debug, Clone)]
pub struct WeightedSums {
    w: Vec<f64>,
    d: usize,
    total: Vec<f64>,
    centroid: Vec<f64>,
    sse: Vec<f64>,
}

impl WeightedSums {
    /// The sums of partition `p` of `inst` with weights `w` (one per record, > 0).
    pub fn new(inst: &Instance, p: &Partition, w: &[f64]) -> Self {
        let (d, slots) = (inst.d, p.slots());
        let mut s = WeightedSums {
            w: w.to_vec(),
            d,
            total: vec![0.0; slots],
            centroid: vec![0.0; slots * d],
            sse: vec![0.0; slots],
        };
        for g in 0..slots {
            s.refresh(inst, p, g);
        }
        s
    }

    /// The weighted SSE of the partition, from the per-group values (each recomputed by two
    /// passes after its last change).
    pub fn weighted_sse(&self) -> f64 {
        self.sse.iter().sum()
    }

    /// Recompute group `g`'s weighted total, centroid and SSE from its members.
    pub fn refresh(&mut self, inst: &Instance, p: &Partition, g: usize) {
        let members = p.members(g);
        let (c, sse) = weighted_group_stats(&inst.z, self.d, &self.w, members);
        self.total[g] = members.iter().map(|&i| self.w[i]).sum();
        self.centroid[g * self.d..(g + 1) * self.d].copy_from_slice(&c);
        self.sse[g] = sse;
    }

    /// Change of group `g`'s weighted SSE when it gains record `gain` and loses record
    /// `lose` (either may be absent): P40 Lemma W5.
    pub(crate) fn group_delta(
        &self,
        inst: &Instance,
        g: usize,
        gain: Option<usize>,
        lose: Option<usize>,
    ) -> f64 {
        let c = &self.centroid[g * self.d..(g + 1) * self.d];
        let (wb, wa) = (
            gain.map_or(0.0, |b| self.w[b]),
            lose.map_or(0.0, |a| self.w[a]),
        );
        let new_total = self.total[g] - wa + wb;
        if new_total <= 0.0 {
            // Only when the weights differ by more than the precision (a lone record's
            // removal is handled by the caller): no trustworthy delta, never chosen.
            return f64::INFINITY;
        }
        let (mut gain_sq, mut lose_sq, mut cross_sq) = (0.0, 0.0, 0.0);
        for (t, &ct) in c.iter().enumerate() {
            let db = gain.map_or(0.0, |b| inst.row(b)[t] - ct);
            let da = lose.map_or(0.0, |a| inst.row(a)[t] - ct);
            gain_sq += db * db;
            lose_sq += da * da;
            let v = wb * db - wa * da;
            cross_sq += v * v;
        }
        wb * gain_sq - wa * lose_sq - cross_sq / new_total
    }

    /// Delta of shifting record `i` to group `to`.
    pub fn shift_delta(&self, inst: &Instance, p: &Partition, i: usize, to: usize) -> f64 {
        let from = p.group_of(i);
        if from == to {
            return 0.0;
        }
        let removal = if p.size(from) > 1 {
            self.group_delta(inst, from, None, Some(i))
        } else {
            -self.sse[from]
        };
        removal + self.group_delta(inst, to, Some(i), None)
    }

    /// Delta of swapping records `i` and `j` (different groups).
    pub fn swap_delta(&self, inst: &Instance, p: &Partition, i: usize, j: usize) -> f64 {
        let (a, b) = (p.group_of(i), p.group_of(j));
        if a == b {
            return 0.0;
        }
        self.group_delta(inst, a, Some(j), Some(i)) + self.group_delta(inst, b, Some(i), Some(j))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Every delta equals the recomputed change of the weighted SSE (two passes from the
    /// members, an independent path), on random shifts and swaps of random partitions.
    #[test]
    fn deltas_equal_the_recomputed_change() {
        let mut rng = ChaCha8Rng::seed_from_u64(40);
        for case in 0..200 {
            let n = rng.random_range(6..30);
            let d = rng.random_range(1..4);
            let rows: Vec<Vec<f64>> = (0..n)
                .map(|_| (0..d).map(|_| rng.random_range(-3.0..3.0)).collect())
                .collect();
            let raw: Vec<f64> = rows.iter().flatten().copied().collect();
            let cols = (1..=d).map(|j| format!("x{j}")).collect();
            let inst = crate::data::Instance::from_raw("t", "t", cols, raw, "test".into()).unwrap();
            let w: Vec<f64> = (0..n)
                .map(|_| 10f64.powf(rng.random_range(-3.0..3.0)))
                .collect();
            let groups = rng.random_range(2..=(n / 2).max(2));
            let labels: Vec<usize> = (0..n)
                .map(|i| {
                    if i < groups {
                        i
                    } else {
                        rng.random_range(0..groups)
                    }
                })
                .collect();
            let p = Partition::from_labels(&inst, labels).unwrap();
            let s = WeightedSums::new(&inst, &p, &w);
            let before = crate::weighted::weighted_sse_of_labels(&inst, &w, p.labels());
            assert!((s.weighted_sse() - before).abs() <= 1e-9 * before.max(1e-12));
            let i = rng.random_range(0..n);
            let j = rng.random_range(0..n);
            let (gi, gj) = (p.group_of(i), p.group_of(j));
            if gi == gj {
                continue;
            }
            // Shift i to j's group (also when i's group empties).
            let mut q = p.clone();
            q.apply_shift(&inst, i, gj);
            let after = crate::weighted::weighted_sse_of_labels(&inst, &w, q.labels());
            let delta = s.shift_delta(&inst, &p, i, gj);
            let scale = before.max(after).max(1e-9);
            assert!(
                (delta - (after - before)).abs() <= 1e-9 * scale,
                "case {case}: shift delta {delta} vs {}",
                after - before
            );
            // Swap i and j.
            let mut q = p.clone();
            q.apply_swap(&inst, i, j);
            let after = crate::weighted::weighted_sse_of_labels(&inst, &w, q.labels());
            let delta = s.swap_delta(&inst, &p, i, j);
            assert!(
                (delta - (after - before)).abs() <= 1e-9 * before.max(after).max(1e-9),
                "case {case}: swap delta {delta} vs {}",
                after - before
            );
        }
    }
}
