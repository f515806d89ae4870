//! # Pairwise-systematic (P-S) driver, shared by `ps-meansort` and `ps-multidsort`
//!
//! Kabir et al.'s Algorithm 2: sort the remaining records with a sorting function; the first
//! record f and the last record l seed two groups, f with its k - 1 nearest remaining records
//! and then l with its k - 1 nearest remaining records; repeat while at least 3k records
//! remain. Then, if 2k..3k-1 remain, sort them again and form one group from the first record
//! and its k - 1 nearest; the rest form the last group. "Nearest records that cause less SSE"
//! is read as the k - 1 nearest in Euclidean distance (the k-nearest step of MDAV, which the
//! paper names as the model). If l is among f's k - 1 nearest (possible only with ties) the
//! second group is seeded by the last record of the re-sorted remainder. Ties between equal
//! sort keys go to the lowest record index, for the last record as for the first.
//!
//! ## Complexity
//! O(n^2 d / k) for the k-nearest passes plus the sorter's cost per round (see the two
//! methods). O(n d) memory.
//!
//! ## References
//! Kabir, Wang & Bertino (2010), "A pairwise-systematic microaggregation for statistical
//! disclosure control", IEEE ICDM 2010, pp. 266-273. Kabir, Mahmood, Wang & Mustafa (2015),
//! "Microaggregation sorting framework for k-anonymity statistical disclosure control in
//! cloud computing", IEEE Transactions on Cloud Computing (Algorithms 1 and 2).

use crate::data::Instance;
use crate::geometry::pool::Pool;

/// A sorting function: the first and last of the given records (ties: lowest index each).
pub(crate) trait Sorter {
    fn first_last(&mut self, inst: &Instance, remaining: &[usize]) -> (usize, usize);
}

/// The P-S groups (every record placed, every group of at least k when n >= k).
pub(crate) fn pairwise_systematic<S: Sorter>(
    inst: &Instance,
    k: usize,
    sorter: &mut S,
) -> Vec<Vec<usize>> {
    let mut pool = Pool::new(inst);
    let mut groups = Vec::new();
    while pool.len() >= 3 * k {
        let (f, l) = sorter.first_last(inst, pool.ids());
        let first = pool.take_nearest(inst.row(f), k);
        let l = if first.contains(&l) {
            sorter.first_last(inst, pool.ids()).1
        } else {
            l
        };
        groups.push(first);
        groups.push(pool.take_nearest(inst.row(l), k));
    }
    if pool.len() >= 2 * k {
        let (f, _) = sorter.first_last(inst, pool.ids());
        groups.push(pool.take_nearest(inst.row(f), k));
    }
    if !pool.is_empty() {
        groups.push(pool.take_all());
    }
    groups
}

/// The worked example of Kabir et al. (2015), Tables I-IV: five records of two attributes
/// (raw values), for the tests of both sorting functions.
#[cfg(test)]
pub(crate) fn kabir_example() -> Instance {
    let raw = vec![5.0, 6.0, 3.0, 10.0, 1.0, 3.0, 2.0, 1.0, 4.0, 2.0];
    let columns = vec!["y1".into(), "y2".into()];
    Instance::from_raw("kabir", "kabir", columns, raw, "t".into()).unwrap()
}

/// Lowest-index argmin and argmax of `key` over `ids`.
pub(crate) fn min_max_by_key(ids: &[usize], key: impl Fn(usize) -> f64) -> (usize, usize) {
    let (mut lo, mut hi) = (ids[0], ids[0]);
    let (mut klo, mut khi) = (key(lo), key(hi));
    for &i in &ids[1..] {
        let v = key(i);
        if v < klo || (v == klo && i < lo) {
            (lo, klo) = (i, v);
        }
        if v > khi || (v == khi && i < hi) {
            (hi, khi) = (i, v);
        }
    }
    (lo, hi)
}
