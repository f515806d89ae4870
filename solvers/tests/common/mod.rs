//! Shared test helpers: a seeded generator, independent reference solvers (compensated O(nk)
//! DP, petgraph shortest path, two-pass segmentation DP, brute force over compositions).
#![allow(dead_code)]

use microagg_solvers::sse::group_sse;
use petgraph::algo::dijkstra;
use petgraph::graph::{DiGraph, NodeIndex};

/// SplitMix64 (Steele, Lea and Flood 2014): tiny, seeded, good enough for test data.
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> Self {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn uniform(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in `0..bound` (`bound > 0`).
    pub fn below(&mut self, bound: usize) -> usize {
        (self.next_u64() % bound as u64) as usize
    }

    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }

    /// A value from one of several shapes: continuous, heavy ties, clusters with outliers.
    pub fn test_value(&mut self, shape: usize) -> f64 {
        match shape % 4 {
            0 => self.uniform(),
            1 => self.below(4) as f64,
            2 => {
                if self.below(8) == 0 {
                    100.0 * self.uniform()
                } else {
                    self.below(3) as f64 + 1e-3 * self.uniform()
                }
            }
            _ => 1e6 + (self.uniform() * 8.0).floor() * 0.25,
        }
    }
}

/// Sum of squares of deviations from the mean, two-pass.
pub fn sst(values: &[f64]) -> f64 {
    let mean = values.iter().sum::<f64>() / values.len().max(1) as f64;
    values.iter().map(|v| (v - mean) * (v - mean)).sum()
}

/// Error-free transformation: `a + b = s + e` exactly.
fn two_sum(a: f64, b: f64) -> (f64, f64) {
    let s = a + b;
    let bb = s - a;
    (s, (a - (s - bb)) + (b - bb))
}

/// Neumaier accumulator.
#[derive(Default, Clone, Copy)]
struct Compensated {
    sum: f64,
    err: f64,
}

impl Compensated {
    fn add(&mut self, v: f64) {
        let (s, e) = two_sum(self.sum, v);
        self.sum = s;
        self.err += e;
    }
    fn value(&self) -> f64 {
        self.sum + self.err
    }
}

/// Independent O(nk) reference for sorted input: for every cut `j`, groups `sorted[j-s..j]`
/// are built backwards with compensated sums of values shifted by `sorted[j-1]` (a member,
/// so `S2 - S1^2/s` loses at most a factor ~2s), and path costs are carried as unevaluated
/// double-double sums. Returns the optimal SSE.
pub fn compensated_reference(sorted: &[f64], k: usize) -> f64 {
    let n = sorted.len();
    assert!(n >= k && k >= 1);
    let inf = (f64::INFINITY, 0.0);
    let mut best: Vec<(f64, f64)> = vec![inf; n + 1];
    best[0] = (0.0, 0.0);
    let max_group = if n < 2 * k { n } else { 2 * k - 1 };
    for j in k..=n {
        let shift = sorted[j - 1];
        let (mut s1, mut s2) = (Compensated::default(), Compensated::default());
        let mut current = inf;
        for s in 1..=max_group.min(j) {
            let y = sorted[j - s] - shift;
            s1.add(y);
            s2.add(y * y);
            let i = j - s;
            if s < k || (i > 0 && i < k) {
                continue;
            }
            let (t1, t2) = (s1.value(), s2.value());
            let w = (t2 - t1 * t1 / s as f64).max(0.0);
            let (hi, lo) = best[i];
            if !hi.is_finite() {
                continue;
            }
            let (sum, err) = two_sum(hi, w);
            let candidate = (sum, lo + err);
            if candidate.0 + candidate.1 < current.0 + current.1 {
                current = candidate;
            }
        }
        best[j] = current;
    }
    best[n].0 + best[n].1
}

/// Reference that builds the DAG of cuts with two-pass edge costs and runs petgraph's
/// Dijkstra. Returns the optimal SSE of the sorted values.
pub fn petgraph_reference(sorted: &[f64], k: usize) -> f64 {
    let n = sorted.len();
    let mut graph: DiGraph<(), f64> = DiGraph::new();
    let nodes: Vec<NodeIndex> = (0..=n).map(|_| graph.add_node(())).collect();
    let max_group = if n < 2 * k { n } else { 2 * k - 1 };
    for i in 0..=n.saturating_sub(k) {
        for j in i + k..=n.min(i + max_group) {
            let members: Vec<usize> = (i..j).collect();
            graph.add_edge(nodes[i], nodes[j], group_sse(sorted, 1, &members));
        }
    }
    let distances = dijkstra(&graph, nodes[0], Some(nodes[n]), |e| *e.weight());
    distances[&nodes[n]]
}

/// Minimum SSE over all segmentations of `order` into consecutive groups of at least `k`
/// records (any size), by enumerating all compositions.
pub fn segmentation_brute_force(x: &[f64], d: usize, order: &[usize], k: usize) -> f64 {
    fn go(x: &[f64], d: usize, order: &[usize], k: usize, start: usize, acc: f64, best: &mut f64) {
        if start == order.len() {
            *best = best.min(acc);
            return;
        }
        for end in start + k..=order.len() {
            go(
                x,
                d,
                order,
                k,
                end,
                acc + group_sse(x, d, &order[start..end]),
                best,
            );
        }
    }
    let mut best = f64::INFINITY;
    go(x, d, order, k, 0, 0.0, &mut best);
    best
}

/// O(m k^2 d) segmentation DP with two-pass edge costs (sizes k..=2k-1, or the single group
/// when m < 2k).
pub fn segmentation_two_pass_reference(x: &[f64], d: usize, order: &[usize], k: usize) -> f64 {
    let m = order.len();
    if m < 2 * k {
        return group_sse(x, d, order);
    }
    let mut best = vec![f64::INFINITY; m + 1];
    best[0] = 0.0;
    for j in k..=m {
        for s in k..=(2 * k - 1).min(j) {
            let i = j - s;
            if best[i].is_finite() {
                best[j] = best[j].min(best[i] + group_sse(x, d, &order[i..j]));
            }
        }
    }
    best[m]
}

/// EIA (n = 4092, d = 11) z-scored per column with the population standard deviation, if
/// the shared instance is found next to the repository.
pub fn load_eia_zscored() -> Option<(Vec<f64>, usize)> {
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../shared/instances/eia.csv");
    let text = std::fs::read_to_string(path).ok()?;
    let mut lines = text.lines();
    let d = lines.next()?.split(',').count();
    let mut x = Vec::new();
    for line in lines.filter(|l| !l.trim().is_empty()) {
        for field in line.split(',') {
            x.push(field.trim().parse::<f64>().ok()?);
        }
    }
    let n = x.len() / d;
    for c in 0..d {
        let mean = (0..n).map(|i| x[i * d + c]).sum::<f64>() / n as f64;
        let var = (0..n).map(|i| (x[i * d + c] - mean).powi(2)).sum::<f64>() / n as f64;
        let sd = if var > 0.0 { var.sqrt() } else { 1.0 };
        for i in 0..n {
            x[i * d + c] = (x[i * d + c] - mean) / sd;
        }
    }
    Some((x, d))
}
