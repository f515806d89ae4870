//! # PCL (probability-constrained Lloyd)
//!
//! Rebollo-Monedero, Forne & Soriano (2011) design the microaggregation as a quantizer whose
//! cells all have the same probability: Lloyd's two optimality conditions (records to the
//! nearest reconstruction point, reconstruction points at the centroids of their cells) with
//! the nearest-neighbour condition constrained so that each of the c = floor(n/k) cells
//! receives probability 1/c, i.e. q = floor(n/c) or q + 1 records (q >= k; the n - c q
//! surplus records go to distinct cells; q = k whenever n mod k < c), so every cell has
//! at least k records and the partition is feasible after every iteration.
//!
//! ## Reading chosen
//! The paper adds a per-cell cost term to the nearest-neighbour condition (raising a cell's
//! cost, centroids fixed, lowers the number of records it receives; Mortazavi & Jalili 2013,
//! Section 2, `../shared/papers/mortazavi2013-imhm-iterative-optimization.txt`), which steers
//! the cell probabilities. By linear-programming duality the exact size-constrained
//! assignment to fixed centroids is such a rule (records go to argmin_j ||x - c_j||^2 +
//! lambda_j for the optimal dual prices lambda_j, up to ties), so we compute
//! the constrained assignment directly and approximately, without the price iteration: a
//! greedy size-constrained assignment: the (record, centroid) pairs over each record's
//! `candidates` nearest centroids are taken in increasing order of squared distance (ties: lower
//! record, then lower cell) and a record joins the cell when the cell has room (q records, or
//! q + 1 while surplus slots remain); a record whose candidates are all full joins the nearest
//! cell with room. The assignment is then improved with the centroids fixed (up to
//! `exchange_passes` passes): a record moves to one of its candidate cells when the surplus
//! slot can move with it, or swaps with the member of that cell that lowers the assignment
//! cost most (first improvement over records in index order). Without this exchange
//! (`exchange_passes = 0`) the greedy step alone undoes most of what Lloyd's centroid step
//! gains: on Census k = 5 it stays at MDAV's IL 9.0884, with it PCL reaches 8.1842
//! (`tests/construct/heuristics_5b.rs::pcl_exchange_matters_on_census`). Starting points: the
//! centroids of the MDAV partition (`init = "mdav"`, deterministic) or c distinct records
//! drawn with the run's RNG (`init = "random"`). The
//! iterations stop when the labels repeat or after `max_iter`; the best partition seen
//! (starting partition included when `init = "mdav"`) is returned, since the greedy
//! constrained step does not guarantee a monotone decrease.
//! `tests/construct/heuristics_5b.rs::pcl_cells_have_equal_sizes` pins the size reading.
//!
//! ## Against the published claim
//! Mortazavi & Jalili (2013) report that the PCL paper found IL 15 % to 27 % below MDAV on
//! Gaussian and uniform data (sizes, dimensions and k not given there). Ours, n = 1000, seed
//! 1, k = 3 / 10: uniform d = 2 -9 % / -15 %, uniform d = 5 -5 % / -17 %; one Gaussian
//! cluster d = 2 -3 % / -9 %, d = 5 -3 % / -18 % (`microagg run --data uniform:n=1000,d=5,seed=1
//! --k 10 --method pcl`). The larger gains at k = 10 are of the published order; at k = 3 ours
//! gains less. Not a reproduction: the published setting is unknown here.
//!
//! ## Complexity
//! O(n c d + n L log(n L) + P n L q d) per iteration for L = `candidates`,
//! P = `exchange_passes` and q ~ k records per cell (c ~ n / k cells); O(c) transient memory
//! for the distances of one record at a time, O(n L) for the pairs.
//!
//! ## References
//! Rebollo-Monedero, Forne & Soriano (2011), "An algorithm for k-anonymous microaggregation
//! and clustering inspired by the design of distortion-optimized quantizers", Data &
//! Knowledge Engineering 70(10), pp. 892-921. Lloyd (1982), IEEE Trans. Inf. Theory 28(2).
//! The paper is not in `../shared/papers`: this follows its published description.

use crate::data::Instance;
use crate::error::Result;
use crate::method::{BuildCtx, Initializer, MethodInfo, Problem};
use crate::params::Params;
use crate::partition::{sq_dist, Partition};
use serde::{Deserialize, Serialize};

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct PclParams {
    /// Maximum number of Lloyd iterations.
    pub max_iter: usize,
    /// Nearest centroids per record considered by the greedy constrained assignment.
    pub candidates: usize,
    /// Starting centroids: "mdav" or "random".
    pub init: String,
    /// Passes of pairwise exchange after the greedy constrained assignment.
    pub exchange_passes: usize,
}

impl Default for PclParams {
    fn default() -> Self {
        PclParams {
            max_iter: 30,
            candidates: 8,
            init: "mdav".into(),
            exchange_passes: 10,
        }
    }
}

impl Params for PclParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("max_iter", "maximum number of Lloyd iterations (default 30)"),
        (
            "candidates",
            "nearest centroids per record in the greedy size-constrained assignment (default 8, >= 1)",
        ),
        (
            "init",
            "starting centroids: \"mdav\" (MDAV groups, deterministic, default) or \"random\" (c distinct records from the run's RNG)",
        ),
        (
            "exchange_passes",
            "passes of pairwise exchange (moves and swaps between candidate cells) improving each constrained assignment; 0 = greedy only (default 10)",
        ),
    ];

    fn check(&self) -> Result<(), String> {
        if self.candidates == 0 {
            return Err("candidates must be at least 1".into());
        }
        if self.init != "mdav" && self.init != "random" {
            return Err(format!(
                "init must be \"mdav\" or \"random\", got \"{}\"",
                self.init
            ));
        }
        Ok(())
    }
}

pub(crate) struct Pcl {
    params: PclParams,
}

pub fn method() -> MethodInfo {
    MethodInfo::initializer(
        "pcl",
        "probability-constrained Lloyd: Lloyd iterations with floor(n/k) equal-size cells (greedy size-constrained assignment plus pairwise exchange)",
        "Rebollo-Monedero, Forne & Soriano 2011",
        |params: PclParams| Pcl { params },
    )
    .deterministic_when(
        |p| p["init"] == "mdav",
        "random with init = \"random\" (random starting centroids)",
    )
}

/// Centroids (row-major) of the cells given by `labels` (c cells, all non-empty).
fn centroids(inst: &Instance, labels: &[usize], c: usize) -> Vec<f64> {
    let d = inst.d;
    let mut sum = vec![0.0; c * d];
    let mut cnt = vec![0usize; c];
    for (i, &l) in labels.iter().enumerate() {
        cnt[l] += 1;
        sum[l * d..(l + 1) * d]
            .iter_mut()
            .zip(inst.row(i))
            .for_each(|(s, v)| *s += v);
    }
    for (l, &m) in cnt.iter().enumerate() {
        let inv = 1.0 / m.max(1) as f64;
        sum[l * d..(l + 1) * d].iter_mut().for_each(|s| *s *= inv);
    }
    sum
}

/// The size-constrained assignment to the c centroids: every cell gets q = floor(n/c)
/// records, `n - c q` of them q + 1 (so every cell has at least k when c <= n / k).
pub(crate) fn constrained_assignment(
    inst: &Instance,
    k: usize,
    cents: &[f64],
    candidates: usize,
    exchange_passes: usize,
) -> Vec<usize> {
    let (n, d) = (inst.n, inst.d);
    let c = cents.len() / d;
    let l = candidates.min(c);
    let mut pairs: Vec<(f64, usize, usize)> = Vec::with_capacity(n * l);
    let mut row: Vec<(f64, usize)> = Vec::with_capacity(c);
    for i in 0..n {
        row.clear();
        let x = inst.row(i);
        row.extend((0..c).map(|j| (sq_dist(x, &cents[j * d..(j + 1) * d]), j)));
        let cmp = |a: &(f64, usize), b: &(f64, usize)| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1));
        if l < c {
            row.select_nth_unstable_by(l - 1, cmp);
        }
        row[..l].sort_by(cmp);
        pairs.extend(row[..l].iter().map(|&(dd, j)| (dd, i, j)));
    }
    // Candidate cells of record i: pairs of i, nearest first (before the global sort).
    let cand: Vec<usize> = pairs.iter().map(|p| p.2).collect();
    pairs.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    let q = n / c;
    debug_assert!(q >= k);
    let mut surplus = n - c * q;
    let mut size = vec![0usize; c];
    let mut label = vec![usize::MAX; n];
    let has_room = |s: usize, surplus: usize| s < q || (s == q && surplus > 0);
    let place =
        |label: &mut [usize], size: &mut [usize], surplus: &mut usize, i: usize, j: usize| {
            if size[j] == q {
                *surplus -= 1;
            }
            size[j] += 1;
            label[i] = j;
        };
    for &(_, i, j) in &pairs {
        if label[i] == usize::MAX && has_room(size[j], surplus) {
            place(&mut label, &mut size, &mut surplus, i, j);
        }
    }
    for i in 0..n {
        if label[i] != usize::MAX {
            continue;
        }
        let x = inst.row(i);
        let mut best = (f64::INFINITY, usize::MAX);
        for j in 0..c {
            if has_room(size[j], surplus) {
                let dd = sq_dist(x, &cents[j * d..(j + 1) * d]);
                if dd < best.0 || best.1 == usize::MAX {
                    best = (dd, j);
                }
            }
        }
        // Total room is exactly n, so some cell has room for every unplaced record.
        place(&mut label, &mut size, &mut surplus, i, best.1);
    }
    exchange(
        inst,
        cents,
        &cand,
        l,
        q,
        &mut label,
        &mut size,
        exchange_passes,
    );
    label
}

/// Pairwise improvement of a size-constrained assignment to fixed centroids: for each
/// record i (in index order) and each of its candidate cells b, move i to b when that keeps
/// the sizes (its cell a holds q + 1 and b holds q) and lowers the cost, else swap i with the
/// member j of b that lowers the cost sum_i ||x_i - c_label(i)||^2 most. Up to `passes`
/// passes, stopping at the first pass without change.
#[allow(clippy::too_many_arguments)]
fn exchange(
    inst: &Instance,
    cents: &[f64],
    cand: &[usize],
    l: usize,
    q: usize,
    label: &mut [usize],
    size: &mut [usize],
    passes: usize,
) {
    let (n, d) = (inst.n, inst.d);
    let c = cents.len() / d;
    let cost = |i: usize, j: usize| sq_dist(inst.row(i), &cents[j * d..(j + 1) * d]);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); c];
    for (i, &a) in label.iter().enumerate() {
        members[a].push(i);
    }
    for _ in 0..passes {
        let mut changed = false;
        for i in 0..n {
            for &b in &cand[i * l..(i + 1) * l] {
                let a = label[i];
                if a == b {
                    continue;
                }
                let (cia, cib) = (cost(i, a), cost(i, b));
                if size[a] == q + 1 && size[b] == q {
                    if cib < cia {
                        let p = members[a].iter().position(|&x| x == i).expect("member");
                        members[a].swap_remove(p);
                        members[b].push(i);
                        (size[a], size[b], label[i]) = (q, q + 1, b);
                        changed = true;
                    }
                    continue;
                }
                let mut best = (0.0, usize::MAX);
                for &j in &members[b] {
                    let delta = cib + cost(j, a) - cia - cost(j, b);
                    if delta < best.0 || (delta == best.0 && best.1 != usize::MAX && j < best.1) {
                        best = (delta, j);
                    }
                }
                if best.1 != usize::MAX && best.0 < 0.0 {
                    let j = best.1;
                    let pi = members[a].iter().position(|&x| x == i).expect("member");
                    members[a][pi] = j;
                    let pj = members[b].iter().position(|&x| x == j).expect("member");
                    members[b][pj] = i;
                    label[i] = b;
                    label[j] = a;
                    changed = true;
                }
            }
        }
        if !changed {
            break;
        }
    }
}

impl Initializer for Pcl {
    fn name(&self) -> &str {
        "pcl"
    }

    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition> {
        let (inst, k) = (problem.inst(), problem.k());
        let n = inst.n;
        let c = n / k;
        let (mut cents, mut best) = if self.params.init == "mdav" {
            let groups = crate::init::lineage::split_large::mdav_groups(inst, (0..n).collect(), k);
            if groups.len() != c {
                return Err(crate::error::Error::Algorithm {
                    method: "pcl".into(),
                    message: format!(
                        "MDAV gave {} groups, expected floor(n/k) = {c}",
                        groups.len()
                    ),
                });
            }
            let p = crate::init::finish("pcl", inst, k, &groups)?;
            let labels = p.labels().to_vec();
            (centroids(inst, &labels, groups.len()), Some(p))
        } else {
            let picks = rand::seq::index::sample(ctx.rng, n, c);
            let mut cents = Vec::with_capacity(c * inst.d);
            for i in picks.iter() {
                cents.extend_from_slice(inst.row(i));
            }
            (cents, None)
        };
        let mut last: Vec<usize> = Vec::new();
        for _ in 0..self.params.max_iter.max(1) {
            let labels = constrained_assignment(
                inst,
                k,
                &cents,
                self.params.candidates,
                self.params.exchange_passes,
            );
            if labels == last {
                break;
            }
            let p = Partition::from_labels(inst, labels.clone())?;
            if best.as_ref().is_none_or(|b| p.sse() < b.sse()) {
                best = Some(p);
            }
            cents = centroids(inst, &labels, c);
            last = labels;
        }
        let p = best.expect("at least one iteration");
        let groups: Vec<Vec<usize>> = (0..p.slots()).map(|g| p.members(g).to_vec()).collect();
        crate::init::finish("pcl", inst, k, &groups)
    }
}
