//! # Verification of a branch-and-price node and of the tree's cover
//!
//! The bound that duals prove over the region of one Ryan-Foster node (the partitions that
//! satisfy its together / apart decisions; proofs/P17, P18), and whether a set of leaves
//! covers every partition ([`tree_covers`]).
//!
//! ## Complexity
//! A node: O(n^2 d) plus one exact pricing pass restricted to the compatible groups. The
//! cover: O(total decisions · depth).
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling.
//!   Computer Scheduling of Public Transport, North-Holland, 269-280.
//! - proofs/P17-branch-and-price.md, proofs/P18-bnp-certificates.md.

use super::super::cuts::Cut;
use super::super::least_rc_lagrangian;
use super::super::pairs::{PairConstraints, ANY_COUNT};
use super::super::pricing::{weak_rc_bound, ExactSearch};
use super::inputs::{prepare, unlimited_budget};
use super::{VerifiedBound, NOTHING_PROVEN};
use crate::SolverError;
use std::time::Instant;

/// The bound that duals prove over one branch-and-price node's region (proofs/P17, P18,
/// P22 Part E): the partitions into groups of `k..2k-1` records that satisfy the together /
/// apart `decisions` `(a, b, together?)` and have `lo..=hi` groups (`count`; [`ANY_COUNT`]:
/// no count decision). Inputs are checked as in [`verify_lagrangian_cuts`] (and each
/// decision must name two distinct records of `0..n`); a node whose decisions leave no such
/// partition ([`PairConstraints::infeasible`]) has the bound `+infinity` whatever the duals;
/// otherwise the bound is `sum y + sum sigma + G min(0, R)` with `G = min(hi, floor(n/k))`
/// and `R` the least reduced cost (cut penalties included) over the groups compatible with
/// the decisions (of at most `n - k (lo - 1)` records when `lo > 0`), from this crate's own
/// pricing without a node budget, rounded outward. The cuts
/// are rank-1 cuts ([`Cut`]: subset-row triples, the 4- and 5-record cuts and the larger
/// cuts with right side `floor(p(C) / q)` of proofs/P21), each record of `0..n`.
#[allow(clippy::too_many_arguments)]
pub fn verify_node_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    cuts: &[Cut],
    sigma: &[f64],
    decisions: &[(u32, u32, bool)],
    count: (usize, usize),
    deadline: Option<Instant>,
) -> Result<VerifiedBound, SolverError> {
    let mut pairs = pair_constraints(n, decisions)?;
    crate::error::check_rows(x, n, d, k)?;
    pairs.set_count(count.0, count.1, k);
    if pairs.infeasible(k) {
        return Ok(VerifiedBound {
            lower_bound: f64::INFINITY,
            rc_lower_bound: 0.0,
            pricing_exact: true,
            nodes: 0,
        });
    }
    let Some(p) = prepare(x, n, d, k, y, (cuts, sigma))? else {
        return Ok(NOTHING_PROVEN);
    };
    let weak = weak_rc_bound(&p.geo, y);
    let exact = ExactSearch::new(&p.cuts).pairs(Some(&pairs)).run(
        &p.geo,
        y,
        unlimited_budget(deadline),
        &mut Vec::new(),
    );
    // The weak bound holds over all groups, hence over the compatible ones.
    let rc_lower_bound = weak.max(exact.rc_lower_bound).min(0.0);
    Ok(VerifiedBound {
        lower_bound: least_rc_lagrangian(
            &p.geo,
            y,
            d,
            &p.cuts,
            pairs.groups_max(k),
            rc_lower_bound,
        ),
        rc_lower_bound,
        pricing_exact: exact.exact,
        nodes: exact.nodes,
    })
}

/// The decisions as [`PairConstraints`], each checked (two distinct records of `0..n`).
fn pair_constraints(
    n: usize,
    decisions: &[(u32, u32, bool)],
) -> Result<PairConstraints, SolverError> {
    let mut pc = PairConstraints::new(n);
    for (j, &(a, b, together)) in decisions.iter().enumerate() {
        if a as usize >= n || b as usize >= n || a == b {
            return Err(SolverError::BadDecision {
                message: format!(
                    "decision {j}: ({a}, {b}) is not a pair of distinct records of 0..{n}"
                ),
            });
        }
        if together {
            pc.add_together(a, b);
        } else {
            pc.add_apart(a, b);
        }
    }
    Ok(pc)
}

/// Whether the decision lists of the leaves of a Ryan-Foster tree cover every partition
/// (proofs/P18): starting from the empty list, a set of leaves covers a region when one of
/// them is the region's own list, or all of them continue it with the same pair `(a, b)`
/// and those continuing "together" and those continuing "apart" each cover their half (the
/// two halves split the region: `a` and `b` share a group or do not). Err names the first
/// region that is not covered. O(total decisions · depth).
pub fn tree_covers(leaves: &[Vec<(u32, u32, bool)>]) -> Result<(), String> {
    // Without count decisions every range holds every count, so any n and k give the pair
    // recursion alone (0 and 1: the counts 0..=0).
    let regions: Vec<LeafRegion> = leaves.iter().map(|l| (l.clone(), ANY_COUNT)).collect();
    regions_cover(&regions, 0, 1)
}

/// A leaf's region: its pair decisions `(a, b, together?)` and its group-count range.
pub type LeafRegion = (Vec<(u32, u32, bool)>, (usize, usize));

/// Whether leaves with group-count ranges cover every partition (proofs/P18, P22 Part E).
/// A leaf's region is its decision list and its range `(lo, hi)` of group counts (leaves
/// without a count decision have [`ANY_COUNT`](super::super::pairs::ANY_COUNT)); count
/// splits may sit anywhere in the tree, between pair decisions. Starting from the empty
/// list and the counts `0..=floor(n/k)` (no partition has more groups), a region (list,
/// counts `R`) is covered when, among the leaves continuing the list whose range meets `R`:
/// one range does not hold `R` and both parts of `R` cut at its end are covered; or one
/// leaf is the region's own list; or all continue it with the same pair `(a, b)` and each
/// half is covered (the recursion of [`tree_covers`], which is this function without
/// ranges). Err names the first region that is not covered.
/// O(total decisions · depth · ranges).
pub fn regions_cover(leaves: &[LeafRegion], n: usize, k: usize) -> Result<(), String> {
    let all: Vec<Region<'_>> = leaves.iter().map(|l| (l.0.as_slice(), l.1)).collect();
    covers(&all, 0, (0, n / k), &mut Vec::new()).map_err(|gap| match gap {
        // Certificates without count decisions keep the message they always had.
        Gap::Uncovered { path, .. } if leaves.iter().all(|l| l.1 == ANY_COUNT) => {
            format!("no leaf covers the region of decisions {path:?}")
        }
        Gap::Uncovered { path, lo, hi } => {
            format!("no leaf covers the region of decisions {path:?} with {lo} to {hi} groups")
        }
        Gap::TwoPairs(message) => message,
    })
}

/// A region (decision list, count range) of [`regions_cover`]'s recursion.
type Region<'a> = (&'a [(u32, u32, bool)], (usize, usize));

/// Why [`covers`] failed: a region no leaf covers, or leaves that branch on two pairs.
enum Gap {
    Uncovered {
        path: Vec<(u32, u32, bool)>,
        lo: usize,
        hi: usize,
    },
    TwoPairs(String),
}

/// The pair with its records in order.
fn norm(t: (u32, u32, bool)) -> (u32, u32, bool) {
    (t.0.min(t.1), t.0.max(t.1), t.2)
}

/// The recursion of [`regions_cover`]: whether `leaves` (all continuing `path`, of length
/// `depth`) cover the region of `path` with `lo..=hi` groups.
fn covers(
    leaves: &[Region<'_>],
    depth: usize,
    (lo, hi): (usize, usize),
    path: &mut Vec<(u32, u32, bool)>,
) -> Result<(), Gap> {
    let meets = |r: (usize, usize)| r.0 <= hi && r.1 >= lo;
    let here: Vec<Region<'_>> = leaves.iter().copied().filter(|l| meets(l.1)).collect();
    // A range that holds only part of the counts: cover each part on its own.
    if let Some(&(_, (a, b))) = here.iter().find(|l| l.1 .0 > lo || l.1 .1 < hi) {
        let cut = if a > lo { a - 1 } else { b };
        covers(&here, depth, (lo, cut), path)?;
        return covers(&here, depth, (cut + 1, hi), path);
    }
    if here.iter().any(|l| l.0.len() == depth) {
        return Ok(()); // a leaf holds the whole region
    }
    let Some(first) = here.first() else {
        let path = path.clone();
        return Err(Gap::Uncovered { path, lo, hi });
    };
    let (a, b, _) = norm(first.0[depth]);
    if let Some(l) = here.iter().find(|l| {
        let t = norm(l.0[depth]);
        (t.0, t.1) != (a, b)
    }) {
        return Err(Gap::TwoPairs(format!(
            "after decisions {path:?} leaves branch on both ({a}, {b}) and {:?}",
            norm(l.0[depth])
        )));
    }
    for side in [true, false] {
        let part: Vec<Region<'_>> = here
            .iter()
            .copied()
            .filter(|l| l.0[depth].2 == side)
            .collect();
        path.push((a, b, side));
        covers(&part, depth + 1, (lo, hi), path)?;
        path.pop();
    }
    Ok(())
}
