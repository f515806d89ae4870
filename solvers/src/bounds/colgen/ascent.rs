//! # Line search from the nn duals
//!
//! The nn duals `y0_i = NN_{k-1}(i) / (2k)` price every group at `rc >= 0` (proofs/P09 part C),
//! so their Lagrangian bound is the nn bound. Given a good partition `P`, the direction `h`
//! spreads each group's slack `SSE(S) - y0(S)` evenly over its members: `y0 + h` prices the
//! groups of `P` at 0 and sums to `SSE(P)`. The Lagrangian bound is concave along
//! `y(t) = y0 + t h`; it rises with slope `sum h` while no group has a negative reduced cost
//! and falls once too many do. [`line_search`] evaluates the medoid-anchored bound (proofs/P20,
//! never below the plain one) at growing `t` until it drops, then refines between the best
//! point's neighbours. Every evaluated point gives a valid bound (P09 Part A, P20 hold for any
//! duals; a pricing search cut by the deadline gives a weaker valid bound), so the best is
//! returned with its duals for a certificate.
//!
//! At k = 10 the master LP's duals stay far off for minutes (study-colgen.txt section 3);
//! this search needs no LP and prices near a dual-feasible point, where the exact pricing is
//! fast (measured in study-colgen.txt section 8).
//!
//! ## Complexity
//! One per-anchor exact pricing per evaluated `t` (at most `max_evals`), each bounded by the
//! deadline; O(n) per point otherwise.
//!
//! ## References
//! Subgradient-free ascent of a concave dual function along a fixed direction (a line search,
//! e.g. Bertsekas, Nonlinear Programming, ch. 6); the direction from a primal solution's
//! slacks is this project's choice.

use super::anchors::anchored_best;
use super::cuts::CutDuals;
use super::pricing::{weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry};
use super::{lagrangian_with_cuts, rc_margin};
use crate::deadline::Deadline;

/// Best point of a line search.
#[derive(Debug, Clone, PartialEq)]
pub struct LineSearch {
    /// Certified (rounded) lower bound at the best point.
    pub lower_bound: f64,
    /// Its duals.
    pub duals: Vec<f64>,
    /// Step `t` of the best point.
    pub step: f64,
    /// Evaluations (pricing calls) made, and their (t, bound) in order.
    pub trace: Vec<(f64, f64)>,
}

/// The nn duals `NN_{k-1}(i) / (2k)`.
pub fn nn_duals(geo: &Geometry) -> Vec<f64> {
    let k = geo.k;
    (0..geo.n)
        .map(|i| geo.nn(i, k - 1) / (2 * k) as f64)
        .collect()
}

/// The slack direction of the partition `groups` (disjoint, covering all records) at duals
/// `y0`: `h_i = (SSE(S) - y0(S)) / |S|` for the group `S` of `i`.
pub fn slack_direction(x: &[f64], d: usize, groups: &[Vec<u32>], y0: &[f64]) -> Vec<f64> {
    let mut h = vec![0.0; y0.len()];
    for g in groups {
        let members: Vec<usize> = g.iter().map(|&i| i as usize).collect();
        let slack =
            crate::sse::group_sse(x, d, &members) - members.iter().map(|&i| y0[i]).sum::<f64>();
        for &i in &members {
            h[i] = slack / members.len() as f64;
        }
    }
    h
}

/// The certified bound at duals `y`: the larger of the plain and the anchored Lagrangian
/// bound from one per-anchor pricing search with `budget` and anchor threshold `tau <= 0`
/// (proofs/P20; the incumbent carried over the sizes, P20 "Carried incumbent"; the sizes
/// above k completed from size k when nothing is below `tau` there, P20 "Size completion").
pub fn bound_at(geo: &Geometry, y: &[f64], d: usize, budget: ExactBudget, tau: f64) -> f64 {
    let cuts = CutDuals::none();
    let weak = weak_rc_bound(geo, y);
    let mut per_size = Vec::new();
    let margin = rc_margin(geo, y, d, &cuts);
    let ex = ExactSearch::new(&cuts)
        .anchors(Anchors::CompleteLocal {
            threshold: tau,
            margin,
        })
        .run(geo, y, budget, &mut per_size);
    let g = geo.n / geo.k;
    let plain = lagrangian_with_cuts(geo, y, d, &cuts, g, weak.max(ex.rc_lower_bound).min(0.0));
    plain.max(anchored_best(geo, y, d, &cuts, &per_size, weak))
}

/// Line search on `t -> bound(y0 + t h)` from `t = first` (growing by `growth` while the bound
/// rises, then `refine` bisection-like steps around the best point), at most `max_evals`
/// evaluations, each pricing search stopped at `deadline` (later evaluations are skipped)
/// and run with the anchor threshold `tau` ([`bound_at`]). `None` when nothing was
/// evaluated.
#[allow(clippy::too_many_arguments)]
pub fn line_search<'a>(
    geo: &Geometry,
    d: usize,
    y0: &[f64],
    h: &[f64],
    first: f64,
    growth: f64,
    refine: usize,
    max_evals: usize,
    deadline: impl Into<Deadline<'a>>,
    tau: f64,
) -> Option<LineSearch> {
    let deadline: Deadline = deadline.into();
    let point = |t: f64| -> Vec<f64> { y0.iter().zip(h).map(|(a, b)| a + t * b).collect() };
    let mut trace: Vec<(f64, f64)> = Vec::new();
    let eval = |t: f64, trace: &mut Vec<(f64, f64)>| -> Option<f64> {
        if trace.len() >= max_evals || deadline.passed() {
            return None;
        }
        // At most a third of the time left per point: past the best step the pricing slows
        // down (many negative groups) and a cut search gives a weak bound anyway.
        let budget = ExactBudget {
            nodes: u64::MAX,
            deadline: deadline.part(1.0 / 3.0),
            max_columns: 0,
            stop_after_columns: usize::MAX,
        };
        let v = bound_at(geo, &point(t), d, budget, tau);
        trace.push((t, v));
        Some(v)
    };
    // Growth phase.
    let mut t = first;
    let mut prev = (0.0, f64::NEG_INFINITY);
    let mut best = (t, eval(t, &mut trace)?);
    loop {
        let next = t * growth;
        let Some(v) = eval(next, &mut trace) else {
            break;
        };
        if v > best.1 {
            prev = best;
            best = (next, v);
            t = next;
        } else {
            // Bracket [prev t, next] around best.
            let (mut lo, mut hi) = (prev.0, next);
            for _ in 0..refine {
                let (a, b) = ((lo + best.0) / 2.0, (best.0 + hi) / 2.0);
                let va = eval(a, &mut trace);
                let vb = eval(b, &mut trace);
                if va.is_none() && vb.is_none() {
                    break;
                }
                if va.is_some_and(|v| v > best.1) {
                    hi = best.0;
                    best = (a, va.expect("checked"));
                } else if vb.is_some_and(|v| v > best.1) {
                    lo = best.0;
                    best = (b, vb.expect("checked"));
                } else {
                    lo = a;
                    hi = b;
                }
            }
            break;
        }
    }
    Some(LineSearch {
        lower_bound: best.1,
        duals: point(best.0),
        step: best.0,
        trace,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::{Duration, Instant};

    #[test]
    fn the_search_rises_above_the_nn_bound_and_stays_below_the_optimum() {
        // Two clusters of four far apart, k = 3: the optimum is the two quadruples (groups of
        // 3 + 5 would mix the clusters), and the nn bound is below it.
        let x = [0.0, 0.1, 0.25, 0.4, 10.0, 10.1, 10.3, 10.35];
        let geo = Geometry::new(&x, 8, 1, 3, 3);
        let y0 = nn_duals(&geo);
        let groups = vec![vec![0, 1, 2, 3], vec![4, 5, 6, 7]];
        let h = slack_direction(&x, 1, &groups, &y0);
        let opt = crate::sse::partition_sse(&x, 1, &[0, 0, 0, 0, 1, 1, 1, 1]);
        let deadline = Instant::now() + Duration::from_secs(10);
        let ls = line_search(&geo, 1, &y0, &h, 0.05, 1.5, 3, 30, deadline, 0.0).unwrap();
        let nn: f64 = y0.iter().sum();
        assert!(nn < opt - 1e-3, "nn {nn} opt {opt}");
        assert!(ls.lower_bound <= opt, "{ls:?} > {opt}");
        assert!(ls.lower_bound > nn + 1e-3, "{ls:?} not above nn {nn}");
        // Every evaluated point is below the optimum too.
        assert!(ls.trace.iter().all(|&(_, v)| v <= opt), "{ls:?}");
    }
}
