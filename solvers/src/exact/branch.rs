//! # Certified branch and bound over an explicit column set (Ryan-Foster branching)
//!
//! Proves (or improves) an incumbent partition over a finite list of candidate groups that
//! contains every group of every partition cheaper than the incumbent (the reduced-cost
//! filter of `proofs/P11-exact-small.md`, Theorem 2). Every node bound is a Lagrangian bound
//! `sum_i y_i + floor(n/k) min(0, rho)` evaluated by this module with outward rounding over
//! the node's allowed columns ([`super::certify`]), for whatever duals `y` HiGHS returned: the
//! bound is valid whatever HiGHS' tolerances did, so HiGHS only steers the search and never
//! carries a proof (`proofs/P12-certified-branch-and-bound.md`).
//!
//! - **Node LP**: the set-partitioning LP restricted to the node's allowed columns, solved on
//!   HiGHS by explicit column generation (start from the parent's positive columns, add the
//!   most negative reduced costs found by a scan of all allowed columns), plus one artificial
//!   column per record with a large cost so the LP is always feasible (the artificials only
//!   shape `y`; the bound ranges over the real columns only).
//! - **Pruning**: a node whose certified bound is at least the target
//!   `T = sse (1 - PROOF_REL_GAP / 2)` (sse of the incumbent) holds no partition better than
//!   the incumbent by more than that relative amount.
//! - **Branching** (Ryan and Foster 1981): on the pair of records whose LP "togetherness"
//!   `sum_{G contains both} z_G` is closest to 1/2 (lowest pair on ties): one child allows only
//!   groups that hold both or neither, the other only groups that do not hold both. When the
//!   LP is integral but the node is not yet pruned (bound within HiGHS' tolerances of the
//!   target), the first unfixed pair of the LP solution's groups is branched on instead.
//! - **Order**: best bound first (ties: deeper first, then creation order), with plunging:
//!   after a branching the "together" child is processed at once, so every pick from the
//!   queue starts a dive that finds incumbents early. Deterministic.
//! - **Primal**: integral LP solutions and a greedy rounding of fractional ones (columns by
//!   decreasing value, disjoint ones kept) update the incumbent.
//!
//! Anytime: when stopped (deadline or interrupt) the certified lower bound is the least bound over the
//! open nodes and the target.
//!
//! ## Complexity
//! Exponential in the worst case; each node costs a few LP solves on at most `n + |work|`
//! columns and scans of its allowed columns (O(|columns| k) each).
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//!   Computer Scheduling of Public Transport, North-Holland, 269-280.
//! - Barnhart, C., Johnson, E. L., Nemhauser, G. L., Savelsbergh, M. W. P. and Vance, P. H.
//!   (1998). Branch-and-price: column generation for solving huge integer programs.
//!   Oper. Res. 46(3), 316-329.
//! - Neumaier, A. and Shcherbina, O. (2004). Safe bounds in linear and mixed-integer linear
//!   programming. Math. Program. 99, 283-296 (bounds from approximate duals, rounded
//!   outward).

mod lp;
mod pairs;

use super::certify::{
    lagrangian_lower, partition_sse_lower, partition_sse_upper, rc_lower, PROOF_REL_GAP,
};
use super::masks::{bits, greedy_cover, labels_of_masks};
use super::stop::Stop;
use pairs::PairChoice;
use std::cmp::Ordering;
use std::collections::BinaryHeap;
use std::time::Instant;

/// The candidate groups: masks, costs as given to the LP (the middle of the certified
/// interval) and certified lower bounds on the exact costs.
pub(crate) struct Columns {
    pub masks: Vec<u64>,
    pub cost: Vec<f64>,
    pub cost_lo: Vec<f64>,
}

/// Outcome of [`branch_and_bound`].
pub(crate) struct BranchResult {
    /// The best partition known at the end (the given incumbent or a better one).
    pub labels: Vec<usize>,
    /// Its SSE (two-pass, computed).
    pub sse: f64,
    /// Certified lower bound on the optimum over the columns' partitions.
    pub lower_bound: f64,
    /// Nodes whose LP was solved.
    pub nodes: u64,
    /// Seconds in HiGHS LP solves.
    pub lp_seconds: f64,
    /// Why the search stopped early, if it did.
    pub note: Option<String>,
}

/// A branching decision on a pair of records.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct PairRule {
    /// Bits of the two records.
    pair: u64,
    /// Together (groups hold both or neither) or apart (groups do not hold both).
    together: bool,
}

impl PairRule {
    fn allows(self, mask: u64) -> bool {
        let hit = mask & self.pair;
        if self.together {
            hit == 0 || hit == self.pair
        } else {
            hit != self.pair
        }
    }
}

struct Node {
    lower_bound: f64,
    depth: usize,
    id: u64,
    rules: Vec<PairRule>,
    /// Column indices positive in the parent's LP: the start of this node's working set.
    start: Vec<usize>,
}

impl PartialEq for Node {
    fn eq(&self, o: &Self) -> bool {
        self.cmp(o) == Ordering::Equal
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, o: &Self) -> Option<Ordering> {
        Some(self.cmp(o))
    }
}
impl Ord for Node {
    /// BinaryHeap pops the greatest: least bound first, then deeper, then older.
    fn cmp(&self, o: &Self) -> Ordering {
        o.lower_bound
            .total_cmp(&self.lower_bound)
            .then(self.depth.cmp(&o.depth))
            .then(o.id.cmp(&self.id))
    }
}

/// Columns added per LP round of a node.
const ADD_PER_ROUND: usize = 200;
/// An LP value within this of 0 or 1 counts as integral (HiGHS' primal tolerance is 1e-9).
const INTEGRAL_TOL: f64 = 1e-6;

struct Search<'a> {
    x: &'a [f64],
    n: usize,
    d: usize,
    k: usize,
    cols: &'a Columns,
    labels: Vec<usize>,
    sse: f64,
    target: f64,
    /// HiGHS sees costs times this power of two, chosen so the incumbent is about n (its
    /// tolerances are absolute).
    cost_scale: f64,
    big_m: f64,
    stop: Stop<'a>,
    nodes: u64,
    lp_seconds: f64,
}

/// What a node's LP phase concluded.
enum NodeEnd {
    /// Bound at least the target: nothing better below.
    Pruned,
    /// LP converged without a proof: branch on this pair (with these positive columns).
    Branch {
        pair: u64,
        lower_bound: f64,
        positive: Vec<usize>,
    },
    /// Every pair is fixed and the bound still misses the target by rounding: left open.
    Unresolved { lower_bound: f64 },
    /// Deadline or HiGHS failure (message).
    Stopped { lower_bound: f64, why: String },
}

/// Certified branch and bound over `cols` from the feasible `labels` (every group of every
/// partition with SSE below `sse` must be among the columns). `x` holds the (scaled) records.
#[allow(clippy::too_many_arguments)]
pub(crate) fn branch_and_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    cols: &Columns,
    labels: Vec<usize>,
    sse: f64,
    stop: Stop,
) -> BranchResult {
    let target = target_of(partition_sse_lower(x, d, &labels));
    let mut s = Search {
        x,
        n,
        d,
        k,
        cols,
        labels,
        sse,
        target,
        cost_scale: cost_scale_for(n, sse),
        big_m: 2.0 * sse,
        stop,
        nodes: 0,
        lp_seconds: 0.0,
    };
    let mut open = BinaryHeap::new();
    let incumbent_cols = s.incumbent_columns();
    open.push(Node {
        lower_bound: f64::NEG_INFINITY,
        depth: 0,
        id: 0,
        rules: Vec::new(),
        start: incumbent_cols,
    });
    let mut next_id = 1u64;
    // Least bound of nodes left open for good (all pairs fixed, bound short by rounding).
    let mut unresolved = f64::INFINITY;
    let mut note = None;
    // Plunging: after a branching the "together" child is processed next (a dive that finds
    // incumbents early), the other child waits in the best-bound queue.
    let mut plunge: Option<Node> = None;
    while let Some(node) = plunge.take().or_else(|| open.pop()) {
        if partition_sse_upper(s.x, s.d, &s.labels) == 0.0 {
            // Groups of identical records: nothing is below zero (and no LP with zero costs
            // is needed to say so).
            open.clear();
            break;
        }
        if node.lower_bound >= s.target {
            continue;
        }
        match s.process(&node) {
            NodeEnd::Pruned => {}
            NodeEnd::Unresolved { lower_bound } => unresolved = unresolved.min(lower_bound),
            NodeEnd::Stopped { lower_bound, why } => {
                open.push(Node {
                    lower_bound,
                    ..node
                });
                note = Some(why);
                break;
            }
            NodeEnd::Branch {
                pair,
                lower_bound,
                positive,
            } => {
                for together in [true, false] {
                    let rule = PairRule { pair, together };
                    let mut rules = node.rules.clone();
                    rules.push(rule);
                    let start = positive
                        .iter()
                        .copied()
                        .filter(|&c| rule.allows(cols.masks[c]))
                        .collect();
                    let child = Node {
                        lower_bound,
                        depth: node.depth + 1,
                        id: next_id,
                        rules,
                        start,
                    };
                    next_id += 1;
                    if together {
                        plunge = Some(child);
                    } else {
                        open.push(child);
                    }
                }
            }
        }
    }
    let open_min = open
        .iter()
        .map(|nd| nd.lower_bound)
        .fold(f64::INFINITY, f64::min);
    let lower_bound = s.target.min(open_min).min(unresolved).max(0.0);
    if note.is_none() && unresolved.is_finite() {
        note = Some(
            "a node with every pair fixed kept a bound short of the target by rounding".into(),
        );
    }
    BranchResult {
        labels: s.labels,
        sse: s.sse,
        lower_bound,
        nodes: s.nodes,
        lp_seconds: s.lp_seconds,
        note,
    }
}

/// The power of two that brings an incumbent of SSE `sse` to about `n` on HiGHS' side.
fn cost_scale_for(n: usize, sse: f64) -> f64 {
    crate::sse::pow2_near(n as f64 / sse)
}

/// The pruning target for an incumbent whose exact SSE is at least `sse_lower` (certified): a
/// node whose certified bound reaches it holds no partition better by more than half the
/// proof gap. (The computed two-pass SSE may exceed the exact one by the centroid's rounding,
/// which can reach 1e-7 relative on near-identical records: a target taken from it could lie
/// above the optimum and never be reached.)
fn target_of(sse_lower: f64) -> f64 {
    sse_lower * (1.0 - PROOF_REL_GAP / 2.0)
}

impl Search<'_> {
    /// Indices of the columns that are groups of the incumbent.
    fn incumbent_columns(&self) -> Vec<usize> {
        let mut masks = vec![0u64; self.n];
        for (i, &l) in self.labels.iter().enumerate() {
            masks[l] |= 1u64 << i;
        }
        self.cols
            .masks
            .iter()
            .enumerate()
            .filter(|(_, m)| masks.contains(m))
            .map(|(c, _)| c)
            .collect()
    }

    /// Offer a partition (as column indices) as the new incumbent.
    fn offer(&mut self, chosen: &[usize]) {
        let masks: Vec<u64> = chosen.iter().map(|&c| self.cols.masks[c]).collect();
        if let Ok(labels) = labels_of_masks(&masks, self.n) {
            self.offer_labels(labels);
        }
    }

    fn offer_labels(&mut self, labels: Vec<usize>) {
        let sse = crate::sse::partition_sse(self.x, self.d, &labels);
        if sse < self.sse {
            self.sse = sse;
            self.labels = labels;
            self.target = target_of(partition_sse_lower(self.x, self.d, &self.labels));
            self.cost_scale = cost_scale_for(self.n, sse);
            self.big_m = 2.0 * sse;
        }
    }

    fn process(&mut self, node: &Node) -> NodeEnd {
        let cols = self.cols;
        let allowed: Vec<usize> = (0..cols.masks.len())
            .filter(|&c| node.rules.iter().all(|r| r.allows(cols.masks[c])))
            .collect();
        let mut in_work = vec![false; cols.masks.len()];
        let mut work: Vec<usize> = Vec::new();
        for &c in &node.start {
            if !in_work[c] {
                in_work[c] = true;
                work.push(c);
            }
        }
        let mut lower_bound = node.lower_bound;
        let m_max = self.n / self.k;
        self.nodes += 1;
        loop {
            if self.stop.expired() {
                return NodeEnd::Stopped {
                    lower_bound,
                    why: format!("{} during branch and bound", self.stop.reason()),
                };
            }
            let t = Instant::now();
            let lp = self.solve_lp(&work);
            self.lp_seconds += t.elapsed().as_secs_f64();
            let lp = match lp {
                Ok(lp) => lp,
                Err(e) => {
                    return NodeEnd::Stopped {
                        lower_bound,
                        why: format!("node LP failed ({e}); search stopped"),
                    }
                }
            };
            // Certified bound over every allowed column, and the most negative ones to add.
            let mut rho = 0.0f64;
            let mut negative: Vec<(f64, usize)> = Vec::new();
            for &c in &allowed {
                let mask = cols.masks[c];
                rho = rho.min(rc_lower(cols.cost_lo[c], &lp.duals, bits(mask)));
                if !in_work[c] {
                    let rc = cols.cost[c] - bits(mask).map(|i| lp.duals[i]).sum::<f64>();
                    if rc * self.cost_scale < -1e-9 * (1.0 + cols.cost[c].abs() * self.cost_scale) {
                        negative.push((rc, c));
                    }
                }
            }
            lower_bound = lower_bound.max(lagrangian_lower(&lp.duals, m_max, rho));
            if lower_bound >= self.target {
                return NodeEnd::Pruned;
            }
            if !negative.is_empty() {
                negative.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
                for &(_, c) in negative.iter().take(ADD_PER_ROUND) {
                    in_work[c] = true;
                    work.push(c);
                }
                continue;
            }
            // LP converged over the allowed columns.
            let positive: Vec<(usize, f64)> = work
                .iter()
                .zip(&lp.values)
                .filter(|(_, &v)| v > INTEGRAL_TOL)
                .map(|(&c, &v)| (c, v))
                .collect();
            let artificial = lp.values[work.len()..].iter().any(|&v| v > INTEGRAL_TOL);
            let integral = !artificial && positive.iter().all(|&(_, v)| v >= 1.0 - INTEGRAL_TOL);
            if integral {
                let chosen: Vec<usize> = positive.iter().map(|&(c, _)| c).collect();
                self.offer(&chosen);
            } else {
                self.greedy_rounding(&positive);
            }
            if lower_bound >= self.target {
                return NodeEnd::Pruned;
            }
            let fixed = |pair: u64| node.rules.iter().any(|r| r.pair == pair);
            let choice = PairChoice {
                n: self.n,
                masks: &cols.masks,
                positive: &positive,
                fixed: &fixed,
            };
            return match choice.pair(integral) {
                Some(pair) => NodeEnd::Branch {
                    pair,
                    lower_bound,
                    positive: positive.iter().map(|&(c, _)| c).collect(),
                },
                None => NodeEnd::Unresolved { lower_bound },
            };
        }
    }

    /// Columns by decreasing LP value (ties: lower index), disjoint ones kept; a cover of all
    /// records is offered as incumbent.
    fn greedy_rounding(&mut self, positive: &[(usize, f64)]) {
        let groups: Vec<(u64, f64)> = positive
            .iter()
            .map(|&(c, v)| (self.cols.masks[c], v))
            .collect();
        if let Some(labels) = greedy_cover(&groups, self.n) {
            self.offer_labels(labels);
        }
    }
}
