//! # Exact pricing
//!
//! Branch and bound over records anchored at each group's medoid (proofs/P09, part B; the
//! bounds are described in the module doc of [`super`]): the entry points
//! [`exact_rc_bound`], [`exact_rc_bound_cuts`] (subset-row cuts, proofs/P14),
//! [`exact_rc_bound_pairs`] (branching decisions, proofs/P17) and [`exact_rc_bound_anchors`]
//! (per-anchor minima, proofs/P20), the budget and the result. The radius and star tests per
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
use super::search::{Anchors, ExactSearch};
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
    to_t: Vec<f64>,
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
    /// Enumeration mode ([`enumerate_rc_below`]): `inc` stays at the threshold and every
    /// group below it is collected.
    enumerate: bool,
}

/// Exact pricing by branch and bound (see the module doc): a proven lower bound on
/// `min(0, min_S rc(S))` over groups of `k..2k-1` records, exact when nothing was cut.
pub fn exact_rc_bound(geo: &Geometry, y: &[f64], budget: ExactBudget) -> ExactPricing {
    ExactSearch::new(&CutDuals::none()).run(geo, y, budget, &mut Vec::new())
}

/// [`exact_rc_bound`] for the reduced cost with subset-row cuts,
/// `rc(S) = P(S)/|S| - y(S) + pen(S)` (module doc; proofs/P14).
pub fn exact_rc_bound_cuts(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
) -> ExactPricing {
    ExactSearch::new(cuts).run(geo, y, budget, &mut Vec::new())
}

/// Every group of `k..2k-1` records whose computed reduced cost (with the cut penalties) is
/// below `threshold` (proofs/P19): the search of [`exact_rc_bound_cuts`] with its incumbent
/// held at `threshold` instead of lowered, collecting every leaf below it. `exact` is true
/// when nothing was cut by the budget (nodes, deadline, or `stop_after_columns` groups met):
/// then no group whose computed node bounds stay below `threshold` is missing.
pub fn enumerate_rc_below(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    threshold: f64,
    budget: ExactBudget,
) -> ExactPricing {
    let anchors = Anchors::Below { threshold };
    ExactSearch::new(cuts)
        .anchors(anchors)
        .run(geo, y, budget, &mut Vec::new())
}

/// [`exact_rc_bound_cuts`] over the groups compatible with the branching decisions `pairs`
/// (all groups when None; module doc, proofs/P17): a proven lower bound on
/// `min(0, min rc(S))` over those groups, exact when nothing was cut, and only compatible
/// groups as columns.
pub fn exact_rc_bound_pairs(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    pairs: Option<&PairConstraints>,
    budget: ExactBudget,
) -> ExactPricing {
    ExactSearch::new(cuts)
        .pairs(pairs)
        .run(geo, y, budget, &mut Vec::new())
}

/// Per-anchor exact pricing (proofs/P20): the search of [`exact_rc_bound_cuts`] with the
/// incumbent reset to `threshold` (<= 0) at every anchor, so that on return `per_anchor[r]`
/// (length n, overwritten) is a proven lower bound on `min(threshold, rc(S))` over the groups
/// `S` whose medoid is `r` (the groups the search covers at anchor `r`, P09 B2.1). Slower than
/// the shared incumbent (an anchor is never pruned by another anchor's groups); the returned
/// [`ExactPricing`] is the usual global result (`rc_lower_bound = min_r per_anchor[r]`).
pub fn exact_rc_bound_anchors(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
    threshold: f64,
    per_anchor: &mut Vec<f64>,
) -> ExactPricing {
    let mut per_size = Vec::new();
    let out = exact_rc_bound_anchor_sizes(geo, y, cuts, budget, threshold, &mut per_size);
    let w = anchor_sizes(geo);
    per_anchor.clear();
    per_anchor.extend(
        per_size
            .chunks(w)
            .map(|c| c.iter().copied().fold(threshold.min(0.0), f64::min)),
    );
    per_anchor.resize(geo.n, threshold.min(0.0));
    out
}

/// Number of group sizes `k..=min(2k - 1, n)` the pricing covers (the row width of
/// [`exact_rc_bound_anchor_sizes`]' output).
pub fn anchor_sizes(geo: &Geometry) -> usize {
    // Geometry requires n >= k >= 1, so this is at least 1.
    (2 * geo.k - 1).min(geo.n) + 1 - geo.k
}

/// [`exact_rc_bound_anchors`] per anchor and size (proofs/P20, "Per size"): on return
/// `per_size[r * w + (m - k)]` (`w` = [`anchor_sizes`], overwritten) is a proven lower bound
/// on `min(threshold, rc(S))` over the groups `S` of `m` records whose medoid is `r`. The
/// search is the same (the incumbent is reset for every (size, anchor) pair); only the
/// bookkeeping keeps the sizes apart.
pub fn exact_rc_bound_anchor_sizes(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
    threshold: f64,
    per_size: &mut Vec<f64>,
) -> ExactPricing {
    let anchors = Anchors::PerSize { threshold };
    ExactSearch::new(cuts)
        .anchors(anchors)
        .run(geo, y, budget, per_size)
}

/// [`exact_rc_bound_anchor_sizes`] without cuts and with any threshold, positive ones included
/// (proofs/P20 "Signed values": the search's argument does not use the sign of the
/// incumbent); for [`super::super::signed_anchors`].
pub fn exact_rc_bound_anchor_sizes_signed(
    geo: &Geometry,
    y: &[f64],
    budget: ExactBudget,
    threshold: f64,
    per_size: &mut Vec<f64>,
) -> ExactPricing {
    let anchors = Anchors::Signed { threshold };
    let none = CutDuals::none();
    ExactSearch::new(&none)
        .anchors(anchors)
        .run(geo, y, budget, per_size)
}

/// [`exact_rc_bound_anchor_sizes`] with each anchor's incumbent carried from its smaller sizes
/// (proofs/P20, "Carried incumbent"): at size `m > k` the search at anchor `r` starts from
/// `c = min(threshold, values of r at sizes k..m-1)` instead of `threshold`, so it prunes
/// every group of `m` records that cannot beat a group already found at `r`. On return
/// `per_size[r * w + (m - k)]` is a proven lower bound on `min(c, rc(S))` over the groups `S`
/// of `m` records with medoid `r`, hence the per-anchor minimum over the sizes is the same
/// proven value as [`exact_rc_bound_anchor_sizes`]' (exact when nothing was cut) and the
/// per-size values stay valid for the knapsack (never above the uncarried ones' bound on
/// `min(threshold, rc)`, possibly weaker). Faster where anchors have negative groups at size
/// `k`: the larger sizes are pruned against them.
pub fn exact_rc_bound_anchor_carry(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    budget: ExactBudget,
    threshold: f64,
    per_size: &mut Vec<f64>,
) -> ExactPricing {
    let anchors = Anchors::Carry { threshold };
    ExactSearch::new(cuts)
        .anchors(anchors)
        .run(geo, y, budget, per_size)
}

/// Per-anchor bookkeeping of [`exact_rc_bound_anchor_sizes`]: fold the finished anchor `r`'s
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
    for m in geo.k..=(2 * geo.k - 1).min(n) {
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
