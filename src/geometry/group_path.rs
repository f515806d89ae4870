//! # A path through groups (IMHM's Construct_Path)
//!
//! `walk_groups` lists the records of a grouping so that consecutive groups are near:
//! from a start group it moves to the unvisited group whose centroid is nearest to a record
//! of the current one. IMHM re-cuts this path ([`crate::search::imhm::construct_path`]) and
//! the MHM orders follow it under `path = "chain"`
//! (`crate::init::mhm::orders::chain_order`); each chooses its own start group.
//!
//! ## Complexity
//! O(m c d) for m records in c groups; O(m) extra memory.
//!
//! ## References
//! - Mortazavi, R., Jalili, S. and Gohargazi, H. (2013). Multivariate microaggregation by
//!   iterative optimization. Applied Intelligence 39(3), 529-544 (Fig. 2, lines 36-52).

use crate::partition::sq_dist;

/// Construct_Path's walk (Fig. 2, lines 39-52), shared with the MHM orders' `chain` path:
/// from group `start`, repeatedly to the unvisited group whose centroid is nearest to any
/// record of the current group (ties: lowest group), listing the current group's records
/// farthest from that centroid first; the last group nearest to the previous centroid
/// first (record ties: lowest id). `members[g]` holds group g's record ids, `row(r)` a
/// record's point, `centroid(g)` a group's centroid. O(m c d) for m records in c groups.
pub(crate) fn walk_groups<'a>(
    members: &[Vec<usize>],
    row: impl Fn(usize) -> &'a [f64],
    centroid: impl Fn(usize) -> &'a [f64],
    start: usize,
) -> Vec<usize> {
    let mut unvisited = vec![true; members.len()];
    let mut path = Vec::with_capacity(members.iter().map(Vec::len).sum());
    let mut keyed: Vec<(f64, usize)> = Vec::new();
    let mut sorted_by = |path: &mut Vec<usize>, group: &[usize], to: &[f64], far_first: bool| {
        keyed.clear();
        keyed.extend(group.iter().map(|&r| (sq_dist(row(r), to), r)));
        if far_first {
            keyed.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        } else {
            keyed.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        }
        path.extend(keyed.iter().map(|&(_, r)| r));
    };
    let (mut current, mut previous) = (start, None);
    loop {
        unvisited[current] = false;
        let mut next: Option<(f64, usize)> = None;
        for &r in &members[current] {
            for (g, _) in unvisited.iter().enumerate().filter(|(_, &u)| u) {
                let dist = sq_dist(row(r), centroid(g));
                if next.is_none_or(|(best, bg)| dist < best || (dist == best && g < bg)) {
                    next = Some((dist, g));
                }
            }
        }
        match (next, previous) {
            (Some((_, g)), _) => {
                sorted_by(&mut path, &members[current], centroid(g), true);
                previous = Some(current);
                current = g;
            }
            (None, Some(p)) => {
                sorted_by(&mut path, &members[current], centroid(p), false);
                return path;
            }
            (None, None) => {
                path.extend_from_slice(&members[current]);
                return path;
            }
        }
    }
}
