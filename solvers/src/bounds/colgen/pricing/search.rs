//! # One configurable exact pricing search
//!
//! Every exact pricing of the bounds is one branch-and-bound search ([`super::exact`]) with
//! a configuration [`ExactSearch`]: the cut duals it charges (P14), the branching decisions
//! its groups respect (P17), what it proves per anchor ([`Anchors`]: one shared incumbent;
//! every group below a threshold; per anchor and size from a threshold, signed or capped at
//! 0, with the incumbent carried over the sizes, with the sizes above `k` completed from
//! size `k` globally or per anchor, P20), and an optional [`StopBelow`] that ends it once it
//! cannot reach a level (effort only). [`ExactSearch::run`] returns the global result and
//! fills the per-size values the configuration asks for; [`per_anchor_minima`] folds those
//! into one value per anchor. Every caller states its configuration at the call.
//!
//! ## Complexity
//! As [`super::exact`]: exponential in `2k - 1` at worst, bounded by the budget.
//!
//! ## References
//! proofs/P09 (part B), P14, P17, P19, P20.

use super::super::cuts::CutDuals;
use super::super::pairs::PairConstraints;
use super::completion::complete_sizes;
use super::exact::{anchor_sizes, exact_search_stop, ExactBudget, ExactPricing, Mode};
use super::local_completion::fill_completed;
use super::stop_below::StopBelow;
use super::Geometry;

/// What a search proves per anchor (module doc); `threshold` is the per-anchor incumbent's
/// start (capped at 0 except for `Signed`), `margin` the rounding margin later subtracted
/// from the per-size values.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Anchors {
    /// One incumbent shared by every anchor: the least reduced cost (P09).
    Shared,
    /// Every group below `threshold`, collected as columns (P19).
    Below { threshold: f64 },
    /// Per anchor and size, the incumbent reset to `threshold` at each (P20 "Per size").
    PerSize { threshold: f64 },
    /// `PerSize` with any threshold, positive ones included (P20 "Signed values").
    Signed { threshold: f64 },
    /// `PerSize` with the incumbent carried from the anchor's smaller sizes (P20 "Carried
    /// incumbent").
    Carry { threshold: f64 },
    /// `Carry`, and without cuts the sizes above `k` completed from size `k` when no size-`k`
    /// group is below the threshold (P20 "Size completion").
    Complete { threshold: f64, margin: f64 },
    /// `Complete`, and without cuts an anchor whose neighbourhood has no size-`k` value below
    /// the threshold completed instead of searched above `k`.
    CompleteLocal { threshold: f64, margin: f64 },
}

/// The configuration of one exact pricing search (module doc).
pub struct ExactSearch<'a> {
    pub cuts: &'a CutDuals,
    pub pairs: Option<&'a PairConstraints>,
    pub anchors: Anchors,
    pub stop: Option<&'a mut StopBelow>,
}

impl<'a> ExactSearch<'a> {
    /// The least reduced cost with the cuts `cuts` over every group.
    pub fn new(cuts: &'a CutDuals) -> Self {
        ExactSearch {
            cuts,
            pairs: None,
            anchors: Anchors::Shared,
            stop: None,
        }
    }

    /// Over the groups compatible with `pairs` (all groups when None).
    pub fn pairs(self, pairs: Option<&'a PairConstraints>) -> Self {
        ExactSearch { pairs, ..self }
    }

    /// With the per-anchor values `anchors`.
    pub fn anchors(self, anchors: Anchors) -> Self {
        ExactSearch { anchors, ..self }
    }

    /// Stopped by `stop` once it cannot reach its level.
    pub fn stop(self, stop: &'a mut StopBelow) -> Self {
        ExactSearch {
            stop: Some(stop),
            ..self
        }
    }

    /// Run the search at duals `y` within `budget`; the per-anchor configurations overwrite
    /// `per_size` (`per_size[r * w + (m - k)]`, `w` = [`anchor_sizes`]).
    pub fn run(
        self,
        geo: &Geometry,
        y: &[f64],
        budget: ExactBudget,
        per_size: &mut Vec<f64>,
    ) -> ExactPricing {
        let ExactSearch {
            cuts,
            pairs,
            anchors,
            stop,
        } = self;
        let search = |per: Option<(f64, &mut Vec<f64>)>, mode, budget, stop| {
            exact_search_stop(geo, y, cuts, pairs, budget, per, mode, stop)
        };
        match anchors {
            Anchors::Shared => search(None, Mode::Least, budget, stop),
            Anchors::Below { threshold } => {
                let budget = ExactBudget {
                    max_columns: usize::MAX,
                    ..budget
                };
                search(
                    Some((threshold, &mut Vec::new())),
                    Mode::Enumerate,
                    budget,
                    stop,
                )
            }
            Anchors::PerSize { threshold } => {
                let t = reset(geo, per_size, threshold.min(0.0));
                search(Some((t, per_size)), Mode::Least, budget, stop)
            }
            Anchors::Signed { threshold } => {
                let t = reset(geo, per_size, threshold);
                search(Some((t, per_size)), Mode::Least, budget, stop)
            }
            Anchors::Carry { threshold } => {
                let t = reset(geo, per_size, threshold.min(0.0));
                search(Some((t, per_size)), Mode::Carry, budget, stop)
            }
            Anchors::CompleteLocal { threshold, margin } if cuts.is_empty() => {
                let t = reset(geo, per_size, threshold.min(0.0));
                let out = search(Some((t, &mut *per_size)), Mode::CompleteLocal, budget, stop);
                fill_completed(geo, t, margin, per_size, out)
            }
            Anchors::Complete { threshold, margin }
            | Anchors::CompleteLocal { threshold, margin } => {
                let t = reset(geo, per_size, threshold.min(0.0));
                let mode = if cuts.is_empty() {
                    Mode::Complete
                } else {
                    Mode::Carry
                };
                let out = search(Some((t, &mut *per_size)), mode, budget, stop);
                complete_sizes(geo, mode, t, margin, per_size, out)
            }
        }
    }
}

/// One value per anchor from the per-size output of a per-anchor search with `threshold`:
/// the least over the anchor's sizes, at most `min(threshold, 0)` (proofs/P20: a proven
/// lower bound on `min(threshold, rc(S))` over the groups whose medoid is the anchor).
pub fn per_anchor_minima(geo: &Geometry, per_size: &[f64], threshold: f64) -> Vec<f64> {
    let cap = threshold.min(0.0);
    let mut out: Vec<f64> = per_size
        .chunks(anchor_sizes(geo))
        .map(|c| c.iter().copied().fold(cap, f64::min))
        .collect();
    out.resize(geo.n, cap);
    out
}

/// `per_size` with one slot per anchor and size, each `threshold`; returns `threshold`.
fn reset(geo: &Geometry, per_size: &mut Vec<f64>, threshold: f64) -> f64 {
    per_size.clear();
    per_size.resize(geo.n * anchor_sizes(geo), threshold);
    threshold
}
