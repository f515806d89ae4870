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
//! When the budget (nodes, deadline, an early stop) is spent, the anchors reached afterwards
//! at a size `m > k` would get only their root bound; the same lemma with the least size-`k`
//! value of the anchor and its candidates in place of `tau` gives a second valid value, and
//! the slot takes the larger (P20 "Completion after the budget"), so a check cut by its time
//! above size `k` keeps most of its value.
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

use super::completion::completion_value;
use super::exact::{anchor_sizes, ExactPricing};
use super::Geometry;

/// The completion values after a `Mode::CompleteLocal` search: every slot of the sizes above
/// `k` when nothing is below `threshold` at size `k` (the search stopped there, as in
/// [`super::completion`]), else the slots the search left (`out.completed`).
pub(super) fn fill_completed(
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
    // Slots the budget left: the larger of two valid values (P20 "Completion after the
    // budget"); the slot already holds the anchor's incumbent at this size.
    for &(slot, g_k, root) in &out.completed_after_budget {
        let v = completion_value(k, k + slot % w, g_k, margin).max(root);
        per_size[slot] = per_size[slot].min(v);
        out.rc_lower_bound = out.rc_lower_bound.min(v);
    }
    out
}
