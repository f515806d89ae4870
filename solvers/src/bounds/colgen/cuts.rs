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
//! - [`separate`]: the most violated triples at a master solution;
//! - [`Cut`]: a rank-1 cut on 2..=32 records with right side `floor(p(C) / q)` (the triples
//!   above, the 4- and 5-record cuts that branch-price-and-cut separates, and the subset-row
//!   cuts on fractional blocks, proofs/P21), whose penalty `CutDuals` charges each time a
//!   group's weighted count reaches a multiple of the cut's denominator.
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

/// Most records of a [`Cut`] (the 4- and 5-record cuts of P21 and the larger rank-1 cuts
/// on fractional blocks of P21 Part F).
pub const MAX_CUT_RECORDS: usize = 32;

/// Largest denominator of a [`Cut`].
pub const MAX_CUT_DENOMINATOR: u8 = 9;

/// A rank-1 (Chvátal-Gomory) cut on 2..=[`MAX_CUT_RECORDS`] records: records `C` (distinct,
/// ascending) with integer multipliers `1 <= p_i < q` and a denominator `q`, `sum p_i >= q`;
/// its row is `sum_S floor(p(S ∩ C) / q) x_S <= floor(p(C) / q)` (`p(S ∩ C)` the multipliers
/// of the records of `C` in `S`), valid for every partition (proofs/P21). A group's
/// coefficient `floor(p(S ∩ C) / q)` is never smaller for a larger group (the pricing's
/// bounds need that). Kinds in use: the subset-row triple (multipliers 1, q = 2), the
/// subset-row 5-set (multipliers 1, q = 3) and the 4-record cut with multipliers
/// (2, 1, 1, 1) / 3 (Petersen, Pisinger and Spoorendonk 2008), all with right side 1, and
/// subset-row cuts `1/q` on the records of a fractional block (right side `floor(|C| / q)`,
/// `bnp::big_cuts`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cut {
    len: u8,
    denominator: u8,
    /// The records ascending (the first `len`; the rest `u32::MAX`).
    records: [u32; MAX_CUT_RECORDS],
    /// The multiplier numerators of `records` (the rest 0).
    multipliers: [u8; MAX_CUT_RECORDS],
    /// `floor(p(C) / q)`, derived from the above (last, so that the order of cuts with right
    /// side 1 is the one of the records and multipliers).
    rhs: u8,
}

impl Cut {
    /// A cut from records, multiplier numerators and a denominator, checked as in the type
    /// doc (records in any order; not checked against `n`).
    pub fn new(records: &[u32], multipliers: &[u8], denominator: u8) -> Result<Cut, String> {
        let len = records.len();
        if !(2..=MAX_CUT_RECORDS).contains(&len) || multipliers.len() != len {
            return Err(format!(
                "{len} records and {} multipliers (2..={MAX_CUT_RECORDS} records, one \
                 multiplier each)",
                multipliers.len()
            ));
        }
        if !(2..=MAX_CUT_DENOMINATOR).contains(&denominator) {
            return Err(format!(
                "denominator {denominator} (2..={MAX_CUT_DENOMINATOR})"
            ));
        }
        if multipliers.iter().any(|&p| p == 0 || p >= denominator) {
            return Err(format!(
                "multipliers {multipliers:?} not all in 1..{denominator}"
            ));
        }
        let sum: u32 = multipliers.iter().map(|&p| u32::from(p)).sum();
        let q = u32::from(denominator);
        if sum < q {
            return Err(format!(
                "multipliers {multipliers:?} over {denominator}: right side floor({sum}/{q}) \
                 is 0"
            ));
        }
        let mut pairs: Vec<(u32, u8)> = records
            .iter()
            .copied()
            .zip(multipliers.iter().copied())
            .collect();
        pairs.sort_unstable();
        if pairs.windows(2).any(|w| w[0].0 == w[1].0) {
            return Err(format!("records {records:?} are not distinct"));
        }
        // sum <= 32 * 8, so the right side is at most 128.
        let mut cut = Cut {
            len: len as u8,
            denominator,
            records: [u32::MAX; MAX_CUT_RECORDS],
            multipliers: [0; MAX_CUT_RECORDS],
            rhs: (sum / q) as u8,
        };
        for (j, (r, p)) in pairs.into_iter().enumerate() {
            cut.records[j] = r;
            cut.multipliers[j] = p;
        }
        Ok(cut)
    }

    /// The subset-row cut of a triple (multipliers 1/2).
    pub fn triple(t: [u32; 3]) -> Cut {
        Cut::new(&t, &[1, 1, 1], 2).expect("three distinct records")
    }

    /// The subset-row cut of five records (multipliers 1/3).
    pub fn five(r: [u32; 5]) -> Cut {
        Cut::new(&r, &[1; 5], 3).expect("five distinct records")
    }

    /// The 4-record cut with multiplier 2/3 on `heavy` and 1/3 on the three `light`.
    pub fn four(heavy: u32, light: [u32; 3]) -> Cut {
        Cut::new(&[heavy, light[0], light[1], light[2]], &[2, 1, 1, 1], 3)
            .expect("four distinct records")
    }

    /// The subset-row cut with multipliers `1/q` on `records` (2..=[`MAX_CUT_RECORDS`]
    /// distinct records, `2 <= q <= min(|C|, 9)`): right side `floor(|C| / q)`.
    pub fn subset_row(records: &[u32], q: u8) -> Result<Cut, String> {
        Cut::new(records, &vec![1; records.len()], q)
    }

    /// The records, ascending.
    pub fn records(&self) -> &[u32] {
        &self.records[..self.len as usize]
    }

    /// The multiplier numerators, in the order of [`Cut::records`].
    pub fn multipliers(&self) -> &[u8] {
        &self.multipliers[..self.len as usize]
    }

    pub fn denominator(&self) -> u8 {
        self.denominator
    }

    /// The right side `floor(p(C) / q)` (1 for the triples, 4- and 5-record cuts).
    pub fn rhs(&self) -> u8 {
        self.rhs
    }

    /// The triple when this is a subset-row cut on three records.
    pub fn as_triple(&self) -> Option<[u32; 3]> {
        (self.len == 3 && self.denominator == 2)
            .then(|| [self.records[0], self.records[1], self.records[2]])
    }

    /// `floor(p(S ∩ C) / q)` for a group with sorted members.
    pub fn coefficient(&self, group: &[u32]) -> f64 {
        let hits: u16 = self
            .records()
            .iter()
            .zip(self.multipliers())
            .filter(|(r, _)| group.binary_search(r).is_ok())
            .map(|(_, &p)| u16::from(p))
            .sum();
        f64::from(hits / u16::from(self.denominator))
    }
}

impl From<[u32; 3]> for Cut {
    fn from(t: [u32; 3]) -> Cut {
        Cut::triple(t)
    }
}

/// Cuts with their penalties, indexed by record, for pricing.
#[derive(Debug, Clone, Default)]
pub struct CutDuals {
    /// The cuts.
    pub cuts: Vec<Cut>,
    /// `w_C = -sigma_C`, nonnegative (positive duals are clamped to 0, which keeps the bound
    /// valid: P14 and P21 hold for every `sigma <= 0`).
    pub weights: Vec<f64>,
    /// `of[i]`: the cuts holding record `i` with its multiplier numerator (empty when there
    /// are no cuts).
    of: Vec<Vec<(u32, u8)>>,
}

impl CutDuals {
    /// No cuts: pricing is the plain set-partitioning pricing.
    pub fn none() -> CutDuals {
        CutDuals::default()
    }

    /// Cuts (triples `[u32; 3]` or [`Cut`]s) over `n` records with row duals `sigma` (one per
    /// cut; values above 0 are taken as 0).
    pub fn new<C: Copy + Into<Cut>>(n: usize, cuts: &[C], sigma: &[f64]) -> CutDuals {
        assert_eq!(cuts.len(), sigma.len(), "one dual per cut");
        let cuts: Vec<Cut> = cuts.iter().map(|&c| c.into()).collect();
        let mut of = vec![Vec::new(); if cuts.is_empty() { 0 } else { n }];
        for (c, t) in cuts.iter().enumerate() {
            for (&i, &p) in t.records().iter().zip(t.multipliers()) {
                of[i as usize].push((c as u32, p));
            }
        }
        CutDuals {
            cuts,
            weights: sigma.iter().map(|&s| (-s).max(0.0)).collect(),
            of,
        }
    }

    pub fn is_empty(&self) -> bool {
        self.cuts.is_empty()
    }

    pub fn len(&self) -> usize {
        self.cuts.len()
    }

    /// The cuts holding record `i`, each with the record's multiplier numerator.
    #[inline]
    pub fn of(&self, i: usize) -> &[(u32, u8)] {
        if self.of.is_empty() {
            &[]
        } else {
            &self.of[i]
        }
    }

    /// Denominator of cut `c`.
    #[inline]
    pub fn denominator(&self, c: u32) -> u8 {
        self.cuts[c as usize].denominator
    }

    /// The penalty of cut `c` (weight `w`) added when a group's weighted count of its records
    /// goes from `before` to `after`: `w (floor(after / q) - floor(before / q))`, 0 when no
    /// multiple of `q` is crossed (P21 Part C).
    #[inline]
    pub fn penalty_step(&self, c: u32, before: u16, after: u16) -> f64 {
        let q = u16::from(self.denominator(c));
        let steps = after / q - before / q;
        match steps {
            0 => 0.0,
            1 => self.weights[c as usize],
            s => self.weights[c as usize] * f64::from(s),
        }
    }

    /// The cut duals `sigma_C = -w_C` (all `<= 0`).
    pub fn sigma(&self) -> Vec<f64> {
        self.weights.iter().map(|w| -w).collect()
    }

    /// The cut terms `sigma_C b_C` of the Lagrangian bound (`b_C` the right side), each
    /// written as `b_C` copies of `sigma_C`, so that their sum is a plain sum of duals and
    /// P09's rounding margin for a sum of that many terms covers it (P21 Part B).
    pub fn rhs_terms(&self) -> Vec<f64> {
        let mut out = Vec::with_capacity(self.cuts.len());
        for (cut, w) in self.cuts.iter().zip(&self.weights) {
            out.extend(std::iter::repeat_n(-w, usize::from(cut.rhs)));
        }
        out
    }

    /// `sum_C b_C`: the most terms a group's penalty has (`a_C(S) <= b_C`; the rounding
    /// margin counts them).
    pub fn penalty_terms(&self) -> usize {
        self.cuts.iter().map(|c| usize::from(c.rhs)).sum()
    }

    /// The most rounded operations the exact pricing spends on the penalty of one group of at
    /// most `size` records: per member one addition and at most one product per cut holding
    /// it, and one addition of the member's share (proofs/P09, "The least reduced cost of one
    /// search"). 0 without cuts.
    pub fn path_terms(&self, size: usize) -> usize {
        let mut per: Vec<usize> = self.of.iter().map(|c| 2 * c.len() + 1).collect();
        per.sort_unstable_by(|a, b| b.cmp(a));
        per.iter().take(size).sum()
    }

    /// `sum_C w_C floor(p(S ∩ C) / q_C)` for a group (members in any order, distinct).
    pub fn penalty(&self, members: &[u32]) -> f64 {
        if self.is_empty() {
            return 0.0;
        }
        let mut hit: Vec<(u32, u16)> = Vec::new();
        for &i in members {
            for &(c, p) in self.of(i as usize) {
                match hit.iter_mut().find(|(h, _)| *h == c) {
                    Some((_, cnt)) => *cnt += u16::from(p),
                    None => hit.push((c, u16::from(p))),
                }
            }
        }
        hit.iter()
            .map(|&(c, cnt)| self.penalty_step(c, 0, cnt))
            .sum()
    }

    /// `sum_C w_C b_C` (`b_C` the right side): at least the largest penalty any group can
    /// have, since `a_C(S) <= floor(p(C) / q) = b_C`.
    pub fn total_weight(&self) -> f64 {
        self.cuts
            .iter()
            .zip(&self.weights)
            .map(|(c, w)| w * f64::from(c.rhs))
            .sum()
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

/// The fractional columns (0 < x_j < 1, with a 1e-9 margin) holding each of the `n` records,
/// in column order: the only columns a violated rank-1 cut can involve (used by the triple
/// separation here and by the 4-5-record one of `bnp::rank1`).
pub fn fractional_columns_of(n: usize, members: &[Vec<u32>], x: &[f64]) -> Vec<Vec<u32>> {
    let frac = |v: f64| v > 1e-9 && v < 1.0 - 1e-9;
    let mut cols_of: Vec<Vec<u32>> = vec![Vec::new(); n];
    for (j, g) in members.iter().enumerate() {
        if frac(x[j]) {
            for &i in g {
                cols_of[i as usize].push(j as u32);
            }
        }
    }
    cols_of
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
    let cols_of = fractional_columns_of(n, members, x);
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
