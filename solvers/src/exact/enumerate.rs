//! # Enumeration of groups by reduced cost (exact pricing for n <= 64)
//!
//! Given row duals `y` of the set-partitioning master, the reduced cost of a group `G` is
//! `rc(G) = SSE(G) - sum_{i in G} y_i`. This module finds, over all groups with
//! `k <= |G| <= 2k-1`, either every group with `rc(G) <= threshold` ([`Mode::All`]) or the
//! `cap` groups of least reduced cost ([`Mode::Best`], the threshold then tightens to the
//! worst kept value once `cap` are held). Either way the search is complete: it also returns
//! the exact minimum reduced cost over all groups (when that minimum is below the threshold).
//!
//! Groups are grown in increasing record order (depth-first; each group is visited once, as
//! the path of its sorted members). A node `G` (size `m`, last record `l`) is pruned by the
//! valid lower bound, for every `H` among the records after `l` with
//! `|G| + |H| <= 2k-1` (`proofs/P11-exact-small.md`, Lemma 1):
//!
//! `rc(G + H) >= rc(G) + sum_{j in H} w_j`,  `w_j = (m / (2k-1)) ||x_j - c_G||^2 - y_j`,
//!
//! minimised over the admissible sizes of `H` by taking the `max(0, k-m)` smallest `w_j` plus
//! every further negative one (up to `2k-1-m` in all). SSE is updated incrementally
//! (`SSE(G + j) = SSE(G) + m/(m+1) ||x_j - c_G||^2`); the callers add a relative safety margin
//! to thresholds and recompute the SSE of kept groups by the two-pass formula.
//!
//! ## Complexity
//! Exponential in the worst case (the number of groups of size `<= 2k-1`); each node costs
//! O((n - l) d + (n - l) log(n - l)). With good duals the pruning leaves a small fraction:
//! measured node counts are reported by `solve-exact` (`nodes`).
//!
//! ## References
//! Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//! numerical microaggregation. J. Global Optim. 60(2), 165-182 (set-partitioning master and
//! exact pricing by branch and bound over records).

use super::stop::Stop;
use crate::total_order::TotalF64;
use std::collections::BinaryHeap;

/// A group as a bitmask of records, with its SSE and reduced cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Column {
    pub mask: u64,
    pub rc: f64,
}

/// What to collect.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) enum Mode {
    /// Every group with `rc <= threshold`; give up (incomplete) beyond `limit` groups.
    All { threshold: f64, limit: usize },
    /// The `cap` groups of least reduced cost among those with `rc < threshold`.
    Best { threshold: f64, cap: usize },
}

/// Result of one enumeration.
pub(crate) struct Enumeration {
    /// Collected groups, sorted by reduced cost then mask (deterministic).
    pub columns: Vec<Column>,
    /// The search visited every group not excluded by a valid bound.
    pub complete: bool,
    /// Least reduced cost found (exact minimum over all groups when `complete` and it is
    /// below the initial threshold; `+inf` if nothing was found).
    pub min_rc: f64,
    /// Search nodes visited.
    pub nodes: u64,
}

struct Search<'a> {
    x: &'a [f64],
    n: usize,
    d: usize,
    k: usize,
    y: &'a [f64],
    mode: Mode,
    threshold: f64,
    /// The best groups kept (`Mode::Best`), worst on top: (reduced cost, mask).
    heap: BinaryHeap<(TotalF64, u64)>,
    all: Vec<Column>,
    min_rc: f64,
    nodes: u64,
    stopped: bool,
    stop: Stop<'a>,
    /// Scratch per depth: squared distances of the candidates to the centroid.
    scratch: Vec<Vec<f64>>,
    /// Scratch per depth: sorted bound weights.
    weights: Vec<Vec<f64>>,
}

/// Enumerate groups of sizes `k..=2k-1` of the `n` records of `x` (row-major, `d` columns)
/// by reduced cost under duals `y`. Stops (incomplete) when `stop` expires.
pub(crate) fn enumerate(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    y: &[f64],
    mode: Mode,
    stop: Stop,
) -> Enumeration {
    debug_assert!(n <= 64 && k >= 1 && y.len() == n);
    let threshold = match mode {
        Mode::All { threshold, .. } | Mode::Best { threshold, .. } => threshold,
    };
    let mut s = Search {
        x,
        n,
        d,
        k,
        y,
        mode,
        threshold,
        heap: BinaryHeap::new(),
        all: Vec::new(),
        min_rc: f64::INFINITY,
        nodes: 0,
        stopped: false,
        stop,
        scratch: vec![Vec::with_capacity(n); 2 * k + 1],
        weights: vec![Vec::with_capacity(n); 2 * k + 1],
    };
    let mut sum = vec![0.0f64; d];
    for i in 0..n {
        if s.stopped {
            break;
        }
        sum.copy_from_slice(&x[i * d..(i + 1) * d]);
        s.visit(1u64 << i, i, 1, &mut sum, 0.0, y[i]);
    }
    let mut columns = match mode {
        Mode::All { .. } => s.all,
        Mode::Best { .. } => s
            .heap
            .into_iter()
            .map(|(TotalF64(rc), mask)| Column { mask, rc })
            .collect(),
    };
    columns.sort_by(|a, b| a.rc.total_cmp(&b.rc).then(a.mask.cmp(&b.mask)));
    Enumeration {
        columns,
        complete: !s.stopped,
        min_rc: s.min_rc,
        nodes: s.nodes,
    }
}

impl Search<'_> {
    /// Visit group `mask` (size `m`, last record `last`, coordinate sums `sum`, SSE `sse`,
    /// dual sum `ysum`).
    fn visit(&mut self, mask: u64, last: usize, m: usize, sum: &mut [f64], sse: f64, ysum: f64) {
        self.nodes += 1;
        if self.nodes.is_multiple_of(4096) && self.stop.expired() {
            self.stopped = true;
        }
        if self.stopped {
            return;
        }
        let (n, d, k) = (self.n, self.d, self.k);
        let max_g = 2 * k - 1;
        let rc = sse - ysum;
        if m >= k {
            self.record(mask, rc);
        }
        if m == max_g || last + 1 == n {
            return;
        }
        let need = k.saturating_sub(m);
        let room = max_g - m;
        let avail = n - last - 1;
        if avail < need {
            return;
        }
        // Squared distances of the candidates to the centroid, and the bound weights.
        let inv_m = 1.0 / m as f64;
        let alpha = m as f64 / max_g as f64;
        let mut dists = std::mem::take(&mut self.scratch[m]);
        dists.clear();
        for j in last + 1..n {
            let xj = &self.x[j * d..(j + 1) * d];
            let q: f64 = xj
                .iter()
                .zip(sum.iter())
                .map(|(a, s)| {
                    let t = a - s * inv_m;
                    t * t
                })
                .sum();
            dists.push(q);
        }
        // Lower bound over all completions (Lemma 1 of P11).
        let mut w = std::mem::take(&mut self.weights[m]);
        w.clear();
        w.extend(
            dists
                .iter()
                .enumerate()
                .map(|(t, q)| alpha * q - self.y[last + 1 + t]),
        );
        w.sort_by(f64::total_cmp);
        // Sum of the negative weights among the `room` smallest: a lower bound on the weight
        // of any admissible completion.
        let neg_sum: f64 = w.iter().take(room).filter(|v| **v < 0.0).sum();
        self.weights[m] = w;
        let w = &self.weights[m];
        let mut lb = rc;
        for (r, &wr) in w.iter().take(room).enumerate() {
            if r < need || wr < 0.0 {
                lb += wr;
            } else {
                break;
            }
        }
        if self.beyond(lb) {
            self.scratch[m] = dists;
            return;
        }
        let grow = m as f64 / (m + 1) as f64;
        for (t, &dt) in dists.iter().enumerate().take(avail) {
            let j = last + 1 + t;
            // Children with too few records left after them to reach size k are skipped.
            if n - j - 1 < k.saturating_sub(m + 1) {
                break;
            }
            // Per-child bound (Lemma 1 with H = {j} + H'): rc(G + j + H') >= rc(G) + w_j +
            // (sum of the negative weights among the `room` smallest).
            let wj = alpha * dt - self.y[j];
            if self.beyond(rc + wj + neg_sum) {
                continue;
            }
            let xj = &self.x[j * d..(j + 1) * d];
            for (s, a) in sum.iter_mut().zip(xj) {
                *s += a;
            }
            self.visit(
                mask | (1u64 << j),
                j,
                m + 1,
                sum,
                sse + grow * dt,
                ysum + self.y[j],
            );
            for (s, a) in sum.iter_mut().zip(xj) {
                *s -= a;
            }
            if self.stopped {
                break;
            }
        }
        self.scratch[m] = dists;
    }

    /// A lower bound `lb` on every reduced cost below a node excludes the node: above the
    /// threshold in [`Mode::All`] (which keeps `rc <= threshold`), at or above it in
    /// [`Mode::Best`] (which keeps only `rc < threshold`; pruning ties matters on duplicate
    /// records, where many groups share one reduced cost).
    fn beyond(&self, lb: f64) -> bool {
        match self.mode {
            Mode::All { .. } => lb > self.threshold,
            Mode::Best { .. } => lb >= self.threshold,
        }
    }

    fn record(&mut self, mask: u64, rc: f64) {
        if rc < self.min_rc {
            self.min_rc = rc;
        }
        match self.mode {
            Mode::All { limit, .. } => {
                if rc <= self.threshold {
                    self.all.push(Column { mask, rc });
                    if self.all.len() > limit {
                        self.stopped = true;
                    }
                }
            }
            Mode::Best { cap, .. } => {
                if rc < self.threshold {
                    self.heap.push((TotalF64(rc), mask));
                    if self.heap.len() > cap {
                        self.heap.pop();
                    }
                    if self.heap.len() == cap {
                        // Only strictly better groups can enter from now on.
                        self.threshold = self
                            .heap
                            .peek()
                            .map_or(self.threshold, |&(TotalF64(worst), _)| worst);
                    }
                }
            }
        }
    }
}
