//! # Nearest-neighbour lists
//!
//! For every record, its `m` nearest other records (squared Euclidean distance on the
//! standardised attributes, ties to the lower record index), nearest first. Local search
//! draws its candidate groups from the groups of these neighbours (granular neighbourhoods),
//! which keeps one move evaluation local: with m = 30 a record sees a handful of groups
//! instead of all n/k of them.
//!
//! ## Complexity
//! Brute force: O(n^2 d) time once per instance (about 0.2 s for EIA, n = 4092, d = 11;
//! acceptable up to n of about 20 000, beyond which a spatial index would be needed), and
//! O(n m) memory. [`Neighbours::build_until`] polls a stop rule between records, so that a
//! time limit or Ctrl-C is honoured within one record's O(n d) scan even on 10^5 records.
//!
//! ## References
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346 (granular
//!   neighbourhoods; the same idea drives PyVRP's operators).

use crate::data::Instance;
use crate::partition::sq_dist;

/// Each record's nearest records, nearest first.
#[derive(Debug, Clone)]
pub struct Neighbours {
    m: usize,
    list: Vec<u32>,
}

impl Neighbours {
    /// The `m` nearest records of every record (fewer when n - 1 < m).
    pub fn build(inst: &Instance, m: usize) -> Self {
        Self::build_until(inst, m, || false).expect("never stopped")
    }

    /// As [`build`](Self::build), asking `stop` before each record; `None` once it says
    /// stop (the lists are then unfinished and useless).
    pub fn build_until(inst: &Instance, m: usize, mut stop: impl FnMut() -> bool) -> Option<Self> {
        let n = inst.n;
        let m = m.min(n.saturating_sub(1));
        let mut list = Vec::with_capacity(n * m);
        let mut cand: Vec<(f64, u32)> = Vec::with_capacity(n);
        for i in 0..n {
            if stop() {
                return None;
            }
            cand.clear();
            let x = inst.row(i);
            cand.extend(
                (0..n)
                    .filter(|&j| j != i)
                    .map(|j| (sq_dist(x, inst.row(j)), j as u32)),
            );
            let order = |a: &(f64, u32), b: &(f64, u32)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
            if m > 0 && m < cand.len() {
                cand.select_nth_unstable_by(m - 1, order);
                cand.truncate(m);
            }
            cand.sort_by(order);
            list.extend(cand.iter().map(|c| c.1));
        }
        Some(Neighbours { m, list })
    }

    /// Number of neighbours kept per record.
    pub fn per_record(&self) -> usize {
        self.m
    }

    /// The nearest records of `i`, nearest first.
    #[inline]
    pub fn of(&self, i: usize) -> &[u32] {
        &self.list[i * self.m..(i + 1) * self.m]
    }
}
