//! # Branch-price-and-cut
//!
//! Exact (anytime) microaggregation over the set-partitioning model of the column generation
//! bound ([`crate::bounds::colgen`]): groups of `k..2k-1` records (P03), subset-row cuts on
//! record triples, Ryan-Foster branching on record pairs, best-bound node order. Proofs:
//! `proofs/P17-branch-and-price.md` (with P14 for the cuts).
//!
//! - **Cuts.** Once the root's master converged, up to `cut_rounds` rounds separate the
//!   violated subset-row cuts `sum_S floor(|S ∩ C| / 2) x_S <= 1` ([`crate::bounds::colgen::cuts::separate`]),
//!   with `rank1_cuts` also rank-1 cuts on four and five records (`rank1.rs`, proofs/P21), with
//!   `big_cut_records` also subset-row cuts `1/q` on fractional blocks of up to that many
//!   records (right side `floor(|C| / q)`, `big_cuts.rs`, P21 Part F), and
//!   resume column generation; every other node separates up to `node_cut_rounds` rounds.
//!   The cuts hold for every partition (P14), so they form one global pool that every later
//!   node's master starts with (at most `max_cuts`). Pricing at a node charges each group
//!   the cut penalties `-sigma_C` together with the node's decisions
//!   (`ExactSearch::pairs` with the cut duals), and the node's bound is
//!   `sum y + sum sigma b + floor(n/k) min(0, rho)` (P14 + P17 + P21, `b` the cuts' right
//!   sides), rounded outward.
//! - **Warm start.** A child's master starts from the whole column pool (the parent's
//!   columns and every column generated anywhere) restricted to the child's decisions, and
//!   all cuts; the child inherits the parent's bound and its proving duals until it proves a
//!   higher one.
//!
//! - **Node.** A set of together / apart pair decisions ([`PairConstraints`]); its region is
//!   the partitions into groups of `k..2k-1` records that satisfy them. Its master ([`Master`])
//!   holds the compatible columns of the global column pool (columns that violate the node's
//!   decisions are left out, i.e. fixed to 0) and `2n` big-M artificial columns (the box
//!   columns of the master centred at 0 with half-width `M`), so it is feasible at every node;
//!   `M` is raised when the artificials stay in a converged solution, and shrunk once when
//!   the duals cancel each other (`small_duals.rs`, P17 "Small duals"). With
//!   `incumbent_box` the root's box is du Merle's instead: around the incumbent's dual
//!   estimates, moved to the duals of every better bound and widened where it binds
//!   (`node.rs` `DualBox`, P17 "A box that follows the duals"); on Tarragona k = 5 and a
//!   uniform d = 10 case it ends the root in two thirds of the time
//!   (`studies/study-bnp-box.txt`).
//! - **Pricing at a node.** Heuristic pricing ([`pricing::heuristic`]) from every record,
//!   keeping only compatible groups; when it finds nothing, the exact pricing restricted to
//!   compatible groups (`ExactSearch::pairs`). Its proven bound `rho` gives the
//!   node's Lagrangian bound `sum y + floor(n/k) min(0, rho)` rounded outward (P09, P10),
//!   valid for every partition of the node's region whatever the duals; the node keeps the
//!   best of it and its parent's bound. "No negative compatible column" ends the node's
//!   column generation.
//! - **Branching.** On the pair `(a, b)` whose together-value `sum_{S ni a,b} x_S` in the
//!   master solution is closest to 1/2 (a fractional set-partitioning solution always has
//!   one); children "together" and "apart". With `strong_branching = m`, the best of the `m`
//!   most fractional pairs by their children's restricted-master values (`branching.rs`);
//!   the choice never enters a proof. A child whose together component exceeds `2k - 1`
//!   records or holds an apart pair has an empty region and is closed at once. With
//!   `count_branching`, a node without a count decision whose master has between `F - 1`
//!   and `F = floor(n/k)` groups splits on the count first: "at most `F - 1` groups" (the
//!   count row with that right side) and "at least `F`" (groups of at most `n - k (F - 1)`
//!   records, so the pricing stops at that size); the node bound's factor is then the
//!   region's most groups, `min(hi, F)` (proofs/P22 Part E).
//! - **Incumbent.** The callers' start partitions, every integral master solution, and the
//!   set-partitioning MIP over the column pool ([`crate::merge::solve_pool`], at the root and
//!   every `heuristic_every` nodes, short time limit), and with `rc_pool_columns` the same MIP
//!   over the groups of least reduced cost at the root's duals (`rc_pool.rs`). Its SSE is
//!   recomputed from the labels.
//! - **Bound and proof.** The global bound is the minimum of the bounds of the open nodes and
//!   of the closed leaves (max with the nn bound), rounded outward. A node is pruned, and the
//!   incumbent is "proven optimal", by the criterion of P12 ([`crate::exact::PROOF_REL_GAP`],
//!   relative 1e-9 against a certified upper bound on the incumbent's exact SSE).
//! - **Scaling.** As in the set-partitioning solver (P11 "Scaling") the data are multiplied by
//!   the power of two `s` nearest to `sqrt(1024 n / SSE(start))`, which is exact, so HiGHS'
//!   absolute tolerances are small against the costs; bounds are divided by `s^2` (exact).
//!   A tree that closes without the proof while its incumbent fell [`RESCALE`] times below
//!   the start is searched again from the incumbent, at the scale it sets.
//! - **Enumeration** (option `enumerate`, proofs/P19). After the root, every group whose
//!   reduced cost at the root's duals is within the gap is listed and the partitions made of
//!   them are searched ([`prove_by_enumeration`]); when both run to completion the optimum
//!   is proven without branching, else branching goes on.
//! - **Anytime.** A callback receives every improvement of the incumbent or of the global
//!   bound, and a "working" report with the node master's LP value after [`WORKING_EVERY`]
//!   seconds without one; on the time limit, the node limit or the interrupt flag the run
//!   returns the incumbent, the global bound and the open nodes.
//!
//! ## Complexity
//! Exponential in the worst case. Per node: one master build over the compatible pool columns
//! (O(pool · 2k)), simplex re-solves, O(n L k^2) heuristic pricing per iteration and the exact
//! pricing of [`pricing`] (budgeted by `exact_nodes` per call and the deadline). Memory: the
//! n x n distance matrix, the column pool and the open nodes' decisions (O(depth) each).
//! Measured figures: `studies/study-colgen.txt` (section "branch-and-price").
//! The node loop and its state (queue, pools, incumbent, leaves) live in `tree.rs`; the
//! node's column generation in `node.rs`.
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//!   Computer Scheduling of Public Transport, North-Holland, 269-280.
//! - Barnhart, C., Johnson, E. L., Nemhauser, G. L., Savelsbergh, M. W. P. and Vance, P. H.
//!   (1998). Branch-and-price: column generation for solving huge integer programs.
//!   Operations Research 46(3), 316-329.
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. J. Global Optim. 60(2), 165-182.

mod big_cuts;
mod branching;
mod enumerate;
mod incumbent;
mod node;
mod options;
mod pool_search;
mod rank1;
mod rc_pool;
mod result;
mod small_duals;
mod tree;

pub use enumerate::{prove_by_enumeration, EnumerationOptions, EnumerationProof};
pub use options::BnpOptions;
pub use pool_search::PoolSearch;
pub use rc_pool::RcPoolReport;
pub use result::{BnpProgress, BnpResult, Leaf, NodeProof, NodeRecord};

use crate::bounds::colgen::pairs::PairConstraints;
use crate::bounds::colgen::pricing::{self, Geometry};
use crate::bounds::colgen::{start_groups_of, ColgenError};
use crate::bounds::nn_bound;
use crate::deadline::Deadline;
use crate::exact::certify::partition_sse_upper;
use crate::merge::canonical;
use crate::sse::partition_sse;
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};
use tree::{ColumnPool, Run, Scale, Tree};

/// A master solution over `n` records, as the cut separators read it: column `j` holds the
/// sorted records `members[j]` at value `x[j]`.
#[derive(Clone, Copy)]
pub(super) struct MasterPoint<'a> {
    pub n: usize,
    pub members: &'a [Vec<u32>],
    pub x: &'a [f64],
}

impl<'a> MasterPoint<'a> {
    pub fn new(n: usize, members: &'a [Vec<u32>], x: &'a [f64]) -> Self {
        MasterPoint { n, members, x }
    }

    /// The left side `sum_j x[j] coefficient(members[j])` of `cut` here, summed from scratch
    /// (the tests' check of the separators' values).
    #[cfg(test)]
    pub fn left_side(&self, cut: &crate::bounds::colgen::cuts::Cut) -> f64 {
        self.members
            .iter()
            .zip(self.x)
            .map(|(g, xv)| xv * cut.coefficient(g))
            .sum()
    }
}

/// An open node: decisions and the bound inherited or proven so far (original scale).
#[derive(Debug, Clone)]
pub(super) struct Node {
    cons: PairConstraints,
    bound: f64,
    /// The duals that prove `bound` (the parent's until the node proves a higher one; None
    /// while only the nn bound holds).
    proof: Option<Rc<NodeProof>>,
    depth: usize,
    id: u64,
}

impl PartialEq for Node {
    fn eq(&self, other: &Self) -> bool {
        self.id == other.id
    }
}
impl Eq for Node {}
impl PartialOrd for Node {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl Ord for Node {
    /// Max-heap order that pops the least bound first (then the oldest node).
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        other
            .bound
            .total_cmp(&self.bound)
            .then(other.id.cmp(&self.id))
    }
}

/// The incumbent and its certified upper bound.
pub(super) struct Incumbent {
    labels: Vec<usize>,
    sse: f64,
    upper: f64,
}

/// Branch-and-price for the `n` records of `x` (row-major, `d` columns) and minimum group
/// size `k`, from the feasible partitions `starts` (labels, every group of at least `k`
/// records; the best is the first incumbent). `interrupt`, once set, stops the search as at
/// the time limit. `on_progress` receives every improvement, and "working" reports in
/// between ([`BnpProgress`]).
///
/// The scaling (module doc) is set by the start. When the tree closes without a proof and
/// the incumbent ended [`RESCALE`] times or more below the start, the scaled optimum was
/// small against HiGHS' absolute tolerances (P17 "Floating point"): the search runs again,
/// in the time left, from the incumbent, at the scale it sets. The result is the second
/// run's (its leaves prove its bound) when its bound is at least the first's, with the
/// counters of both; progress reports stay monotone.
#[allow(clippy::too_many_arguments)]
pub fn branch_and_price(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &BnpOptions,
    interrupt: Option<&AtomicBool>,
    on_progress: &mut dyn FnMut(&BnpProgress),
) -> Result<BnpResult, ColgenError> {
    let t0 = Instant::now();
    let (first, scaled_for) = search(x, n, d, k, starts, opts, interrupt, on_progress)?;
    let left = opts.time_limit - t0.elapsed().as_secs_f64();
    if first.proven_optimal
        || first.stopped.is_some()
        || first.sse * RESCALE > scaled_for
        || left <= 0.0
    {
        return Ok(first);
    }
    let again_opts = BnpOptions {
        time_limit: left,
        ..opts.clone()
    };
    let (offset, mut best) = (t0.elapsed().as_secs_f64(), (first.sse, first.lower_bound));
    let (mut second, _) = search(
        x,
        n,
        d,
        k,
        &[&first.labels],
        &again_opts,
        interrupt,
        &mut |p| {
            let better = match p.what {
                "incumbent" => p.incumbent_sse < best.0,
                "working" => true,
                _ => p.lower_bound > best.1,
            };
            if better {
                best = (best.0.min(p.incumbent_sse), best.1.max(p.lower_bound));
                on_progress(&BnpProgress {
                    seconds: offset + p.seconds,
                    nodes: first.nodes + p.nodes,
                    incumbent_sse: best.0,
                    lower_bound: best.1,
                    ..p.clone()
                });
            }
        },
    )?;
    if second.lower_bound < first.lower_bound {
        return Ok(first);
    }
    second.nodes += first.nodes;
    second.lp_solves += first.lp_solves;
    second.exact_calls += first.exact_calls;
    second.cut_rounds += first.cut_rounds;
    second.seconds = t0.elapsed().as_secs_f64();
    let mut log = first.node_log;
    log.append(&mut second.node_log);
    second.node_log = log;
    Ok(second)
}

/// Seconds without a report after which a node's column generation reports "working"
/// ([`BnpProgress`]), so that a long root (large n, k = 10) shows it is alive.
pub const WORKING_EVERY: f64 = 10.0;

/// Search again at the incumbent's scale when it fell this many times below the start's
/// SSE: the scaled optimum is then below `n` instead of about `1024 n`.
pub const RESCALE: f64 = 1024.0;

/// One search at the scale of the best start; returns the result and that start's SSE.
#[allow(clippy::too_many_arguments)]
fn search(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &BnpOptions,
    interrupt: Option<&AtomicBool>,
    on_progress: &mut dyn FnMut(&BnpProgress),
) -> Result<(BnpResult, f64), ColgenError> {
    let t0 = Instant::now();
    opts.check()?;
    let nn = nn_bound(x, n, d, k)?.lower_bound; // validates x, n, d, k
    if n > pricing::MAX_RECORDS {
        return Err(ColgenError::TooLarge {
            n,
            max: pricing::MAX_RECORDS,
        });
    }
    if starts.is_empty() {
        return Err(ColgenError::BadLabels("no start partition".into()));
    }
    let deadline = Deadline::command(
        t0 + Duration::from_secs_f64(opts.time_limit.min(1e9)),
        interrupt,
    );
    let (columns, inc) = seed(x, n, d, k, starts)?;
    let scaled_for = inc.sse;
    let scale = Scale::for_sse(x, n, d, inc.sse);
    let pool_width = if opts.pool == 0 {
        (3 * k).max(12)
    } else {
        opts.pool
    };
    // Stopped while the distance matrix is built (seconds at n = 8000): the node loop
    // stops before its first node and returns the start with the nn bound.
    let geo = Geometry::new_until(&scale.xs, n, d, k, pool_width, &|| deadline.passed());
    let run = Run {
        x,
        n,
        d,
        k,
        opts,
        interrupt,
        t0,
        deadline,
        nn,
    };
    let mut tree = Tree::new(run, columns, &scale, inc);
    tree.search(geo.as_ref(), &scale, on_progress)?;
    Ok((tree.finish(&scale), scaled_for))
}

/// The column pool seeded with the start partitions' groups of the model (`k..2k-1`
/// records), and the start of least SSE as the incumbent.
fn seed(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
) -> Result<(ColumnPool, Incumbent), ColgenError> {
    let mut columns = ColumnPool::default();
    let mut inc: Option<Incumbent> = None;
    for (s, labels) in starts.iter().enumerate() {
        let gs = start_groups_of(labels, s, starts.len(), n, k)?;
        let labels = canonical(labels);
        let sse = partition_sse(x, d, &labels);
        if inc.as_ref().is_none_or(|i| sse < i.sse) {
            let upper = partition_sse_upper(x, d, &labels);
            inc = Some(Incumbent { labels, sse, upper });
        }
        for g in gs.into_iter().filter(|g| g.len() < 2 * k) {
            columns.insert(g);
        }
    }
    let inc = inc.ok_or_else(|| ColgenError::BadLabels("no start partition".into()))?;
    Ok((columns, inc))
}
