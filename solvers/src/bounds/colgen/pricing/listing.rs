//! # Cheap groups: every group below a reduced-cost threshold that doubles
//!
//! The primal heuristics over reduced-cost columns (the region dive,
//! [`crate::rc_dive`], and branch-and-price's pool MIP after the root, `bnp::rc_pool`) need
//! the cheapest few thousand groups at some duals. The exact pricing in listing mode
//! ([`Anchors::Below`], as the enumeration of proofs/P19 lists its pool) gives every group
//! below a threshold; [`cheap_groups`] starts the threshold low and doubles it while the
//! listing stays complete and within the wanted count, so the count sets the threshold.
//!
//! ## Complexity
//! One listing per doubling (the exact pricing's branch and bound with its incumbent held at
//! the threshold: exponential at worst, each stopped after `16 cap` groups or at the
//! deadline); O(L log L) to sort each listing of L groups.
//!
//! ## References
//! proofs/P19 Part A (every group of a partition within G of a Lagrangian bound has reduced
//! cost at most G at its duals).

use super::super::cuts::CutDuals;
use super::{Anchors, ExactBudget, ExactSearch, Geometry};
use crate::deadline::Deadline;

/// The groups [`cheap_groups`] kept.
#[derive(Debug, Clone, PartialEq)]
pub struct CheapGroups {
    /// Sorted members of each group, by reduced cost (then members), at most `cap`.
    pub groups: Vec<Vec<u32>>,
    /// The threshold of the listing kept.
    pub threshold: f64,
    /// That listing ran to completion within `cap`: it holds every group below `threshold`.
    pub complete: bool,
}

/// Groups with their reduced costs.
type Priced = Vec<(f64, Vec<u32>)>;

/// One listing: the distinct groups with reduced cost below `t` at duals `y` and `cuts`,
/// with their reduced costs, sorted by members; and whether it ran to completion. It stops
/// once `16 cap` groups were met (the search can meet a group more than once).
fn listing(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    t: f64,
    cap: usize,
    deadline: Deadline,
) -> (Priced, bool) {
    let budget = ExactBudget {
        nodes: u64::MAX,
        deadline,
        max_columns: 1,
        stop_after_columns: cap.saturating_mul(16).max(1),
    };
    let found = ExactSearch::new(cuts)
        .anchors(Anchors::Below { threshold: t })
        .run(geo, y, budget, &mut Vec::new());
    let mut groups = found.columns;
    groups.sort_unstable_by(|a, b| a.1.cmp(&b.1));
    groups.dedup_by(|a, b| a.1 == b.1);
    (groups, found.exact)
}

/// The groups below a threshold that starts at `first` and doubles while the listing is
/// complete, holds at most `cap` distinct groups, the threshold is below `last` and the
/// deadline has not passed. The last such listing is kept; when even the first is cut short
/// or over `cap`, its `cap` cheapest groups (a heuristic needs no completeness).
pub fn cheap_groups(
    geo: &Geometry,
    y: &[f64],
    cuts: &CutDuals,
    (first, last): (f64, f64),
    cap: usize,
    deadline: Deadline,
) -> CheapGroups {
    let mut t = first;
    let mut kept: Option<(Priced, f64, bool)> = None;
    loop {
        let (groups, complete) = listing(geo, y, cuts, t, cap, deadline);
        let ok = complete && groups.len() <= cap;
        if ok || kept.is_none() {
            kept = Some((groups, t, ok));
        }
        if !ok || t >= last || t <= 0.0 || deadline.passed() {
            break;
        }
        t *= 2.0;
    }
    let (mut groups, threshold, complete) = kept.expect("one listing at least");
    groups.sort_by(|a, b| a.0.total_cmp(&b.0).then_with(|| a.1.cmp(&b.1)));
    groups.truncate(cap);
    CheapGroups {
        groups: groups.into_iter().map(|(_, g)| g).collect(),
        threshold,
        complete,
    }
}
