//! # Subset-row cuts on record triples
//!
//! For three distinct records `C = {a, b, c}`, every partition satisfies
//! `sum_S floor(|S ∩ C| / 2) x_S <= 1` (at most one of its disjoint groups holds two or more
//! of the three records), while a fractional master solution may not (Jepsen, Petersen,
//! Spoorendonk and Pisinger 2008; proofs/P14-subset-row-cuts.md). This module holds
//!
//! - [`CutDuals`]: the cuts with their penalties `w_C = -sigma_C >= 0` (`sigma_C` the cut
//!   row's dual, `<= 0`), indexed by record, which the pricing adds to a group's reduced cost:
//!   `rc(S) = SSE(S) - y(S) + sum_C w_C floor(|S ∩ C| / 2)`;
//! - [`separate`]: the most violated triples at a master solution.
//!
//! ## Complexity
//! [`separate`]: with `F` fractional columns of at most `2k - 1` records, each record's
//! partner set `N(a)` (records sharing a fractional column with it) has at most
//! `(2k - 2) F_a` records; all triples `{a, b, c}` with `b, c in N(a)` are evaluated (a
//! violated triple has two pairs that share a fractional column, hence a centre `a` of that
//! form; every record of a violated triple is such a centre, so only the smallest is used),
//! each in O((F_a + F_b) log k). [`CutDuals::new`]: O(n + cuts).
//!
//! ## References
//! - Jepsen, M., Petersen, B., Spoorendonk, S. and Pisinger, D. (2008). Subset-row
//!   inequalities applied to the vehicle-routing problem with time windows. Operations
//!   Research 56(2), 497-511.

use std::collections::HashSet;

/// Cuts with their penalties, indexed by record, for pricing.
#[derive(Debug, Clone, Default)]
pub struct CutDuals {
    /// The triples (distinct records, ascending).
    pub triples: Vec<[u32; 3]>,
    /// `w_C = -sigma_C`, nonnegative (positive duals are clamped to 0, which keeps the bound
    /// valid: P14 holds for every `sigma <= 0`).
    pub weights: Vec<f64>,
    /// `of[i]`: indices of the cuts holding record `i` (empty when there are no cuts).
    of: Vec<Vec<u32>>,
}

impl CutDuals {
    /// No cuts: pricing is the plain set-partitioning pricing.
    pub fn none() -> CutDuals {
        CutDuals::default()
    }

    /// Cuts `triples` over `n` records with row duals `sigma` (one per triple; values above 0
    /// are taken as 0).
    pub fn new(n: usize, triples: &[[u32; 3]], sigma: &[f64]) -> CutDuals {
        assert_eq!(triples.len(), sigma.len(), "one dual per cut");
        let mut of = vec![Vec::new(); if triples.is_empty() { 0 } else { n }];
        for (c, t) in triples.iter().enumerate() {
            for &i in t {
                of[i as usize].push(c as u32);
            }
        }
        CutDuals {
            triples: triples.to_vec(),
            weights: sigma.iter().map(|&s| (-s).max(0.0)).collect(),
            of,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.triples.is_empty()
    }

    pub fn len(&self) -> usize {
        self.triples.len()
    }

    /// Indices of the cuts holding record `i`.
    #[inline]
    pub fn of(&self, i: usize) -> &[u32] {
        if self.of.is_empty() {
            &[]
        } else {
            &self.of[i]
        }
    }

    /// The cut duals `sigma_C = -w_C` (all `<= 0`).
    pub fn sigma(&self) -> Vec<f64> {
        self.weights.iter().map(|w| -w).collect()
    }

    /// `sum_C w_C floor(|S ∩ C| / 2)` for a group (members in any order, distinct).
    pub fn penalty(&self, members: &[u32]) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let mut hit: Vec<(u32, u8)> = Vec::new();
        for &i in members {
            for &c in self.of(i as usize) {
                match hit.iter_mut().find(|(h, _)| *h == c) {
                    Some((_, cnt)) => *cnt += 1,
                    None => hit.push((c, 1)),
                }
            }
        }
        hit.iter()
            .filter(|(_, cnt)| *cnt >= 2)
            .map(|(c, _)| self.weights[*c as usize])
            .sum()
    }

    /// Sum of the weights (the largest penalty any group can have).
    pub fn total_weight(&self) -> f64 {
        self.weights.iter().sum()
    }
}

/// Left side `sum_S floor(|S ∩ C| / 2) x_S` of the cut of `t` at the solution given by
/// `cols_of` (the columns holding each record) and `members`/`x` of the columns.
fn lhs(t: [u32; 3], cols_of: &[Vec<u32>], members: &[Vec<u32>], x: &[f64]) -> f64 {
    let mut s = 0.0;
    // Columns holding t[0]: count it when they hold t[1] or t[2] too.
    for &c in &cols_of[t[0] as usize] {
        let g = &members[c as usize];
        if g.binary_search(&t[1]).is_ok() || g.binary_search(&t[2]).is_ok() {
            s += x[c as usize];
        }
    }
    // Columns holding t[1] and t[2] but not t[0].
    for &c in &cols_of[t[1] as usize] {
        let g = &members[c as usize];
        if g.binary_search(&t[2]).is_ok() && g.binary_search(&t[0]).is_err() {
            s += x[c as usize];
        }
    }
    s
}

/// The violated subset-row cuts at the master solution (`members[j]` sorted, value `x[j]`)
/// over `n` records: triples with left side above `1 + min_violation`, most violated first,
/// at most `max_cuts`, each record in at most `per_record` of them, none in `existing`.
/// Returns (triple, left side).
pub fn separate(
    n: usize,
    members: &[Vec<u32>],
    x: &[f64],
    existing: &HashSet<[u32; 3]>,
    max_cuts: usize,
    per_record: usize,
    min_violation: f64,
) -> Vec<([u32; 3], f64)> {
    // Only fractional columns can take part in a violated cut (a column at 1 holding two
    // records of C leaves every other column of those records at 0, so the left side is 1).
    let frac = |v: f64| v > 1e-9 && v < 1.0 - 1e-9;
    let mut cols_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (j, g) in members.iter().enumerate() {
        if frac(x[j]) {
            for &i in g {
                cols_of[i as usize].push(j as u32);
            }
        }
    }
    let mut found: Vec<([u32; 3], f64)> = Vec::new();
    let mut partners: Vec<u32> = Vec::new();
    for a in 0..n {
        if cols_of[a].len() < 2 {
            // In a violated triple each pair lies in a fractional column without the third
            // record (the columns holding one record add up to at most 1), so every member
            // is in two fractional columns and sees the other two as partners: the triple is
            // found from its smallest record.
            continue;
        }
        partners.clear();
        for &c in &cols_of[a] {
            partners.extend(
                members[c as usize]
                    .iter()
                    .copied()
                    .filter(|&i| i as usize > a),
            );
        }
        partners.sort_unstable();
        partners.dedup();
        for (p, &b) in partners.iter().enumerate() {
            for &c in &partners[p + 1..] {
                let t = [a as u32, b, c];
                if existing.contains(&t) {
                    continue;
                }
                let v = lhs(t, &cols_of, members, x);
                if v > 1.0 + min_violation {
                    found.push((t, v));
                }
            }
        }
    }
    found.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut uses = vec![0usize; n];
    let mut out = Vec::new();
    for (t, v) in found {
        if out.len() >= max_cuts {
            break;
        }
        if t.iter().any(|&i| uses[i as usize] >= per_record) {
            continue;
        }
        for &i in &t {
            uses[i as usize] += 1;
        }
        out.push((t, v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_odd_cycle_solution_violates_its_triple() {
        // Records 0, 1, 2 with the three pairs at 1/2 each (the fractional k = 2 solution of
        // three equidistant records): left side 3/2.
        let members = vec![vec![0, 1], vec![1, 2], vec![0, 2]];
        let x = vec![0.5; 3];
        let cuts = separate(3, &members, &x, &HashSet::new(), 10, 10, 1e-6);
        assert_eq!(cuts.len(), 1);
        assert_eq!(cuts[0].0, [0, 1, 2]);
        assert!((cuts[0].1 - 1.5).abs() < 1e-12);
        // An integral solution violates nothing.
        let members = vec![vec![0, 1, 2], vec![3, 4]];
        assert!(separate(5, &members, &[1.0, 1.0], &HashSet::new(), 10, 10, 1e-6).is_empty());
    }

    #[test]
    fn penalty_counts_cuts_with_two_members() {
        let c = CutDuals::new(6, &[[0, 1, 2], [2, 3, 4]], &[-1.0, -0.25]);
        assert_eq!(c.penalty(&[0, 5]), 0.0);
        assert_eq!(c.penalty(&[0, 1]), 1.0);
        assert_eq!(c.penalty(&[0, 1, 2]), 1.0);
        assert_eq!(c.penalty(&[1, 2, 3]), 1.25);
        assert_eq!(c.penalty(&[2, 3, 4, 0]), 1.25);
        // A positive dual counts as 0.
        let d = CutDuals::new(6, &[[0, 1, 2]], &[0.5]);
        assert_eq!(d.penalty(&[0, 1]), 0.0);
    }
}
