//! # Exact pricing
//!
//! Branch and bound over records anchored at each group's medoid (proofs/P09, part B; the
//! bounds are described in the module doc of [`super`]): the search behind every
//! configuration of [`super::ExactSearch`] (subset-row cuts, proofs/P14; branching decisions,
//! proofs/P17; per-anchor minima, proofs/P20; every group below a threshold, P19), the
//! budget and the result. The radius and star tests per
//! anchor are here; the depth-first search and its node bounds are in [`node`]. The result is
//! always a proven lower bound on the minimum reduced cost, exact when nothing was cut.
//!
//! ## Complexity
//! O(n^2 k) for the radii and root bounds, plus the branch and bound nodes (O(|candidates|)
//! each), bounded by the node budget and deadline.
//!
//! ## References
//! Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//! numerical microaggregation. Journal of Global Optimization 60, 165-182 (their exact
//! pricing is a specialised branch and bound; this one is our own design, proofs/P09).

use super::super::cuts::CutDuals;
use super::super::pairs::PairConstraints;
use super::Geometry;
use crate::deadline::Deadline;
use std::time::Instant;

mod anchor;
mod node;

/// Budget of one exact pricing call.
#[derive(Debug, Clone, Copy)]
pub struct ExactBudget<'a> {
    /// Branch-and-bound nodes over the whole call.
    pub nodes: u64,
    /// Wall-clock deadline: past its soft end the search bounds the anchors it did not
    /// search by their root bounds; once it is stopped (the command's end or the stop flag,
    /// [`Deadline::stopped`]) it gives up even that sweep and returns no better value than
    /// `-inf` (the caller's weak bound stands).
    pub deadline: Deadline<'a>,
    /// Most negative-reduced-cost groups returned as columns.
    pub max_columns: usize,
    /// Stop (as if out of budget, so the bound stays valid but weaker) once this many groups
    /// with negative reduced cost were met; `usize::MAX` to never stop early.
    pub stop_after_columns: usize,
}

/// Result of an exact pricing call.
#[derive(Debug, Clone)]
pub struct ExactPricing {
    /// Proven lower bound on `min(0, min_S rc(S))` (as computed, before the rounding margin).
    pub rc_lower_bound: f64,
    /// True when no node was cut by the budget: then `rc_lower_bound` is the exact minimum
    /// capped at 0 (up to rounding).
    pub exact: bool,
    /// Groups with negative reduced cost met at leaves (reduced cost, sorted members).
    pub columns: Vec<(f64, Vec<u32>)>,
    /// Nodes explored (leaves included).
    pub nodes: u64,
    /// Seconds spent per group size `k..=min(2k - 1, n)` (index `m - k`; where the time goes).
    pub seconds_per_size: Vec<f64>,
    /// Per-size slots left unsearched by `Mode::CompleteLocal` (filled by its caller).
    pub completed: Vec<usize>,
    /// Per-size slots above size `k` reached by `Mode::CompleteLocal` after the budget was
    /// spent: (slot, the least size-`k` value of the anchor and its candidates, the anchor's
    /// root bound). The caller fills the larger of the completion from that value and the
    /// root bound (proofs/P20 "Completion after the budget").
    pub completed_after_budget: Vec<(usize, f64, f64)>,
}

/// What the search keeps: the least reduced cost (shared or per anchor), every group below a
/// threshold, or per-anchor minima with the incumbent carried over the sizes (`Complete`:
/// and stop after size `k` when no anchor has a group below the threshold there, for
/// [`super::completion`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Mode {
    Least,
    Enumerate,
    Carry,
    Complete,
    /// `Complete`, and at sizes above `k` an anchor whose neighbourhood holds no size-`k`
    /// value below the threshold is not searched ([`super::local_completion`]).
    CompleteLocal,
}

struct Search<'a> {
    geo: &'a Geometry,
    y: &'a [f64],
    cuts: &'a CutDuals,
    /// Members of the current node in each cut.
    cut_count: Vec<u16>,
    m: usize,
    cands: Vec<usize>,
    /// Per candidate of the current anchor and size: its dual, and for each number `q` of
    /// members still to add (row `q - 1`) the term `NN_{q-1}(u) / (2m)` of the pair-sum bound.
    cand_y: Vec<f64>,
    nn_half: Vec<f64>,
    /// Row `q - 1`: at each candidate position, the sum of the `q - 1` smallest star terms
    /// after it, computed on first use per anchor (`star_ready`).
    star_suffix: Vec<f64>,
    star_ready: Vec<bool>,
    /// Star terms `f(u) = D_ru / 2 - y_u` of the candidates for the current anchor `r`.
    star: Vec<f64>,
    members: Vec<u32>,
    inc: f64,
    open_min: f64,
    nodes: u64,
    budget: ExactBudget<'a>,
    out_of_budget: bool,
    columns: Vec<(f64, Vec<u32>)>,
    /// Branching decisions the groups must respect (None: all groups count).
    pairs: Option<&'a PairConstraints>,
    /// With `pairs`: position of each record in `cands` for the current anchor
    /// (`usize::MAX`: not a candidate).
    pos: Vec<usize>,
    /// Enumeration mode ([`super::Anchors::Below`]): `inc` stays at the threshold and every
    /// group below it is collected.
    enumerate: bool,
    /// Scratch per depth of the depth-first search ([`node::Frame`]).
    frames: Vec<node::Frame>,
}

/// Number of group sizes `k..=min(2k - 1, n)` the pricing covers (the row width of
/// per-anchor output of [`super::Anchors::PerSize`] and its variants).
pub fn anchor_sizes(geo: &Geometry) -> usize {
    // Geometry requires n >= k >= 1, so this is at least 1.
    (2 * geo.k - 1).min(geo.n) + 1 - geo.k
}

/// Per-anchor bookkeeping of the per-anchor searches: fold the finished anchor `r`'s
/// minimum at the current size (its incumbent and cut nodes) into its entry of `per_size`
/// and into the global incumbent and open minimum (`global`), then reset the search for the
/// next anchor.
fn flush_anchor(
    s: &mut Search<'_>,
    anchors: &mut Option<(f64, &mut Vec<f64>)>,
    global: &mut (f64, f64),
    r: usize,
) {
    if let Some((threshold, per_size)) = anchors.as_mut() {
        let v = s.inc.min(s.open_min);
        let at = anchor_slot(s.geo, r, s.m);
        per_size[at] = per_size[at].min(v);
        global.0 = global.0.min(s.inc);
        global.1 = global.1.min(s.open_min);
        s.inc = *threshold;
        s.open_min = f64::INFINITY;
    }
}

/// At size `k`, after anchor `r` is flushed: give `stop` the anchor's value and treat the
/// budget as spent once it says the check cannot reach its level (root bounds only from
/// there: still valid).
fn stop_at_level(
    s: &mut Search<'_>,
    stop: &mut Option<&mut super::stop_below::StopBelow>,
    anchors: &Option<(f64, &mut Vec<f64>)>,
    r: usize,
) {
    if let (Some(st), Some((_, per_size))) = (stop.as_mut(), anchors.as_ref()) {
        if !s.out_of_budget && st.push(per_size[anchor_slot(s.geo, r, s.m)]) {
            s.out_of_budget = true;
        }
    }
}

/// Index of (anchor `r`, size `m`) in the per-size output.
fn anchor_slot(geo: &Geometry, r: usize, m: usize) -> usize {
    r * anchor_sizes(geo) + (m - geo.k)
}

/// The search behind every configuration of [`ExactSearch`] (`anchors`: per-anchor
/// threshold and minima; `pairs`: the branching decisions; `mode`: what is kept) that, per
/// anchor at size `k`, gives `stop` the anchor's value and treats
/// the budget as spent once `stop` says the check cannot reach its level
/// ([`super::stop_below::StopBelow`]).
#[allow(clippy::too_many_arguments)]
pub(super) fn exact_search_stop(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    pairs: Option<&PairConstraints>,
    budget: ExactBudget,
    mut anchors: Option<(f64, &mut Vec<f64>)>,
    mode: Mode,
    mut stop: Option<&mut super::stop_below::StopBelow>,
) -> ExactPricing {
    let n = geo.n;
    let enumerate = mode == Mode::Enumerate;
    let carry =
        matches!(mode, Mode::Carry | Mode::Complete | Mode::CompleteLocal) && anchors.is_some();
    let mut completed = Vec::new();
    let mut completed_after_budget = Vec::new();
    let w = anchor_sizes(geo);
    let mut seconds_per_size = vec![0.0; w];
    let mut sorted_y: Vec<f64> = y.to_vec();
    sorted_y.sort_unstable_by(|a, b| b.total_cmp(a));
    let inc = anchors.as_ref().map_or(0.0, |a| a.0);
    let mut s = Search::new(geo, y, cuts, pairs, budget, inc, enumerate);
    if enumerate {
        // Per-anchor bookkeeping resets `inc` to the threshold at every anchor.
        let (_, per_size) = anchors.as_mut().expect("enumeration runs per anchor");
        per_size.resize(n * anchor_sizes(geo), f64::INFINITY);
    }
    // Radii use a relative slack so that rounding cannot exclude a record (see P09).
    let slack = 1.0 + 1e-9;
    // Absolute slack of the star tests, far above their rounding error (see P09 B3).
    let star_slack = 1e-9
        * (geo.max_dist * (2 * geo.k) as f64
            + sorted_y
                .iter()
                .take(2 * geo.k)
                .map(|v| v.abs())
                .sum::<f64>());
    let mut cy: Vec<f64> = Vec::with_capacity(n);
    // Per-anchor mode: global incumbent and open minimum over the anchors flushed so far.
    let mut global = (s.inc, f64::INFINITY);
    let mut abandoned = false;
    // A count decision caps the compatible groups' size (pairs.rs, P22 Part E).
    let top_size = pairs.map_or(2 * geo.k - 1, |p| p.size_cap(geo.k)).min(n);
    for m in geo.k..=top_size {
        s.m = m;
        let size_start = Instant::now();
        if m == 1 {
            s.singletons(&mut anchors, &mut global);
            continue;
        }
        let top_m: f64 = sorted_y[..m].iter().sum();
        // Sizes above k may be completed from size k per anchor (local_completion.rs); the
        // lemma needs no cut penalties.
        let complete_local = mode == Mode::CompleteLocal && m > geo.k && cuts.is_empty();
        for r in 0..n {
            if budget.deadline.stopped() {
                abandoned = true;
                break;
            }
            if !s.out_of_budget && budget.deadline.passed() {
                s.out_of_budget = true; // root bounds only from here: still valid
            }
            if r > 0 {
                flush_anchor(&mut s, &mut anchors, &mut global, r - 1);
                if m == geo.k {
                    stop_at_level(&mut s, &mut stop, &anchors, r - 1);
                }
            }
            if top_m + s.inc <= 0.0 {
                break;
            }
            if carry && m > geo.k {
                // The anchor's best value at its smaller sizes (P20 "Carried incumbent"); the
                // break above used the threshold, valid for every anchor.
                if let Some((_, per_size)) = anchors.as_ref() {
                    let row = &per_size[r * w..r * w + (m - geo.k)];
                    s.inc = row.iter().copied().fold(s.inc, f64::min);
                }
                if top_m + s.inc <= 0.0 {
                    continue;
                }
            }
            if !s.filter_candidates(&mut cy, r, top_m, slack, star_slack) {
                continue;
            }
            if complete_local {
                if let Some((threshold, per_size)) = anchors.as_ref() {
                    if s.inc >= *threshold
                        && completion_clears(per_size, w, r, &s.cands, *threshold)
                    {
                        completed.push(anchor_slot(geo, r, m));
                        continue;
                    }
                }
            }
            if s.out_of_budget {
                // Budget spent: only the root bound of this anchor (no sort, no search).
                let root = s.root_bound(&mut cy, r);
                if let (true, Some((_, per_size))) = (complete_local, anchors.as_ref()) {
                    completed_after_budget.push(s.completion_after_budget(per_size, r, root));
                    continue;
                }
                if root < s.inc {
                    s.open_min = s.open_min.min(root);
                }
                continue;
            }
            s.search_anchor(r);
        }
        if abandoned {
            break;
        }
        // The last anchor of this size (anchors skipped by the break above keep their
        // threshold: no group with medoid there has rc below it).
        flush_anchor(&mut s, &mut anchors, &mut global, n - 1);
        seconds_per_size[m - geo.k] = size_start.elapsed().as_secs_f64();
        if matches!(mode, Mode::Complete | Mode::CompleteLocal) && m == geo.k && cuts.is_empty() {
            // No size-k group below the threshold anywhere: the larger sizes follow from
            // size k (super::completion, proofs/P20 "Size completion").
            if let Some((threshold, per_size)) = anchors.as_ref() {
                if per_size.iter().step_by(w).all(|&v| v >= *threshold) {
                    break;
                }
            }
        }
    }
    if anchors.is_some() {
        s.inc = global.0;
        s.open_min = global.1;
    }
    if abandoned {
        // Stopped (the command's end or the stop flag): the anchors not searched have no
        // bound, so no anchor keeps one (-inf is valid everywhere; the caller's weak bound
        // stands) and nothing is completed.
        s.out_of_budget = true;
        s.open_min = f64::NEG_INFINITY;
        if let Some((_, per_size)) = anchors.as_mut() {
            per_size.iter_mut().for_each(|v| *v = f64::NEG_INFINITY);
        }
        return s.result(seconds_per_size, Vec::new(), Vec::new());
    }
    s.result(seconds_per_size, completed, completed_after_budget)
}

/// True when the anchor `r` and every candidate in `cands` hold a size-`k` value (slot 0 of
/// their rows of width `w` in `per_size`) not below `threshold`: then the groups of any larger
/// size with medoid `r` are completed instead of searched ([`super::local_completion`] module doc).
fn completion_clears(
    per_size: &[f64],
    w: usize,
    r: usize,
    cands: &[usize],
    threshold: f64,
) -> bool {
    per_size[r * w] >= threshold && cands.iter().all(|&b| per_size[b * w] >= threshold)
}

/// Keep in `best` (ascending) the `q` smallest values offered so far, with `x` offered now:
/// one sorted insertion (after the values `<= x`) when `x` is below the largest kept, O(q);
/// a comparison otherwise. Returns whether `x` entered.
#[inline]
fn keep_smallest(best: &mut Vec<f64>, q: usize, x: f64) -> bool {
    if best.len() == q {
        if x >= best[q - 1] {
            return false;
        }
        best.pop();
    }
    let mut at = best.len();
    best.push(x);
    while at > 0 && best[at - 1] > x {
        best[at] = best[at - 1];
        at -= 1;
    }
    best[at] = x;
    true
}
