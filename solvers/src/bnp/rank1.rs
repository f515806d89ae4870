//! # Separation of rank-1 cuts on four and five records
//!
//! Heuristic separation, at a master solution, of two kinds of rank-1 cuts with right side 1
//! ([`Cut`], proofs/P21-rank1-cuts.md): the subset-row cut on five records with multipliers
//! 1/3 (a group counts when it holds three or more of them) and the 4-record cut with
//! multipliers (2/3, 1/3, 1/3, 1/3) (a group counts when it holds the heavy record and
//! another one, or the three light ones). Validity does not depend on the separation (every
//! such cut holds for every partition), only the bound's progress does.
//!
//! For each record `a` in two or more fractional columns, its partners (records sharing a
//! fractional column with it) are ranked by the summed value of the shared columns and the
//! `partners` best kept; every 5-set `{a} ∪ Q` (`Q` four of them) and every 4-record cut
//! with heavy record `a` and three of them as light records is evaluated. Why `a` can be
//! asked to be in two fractional columns: the columns counted by a violated cut add up to
//! more than 1 while each record's columns add up to 1, so at least two columns count and,
//! for five records, two columns with three records each share one; for the 4-record cut a
//! counted column holds the heavy record (else the three light records' columns would add
//! up to more than 1).
//!
//! ## Complexity
//! With `L = partners`: O(n (C(L, 4) + C(L, 3)) F r log k) for `F` fractional columns per
//! record and cuts of `r <= 5` records, plus sorting the violated cuts.
//!
//! ## References
//! - Petersen, B., Pisinger, D. and Spoorendonk, S. (2008). Chvátal-Gomory rank-1 cuts used
//!   in a Dantzig-Wolfe decomposition of the vehicle routing problem with time windows. In
//!   The Vehicle Routing Problem: Latest Advances and New Challenges, Springer, 397-419.
//! - Pecin, D., Pessoa, A., Poggi, M. and Uchoa, E. (2017). Improved branch-cut-and-price for
//!   capacitated vehicle routing. Mathematical Programming Computation 9, 61-100 (limited-
//!   memory rank-1 cuts; the multipliers used here are their optimal ones for 4 and 5 rows).

use super::MasterPoint;
use crate::bounds::colgen::cuts::{fractional_columns_of, Cut};
use std::collections::{HashMap, HashSet};

/// What the separation looks for.
#[derive(Debug, Clone, Copy)]
pub(super) struct Rank1Search {
    /// Partners kept per centre record.
    pub partners: usize,
    /// Most cuts returned.
    pub max_cuts: usize,
    /// A record in at most this many returned cuts.
    pub per_record: usize,
    /// Least violation (left side - 1).
    pub min_violation: f64,
}

/// Left side `sum_S floor(p(S ∩ C) / q) x_S` of `cut` over the fractional columns
/// (`cols_of[i]`: the fractional columns holding record `i`).
fn lhs(
    cut: &Cut,
    cols_of: &[Vec<u32>],
    members: &[Vec<u32>],
    x: &[f64],
    seen: &mut Vec<u32>,
) -> f64 {
    seen.clear();
    for &r in cut.records() {
        seen.extend_from_slice(&cols_of[r as usize]);
    }
    seen.sort_unstable();
    seen.dedup();
    seen.iter()
        .map(|&c| x[c as usize] * cut.coefficient(&members[c as usize]))
        .sum()
}

/// Every `r`-subset of `0..len` in lexicographic order, passed to `f` as indices.
fn subsets(len: usize, r: usize, f: &mut dyn FnMut(&[usize])) {
    if r > len {
        return;
    }
    let mut idx: Vec<usize> = (0..r).collect();
    loop {
        f(&idx);
        // Advance the rightmost index that can move.
        let Some(p) = (0..r).rev().find(|&p| idx[p] < len - r + p) else {
            return;
        };
        idx[p] += 1;
        for q in p + 1..r {
            idx[q] = idx[q - 1] + 1;
        }
    }
}

/// The violated 5-record subset-row cuts and 4-record (2,1,1,1)/3 cuts at the master
/// solution ([`MasterPoint`]: columns `members[j]`, sorted, at values `x[j]`, over `n`
/// records), none in `existing`: most violated first, at most `s.max_cuts`, each record in
/// at most `s.per_record` of them. Returns (cut, left side).
pub(super) fn separate(
    &MasterPoint { n, members, x }: &MasterPoint,
    existing: &HashSet<Cut>,
    s: &Rank1Search,
) -> Vec<(Cut, f64)> {
    let cols_of = fractional_columns_of(n, members, x);
    let mut found: HashMap<Cut, f64> = HashMap::new();
    let mut weight: HashMap<u32, f64> = HashMap::new();
    let mut seen: Vec<u32> = Vec::new();
    for a in 0..n {
        if cols_of[a].len() < 2 {
            continue;
        }
        weight.clear();
        for &c in &cols_of[a] {
            for &b in &members[c as usize] {
                if b as usize != a {
                    *weight.entry(b).or_insert(0.0) += x[c as usize];
                }
            }
        }
        let mut partners: Vec<(u32, f64)> = weight.iter().map(|(&b, &w)| (b, w)).collect();
        partners.sort_by(|p, q| q.1.total_cmp(&p.1).then(p.0.cmp(&q.0)));
        partners.truncate(s.partners);
        let a32 = a as u32;
        let consider = |cut: Cut, found: &mut HashMap<Cut, f64>, seen: &mut Vec<u32>| {
            if existing.contains(&cut) || found.contains_key(&cut) {
                return;
            }
            let v = lhs(&cut, &cols_of, members, x, seen);
            if v > 1.0 + s.min_violation {
                found.insert(cut, v);
            }
        };
        subsets(partners.len(), 4, &mut |q| {
            let r = [
                a32,
                partners[q[0]].0,
                partners[q[1]].0,
                partners[q[2]].0,
                partners[q[3]].0,
            ];
            consider(Cut::five(r), &mut found, &mut seen);
        });
        subsets(partners.len(), 3, &mut |q| {
            let light = [partners[q[0]].0, partners[q[1]].0, partners[q[2]].0];
            consider(Cut::four(a32, light), &mut found, &mut seen);
        });
    }
    let mut found: Vec<(Cut, f64)> = found.into_iter().collect();
    found.sort_by(|p, q| q.1.total_cmp(&p.1).then(p.0.cmp(&q.0)));
    let mut uses = vec![0usize; n];
    let mut out = Vec::new();
    for (cut, v) in found {
        if out.len() >= s.max_cuts {
            break;
        }
        if cut
            .records()
            .iter()
            .any(|&i| uses[i as usize] >= s.per_record)
        {
            continue;
        }
        for &i in cut.records() {
            uses[i as usize] += 1;
        }
        out.push((cut, v));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn search() -> Rank1Search {
        Rank1Search {
            partners: 10,
            max_cuts: 100,
            per_record: 100,
            min_violation: 1e-6,
        }
    }

    #[test]
    fn subsets_lists_every_combination_once() {
        let mut all = Vec::new();
        subsets(6, 4, &mut |q| all.push(q.to_vec()));
        assert_eq!(all.len(), 15);
        let set: HashSet<Vec<usize>> = all.iter().cloned().collect();
        assert_eq!(set.len(), 15);
        assert!(all
            .iter()
            .all(|q| q.windows(2).all(|w| w[0] < w[1]) && q[3] < 6));
        let mut none = 0;
        subsets(2, 3, &mut |_| none += 1);
        assert_eq!(none, 0);
    }

    #[test]
    fn five_records_in_triples_at_one_half_violate_the_five_cut() {
        // The five cyclic triples {i, i+1, i+2} (mod 5) at 1/3 each cover every record once;
        // each holds three of the five records, so the 5-record cut's left side is 5/3.
        let members: Vec<Vec<u32>> = (0..5u32)
            .map(|i| {
                let mut g = vec![i, (i + 1) % 5, (i + 2) % 5];
                g.sort_unstable();
                g
            })
            .collect();
        let x = vec![1.0 / 3.0; 5];
        let point = MasterPoint::new(5, &members, &x);
        let cuts = separate(&point, &HashSet::new(), &search());
        let five = cuts
            .iter()
            .find(|(c, _)| c.records().len() == 5)
            .expect("the 5-record cut is violated");
        assert_eq!(five.0.records(), &[0, 1, 2, 3, 4]);
        assert!((five.1 - 5.0 / 3.0).abs() < 1e-12);
        // Every returned cut is violated when recomputed from scratch.
        for (c, v) in &cuts {
            let l = point.left_side(c);
            assert!((l - v).abs() < 1e-12 && l > 1.0);
        }
        // An integral solution violates nothing.
        let members = vec![vec![0, 1, 2], vec![3, 4, 5]];
        let point = MasterPoint::new(6, &members, &[1.0, 1.0]);
        assert!(separate(&point, &HashSet::new(), &search()).is_empty());
    }
}
