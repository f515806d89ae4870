//! # Objective
//!
//! What a partition of an instance is scored by, a property of the data: the SSE of the
//! z-scores ([`Objective::Plain`], every instance without sampling weights or with all
//! weights equal, the default) or the weighted SSE with weighted centroids
//! ([`Objective::Weighted`], `--weights` with unequal weights). [`Instance::objective`]
//! reads it off the instance; the plain case borrows nothing and allocates nothing.
//!
//! The descent ([`crate::search::local_search::LocalSearch`]) evaluates its moves through
//! the objective: the plain deltas are those of the partition's cached centroids (P02, bit
//! for bit as before); the weighted ones are P40 Lemma W5 over the per-group weighted
//! totals and centroids of [`GroupSums::Weighted`] ([`weighted::WeightedSums`]). Equal
//! weights make the weighted SSE a constant multiple of the SSE, so they are plain.
//!
//! Identities relied on: `proofs/P40-weighted-sse.md` (Lemma W1, the weighted Huygens and
//! merge identities; Lemma W5, the weighted move deltas). The masked SSE of data with
//! missing cells (`proofs/P42-masked-deltas.md`) is not a variant here: the [`Partition`]
//! of such an instance keeps masked statistics, the initializers and the `descent` that run
//! there declare it in the registry (`runs_on_missing_cells`), and the one executor runs
//! them ([`crate::missing`]).
//!
//! ## Complexity
//! [`Instance::objective`] is O(n) (the weights are compared once); plain sums cost
//! nothing; weighted sums cost O(n d) to build and O((|A| + |B|) d) to refresh the two
//! groups of a move.
//!
//! ## References
//! - Cochran, W. G. (1977). Sampling Techniques, 3rd ed., Wiley, Section 2.2 (weighted
//!   means).

pub mod weighted;

use crate::data::Instance;
use crate::partition::Partition;
use weighted::WeightedSums;

/// The objective a partition of an instance is scored by.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Objective<'a> {
    /// The SSE of the z-scores.
    Plain,
    /// The weighted SSE with weighted centroids (P40): one weight per record, each > 0,
    /// not all equal.
    Weighted(&'a [f64]),
}

/// The per-group sums an objective needs beyond those the [`Partition`] keeps: none for
/// the plain SSE, weighted totals, centroids and SSE for the weighted one.
#[derive(Debug, Clone)]
pub enum GroupSums {
    Plain,
    Weighted(WeightedSums),
}

impl GroupSums {
    /// The sums of `objective` over partition `p` of `inst`.
    pub fn new(objective: Objective, inst: &Instance, p: &Partition) -> Self {
        match objective {
            Objective::Plain => GroupSums::Plain,
            Objective::Weighted(w) => GroupSums::Weighted(WeightedSums::new(inst, p, w)),
        }
    }

    /// Recompute the sums of `groups` after `p` changed them (nothing for the plain SSE,
    /// whose sums the partition keeps).
    #[inline]
    pub fn refresh(&mut self, inst: &Instance, p: &Partition, groups: &[usize]) {
        if let GroupSums::Weighted(s) = self {
            groups.iter().for_each(|&g| s.refresh(inst, p, g));
        }
    }
}
