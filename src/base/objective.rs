//! # Objective
//!
//! What a partition of an instance is scored by, a property of the data: the SSE of the
//! z-scores ([`Objective::Plain`], every instance without sampling weights or with all
//! weights equal, the default), the weighted SSE with weighted centroids
//! ([`Objective::Weighted`], `--weights` with unequal weights) or the SSE over the observed
//! cells ([`Objective::Masked`], data with missing cells). [`Instance::objective`]
//! reads it off the instance; the plain case borrows nothing and allocates nothing.
//!
//! The descent ([`crate::search::local_search::LocalSearch`]) evaluates its moves through
//! the objective: the plain deltas are those of the partition's cached centroids (P02, bit
//! for bit as before); the weighted ones are P40 Lemma W5 over the per-group weighted
//! totals and centroids of [`GroupSums::Weighted`] ([`weighted::WeightedSums`]). Equal
//! weights make the weighted SSE a constant multiple of the SSE, so they are plain.
//!
//! Identities relied on: `proofs/P40-weighted-sse.md` (Lemma W1, the weighted Huygens and
//! merge identities; Lemma W5, the weighted move deltas). On data with missing cells the
//! objective is the masked SSE ([`Objective::Masked`], `proofs/P42-masked-deltas.md`): the
//! [`Partition`] of such an instance keeps the masked means and SSE, and the deltas read
//! them with the observed counts of [`GroupSums::Masked`] ([`masked::MaskedSums`]); the
//! initializers and the `descent` that run there declare it in the registry
//! (`runs_on_missing_cells`), and the one executor runs them ([`crate::missing`]). With
//! unequal weights as well the objective is the weighted masked SSE
//! ([`Objective::MaskedWeighted`], [`masked_weighted::MaskedWeightedSums`], P40 W8).
//!
//! ## Complexity
//! [`Instance::objective`] is O(n) (the weights are compared once); plain sums cost
//! nothing; weighted and masked sums cost O(n d) to build and O((|A| + |B|) d) to refresh
//! the two groups of a move.
//!
//! ## References
//! - Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Wiley, Section 2.2 (weighted
//!   means).

pub mod masked;
pub mod masked_weighted;
pub mod weighted;

use crate::data::Instance;
use crate::partition::Partition;
use masked::MaskedSums;
use masked_weighted::MaskedWeightedSums;
use weighted::WeightedSums;

/// The objective a partition of an instance is scored by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Objective<'a> {
    /// The SSE of the z-scores.
    Plain,
    /// The weighted SSE with weighted centroids (P40): one weight per record, each > 0,
    /// not all equal.
    Weighted(&'a [f64]),
    /// The SSE over the observed cells of data with missing cells (P42).
    Masked,
    /// The weighted SSE over the observed cells (sampling weights, not all equal, and
    /// missing cells; P40 W7, W8).
    MaskedWeighted(&'a [f64]),
}

/// The per-group sums an objective needs beyond those the [`Partition`] keeps: none for
/// the plain SSE, weighted totals, centroids and SSE for the weighted one, observed counts
/// for the masked one.
#[derive(Debug, Clone)]
pub enum GroupSums {
    Plain,
    Weighted(WeightedSums),
    Masked(MaskedSums),
    MaskedWeighted(MaskedWeightedSums),
}

impl GroupSums {
    /// The sums of `objective` over partition `p` of `inst`.
    pub fn new(objective: Objective, inst: &Instance, p: &Partition) -> Self {
        match objective {
            Objective::Plain => GroupSums::Plain,
            Objective::Weighted(w) => GroupSums::Weighted(WeightedSums::new(inst, p, w)),
            Objective::Masked => GroupSums::Masked(MaskedSums::new(inst, p)),
            Objective::MaskedWeighted(w) => {
                GroupSums::MaskedWeighted(MaskedWeightedSums::new(inst, p, w))
            }
        }
    }

    /// Recompute the sums of `groups` after `p` changed them (nothing for the plain SSE,
    /// whose sums the partition keeps).
    #[inline]
    pub fn refresh(&mut self, inst: &Instance, p: &Partition, groups: &[usize]) {
        match self {
            GroupSums::Plain => {}
            GroupSums::Weighted(s) => groups.iter().for_each(|&g| s.refresh(inst, p, g)),
            GroupSums::Masked(s) => groups.iter().for_each(|&g| s.refresh(inst, p, g)),
            GroupSums::MaskedWeighted(s) => groups.iter().for_each(|&g| s.refresh(inst, p, g)),
        }
    }
}

impl GroupSums {
    /// The objective's change if record `i` of `p` moved to group `to` (the plain one from
    /// the partition's centroids, P02).
    #[inline]
    pub fn shift_delta(&self, inst: &Instance, p: &Partition, i: usize, to: usize) -> f64 {
        match self {
            GroupSums::Plain => p.shift_delta(inst, i, to),
            GroupSums::Weighted(s) => s.shift_delta(inst, p, i, to),
            GroupSums::Masked(s) => s.shift_delta(inst, p, i, to),
            GroupSums::MaskedWeighted(s) => s.shift_delta(inst, p, i, to),
        }
    }

    /// The objective's change if records `i` and `j` of `p` exchanged groups.
    #[inline]
    pub fn swap_delta(&self, inst: &Instance, p: &Partition, i: usize, j: usize) -> f64 {
        match self {
            GroupSums::Plain => p.swap_delta(inst, i, j),
            GroupSums::Weighted(s) => s.swap_delta(inst, p, i, j),
            GroupSums::Masked(s) => s.swap_delta(inst, p, i, j),
            GroupSums::MaskedWeighted(s) => s.swap_delta(inst, p, i, j),
        }
    }
}
