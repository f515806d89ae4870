//! # Separation of subset-row cuts on fractional blocks
//!
//! Heuristic separation, at a master solution, of subset-row cuts with multipliers `1/q` on
//! larger record sets: `sum_S floor(|S ∩ C| / q) x_S <= floor(|C| / q)` ([`Cut::subset_row`],
//! proofs/P21 Part F). The candidates `C` come from the *fractional blocks*: the connected
//! components of the records joined by fractional columns (`0 < x_S < 1`). A record of a
//! block lies in fractional columns only (its columns add up to 1, so none is at 1), so the
//! left side over a block needs the fractional columns alone. Per block of at most
//! `max_component` records and per denominator `q = 2..=min(9, |C|)`, the search starts from
//! the whole block and drops one record at a time, greedily, the one whose removal leaves the
//! largest violation `lhs - floor(|C| / q)`, while the set is above `max_records` or a drop
//! raises the violation. Validity does not depend on the search (every such set is a cut of
//! P21), only the bound's progress does.
//!
//! Example (EIA k = 3, closing note of stop 7): 8 outlier records covered by 8 triples at
//! 1/3 give, with `q = 3`, left side 8/3 against the right side floor(8/3) = 2.
//!
//! ## Complexity
//! Components by union-find over the fractional columns' records, O(F k α(n)). Per block of
//! `m` records touched by `F_b` columns, per `q`: at most `m` drops, each evaluating `m`
//! removals in O(F_b k) (counts kept per column): O(m² F_b k) for each of at most 8 `q`.
//!
//! ## References
//! - Jepsen, M., Petersen, B., Spoorendonk, S. and Pisinger, D. (2008). Subset-row
//!   inequalities applied to the vehicle-routing problem with time windows. Operations
//!   Research 56(2), 497-511 (subset-row cuts on any number of rows, multiplier 1/q).

use super::MasterPoint;
use crate::bounds::colgen::cuts::{fractional_columns_of, Cut, MAX_CUT_DENOMINATOR};
use std::collections::HashSet;

/// What the separation looks for.
#[derive(Debug, Clone, Copy)]
pub(super) struct BigCutSearch {
    /// Most records of a cut (at most [`crate::bounds::colgen::cuts::MAX_CUT_RECORDS`]).
    pub max_records: usize,
    /// Blocks with more records than this are skipped (the greedy drop is quadratic).
    pub max_component: usize,
    /// Most cuts returned.
    pub max_cuts: usize,
    /// Least violation (left side - right side).
    pub min_violation: f64,
}

/// The records of each fractional block with at least three records, each sorted, blocks in
/// the order of their smallest record.
pub(super) fn fractional_blocks(n: usize, members: &[Vec<u32>], x: &[f64]) -> Vec<Vec<u32>> {
    let cols_of = fractional_columns_of(n, members, x);
    let mut parent: Vec<u32> = (0..n as u32).collect();
    fn root(parent: &mut [u32], mut i: u32) -> u32 {
        while parent[i as usize] != i {
            let up = parent[parent[i as usize] as usize];
            parent[i as usize] = up;
            i = up;
        }
        i
    }
    let frac = |v: f64| v > 1e-9 && v < 1.0 - 1e-9;
    for (j, g) in members.iter().enumerate() {
        if frac(x[j]) {
            let a = root(&mut parent, g[0]);
            for &i in &g[1..] {
                let b = root(&mut parent, i);
                if a != b {
                    // Attach to the smaller root, so the root is the block's smallest record.
                    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
                    parent[hi as usize] = lo;
                }
            }
        }
    }
    let mut blocks: Vec<Vec<u32>> = vec![Vec::new(); n];
    for i in 0..n as u32 {
        if !cols_of[i as usize].is_empty() {
            let r = root(&mut parent, i);
            blocks[r as usize].push(i);
        }
    }
    blocks.into_iter().filter(|b| b.len() >= 3).collect()
}

/// Left side `sum_j floor(count_j / q) x_j` over a block's columns.
fn lhs(count: &[u16], xs: &[f64], q: u16) -> f64 {
    count
        .iter()
        .zip(xs)
        .map(|(&c, &v)| f64::from(c / q) * v)
        .sum()
}

/// Greedy descent for one block and one `q`: the set and its violation at the end (the
/// set is at most `max_records` and at least `q` records), or None when the block is too
/// small for `q`.
fn descend(
    block: &[u32],
    cols: &[Vec<u32>],
    xs: &[f64],
    q: usize,
    max_records: usize,
) -> Option<(Vec<u32>, f64)> {
    if block.len() < q.max(2) || max_records < q.max(2) {
        return None;
    }
    let q16 = q as u16;
    let mut set: Vec<u32> = block.to_vec();
    // count[j]: members of column j in the set; in_col[r]: the block's columns holding
    // set[r] (positions in `cols`).
    let mut count: Vec<u16> = cols.iter().map(|g| g.len() as u16).collect();
    let in_col: Vec<Vec<usize>> = block
        .iter()
        .map(|&r| {
            (0..cols.len())
                .filter(|&j| cols[j].binary_search(&r).is_ok())
                .collect()
        })
        .collect();
    let mut alive: Vec<bool> = vec![true; block.len()];
    let violation = |count: &[u16], size: usize| lhs(count, xs, q16) - (size / q) as f64;
    let mut size = block.len();
    let mut best = violation(&count, size);
    loop {
        if size <= q.max(2) {
            break;
        }
        // The removal leaving the largest violation (ties: the smallest record).
        let mut pick: Option<(usize, f64)> = None;
        for r in 0..block.len() {
            if !alive[r] {
                continue;
            }
            for &j in &in_col[r] {
                count[j] -= 1;
            }
            let v = violation(&count, size - 1);
            for &j in &in_col[r] {
                count[j] += 1;
            }
            if pick.is_none_or(|(_, b)| v > b) {
                pick = Some((r, v));
            }
        }
        let Some((r, v)) = pick else { break };
        if size <= max_records && v <= best + 1e-12 {
            break;
        }
        alive[r] = false;
        for &j in &in_col[r] {
            count[j] -= 1;
        }
        size -= 1;
        best = v;
    }
    set.retain({
        let mut it = alive.iter();
        move |_| *it.next().expect("one flag per record")
    });
    Some((set, best))
}

/// The violated subset-row cuts `1/q` on fractional blocks (module doc) at the master
/// solution ([`MasterPoint`]: columns `members[j]`, sorted, at values `x[j]`, over `n`
/// records), none in `existing`: per block and `q` the descent's end when violated, most
/// violated first, at most `s.max_cuts`. Returns (cut, violation).
pub(super) fn separate(
    &MasterPoint { n, members, x }: &MasterPoint,
    existing: &HashSet<Cut>,
    s: &BigCutSearch,
) -> Vec<(Cut, f64)> {
    let frac = |v: f64| v > 1e-9 && v < 1.0 - 1e-9;
    let blocks = fractional_blocks(n, members, x);
    // The block of each record (usize::MAX: none), to collect each block's columns.
    let mut block_of = vec![usize::MAX; n];
    for (b, recs) in blocks.iter().enumerate() {
        for &i in recs {
            block_of[i as usize] = b;
        }
    }
    let mut cols: Vec<Vec<Vec<u32>>> = vec![Vec::new(); blocks.len()];
    let mut xs: Vec<Vec<f64>> = vec![Vec::new(); blocks.len()];
    for (j, g) in members.iter().enumerate() {
        if frac(x[j]) {
            // Blocks of fewer than three records are not searched.
            let b = block_of[g[0] as usize];
            if b != usize::MAX {
                cols[b].push(g.clone());
                xs[b].push(x[j]);
            }
        }
    }
    let mut found: Vec<(Cut, f64)> = Vec::new();
    let mut seen: HashSet<Cut> = HashSet::new();
    for (b, block) in blocks.iter().enumerate() {
        if block.len() > s.max_component {
            continue;
        }
        let top = usize::from(MAX_CUT_DENOMINATOR).min(block.len());
        for q in 2..=top {
            let Some((set, v)) = descend(block, &cols[b], &xs[b], q, s.max_records) else {
                continue;
            };
            if v <= s.min_violation {
                continue;
            }
            let Ok(cut) = Cut::subset_row(&set, q as u8) else {
                continue;
            };
            if !existing.contains(&cut) && seen.insert(cut) {
                found.push((cut, v));
            }
        }
    }
    found.sort_by(|p, q| q.1.total_cmp(&p.1).then(p.0.cmp(&q.0)));
    found.truncate(s.max_cuts);
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search() -> BigCutSearch {
        BigCutSearch {
            max_records: 24,
            max_component: 64,
            max_cuts: 100,
            min_violation: 1e-6,
        }
    }

    /// The eight cyclic triples {i, i+1, i+2} (mod 8) at 1/3: every record covered once.
    fn cyclic(m: u32, offset: u32) -> Vec<Vec<u32>> {
        (0..m)
            .map(|i| {
                let mut g = vec![offset + i, offset + (i + 1) % m, offset + (i + 2) % m];
                g.sort_unstable();
                g
            })
            .collect()
    }

    #[test]
    fn eight_records_in_triples_at_one_third_violate_the_one_third_cut() {
        let members = cyclic(8, 0);
        let x = vec![1.0 / 3.0; 8];
        let point = MasterPoint::new(8, &members, &x);
        let cuts = separate(&point, &HashSet::new(), &search());
        let (cut, v) = cuts
            .iter()
            .find(|(c, _)| c.denominator() == 3)
            .expect("the 1/3 cut on the block is violated");
        assert_eq!(cut.records(), &[0, 1, 2, 3, 4, 5, 6, 7]);
        assert_eq!(cut.rhs(), 2);
        assert!((v - 2.0 / 3.0).abs() < 1e-12, "{v}");
        // Each returned cut's violation recomputed from scratch.
        for (c, v) in &cuts {
            let l = point.left_side(c);
            assert!((l - f64::from(c.rhs()) - v).abs() < 1e-12 && l > f64::from(c.rhs()));
        }
        // An integral solution has no fractional block.
        let members = vec![vec![0, 1, 2], vec![3, 4, 5]];
        let point = MasterPoint::new(6, &members, &[1.0, 1.0]);
        assert!(separate(&point, &HashSet::new(), &search()).is_empty());
        // A block above max_component is skipped.
        let s = BigCutSearch {
            max_component: 7,
            ..search()
        };
        assert!(separate(&MasterPoint::new(8, &cyclic(8, 0), &x), &HashSet::new(), &s).is_empty());
    }

    #[test]
    fn blocks_are_the_fractional_components_and_the_descent_drops_to_max_records() {
        // Two cyclic blocks of 8 (records 0..8 and 10..18) and an integral column.
        let mut members = cyclic(8, 0);
        members.extend(cyclic(8, 10));
        members.push(vec![20, 21, 22]);
        let mut x = vec![1.0 / 3.0; 16];
        x.push(1.0);
        let blocks = fractional_blocks(23, &members, &x);
        assert_eq!(blocks.len(), 2);
        assert_eq!(blocks[0], (0..8).collect::<Vec<u32>>());
        assert_eq!(blocks[1], (10..18).collect::<Vec<u32>>());
        // With at most 6 records per cut the descent still returns sets of at most 6.
        let s = BigCutSearch {
            max_records: 6,
            ..search()
        };
        let point = MasterPoint::new(23, &members, &x);
        for (c, _) in separate(&point, &HashSet::new(), &s) {
            assert!(c.records().len() <= 6);
        }
    }
}
