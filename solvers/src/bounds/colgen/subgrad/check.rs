//! # Certified evaluations of the anchored bound
//!
//! The certified value at duals `y` without cuts: the larger of the plain (P09) and the
//! anchored (P20) Lagrangian bound from one per-anchor exact pricing at the anchor threshold
//! `tau`, with the negative groups met added to the caller's pool. Every ascent of this
//! module certifies its candidates here and nowhere else.
//!
//! ## Complexity
//! One per-anchor exact pricing (see [`super::super::pricing`]) within the deadline.
//!
//! ## References
//! - proofs/P09-lagrangian-bound.md, proofs/P20 (anchored bound, threshold).

use super::super::anchors::anchored_best;
use super::super::cuts::CutDuals;
use super::super::pricing::{
    weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry, StopBelow,
};
use super::super::{lagrangian_with_cuts, rc_margin};
use super::GroupPool;
use crate::deadline::Deadline;

/// One certified evaluation ([`certify_check`]).
#[derive(Debug, Clone, PartialEq)]
pub struct Check {
    /// The certified (rounded) bound.
    pub value: f64,
    /// True when the pricing search finished within its deadline (else `value` is still
    /// valid but rests on root bounds for the anchors left: a cut check says little about
    /// the point).
    pub complete: bool,
    /// Seconds of the pricing search per group size `k..` (index `m - k`).
    pub seconds_per_size: Vec<f64>,
}

/// The certified bound at duals `y` (no cuts): the larger of the plain (P09) and the
/// anchored (P20) Lagrangian bound from one per-anchor exact pricing with anchor threshold
/// `tau <= 0` (incumbent carried over the sizes, P20 "Carried incumbent"; sizes above k
/// completed from size k when nothing is below `tau` there, P20 "Size completion") and deadline
/// `until`; the negative groups it met go into `pool`.
pub fn certify_check<'a>(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    until: impl Into<Deadline<'a>>,
    pool: &mut GroupPool,
) -> Check {
    certify_check_above(geo, y, d, tau, until, pool, f64::NEG_INFINITY).0
}

/// [`certify_check`] that stops searching (root bounds for the anchors left, so the value
/// stays valid but weak) as soon as its value provably cannot exceed `level`
/// ([`StopBelow`]); the flag says whether it stopped so.
pub fn certify_check_above<'a>(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    until: impl Into<Deadline<'a>>,
    pool: &mut GroupPool,
    level: f64,
) -> (Check, bool) {
    let budget = ExactBudget {
        nodes: u64::MAX,
        deadline: until.into(),
        max_columns: 20 * geo.n,
        stop_after_columns: usize::MAX,
    };
    certify_check_budget(geo, y, d, tau, budget, pool, level)
}

/// [`certify_check_above`] with any pricing budget (a node budget cuts the search where a
/// deadline would, but reproducibly: the tests of the certificate claims use it).
pub(crate) fn certify_check_budget(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    budget: ExactBudget,
    pool: &mut GroupPool,
    level: f64,
) -> (Check, bool) {
    let cuts = CutDuals::none();
    let weak = weak_rc_bound(geo, y);
    let mut per_size = Vec::new();
    let margin = rc_margin(geo, y, d, &cuts);
    let g = geo.n / geo.k;
    let mut stop = StopBelow::new(level, y.iter().sum(), tau.min(0.0), weak, g);
    let anchors = Anchors::CompleteLocal {
        threshold: tau,
        margin,
    };
    let search = ExactSearch::new(&cuts).anchors(anchors).stop(&mut stop);
    let ex = search.run(geo, y, budget, &mut per_size);
    for (_, g) in ex.columns {
        pool.add(geo, g);
    }
    let plain = lagrangian_with_cuts(geo, y, d, &cuts, g, weak.max(ex.rc_lower_bound).min(0.0));
    let check = Check {
        value: plain.max(anchored_best(geo, y, d, &cuts, &per_size, weak)),
        complete: ex.exact,
        seconds_per_size: ex.seconds_per_size,
    };
    (check, stop.fired)
}

/// [`certify_check`]'s value.
pub fn certify<'a>(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    tau: f64,
    until: impl Into<Deadline<'a>>,
    pool: &mut GroupPool,
) -> f64 {
    certify_check(geo, y, d, tau, until, pool).value
}
