//! # Nearest-neighbour lists
//!
//! For every record, its `m` nearest other records (squared Euclidean distance on the
//! standardised attributes, ties to the lower record index), nearest first. Local search
//! draws its candidate groups from the groups of these neighbours (granular neighbourhoods),
//! which keeps one move evaluation local: with m = 30 a record sees a handful of groups
//! instead of all n/k of them.
//!
//! ## Complexity
//! From 4096 records the lists come from the static all-kNN kd-tree of [`super::knn`] (the
//! same lists, ties included): build O(n log n d), then n m-nearest queries in tree order,
//! in parallel chunks; a query visits few leaves in low d and more as d grows (measured in
//! `studies/study-engine.txt`). Below that, brute force:
//! O(n^2 d) (about 0.2 s for EIA, n = 4092, d = 11). O(n m) memory.
//! [`Neighbours::build_until`] polls a stop rule between records (between chunks of
//! `CHUNK` on the tree path), so a time limit or Ctrl-C is honoured promptly.
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

    /// As [`build`](Self::build), asking `stop` before each record (each chunk of
    /// `CHUNK` records on the kd-tree path); `None` once it says stop (the lists are then
    /// unfinished and useless).
    pub fn build_until(inst: &Instance, m: usize, stop: impl FnMut() -> bool) -> Option<Self> {
        Self::build_reporting(inst, m, stop, |_| {})
    }

    /// As [`build_until`](Self::build_until) with the (1 + `eps`)-approximate kd-tree
    /// search ([`super::knn::all_nearest_approx`]: the i-th listed record within 1 + eps of
    /// the true i-th nearest distance) where the tree is used (from 4096 records; below,
    /// the exact scan). `eps = 0` gives the exact lists. Candidate lists for local search
    /// need not be exact, and in d = 10 the exact ones cost most of a descent at 10^6
    /// records (`studies/study-engine.txt`, section 24-descent).
    pub fn build_approx_until(
        inst: &Instance,
        m: usize,
        eps: f64,
        stop: impl FnMut() -> bool,
    ) -> Option<Self> {
        let m = m.min(inst.n.saturating_sub(1));
        let list = if use_tree(inst.n, m) {
            super::knn::all_nearest_approx(&inst.z, inst.d, m, eps, stop, |_| {})?
        } else {
            lists_by_scan(inst, m, stop)?
        };
        Some(Neighbours { m, list })
    }

    /// As [`build_until`](Self::build_until), telling `progress` the number of records
    /// whose lists are done after each chunk of [`CHUNK`] (the kd-tree path; the scan,
    /// used below 4096 records, reports once at the end).
    pub(crate) fn build_reporting(
        inst: &Instance,
        m: usize,
        stop: impl FnMut() -> bool,
        mut progress: impl FnMut(usize),
    ) -> Option<Self> {
        let m = m.min(inst.n.saturating_sub(1));
        let list = if use_tree(inst.n, m) {
            super::knn::all_nearest(&inst.z, inst.d, m, stop, progress)?
        } else {
            let list = lists_by_scan(inst, m, stop)?;
            progress(inst.n);
            list
        };
        Some(Neighbours { m, list })
    }
    /// The lists by brute force whatever n is (the reference of the kd-tree path, for
    /// tests and studies).
    pub fn build_by_scan(inst: &Instance, m: usize) -> Self {
        let m = m.min(inst.n.saturating_sub(1));
        let list = lists_by_scan(inst, m, || false).expect("never stopped");
        Neighbours { m, list }
    }

    /// The lists by the kd-tree whatever n is (for tests and studies; the same lists as
    /// [`build_by_scan`](Self::build_by_scan)).
    pub fn build_by_tree(inst: &Instance, m: usize) -> Self {
        let m = m.min(inst.n.saturating_sub(1));
        let list = if m == 0 {
            Vec::new()
        } else {
            lists_from_tree(inst, m, || false).expect("never stopped")
        };
        Neighbours { m, list }
    }

    /// The lists of an instance with missing cells by the masked distance
    /// ([`super::pool::nan_sq_dist`]: over the columns both records observe, rescaled), by a
    /// scan: the kd-tree's pruning needs the triangle inequality, which that distance
    /// breaks. O(n^2 d); `None` once `stop` says so (asked before each record).
    pub(crate) fn build_masked_until(
        inst: &Instance,
        m: usize,
        stop: impl FnMut() -> bool,
    ) -> Option<Self> {
        let m = m.min(inst.n.saturating_sub(1));
        let marked = super::masked_scan::nan_marked(inst);
        let dist = |i: usize, j: usize| super::pool::nan_sq_dist(marked.row(i), marked.row(j));
        let list = lists_by_scan_of(inst.n, m, stop, dist)?;
        Some(Neighbours { m, list })
    }

    /// Every list one after the other: record i's at `[i m, (i + 1) m)`.
    pub fn as_flat(&self) -> &[u32] {
        &self.list
    }

    /// Number of neighbours kept per record.
    pub(crate) fn per_record(&self) -> usize {
        self.m
    }

    /// The nearest records of `i`, nearest first.
    #[inline]
    pub fn of(&self, i: usize) -> &[u32] {
        &self.list[i * self.m..(i + 1) * self.m]
    }
}

/// The kd-tree pays from a few thousand records (measured in
/// `studies/study-engine.txt`); both paths give the same lists.
fn use_tree(n: usize, m: usize) -> bool {
    n >= 4096 && m > 0
}

/// Order by (distance, id).
fn by_distance_then_id(a: &(f64, u32), b: &(f64, u32)) -> std::cmp::Ordering {
    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
}

/// Every record against every other: O(n^2 d).
fn lists_by_scan(inst: &Instance, m: usize, stop: impl FnMut() -> bool) -> Option<Vec<u32>> {
    lists_by_scan_of(inst.n, m, stop, |i, j| sq_dist(inst.row(i), inst.row(j)))
}

/// The `m` nearest others of each of `n` records by `dist`, ties to the lower index, asking
/// `stop` before each record: O(n^2) distances.
fn lists_by_scan_of(
    n: usize,
    m: usize,
    mut stop: impl FnMut() -> bool,
    dist: impl Fn(usize, usize) -> f64,
) -> Option<Vec<u32>> {
    let mut list = Vec::with_capacity(n * m);
    let mut cand: Vec<(f64, u32)> = Vec::with_capacity(n);
    for i in 0..n {
        if stop() {
            return None;
        }
        cand.clear();
        cand.extend((0..n).filter(|&j| j != i).map(|j| (dist(i, j), j as u32)));
        if m < cand.len() {
            if m > 0 {
                cand.select_nth_unstable_by(m - 1, by_distance_then_id);
            }
            cand.truncate(m);
        }
        cand.sort_by(by_distance_then_id);
        list.extend(cand.iter().map(|c| c.1));
    }
    Some(list)
}

/// The m nearest others of each record from the static kd-tree ([`super::knn`]): the
/// scan's lists ([`lists_by_scan`]) bit for bit, ties included (proofs/P06, section "The
/// static all-kNN tree"), in parallel chunks whose results do not depend on the thread
/// count.
fn lists_from_tree(inst: &Instance, m: usize, stop: impl FnMut() -> bool) -> Option<Vec<u32>> {
    super::knn::all_nearest(&inst.z, inst.d, m, stop, |_| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rows with many exact duplicates and ties (values on a coarse grid).
    fn tied(n: usize, d: usize, seed: u64) -> Instance {
        use rand::{Rng, SeedableRng};
        let mut rng = crate::rng::Rng::seed_from_u64(seed);
        let raw: Vec<f64> = (0..n * d).map(|_| rng.random_range(0..4) as f64).collect();
        let cols = (0..d).map(|j| format!("c{j}")).collect();
        Instance::from_raw("tied", "test", cols, raw, String::new()).unwrap()
    }

    #[test]
    fn tree_lists_equal_the_scan_lists_with_ties_and_duplicates() {
        for (n, d, m) in [
            (300, 1, 5),
            (500, 2, 30),
            (700, 3, 10),
            (400, 7, 30),
            (200, 20, 12),
        ] {
            let inst = tied(n, d, (n + d) as u64);
            let scan = lists_by_scan(&inst, m, || false).unwrap();
            let tree = lists_from_tree(&inst, m, || false).unwrap();
            assert_eq!(scan, tree, "n={n} d={d} m={m}");
        }
        let inst =
            crate::data::load("gauss:n=1500,d=10,clusters=5,seed=4", &Default::default()).unwrap();
        assert_eq!(
            lists_by_scan(&inst, 30, || false),
            lists_from_tree(&inst, 30, || false)
        );
    }
}
