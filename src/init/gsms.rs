//! # GSMS (successive group selection), NN candidate groups
//!
//! Every remaining record x has a candidate group: x with its k - 1 nearest remaining
//! records (NN). Each step selects the candidate group p that minimises
//! SSE(p) + SSE(T \ p), T being the remaining records, and removes it from T. By the
//! decomposition SSE(T) = SSE(p) + SSE(T \ p) + |p| |T \ p| / |T| * ||c(p) - c(T \ p)||^2
//! and c(p) - c(T \ p) = |T| / |T \ p| * (c(p) - c(T)), with |p| = k fixed this is the
//! candidate whose centroid is farthest from the centroid of T, which is what is computed
//! (ties: lowest x). Steps continue while at least k records remain; a leftover of fewer
//! than k records is handed out record by record, each to the group whose centroid is
//! nearest (centroids taken before any leftover is added). Ties go to the lowest record
//! index throughout.
//!
//! ## Memory
//! The original keeps, for every record, a priority queue of all records by distance
//! (O(n^2) memory). Here each record keeps only a buffer of its `3k` nearest remaining
//! records (sorted by distance, then id) and its candidate centroid: O(n (k + d)) memory.
//! Assigned records are dropped from the buffers after each step; a buffer that falls below
//! k - 1 entries is refilled by one distance pass over the remaining records. Because T
//! only shrinks, the surviving prefix of a buffer is exactly the nearest remaining records,
//! so the candidate groups equal those of the full priority queues.
//!
//! ## Published values
//! Khomnotai et al. (2018) Tables 2-4, row GSMS-NN: all 18 cells reproduced to the printed
//! 3 decimals (`tests/decompose_shrink_tables.rs`). The other reading (steps while >= 2k
//! remain, the last k..2k-1 records one group) reproduces 15 of 18 (not Tarragona k = 10,
//! 20, 30); compare with `cargo run --release --example khomnotai_readings GSMS-NN`.
//!
//! ## Complexity
//! Per step: O(m d) for the scores of the m remaining candidates and O(m k) to purge the
//! buffers, plus O(m d) per refill; O(n^2 d / k) for the steps, and at most one refill per
//! record per 2k assignments in its neighbourhood (in the worst case O(n^2 d) in all).
//! Initial buffers: O(n^2 d).
//!
//! ## References
//! Panagiotakis & Tziritas (2013), "Successive group selection for microaggregation", IEEE
//! Transactions on Knowledge and Data Engineering 25(5):1191-1195. Khomnotai, Lin, Peng &
//! Santra (2018), Symmetry 10(7):262, sections 3.1 and 5.2.

use super::growth::join_each_to_nearest_centroid;
use crate::data::Instance;
use crate::error::Result;
use crate::method::{Initializer, MethodInfo};
use crate::params::NoParams;
use crate::partition::{sq_dist, Partition};
use crate::rng::Rng;

pub struct Gsms;

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "gsms",
        "GSMS: repeatedly take the NN candidate group minimising SSE(p) + SSE(rest); O(n k) neighbour buffers",
        "Panagiotakis & Tziritas 2013 (IEEE TKDE 25:1191); Khomnotai et al. 2018 (GSMS-NN)",
        |_: NoParams| Gsms,
    )
}

impl Initializer for Gsms {
    fn name(&self) -> &str {
        "gsms"
    }

    fn build(&self, inst: &Instance, k: usize, _rng: &mut Rng) -> Result<Partition> {
        let groups = gsms_groups(inst, k, true);
        super::finish("gsms", inst, k, &groups)
    }
}

/// Per-record buffers of nearest remaining records and candidate centroids.
struct Candidates<'a> {
    inst: &'a Instance,
    k: usize,
    capacity: usize,
    alive: Vec<bool>,
    nbrs: Vec<Vec<usize>>,
    centroid: Vec<f64>,
}

impl Candidates<'_> {
    /// Refill the buffer of `x` with its `capacity` nearest records in `remaining`.
    fn refill(&mut self, x: usize, remaining: &[usize]) {
        let row = self.inst.row(x);
        let mut cand: Vec<(f64, usize)> = remaining
            .iter()
            .filter(|&&y| y != x)
            .map(|&y| (sq_dist(row, self.inst.row(y)), y))
            .collect();
        let by = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if cand.len() > self.capacity {
            cand.select_nth_unstable_by(self.capacity - 1, by);
            cand.truncate(self.capacity);
        }
        cand.sort_by(by);
        self.nbrs[x] = cand.into_iter().map(|(_, y)| y).collect();
        self.update_centroid(x);
    }

    /// Centroid of x and its first k - 1 buffered neighbours.
    fn update_centroid(&mut self, x: usize) {
        let d = self.inst.d;
        let c = &mut self.centroid[x * d..(x + 1) * d];
        c.copy_from_slice(self.inst.row(x));
        for &y in self.nbrs[x].iter().take(self.k - 1) {
            c.iter_mut()
                .zip(self.inst.row(y))
                .for_each(|(a, v)| *a += v);
        }
        let inv = 1.0 / (1 + self.nbrs[x].len().min(self.k - 1)) as f64;
        c.iter_mut().for_each(|a| *a *= inv);
    }
}

/// GSMS groups. With `distribute_leftover`, steps continue while >= k remain and a leftover
/// below k joins the nearest groups record by record (an alternative reading); otherwise
/// steps continue while >= 2k remain and the rest form one group.
pub fn gsms_groups(inst: &Instance, k: usize, distribute_leftover: bool) -> Vec<Vec<usize>> {
    let (n, d) = (inst.n, inst.d);
    let mut remaining: Vec<usize> = (0..n).collect();
    let mut groups: Vec<Vec<usize>> = Vec::new();
    let mut cands = Candidates {
        inst,
        k,
        capacity: (3 * k).max(k + 1),
        alive: vec![true; n],
        nbrs: vec![Vec::new(); n],
        centroid: vec![0.0; n * d],
    };
    for x in 0..n {
        cands.refill(x, &remaining);
    }
    let mut sum = vec![0.0; d];
    for i in 0..n {
        sum.iter_mut().zip(inst.row(i)).for_each(|(s, v)| *s += v);
    }
    let loop_while = if distribute_leftover { k } else { 2 * k };
    while remaining.len() >= loop_while {
        let inv = 1.0 / remaining.len() as f64;
        let mean: Vec<f64> = sum.iter().map(|s| s * inv).collect();
        // `remaining` is ascending, so the strict comparison keeps the lowest id on ties.
        let mut best = (f64::NEG_INFINITY, usize::MAX);
        for &x in &remaining {
            let score = sq_dist(&cands.centroid[x * d..(x + 1) * d], &mean);
            if score > best.0 {
                best = (score, x);
            }
        }
        let x = best.1;
        let mut group = vec![x];
        group.extend(cands.nbrs[x].iter().take(k - 1).copied());
        for &i in &group {
            cands.alive[i] = false;
            sum.iter_mut().zip(inst.row(i)).for_each(|(s, v)| *s -= v);
        }
        remaining.retain(|&i| cands.alive[i]);
        groups.push(group);
        // Drop assigned records from every buffer; refresh what changed.
        let needed = (k - 1).min(remaining.len().saturating_sub(1));
        for idx in 0..remaining.len() {
            let y = remaining[idx];
            let buf = &cands.nbrs[y];
            let Some(first_dead) = buf.iter().position(|&z| !cands.alive[z]) else {
                continue;
            };
            let alive = &cands.alive;
            cands.nbrs[y].retain(|&z| alive[z]);
            if cands.nbrs[y].len() < needed {
                cands.refill(y, &remaining);
            } else if first_dead < k - 1 {
                cands.update_centroid(y);
            }
        }
    }
    if remaining.len() >= k || groups.is_empty() {
        groups.push(remaining);
    } else if !remaining.is_empty() {
        join_each_to_nearest_centroid(inst, &mut groups, &remaining);
    }
    groups
}
