//! # Weighted masked move deltas (sampling weights and missing cells)
//!
//! With sampling weights and missing cells the objective is the weighted masked SSE: per
//! group g and column j the weighted squared deviations of the observed cells from their
//! weighted mean c_gj (`crate::missing::figures`, P40 W7). It is a sum over columns of
//! one-dimensional weighted SSEs over each column's observed members, so a move's change is
//! the sum over columns of P40 Lemma W5 applied to the column (`proofs/P40-weighted-sse.md`,
//! W8): for a column of group G that gains b and loses a (either may be absent), with
//! observed weight W and weighted mean c,
//!
//! `Δ = w_b (b - c)^2 - w_a (a - c)^2 - (w_b (b - c) - w_a (a - c))^2 / (W - w_a + w_b)`,
//!
//! and 0 when the column has no observed member after the move (its last one leaves: its
//! SSE was 0). [`MaskedWeightedSums`] keeps per group and column the observed count, W and
//! c, recomputed from the members of the two groups of every applied move.
//!
//! A move counts as improving only when its delta is below `-threshold`, the threshold of
//! the weighted descent (`super::weighted`) with the weighted masked SST.
//!
//! ## Complexity
//! O(n d) to build; O(d) per delta; O(|G| d) to refresh group G.
//!
//! ## References
//! Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Section 2.2 (weighted means);
//! Gower (1971), Biometrics 27(4) (statistics over the observed variables).

use crate::data::Instance;
use crate::partition::Partition;

/// Per group slot and column: the observed count, total weight and weighted mean.
#[derive(Debug, Clone)]
pub struct MaskedWeightedSums {
    w: Vec<f64>,
    d: usize,
    count: Vec<usize>,
    total: Vec<f64>,
    mean: Vec<f64>,
}

impl MaskedWeightedSums {
    /// The sums of partition `p` of `inst` with weights `w` (one per record, > 0).
    pub fn new(inst: &Instance, p: &Partition, w: &[f64]) -> Self {
        let cells = p.slots() * inst.d;
        let mut s = MaskedWeightedSums {
            w: w.to_vec(),
            d: inst.d,
            count: vec![0; cells],
            total: vec![0.0; cells],
            mean: vec![0.0; cells],
        };
        for g in 0..p.slots() {
            s.refresh(inst, p, g);
        }
        s
    }

    /// Recompute group `g`'s observed counts, weights and weighted means.
    pub fn refresh(&mut self, inst: &Instance, p: &Partition, g: usize) {
        for j in 0..self.d {
            let (mut count, mut total, mut sum) = (0, 0.0, 0.0);
            for &i in p.members(g).iter().filter(|&&i| !inst.is_missing(i, j)) {
                count += 1;
                total += self.w[i];
                sum += self.w[i] * inst.row(i)[j];
            }
            let at = g * self.d + j;
            self.count[at] = count;
            self.total[at] = total;
            self.mean[at] = if count > 0 { sum / total } else { 0.0 };
        }
    }

    /// Change of group `g`'s column `j` when it gains record `gain` and loses record `lose`
    /// (either may be absent; each observed in the column): W5 on the column.
    fn column_delta(
        &self,
        inst: &Instance,
        g: usize,
        j: usize,
        gain: Option<usize>,
        lose: Option<usize>,
    ) -> f64 {
        let at = g * self.d + j;
        let after = self.count[at] + usize::from(gain.is_some()) - usize::from(lose.is_some());
        if (gain.is_none() && lose.is_none()) || after == 0 {
            return 0.0;
        }
        let c = self.mean[at];
        let term = |r: Option<usize>| r.map_or((0.0, 0.0), |r| (self.w[r], inst.row(r)[j] - c));
        let ((wb, db), (wa, da)) = (term(gain), term(lose));
        let cross = wb * db - wa * da;
        wb * db * db - wa * da * da - cross * cross / (self.total[at] - wa + wb)
    }

    /// Change of the weighted masked SSE if record `i` moved to group `to`.
    pub fn shift_delta(&self, inst: &Instance, p: &Partition, i: usize, to: usize) -> f64 {
        let from = p.group_of(i);
        if from == to {
            return 0.0;
        }
        (0..self.d)
            .filter(|&j| !inst.is_missing(i, j))
            .map(|j| {
                self.column_delta(inst, to, j, Some(i), None)
                    + self.column_delta(inst, from, j, None, Some(i))
            })
            .sum()
    }

    /// Change of the weighted masked SSE if records `i` and `j` exchanged groups.
    pub fn swap_delta(&self, inst: &Instance, p: &Partition, i: usize, j: usize) -> f64 {
        let (a, b) = (p.group_of(i), p.group_of(j));
        if a == b {
            return 0.0;
        }
        (0..self.d)
            .map(|t| {
                let x = (!inst.is_missing(i, t)).then_some(i);
                let y = (!inst.is_missing(j, t)).then_some(j);
                self.column_delta(inst, a, t, y, x) + self.column_delta(inst, b, t, x, y)
            })
            .sum()
    }
}
