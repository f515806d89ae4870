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
//! (O(n^2) memory). Here each record keeps only a buffer of its nearest remaining records
//! (sorted by distance, then id; 3k entries at first, doubled at each refill up to 32k) and
//! its candidate centroid, plus for every record the list of records whose buffer took it
//! (so an assignment touches only the affected buffers): O(n (k + d)) memory (at most 32 n k
//! buffer entries), plus one entry per buffered record per refill in those lists (the
//! entries of assigned records are freed when they are assigned). Assigned records are
//! dropped from the buffers after each step; a buffer that falls below k - 1 entries is
//! refilled by one distance pass over the remaining records. Because T only shrinks, the
//! surviving prefix of a buffer is exactly the nearest remaining records, so the candidate
//! groups equal those of the full priority queues. The doubling matters for duplicates: all
//! members of a large cluster of equal records buffer the same lowest ids and would
//! otherwise all be refilled after almost every step inside the cluster.
//!
//! ## Published values
//! Khomnotai et al. (2018) Tables 2-4, row GSMS-NN: all 18 cells reproduced to the printed
//! 3 decimals (`tests/construct/decompose_shrink_tables.rs`). The other reading (steps while >= 2k
//! remain, the last k..2k-1 records one group) reproduces 15 of 18 (not Tarragona k = 10,
//! 20, 30); compare with `cargo run --release -p microagg-studies --example khomnotai_readings GSMS-NN`.
//!
//! ## Complexity
//! Initial buffers: n column-major distance passes, O(n^2 d). Per step: O(m d) for the
//! scores of the m remaining candidates, O(m) bookkeeping, O(k d) per touched candidate, and
//! O(m d) per refill; O(n^2 d / k) for the steps plus the refills (a refill follows at
//! least 2k + 1 assignments among a record's buffered neighbours).
//!
//! ## References
//! Panagiotakis & Tziritas (2013), "Successive group selection for microaggregation", IEEE
//! Transactions on Knowledge and Data Engineering 25(5):1191-1195. Khomnotai, Lin, Peng &
//! Santra (2018), Symmetry 10(7):262, sections 3.1 and 5.2.

use crate::data::Instance;
use crate::geometry::pool::Pool;
use crate::init::lineage::growth::join_each_to_nearest_centroid;
use crate::init::GroupsMethod;
use crate::method::MethodInfo;
use crate::params::NoParams;
use crate::partition::sq_dist;

/// The `gsms` initializer.
pub const METHOD: GroupsMethod = GroupsMethod {
    name: "gsms",
    groups: |inst, k| gsms_groups(inst, k, true),
};

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        METHOD.name,
        "GSMS: repeatedly take the NN candidate group minimising SSE(p) + SSE(rest); O(n k) neighbour buffers",
        "Panagiotakis & Tziritas 2013 (IEEE TKDE 25:1191); Khomnotai et al. 2018 (GSMS-NN)",
        |_: NoParams| METHOD,
    )
    .deterministic()
}

/// Per-record buffers of nearest remaining records, candidate centroids, and for each record
/// the records whose buffer may hold it (so an assignment touches only those buffers).
struct Candidates<'a> {
    inst: &'a Instance,
    k: usize,
    /// Buffer size per record: 3k at first, doubled at each refill up to 32k, so that
    /// records in a large cluster of equal distances (duplicates) are not refilled once per
    /// step.
    capacity: Vec<usize>,
    max_capacity: usize,
    /// Reused positions buffer of the refill pass.
    scratch: Vec<usize>,
    alive: Vec<bool>,
    nbrs: Vec<Vec<usize>>,
    held_by: Vec<Vec<usize>>,
    centroid: Vec<f64>,
}

impl Candidates<'_> {
    /// Refill the buffer of `x` with its `capacity` nearest records in `pool` (the remaining
    /// records, x among them): one column-major distance pass.
    fn refill(&mut self, x: usize, pool: &mut Pool) {
        pool.distances_to(self.inst.row(x));
        let (ids, dist) = (pool.ids(), pool.distances());
        let pos = &mut self.scratch;
        pos.clear();
        let by = |a: &usize, b: &usize| dist[*a].total_cmp(&dist[*b]).then(ids[*a].cmp(&ids[*b]));
        let capacity = self.capacity[x];
        if capacity <= 64 {
            // Bounded sorted insertion buffer: most positions are rejected by one comparison.
            for p in (0..ids.len()).filter(|&p| ids[p] != x) {
                if pos.len() == capacity {
                    if by(&p, &pos[capacity - 1]).is_ge() {
                        continue;
                    }
                    pos.pop();
                }
                let at = pos.partition_point(|q| by(q, &p).is_lt());
                pos.insert(at, p);
            }
        } else {
            pos.extend((0..ids.len()).filter(|&p| ids[p] != x));
            if pos.len() > capacity {
                pos.select_nth_unstable_by(capacity - 1, by);
                pos.truncate(capacity);
            }
            pos.sort_by(by);
        }
        self.capacity[x] = (2 * capacity).min(self.max_capacity);
        // An exact-size buffer (collecting from `pos` would reuse its m-sized allocation).
        let mut buf = Vec::with_capacity(pos.len());
        buf.extend(pos.iter().map(|&p| ids[p]));
        self.nbrs[x] = buf;
        for &z in &self.nbrs[x] {
            self.held_by[z].push(x);
        }
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
        capacity: vec![(3 * k).max(k + 1); n],
        max_capacity: 32 * k,
        scratch: Vec::with_capacity(n),
        alive: vec![true; n],
        nbrs: vec![Vec::new(); n],
        held_by: vec![Vec::new(); n],
        centroid: vec![0.0; n * d],
    };
    let mut pool = Pool::new(inst);
    for x in 0..n {
        cands.refill(x, &mut pool);
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
        pool.remove_where(|i| !cands.alive[i]);
        // Drop the assigned records from the buffers that may hold them (ascending, each
        // once); refresh the candidates that changed.
        let mut touched: Vec<usize> = Vec::new();
        for &z in &group {
            touched.extend(std::mem::take(&mut cands.held_by[z]));
        }
        touched.retain(|&y| cands.alive[y]);
        touched.sort_unstable();
        touched.dedup();
        let needed = (k - 1).min(remaining.len().saturating_sub(1));
        for y in touched {
            let Some(first_dead) = cands.nbrs[y].iter().position(|&z| !cands.alive[z]) else {
                continue;
            };
            let alive = &cands.alive;
            cands.nbrs[y].retain(|&z| alive[z]);
            if cands.nbrs[y].len() < needed {
                cands.refill(y, &mut pool);
            } else if first_dead < k - 1 {
                cands.update_centroid(y);
            }
        }
        groups.push(group);
    }
    if remaining.len() >= k || groups.is_empty() {
        groups.push(remaining);
    } else if !remaining.is_empty() {
        join_each_to_nearest_centroid(inst, &mut groups, &remaining);
    }
    groups
}
