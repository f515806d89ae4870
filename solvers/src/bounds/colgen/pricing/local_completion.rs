//! # Per-anchor size completion
//!
//! [`super::completion`] skips the sizes `k+1..2k-1` only when no anchor at all has a size-`k`
//! group below the threshold `tau`. At the good k = 10 points some anchors always have one, so
//! every anchor is searched at every size, and the sizes above `k` take most of a check
//! (study-colgen.txt "18-k10"). This is the same lemma used per anchor (proofs/P20
//! "Per-anchor size completion"): at size `m > k`, anchor `r` (incumbent still at `tau`) has
//! its candidate set `C` (every member of a group with medoid `r` and reduced cost below `tau`
//! lies in `{r} ∪ C`, by the search's own radius and star tests). Each size-`k` subset `A` of
//! such a group has its medoid in `{r} ∪ C`; when all those records hold the value `tau` at
//! size `k` (no group below `tau` there), `rc(A) >= tau` for every such `A`, so
//! `rc(S) >= (m/k) tau` for every group `S` of `m` records with medoid `r`, and the search of
//! `(r, m)` is replaced by [`super::completion::completion_value`], exactly the value the
//! global completion gives every anchor. The knapsack of [`super::super::anchors`] loses at
//! most `|tau|` by it (as for the global completion: the completed anchors are charged `tau/k`
//! per record, the rate of a size-`k` value `tau`).
//!
//! Used by the producers of certified values (line searches, push-and-project, certified
//! smoothing); `verify-bound` keeps its searches, whose values at such slots are never below
//! the completed ones up to rounding (P20).
//!
//! ## Complexity
//! O(|C|) per (anchor, size) for the test; a skipped pair costs no search.
//!
//! ## References
//! The averaging lemma of P20 "Size completion"; its per-anchor use is this project's.

use super::super::cuts::CutDuals;
use super::completion::{completion_value, exact_rc_bound_anchor_complete};
use super::exact::{
    anchor_sizes, exact_search, exact_search_stop, ExactBudget, ExactPricing, Mode,
};
use super::Geometry;

/// True when the anchor `r` and every candidate in `cands` hold a size-`k` value (slot 0 of
/// their rows of width `w` in `per_size`) not below `threshold`: then the groups of any larger
/// size with medoid `r` are completed instead of searched (module doc).
pub(super) fn clear(per_size: &[f64], w: usize, r: usize, cands: &[usize], threshold: f64) -> bool {
    per_size[r * w] >= threshold && cands.iter().all(|&b| per_size[b * w] >= threshold)
}

/// [`exact_rc_bound_anchor_complete`] with the per-anchor completion of the module doc: the
/// same per-size output (`per_size[r * w + (m - k)]`, overwritten: proven lower bounds, before
/// the margin `margin`, on `min(threshold, rc(S))` over the groups of `m` records with medoid
/// `r`) and global result; the slots completed per anchor hold
/// `completion_value(k, m, threshold, margin)`. With cuts it is
/// [`exact_rc_bound_anchor_complete`] (the lemma does not hold with cut penalties).
pub fn exact_rc_bound_anchor_local(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
    threshold: f64,
    margin: f64,
    per_size: &mut Vec<f64>,
) -> ExactPricing {
    if !cuts.is_empty() {
        return exact_rc_bound_anchor_complete(geo, y, cuts, budget, threshold, margin, per_size);
    }
    let threshold = threshold.min(0.0);
    let w = anchor_sizes(geo);
    per_size.clear();
    per_size.resize(geo.n * w, threshold);
    let out = exact_search(
        geo,
        y,
        cuts,
        None,
        budget,
        Some((threshold, per_size)),
        Mode::CompleteLocal,
    );
    fill_completed(geo, threshold, margin, per_size, out)
}

/// The completion values after a `Mode::CompleteLocal` search: every slot of the sizes above
/// `k` when nothing is below `threshold` at size `k` (the search stopped there, as in
/// [`super::completion`]), else the slots the search left (`out.completed`).
fn fill_completed(
    geo: &Geometry,
    threshold: f64,
    margin: f64,
    per_size: &mut [f64],
    mut out: ExactPricing,
) -> ExactPricing {
    let k = geo.k;
    let w = anchor_sizes(geo);
    let nothing_at_k = per_size.iter().step_by(w).all(|&v| v >= threshold);
    if nothing_at_k && w > 1 {
        for (j, m) in (k..k + w).enumerate().skip(1) {
            let v = completion_value(k, m, threshold, margin);
            for row in per_size.chunks_mut(w) {
                row[j] = row[j].min(v);
            }
            out.rc_lower_bound = out.rc_lower_bound.min(v);
        }
    } else {
        for &slot in &out.completed {
            let v = completion_value(k, k + slot % w, threshold, margin);
            per_size[slot] = per_size[slot].min(v);
            out.rc_lower_bound = out.rc_lower_bound.min(v);
        }
    }
    out
}

/// Early stop of a certifying check that cannot reach `level` (a choice of effort, never a
/// bound): at duals `y`, the check's value is the larger of the plain and the anchored
/// Lagrangian bounds, each at most `sum y + sum_{r in A} max(V_r, weak)` for any `floor(n/k)`
/// anchors `A` at size `k` (a feasible choice of the size knapsack; the plain bound uses the
/// least value), and the values `V_r` only fall as the search goes on (an anchor not yet
/// searched is at most `tau`). So `sum y` plus the `floor(n/k)` most negative size-`k` values
/// met so far (the others at `tau`) bounds the final value from above; once it is below
/// `level` (the best certified value so far) the check cannot improve on it and the search
/// gives only root bounds from there (valid, cheap).
#[derive(Debug, Clone)]
pub struct StopBelow {
    level: f64,
    /// `sum y + g * max(tau, weak)` (capped at 0 per term).
    base: f64,
    floor_rc: f64,
    at_tau: f64,
    g: usize,
    /// The `g` most negative excesses `max(V, weak) - max(tau, weak)` (<= 0) met so far,
    /// least negative on top.
    kept: std::collections::BinaryHeap<Excess>,
    excess: f64,
    /// True once the estimate fell below `level`.
    pub fired: bool,
}

/// An excess ordered by value (no NaN: values are finite reduced-cost bounds).
#[derive(Debug, Clone, Copy, PartialEq)]
struct Excess(f64);
impl Eq for Excess {}
impl PartialOrd for Excess {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Excess {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

impl StopBelow {
    /// Stop level `level`, duals summing to `sum_y`, threshold `tau`, weak pricing bound
    /// `floor_rc`, `g = floor(n/k)` groups.
    pub fn new(level: f64, sum_y: f64, tau: f64, floor_rc: f64, g: usize) -> StopBelow {
        let at_tau = tau.max(floor_rc).min(0.0);
        StopBelow {
            level,
            base: sum_y + g as f64 * at_tau,
            floor_rc,
            at_tau,
            g,
            kept: std::collections::BinaryHeap::new(),
            excess: 0.0,
            fired: false,
        }
    }

    /// The upper estimate of the check's value so far.
    pub fn estimate(&self) -> f64 {
        self.base + self.excess
    }

    /// One anchor's final size-`k` value; true when the check should stop.
    pub fn push(&mut self, v: f64) -> bool {
        let e = v.max(self.floor_rc).min(0.0) - self.at_tau;
        if e < 0.0 && self.g > 0 {
            if self.kept.len() < self.g {
                self.kept.push(Excess(e));
                self.excess += e;
            } else if let Some(&Excess(top)) = self.kept.peek() {
                if e < top {
                    self.kept.pop();
                    self.kept.push(Excess(e));
                    self.excess += e - top;
                }
            }
        }
        if !self.fired && self.estimate() < self.level {
            self.fired = true;
        }
        self.fired
    }
}

/// [`exact_rc_bound_anchor_local`] stopped by `stop` (see [`StopBelow`]): the same proven
/// output, weaker (root bounds for the anchors left) when `stop.fired`.
#[allow(clippy::too_many_arguments)]
pub fn exact_rc_bound_anchor_local_stop(
    geo: &Geometry,
    y: &[f64],
    budget: ExactBudget,
    threshold: f64,
    margin: f64,
    per_size: &mut Vec<f64>,
    stop: &mut StopBelow,
) -> ExactPricing {
    let threshold = threshold.min(0.0);
    let w = anchor_sizes(geo);
    per_size.clear();
    per_size.resize(geo.n * w, threshold);
    let cuts = CutDuals::none();
    let out = exact_search_stop(
        geo,
        y,
        &cuts,
        None,
        budget,
        Some((threshold, per_size)),
        Mode::CompleteLocal,
        Some(stop),
    );
    fill_completed(geo, threshold, margin, per_size, out)
}
