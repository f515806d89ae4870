//! # Certificate compaction
//!
//! [`BnpCertificate::compact`]: the same proof in fewer leaves and cuts, every number
//! unchanged (the rules are in the parent module's doc). O(leaves² · depth) for the sibling
//! search (each merge restarts it) plus O(leaves · (n + cuts)).

use super::BnpCertificate;

impl BnpCertificate {
    /// The same proof in fewer leaves and cuts, every number unchanged (module doc).
    pub fn compact(mut self) -> Self {
        while let Some((a, b)) = self.identical_siblings() {
            let (hi, lo) = (a.max(b), a.min(b));
            self.leaves.remove(hi);
            self.leaves[lo].decisions.pop();
        }
        let mut used = vec![false; self.cuts.len()];
        // The enumeration section (P19) indexes the same cut list: its cuts are kept too.
        let enumeration_duals = self.enumeration.iter().map(|e| &e.cut_duals);
        for duals in self
            .leaves
            .iter()
            .map(|l| &l.cut_duals)
            .chain(enumeration_duals)
        {
            for (c, v) in duals.iter().enumerate() {
                used[c] |= *v != 0.0;
            }
        }
        self.cuts = kept(&self.cuts, &used);
        for l in &mut self.leaves {
            let duals = kept(&l.cut_duals, &used);
            let len = duals.iter().rposition(|v| *v != 0.0).map_or(0, |p| p + 1);
            l.cut_duals = duals[..len].to_vec();
        }
        if let Some(e) = &mut self.enumeration {
            e.cut_duals = kept(&e.cut_duals, &used);
        }
        self
    }

    /// Two leaves that differ only in the together/apart flag of their last decision and
    /// carry the same count range, claim and duals (bit for bit).
    fn identical_siblings(&self) -> Option<(usize, usize)> {
        for (a, x) in self.leaves.iter().enumerate() {
            let Some((&(p, q, t), head)) = x.decisions.split_last() else {
                continue;
            };
            for (b, y) in self.leaves.iter().enumerate().skip(a + 1) {
                let sibling = y
                    .decisions
                    .split_last()
                    .is_some_and(|(&(p2, q2, t2), h2)| (p2, q2) == (p, q) && t2 != t && h2 == head);
                let same = |u: &[f64], v: &[f64]| {
                    u.len() == v.len() && u.iter().zip(v).all(|(a, b)| a.to_bits() == b.to_bits())
                };
                if sibling
                    && x.count() == y.count()
                    && x.nn_bound == y.nn_bound
                    && x.lower_bound.map(f64::to_bits) == y.lower_bound.map(f64::to_bits)
                    && same(&x.duals, &y.duals)
                    && same(&x.cut_duals, &y.cut_duals)
                {
                    return Some((a, b));
                }
            }
        }
        None
    }
}

/// The entries of `values` whose cut is `used` (a value per cut, in the cuts' order; a list
/// shorter than the cuts stops where it ends).
fn kept<T: Clone>(values: &[T], used: &[bool]) -> Vec<T> {
    values
        .iter()
        .zip(used)
        .filter(|(_, &u)| u)
        .map(|(v, _)| v.clone())
        .collect()
}
