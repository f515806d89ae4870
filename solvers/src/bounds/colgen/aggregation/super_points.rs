//! # Super-points: the aggregation of records into rows of the aggregated master
//!
//! A [`SuperPoints`] partition of the records decides which columns the aggregated master
//! may hold (proofs/P24). A *whole* super-point must be taken entirely or not at all by a
//! compatible column; a *copies* super-point holds identical records (same row of data), of
//! which a column may take any number: which copies it takes changes neither its cost nor
//! its reduced cost under duals equal on the copies, so a column is stored in a canonical
//! form (the first copies of each class, [`SuperPoints::canonical`]). The start partition
//! is the classes of identical records (two or more) and, for the other records, the
//! common refinement of the start groups; [`SuperPoints::split_along`] splits the whole
//! super-points that a column cuts, after which that column is compatible.
//!
//! ## Complexity
//! Building: O(n d) expected (hashing the rows) plus O(total start group size). Checking,
//! canonicalising or splitting along a column: O(|column| + touched super-points' sizes).
//!
//! ## References
//! Sudoso, A. M. and Aloise, D. (2025). A column generation algorithm with dynamic
//! constraint aggregation for minimum sum-of-squares clustering. INFORMS Journal on
//! Computing (super-points from the incumbent, split along incompatible columns).

use std::collections::HashMap;

/// The aggregation of the records (module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct SuperPoints {
    /// Members of each super-point, ascending.
    pub members: Vec<Vec<u32>>,
    /// Whether super-point `p` holds identical records (a column may take any number).
    pub copies: Vec<bool>,
    /// The super-point of each record.
    pub of: Vec<u32>,
}

impl SuperPoints {
    /// The start aggregation of the `n` records of `x` (`d` columns) for the start groups
    /// `groups` (together covering every record, each record possibly in several groups):
    /// identical records (two or more) form one copies super-point; two other records share
    /// a whole super-point when the same start groups contain them. Numbered by first
    /// record.
    pub fn from_starts(x: &[f64], n: usize, d: usize, groups: &[Vec<u32>]) -> Self {
        let mut containing: Vec<Vec<u32>> = vec![Vec::new(); n];
        for (g, members) in groups.iter().enumerate() {
            for &i in members {
                containing[i as usize].push(g as u32);
            }
        }
        let class = duplicate_classes(x, n, d);
        let mut by_key: HashMap<Key, u32> = HashMap::new();
        let mut sp = SuperPoints {
            members: Vec::new(),
            copies: Vec::new(),
            of: vec![0; n],
        };
        for i in 0..n {
            let key = match class[i] {
                Some(c) => Key::Copies(c),
                None => Key::Groups(containing[i].clone()),
            };
            let next = sp.members.len() as u32;
            let p = *by_key.entry(key).or_insert(next);
            if p == next {
                sp.members.push(Vec::new());
                sp.copies.push(class[i].is_some());
            }
            sp.members[p as usize].push(i as u32);
            sp.of[i] = p;
        }
        sp
    }

    /// Number of super-points (rows of the aggregated master).
    pub fn len(&self) -> usize {
        self.members.len()
    }

    /// Whether there is no super-point (no record).
    pub fn is_empty(&self) -> bool {
        self.members.is_empty()
    }

    /// How many members of each super-point `column` holds, by super-point (ascending).
    pub fn counts(&self, column: &[u32]) -> Vec<(u32, u32)> {
        let mut touched: Vec<u32> = column.iter().map(|&i| self.of[i as usize]).collect();
        touched.sort_unstable();
        let mut out: Vec<(u32, u32)> = Vec::new();
        for p in touched {
            match out.last_mut() {
                Some((q, c)) if *q == p => *c += 1,
                _ => out.push((p, 1)),
            }
        }
        out
    }

    /// The whole super-points that `column` cuts (holds some but not all members of).
    pub fn cut_by(&self, column: &[u32]) -> Vec<u32> {
        self.counts(column)
            .into_iter()
            .filter(|&(p, c)| {
                !self.copies[p as usize] && c as usize != self.members[p as usize].len()
            })
            .map(|(p, _)| p)
            .collect()
    }

    /// Whether the aggregated master may hold `column` (it cuts no whole super-point).
    pub fn compatible(&self, column: &[u32]) -> bool {
        self.cut_by(column).is_empty()
    }

    /// `column` with the members it takes from each copies super-point replaced by that
    /// super-point's first members (same multiset of data rows, so the same cost), sorted.
    pub fn canonical(&self, column: &[u32]) -> Vec<u32> {
        let mut out: Vec<u32> = Vec::with_capacity(column.len());
        for (p, c) in self.counts(column) {
            let members = &self.members[p as usize];
            if self.copies[p as usize] {
                out.extend_from_slice(&members[..c as usize]);
            } else {
                out.extend(column.iter().filter(|&&i| self.of[i as usize] == p));
            }
        }
        out.sort_unstable();
        out
    }

    /// Split every whole super-point that `column` cuts into its members inside the column
    /// (keeping the number) and those outside (a new super-point at the end); returns how
    /// many were split. Every column compatible before stays compatible.
    pub fn split_along(&mut self, column: &[u32]) -> usize {
        let cut = self.cut_by(column);
        for &p in &cut {
            let (inside, outside): (Vec<u32>, Vec<u32>) = self.members[p as usize]
                .iter()
                .partition(|i| column.binary_search(i).is_ok());
            let q = self.members.len() as u32;
            for &i in &outside {
                self.of[i as usize] = q;
            }
            self.members[p as usize] = inside;
            self.members.push(outside);
            self.copies.push(false);
        }
        cut.len()
    }

    /// Record duals from the aggregated master's row duals `row_duals` (one per super-point,
    /// per record: the rows are weighted by the records they stand for): every member gets
    /// its super-point's value, so that `sum_i y_i` is the aggregated dual objective.
    pub fn disaggregate(&self, row_duals: &[f64]) -> Vec<f64> {
        self.of.iter().map(|&p| row_duals[p as usize]).collect()
    }
}

/// How a record finds its super-point when the aggregation is built.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Key {
    Copies(u32),
    Groups(Vec<u32>),
}

/// For every record, the class of identical records it belongs to when it has a copy
/// (classes numbered by first record), else None. `-0.0` and `0.0` count as equal.
fn duplicate_classes(x: &[f64], n: usize, d: usize) -> Vec<Option<u32>> {
    let mut first: HashMap<Vec<u64>, usize> = HashMap::new();
    let mut rep = vec![0usize; n];
    let mut size = vec![0usize; n];
    for i in 0..n {
        let bits: Vec<u64> = x[i * d..(i + 1) * d]
            .iter()
            .map(|v| (v + 0.0).to_bits())
            .collect();
        let r = *first.entry(bits).or_insert(i);
        rep[i] = r;
        size[r] += 1;
    }
    let mut number: HashMap<usize, u32> = HashMap::new();
    (0..n)
        .map(|i| {
            (size[rep[i]] >= 2).then(|| {
                let next = number.len() as u32;
                *number.entry(rep[i]).or_insert(next)
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn starts_split_copies_and_refine_groups() {
        // Records 1 and 4 are identical; two start partitions disagree on record 3.
        let x = [0.0, 5.0, 1.0, 2.0, 5.0, 9.0];
        let groups = vec![vec![0, 1, 2, 3], vec![4, 5], vec![0, 1, 2], vec![3, 4, 5]];
        let sp = SuperPoints::from_starts(&x, 6, 1, &groups);
        assert_eq!(sp.members, vec![vec![0, 2], vec![1, 4], vec![3], vec![5]]);
        assert_eq!(sp.copies, vec![false, true, false, false]);
        assert!(sp.compatible(&[0, 2, 4]));
        assert!(!sp.compatible(&[0, 4]));
        assert_eq!(sp.canonical(&[0, 2, 4]), vec![0, 1, 2]);
    }

    #[test]
    fn split_makes_the_column_compatible_and_keeps_the_others() {
        let x = [0.0, 1.0, 2.0, 3.0, 4.0, 5.0];
        let mut sp = SuperPoints::from_starts(&x, 6, 1, &[vec![0, 1, 2], vec![3, 4, 5]]);
        let before = [0u32, 1, 2];
        assert_eq!(sp.split_along(&[1, 2, 3]), 2);
        assert!(sp.compatible(&[1, 2, 3]) && sp.compatible(&before));
        assert_eq!(sp.len(), 4);
        let y = sp.disaggregate(&[1.0, 2.0, 3.0, 4.0]);
        assert_eq!(y, vec![3.0, 1.0, 1.0, 2.0, 4.0, 4.0]);
    }
}
