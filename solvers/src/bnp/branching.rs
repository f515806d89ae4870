//! # Ryan-Foster branching pair
//!
//! The record pair a fractional master solution is branched on (proofs/P17).
//!
//! **Most fractional** ([`choose_pair`]): the undecided pair whose together-value is closest
//! to 1/2.
//!
//! **Strong branching on the restricted master** ([`strong_pair`], option
//! `strong_branching = m`): the `m` most fractional pairs are each tried in both children by
//! re-solving the node's master with the columns that break the child's decision fixed at 0
//! (dual simplex from the node's basis, no pricing). The pair whose children rise most (the
//! product of the two rises, as in Achterberg's product score) is branched on. The child
//! values are those of the restricted master, above the children's LP values, so they only
//! steer the choice: every bound is still proven by each child's own column generation.
//! Where the master's LP has alternative optima along the most fractional pairs (the
//! children inherit the parent's value and the tree descends on one plateau), this picks a
//! pair whose children cannot keep it.
//!
//! ## Complexity
//! O(support · (2k)^2) pairs, sorted: O(P log P). Strong branching adds `2m` dual simplex
//! re-solves and O(columns · k) work per candidate.
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//!   Computer Scheduling of Public Transport, North-Holland, 269-280.
//! - Achterberg, T., Koch, T. and Martin, A. (2005). Branching rules revisited. Operations
//!   Research Letters 33(1), 42-54.

use crate::bounds::colgen::master::Master;
use crate::bounds::colgen::pairs::PairConstraints;
use crate::deadline::Deadline;
use std::collections::HashMap;

/// Ryan-Foster pair: among the undecided pairs sharing a fractional column, the one whose
/// together-value is closest to 1/2 (ties: smallest pair). Without a fractional column, an
/// undecided pair of one column of the solution (its "apart" child excludes the solution).
pub(super) fn choose_pair(
    support: &[(usize, f64)],
    pool: &[Vec<u32>],
    cons: &PairConstraints,
) -> Option<(u32, u32)> {
    if let Some(&p) = fractional_pairs(support, pool, cons).first() {
        return Some(p);
    }
    for &(c, _) in support {
        let g = &pool[c];
        for (p, &a) in g.iter().enumerate() {
            for &b in &g[p + 1..] {
                if !cons.decided(a, b) {
                    return Some((a, b));
                }
            }
        }
    }
    None
}

/// The undecided pairs sharing a fractional column with a fractional together-value, closest
/// to 1/2 first (ties: smallest pair).
pub(super) fn fractional_pairs(
    support: &[(usize, f64)],
    pool: &[Vec<u32>],
    cons: &PairConstraints,
) -> Vec<(u32, u32)> {
    let mut w: HashMap<(u32, u32), f64> = HashMap::new();
    for &(c, v) in support {
        if v < 1.0 - 1e-6 {
            let g = &pool[c];
            for (p, &a) in g.iter().enumerate() {
                for &b in &g[p + 1..] {
                    *w.entry((a, b)).or_insert(0.0) += v;
                }
            }
        }
    }
    let mut pairs: Vec<((u32, u32), f64)> = w
        .into_iter()
        .filter(|&(_, v)| v > 1e-6 && v < 1.0 - 1e-6)
        .collect();
    pairs.sort_by(|a, b| {
        (a.1 - 0.5)
            .abs()
            .total_cmp(&(b.1 - 0.5).abs())
            .then(a.0.cmp(&b.0))
    });
    pairs
        .into_iter()
        .map(|(p, _)| p)
        .filter(|p| !cons.decided(p.0, p.1))
        .collect()
}

/// Strong branching (module doc): among `candidates`, the pair whose two children's
/// restricted-master values (at `master`, solved at value `parent`) rise most by the product
/// score; None when fewer than two candidates, or when a re-solve fails or the deadline
/// passes before every candidate is tried (the caller branches on the most fractional pair).
/// The master keeps its bounds but not its basis (the last child's): it is not solved again
/// at this node.
pub(super) fn strong_pair(
    master: &mut Master,
    candidates: &[(u32, u32)],
    parent: f64,
    deadline: Deadline,
) -> Option<(u32, u32)> {
    if candidates.len() < 2 {
        return None;
    }
    let eps = 1e-9 * parent.abs().max(1.0);
    let mut best: Option<((u32, u32), f64)> = None;
    for &pair in candidates {
        let mut score = 1.0;
        for together in [true, false] {
            let rise = child_value(master, pair, together, deadline)? - parent;
            score *= rise.max(eps);
        }
        if best.is_none_or(|(_, s)| score > s) {
            best = Some((pair, score));
        }
    }
    best.map(|(p, _)| p)
}

/// The restricted master's value in the child `together` (or apart) of `(a, b)`: the
/// columns that break the decision fixed at 0, solved, and freed again. None when the solve
/// fails or the deadline passes.
fn child_value(
    master: &mut Master,
    (a, b): (u32, u32),
    together: bool,
    deadline: Deadline,
) -> Option<f64> {
    let broken: Vec<usize> = (0..master.columns.len())
        .filter(|&c| {
            let g = &master.columns[c];
            let (ha, hb) = (g.binary_search(&a).is_ok(), g.binary_search(&b).is_ok());
            if together {
                ha != hb
            } else {
                ha && hb
            }
        })
        .collect();
    master.set_column_upper(&broken, 0.0).ok()?;
    let value = master
        .solve_stoppable(deadline.seconds_left(), deadline.flag())
        .ok()
        .flatten()
        .map(|s| s.value);
    master.set_column_upper(&broken, f64::INFINITY).ok()?;
    value
}
