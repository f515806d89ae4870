//! # The search tree of one branch-and-price run
//!
//! [`Tree`] holds what the node loop of [`super::search`] shares between nodes: the open
//! nodes (best-bound queue), the closed leaves and their proofs (the certificate), the
//! global column and cut pools, the incumbent and the result being filled. One node is one
//! [`Tree::step`]: prune it, or process it ([`super::node::process_node`]), then close it
//! or branch on it, run the node heuristic and the root's enumeration, and report; the
//! loop ends when the queue is empty or a step says stop. [`Tree::finish`] turns the
//! queue and the leaves into the result (duals on the original scale).
//!
//! ## Complexity
//! Per step O(log open) queue work, O(depth) decisions copied per child and leaf, besides
//! the node's column generation, the pool MIP and the enumeration.
//!
//! ## References
//! See [`super`] (module doc) and proofs/P17, P18.

use super::branching::{choose_pair, fractional_pairs, strong_pair};
use super::enumerate::enumerate_at_root;
use super::incumbent::{consider, labels_of, round_support};
use super::node::{process_node, CutPool, DualBox, NodeEnd, NodeReport};
use super::rc_pool;
use super::{
    BnpOptions, BnpProgress, BnpResult, Incumbent, Leaf, Node, NodeProof, NodeRecord, WORKING_EVERY,
};
use crate::bounds::colgen::master::Master;
use crate::bounds::colgen::pairs::PairConstraints;
use crate::bounds::colgen::pricing::Geometry;
use crate::bounds::colgen::ColgenError;
use crate::deadline::Deadline;
use crate::exact::certify::is_proven;
use crate::sse::{group_sse, pow2_near};
use std::collections::{BinaryHeap, HashMap};
use std::rc::Rc;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// How far from an integer the master's group count must be for a count branching.
const COUNT_SPLIT_MARGIN: f64 = 1e-6;

/// A closed leaf: decisions, group-count range, bound, proving duals.
type ClosedLeaf = (
    Vec<(u32, u32, bool)>,
    (usize, usize),
    f64,
    Option<Rc<NodeProof>>,
);

/// The groups generated anywhere in the tree, their index and their (scaled) costs.
#[derive(Default)]
pub(super) struct ColumnPool {
    pub groups: Vec<Vec<u32>>,
    pub index: HashMap<Vec<u32>, usize>,
    pub costs: Vec<f64>,
}

impl ColumnPool {
    /// Enter group `g` once (its cost is set by [`ColumnPool::price`]).
    pub fn insert(&mut self, g: Vec<u32>) {
        if !self.index.contains_key(&g) {
            self.index.insert(g.clone(), self.groups.len());
            self.groups.push(g);
        }
    }

    /// The costs of the groups entered so far, at `scale`.
    fn price(&mut self, scale: &Scale) {
        self.costs = self.groups.iter().map(|g| scale.cost(g)).collect();
    }
}

/// The scaled data (P11 "Scaling"): `x` times a power of two `s`, exact; costs are `s^2`
/// times the original ones.
pub(super) struct Scale {
    pub xs: Vec<f64>,
    d: usize,
    s2: f64,
}

impl Scale {
    /// The power of two nearest to `sqrt(1024 n / sse)` (1 when it would overflow `x`).
    pub fn for_sse(x: &[f64], n: usize, d: usize, sse: f64) -> Self {
        let mut s =
            pow2_near((1024.0 * n as f64 / sse).sqrt()).clamp(2f64.powi(-100), 2f64.powi(100));
        let mut xs: Vec<f64> = x.iter().map(|v| v * s).collect();
        if xs.iter().any(|v| !v.is_finite()) {
            s = 1.0;
            xs = x.to_vec();
        }
        Scale { xs, d, s2: s * s }
    }

    /// The SSE of group `g` of the scaled data.
    pub fn cost(&self, g: &[u32]) -> f64 {
        let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
        group_sse(&self.xs, self.d, &m)
    }

    /// A scaled bound or dual on the original scale (exact: a power of two).
    pub fn unscale(&self, b: f64) -> f64 {
        b / self.s2
    }

    /// The square of the scale factor (costs are multiplied by it).
    pub fn s2(&self) -> f64 {
        self.s2
    }
}

/// The fixed inputs of a run: data, options, limits, the nn bound.
pub(super) struct Run<'a> {
    pub x: &'a [f64],
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub opts: &'a BnpOptions,
    pub interrupt: Option<&'a AtomicBool>,
    pub t0: Instant,
    pub deadline: Deadline<'a>,
    pub nn: f64,
}

/// Whether the node loop goes on after a step.
#[derive(PartialEq)]
enum Flow {
    Next,
    Stop,
}

/// What a processed node became.
enum Outcome {
    /// Closed: pruned, integral and converged, or proven by the incumbent.
    Leaf,
    /// Replaced by its children.
    Branched,
    /// Left open; the search stops for this reason.
    Stop(String),
}

/// The search state (module doc).
pub(super) struct Tree<'a> {
    run: Run<'a>,
    heap: BinaryHeap<Node>,
    next_id: u64,
    /// Least bound over the closed leaves (pruned, integral or with an empty region).
    closed_min: f64,
    closed: Vec<ClosedLeaf>,
    cut_pool: CutPool,
    columns: ColumnPool,
    inc: Incumbent,
    out: BnpResult,
    /// Lower bound proven by the enumeration (P19), if it ran.
    enumerated: f64,
    /// Incumbent SSE and bound last reported.
    last_reported: (f64, f64),
    /// When the last report went out (a "working" report follows [`WORKING_EVERY`] s later).
    quiet_since: Instant,
}

impl<'a> Tree<'a> {
    /// The tree of the root alone, with the columns `columns` (costs set at `scale`) and
    /// the incumbent `inc`.
    pub fn new(run: Run<'a>, mut columns: ColumnPool, scale: &Scale, inc: Incumbent) -> Self {
        columns.price(scale);
        let mut heap = BinaryHeap::new();
        heap.push(Node {
            cons: PairConstraints::new(run.n),
            bound: run.nn,
            proof: None,
            depth: 0,
            id: 0,
        });
        Tree {
            heap,
            next_id: 1,
            closed_min: f64::INFINITY,
            closed: Vec::new(),
            cut_pool: CutPool::default(),
            columns,
            last_reported: (inc.sse, f64::NEG_INFINITY),
            quiet_since: Instant::now(),
            inc,
            out: empty_result(run.nn),
            enumerated: f64::NEG_INFINITY,
            run,
        }
    }

    /// Process nodes in best-bound order until none is open or a step stops the search.
    /// `geo` is None when the distance matrix was cut short (the limit held, so the first
    /// step stops).
    pub fn search(
        &mut self,
        geo: Option<&Geometry>,
        scale: &Scale,
        on_progress: &mut dyn FnMut(&BnpProgress),
    ) -> Result<(), ColgenError> {
        while let Some(node) = self.heap.pop() {
            if self.step(node, geo, scale, on_progress)? == Flow::Stop {
                break;
            }
        }
        Ok(())
    }

    /// One node (module doc).
    fn step(
        &mut self,
        mut node: Node,
        geo: Option<&Geometry>,
        scale: &Scale,
        on_progress: &mut dyn FnMut(&BnpProgress),
    ) -> Result<Flow, ColgenError> {
        if is_proven(node.bound, self.inc.upper) {
            // Best-bound order: every open node is at least as high, all are pruned.
            self.close(&node);
            self.log(&node.cons, node.bound);
            return Ok(Flow::Next);
        }
        if let Some(why) = self.limit_reached() {
            self.out.stopped = Some(why);
            self.heap.push(node);
            return Ok(Flow::Stop);
        }
        self.out.nodes += 1;
        self.out.max_depth = self.out.max_depth.max(node.depth);
        let Some(geo) = geo else {
            unreachable!("the geometry is built unless the limit held, which holds on")
        };
        let end = self.process(&mut node, geo, scale, on_progress)?;
        if node.depth == 0 {
            self.out.root_bound = node.bound.max(self.run.nn);
        }
        let root_proof = (node.depth == 0).then(|| node.proof.clone()).flatten();
        match self.resolve(&node, end) {
            Outcome::Stop(why) => {
                self.heap.push(node);
                self.out.stopped = Some(why);
                return Ok(Flow::Stop);
            }
            Outcome::Leaf => self.close(&node),
            Outcome::Branched => {}
        }
        self.log(&node.cons, node.bound);
        self.pool_heuristic();
        if let Some(p) = root_proof
            .as_ref()
            .filter(|_| self.run.opts.rc_pool_columns > 0)
        {
            self.rc_pool(p, geo, scale, node.bound);
        }
        if let Some(p) = root_proof.filter(|_| self.run.opts.enumerate && !self.stop()) {
            if self.enumerate(&p, scale, on_progress) == Flow::Stop {
                return Ok(Flow::Stop);
            }
        }
        self.report_improvements(on_progress);
        Ok(Flow::Next)
    }

    /// The node limit or the time limit / interrupt, as the reason to stop.
    fn limit_reached(&self) -> Option<String> {
        let opts = self.run.opts;
        if opts.max_nodes > 0 && self.out.nodes >= opts.max_nodes {
            Some("node limit reached".into())
        } else if self.stop() {
            Some(self.stop_reason())
        } else {
            None
        }
    }

    /// The time limit passed or the interrupt flag is set.
    fn stop(&self) -> bool {
        self.run.deadline.passed()
    }

    fn stop_reason(&self) -> String {
        if self.run.deadline.interrupted() {
            "interrupted".into()
        } else {
            "time limit reached".into()
        }
    }

    /// The node's column generation with its cut rounds (root: `cut_rounds`, others
    /// `node_cut_rounds`). While the root is the only node, its bound is the global bound:
    /// each rise above the last report is reported as it is found, so a caller sees the
    /// root's progress before its cut rounds end.
    fn process(
        &mut self,
        node: &mut Node,
        geo: &Geometry,
        scale: &Scale,
        on_progress: &mut dyn FnMut(&BnpProgress),
    ) -> Result<NodeEnd, ColgenError> {
        let start_box = self.start_box(node, scale);
        let (opts, n, k) = (self.run.opts, self.run.n, self.run.k);
        let rounds = if node.depth == 0 {
            opts.cut_rounds
        } else {
            opts.node_cut_rounds
        };
        let cap = match opts.max_columns_per_iteration {
            0 => n,
            c => c,
        };
        let deadline = self.run.deadline;
        let cols = &mut self.columns;
        let (t0, nn, nodes, sse) = (self.run.t0, self.run.nn, self.out.nodes, self.inc.sse);
        let (root, open) = (node.depth == 0, self.heap.len());
        let (last, quiet_since) = (&mut self.last_reported.1, &mut self.quiet_since);
        let mut on_report = |r: NodeReport| {
            let (what, lower_bound, master) = match r {
                // The root's raised bound is the global one (nothing else is open).
                NodeReport::Bound(b) if root && b > nn && b > *last => {
                    *last = b;
                    ("bound", b, None)
                }
                NodeReport::Master(v) if quiet_since.elapsed().as_secs_f64() >= WORKING_EVERY => {
                    ("working", last.max(nn), v)
                }
                _ => return,
            };
            *quiet_since = Instant::now();
            on_progress(&BnpProgress {
                what,
                seconds: t0.elapsed().as_secs_f64(),
                nodes,
                open_nodes: open,
                incumbent_sse: sse,
                lower_bound,
                master,
            });
        };
        process_node(
            geo,
            self.run.d,
            node,
            &mut cols.groups,
            &mut cols.index,
            &mut cols.costs,
            &|g| scale.cost(g),
            &self.inc,
            opts,
            cap,
            node.cons.groups_max(k),
            |b| scale.unscale(b),
            &mut self.cut_pool,
            rounds,
            &|| deadline.passed(),
            deadline,
            &mut self.out,
            &mut on_report,
            start_box,
        )
    }

    /// With `incumbent_box`, where the root's dual box starts: around the incumbent's dual
    /// estimates. None (the wide box around 0) at the other nodes, where a box around the
    /// parent's duals was measured slower (`studies/study-bnp-box.txt`).
    fn start_box(&self, node: &Node, scale: &Scale) -> Option<(Vec<f64>, Vec<f64>)> {
        (self.run.opts.incumbent_box && node.depth == 0)
            .then(|| DualBox::of_incumbent(&scale.xs, self.run.d, &self.inc.labels))
    }

    /// Close, branch on or keep the processed `node` by how its column generation ended;
    /// the master solution's partition or rounding may improve the incumbent first.
    fn resolve(&mut self, node: &Node, end: NodeEnd) -> Outcome {
        let (support, artificial, converged, mut master, value) = match end {
            NodeEnd::Pruned => return Outcome::Leaf,
            NodeEnd::Stopped => return Outcome::Stop(self.stop_reason()),
            NodeEnd::Failed(why) => {
                return Outcome::Stop(format!("node at depth {}: {why}", node.depth))
            }
            NodeEnd::Solved {
                support,
                artificial,
                converged,
                master,
                value,
            } => (support, artificial, converged, master, value),
        };
        let integral = !artificial && support.iter().all(|&(_, v)| v > 1.0 - 1e-6);
        self.incumbent_from(&support, integral);
        if is_proven(node.bound, self.inc.upper) || (integral && converged) {
            // Proven by the incumbent, or the node's optimum is this partition (its bound
            // is certified below it).
            return Outcome::Leaf;
        }
        if let Some(f) = self.count_split(node, &support, artificial) {
            self.branch_on_count(node, f);
            return Outcome::Branched;
        }
        match self
            .strong(&support, &node.cons, &mut master, value)
            .or_else(|| choose_pair(&support, &self.columns.groups, &node.cons))
        {
            Some(pair) => {
                self.branch(node, pair);
                Outcome::Branched
            }
            // No pair to branch on (pricing cut short on an integral or artificial
            // solution): the node stays open, the search stops.
            None => Outcome::Stop(format!(
                "node at depth {} could not be resolved (pricing budget)",
                node.depth
            )),
        }
    }

    /// With `strong_branching` at 2 or more, the pair chosen by strong branching among that
    /// many most fractional pairs (branching.rs); None otherwise.
    fn strong(
        &self,
        support: &[(usize, f64)],
        cons: &PairConstraints,
        master: &mut Master,
        value: f64,
    ) -> Option<(u32, u32)> {
        let m = self.run.opts.strong_branching;
        if m < 2 {
            return None;
        }
        let mut candidates = fractional_pairs(support, &self.columns.groups, cons);
        candidates.truncate(m);
        strong_pair(master, &candidates, value, self.run.deadline)
    }

    /// The partition of an integral master solution, or the rounding of a fractional one,
    /// offered to the incumbent.
    fn incumbent_from(&mut self, support: &[(usize, f64)], integral: bool) {
        let (x, n, d) = (self.run.x, self.run.n, self.run.d);
        let labels = if integral {
            labels_of(support, &self.columns.groups, n)
        } else {
            round_support(x, n, d, support, &self.columns.groups)
        };
        if let Some(labels) = labels {
            consider(x, d, labels, &mut self.inc);
        }
    }

    /// With `count_branching`, at a node without a count decision whose master solution
    /// (no artificial) has between `F - 1` and `F = floor(n/k)` groups, fractionally:
    /// `F` (proofs/P22 Part E). None otherwise.
    fn count_split(
        &self,
        node: &Node,
        support: &[(usize, f64)],
        artificial: bool,
    ) -> Option<usize> {
        let (opts, k) = (self.run.opts, self.run.k);
        if !opts.count_branching || artificial || node.cons.has_count() {
            return None;
        }
        let f = node.cons.groups_max(k);
        let groups: f64 = support.iter().map(|&(_, v)| v).sum();
        (f >= 2
            && groups > (f - 1) as f64 + COUNT_SPLIT_MARGIN
            && groups < f as f64 - COUNT_SPLIT_MARGIN)
            .then_some(f)
    }

    /// The children of `node` on the group count: at most `f - 1` groups, and at least `f`
    /// (then no group holds more than `n - k (f - 1)` records).
    fn branch_on_count(&mut self, node: &Node, f: usize) {
        let k = self.run.k;
        for (lo, hi) in [(0, f - 1), (f, usize::MAX)] {
            let mut cons = node.cons.clone();
            cons.set_count(lo, hi, k);
            self.push_child(node, cons);
        }
    }

    /// The children "together" and "apart" of `node` on the pair `(a, b)`.
    fn branch(&mut self, node: &Node, (a, b): (u32, u32)) {
        for together in [true, false] {
            let mut cons = node.cons.clone();
            if together {
                cons.add_together(a, b);
            } else {
                cons.add_apart(a, b);
            }
            self.push_child(node, cons);
        }
    }

    /// A child of `node` with the region `cons`, open with the parent's bound and proof; a
    /// child with an empty region is closed at once with bound +inf.
    fn push_child(&mut self, node: &Node, cons: PairConstraints) {
        if cons.infeasible(self.run.k) {
            self.closed
                .push((cons.decisions().to_vec(), cons.count(), f64::INFINITY, None));
            self.log(&cons, f64::INFINITY);
            return;
        }
        self.heap.push(Node {
            cons,
            bound: node.bound,
            proof: node.proof.clone(),
            depth: node.depth + 1,
            id: self.next_id,
        });
        self.next_id += 1;
    }

    /// Close `node` as a leaf of the certificate.
    fn close(&mut self, node: &Node) {
        self.closed_min = self.closed_min.min(node.bound);
        self.closed.push((
            node.cons.decisions().to_vec(),
            node.cons.count(),
            node.bound,
            node.proof.clone(),
        ));
    }

    /// Record a node's decisions and bound in the node log (option `record_nodes`).
    fn log(&mut self, cons: &PairConstraints, bound: f64) {
        if self.run.opts.record_nodes {
            self.out.node_log.push(NodeRecord {
                decisions: cons.decisions().to_vec(),
                bound,
            });
        }
    }

    /// The global bound: least over the open nodes and the closed leaves, at least nn.
    fn global_bound(&self) -> f64 {
        let open = self.heap.peek().map_or(f64::INFINITY, |nd| nd.bound);
        open.min(self.closed_min).max(self.run.nn)
    }

    /// Node heuristic: the set-partitioning MIP over the column pool, at the root and every
    /// `heuristic_every` nodes, within `mip_seconds` and the time left.
    fn pool_heuristic(&mut self) {
        let (opts, run) = (self.run.opts, &self.run);
        let due = self.out.nodes == 1
            || (opts.heuristic_every > 0 && self.out.nodes.is_multiple_of(opts.heuristic_every));
        if !due
            || opts.mip_seconds <= 0.0
            || self.stop()
            || is_proven(self.global_bound(), self.inc.upper)
        {
            return;
        }
        let left = run
            .deadline
            .instant()
            .saturating_duration_since(Instant::now())
            .as_secs_f64();
        let mip = crate::models::MipRun {
            time_limit: Some(opts.mip_seconds.min(left)),
            interrupt: run.interrupt,
        };
        let (x, n, d, k) = (run.x, run.n, run.d, run.k);
        let groups = &self.columns.groups;
        if let Ok(r) = crate::merge::solve_pool_with(
            x,
            n,
            d,
            k,
            groups,
            &self.inc.labels,
            opts.mip_solver,
            &mip,
        ) {
            if r.improved {
                consider(x, d, r.labels, &mut self.inc);
            }
        }
    }

    /// The pool MIP over the groups of least reduced cost at the root's duals `p` (option
    /// `rc_pool_columns`, [`super::rc_pool`]), `bound` the root's bound; skipped once the
    /// limit passed or the incumbent is proven.
    fn rc_pool(&mut self, p: &NodeProof, geo: &Geometry, scale: &Scale, bound: f64) {
        if self.stop() || is_proven(self.global_bound(), self.inc.upper) {
            return;
        }
        let report = rc_pool::improve(&self.run, geo, p, bound, scale.s2(), &mut self.inc);
        self.out.rc_pool = Some(report);
    }

    /// The proof by enumeration at the root's duals `p` (option `enumerate`); stops the
    /// search when it proves the incumbent optimal.
    fn enumerate(
        &mut self,
        p: &NodeProof,
        scale: &Scale,
        on_progress: &mut dyn FnMut(&BnpProgress),
    ) -> Flow {
        let run = &self.run;
        let (x, d, k, opts) = (run.x, run.d, run.k, run.opts);
        let unscale = |b| scale.unscale(b);
        let at_root = enumerate_at_root(x, d, k, p, unscale, &mut self.inc, opts, run.deadline);
        let Some((bound, proof)) = at_root else {
            return Flow::Next; // stopped by the limit: the next step stops the search
        };
        self.enumerated = bound;
        self.out.enumeration = Some(proof);
        if !is_proven(self.enumerated, self.inc.upper) {
            return Flow::Next;
        }
        self.report("bound", self.enumerated, on_progress);
        Flow::Stop
    }

    /// Report a lower incumbent SSE or a higher global bound than last reported.
    fn report_improvements(&mut self, on_progress: &mut dyn FnMut(&BnpProgress)) {
        let lb = self.global_bound().max(self.enumerated);
        if self.inc.sse < self.last_reported.0 {
            self.report("incumbent", lb, on_progress);
        }
        if lb > self.last_reported.1 {
            self.report("bound", lb, on_progress);
        }
        self.last_reported = (
            self.inc.sse.min(self.last_reported.0),
            lb.max(self.last_reported.1),
        );
    }

    fn report(&mut self, what: &'static str, lb: f64, on_progress: &mut dyn FnMut(&BnpProgress)) {
        self.quiet_since = Instant::now();
        on_progress(&BnpProgress {
            what,
            seconds: self.run.t0.elapsed().as_secs_f64(),
            nodes: self.out.nodes,
            open_nodes: self.heap.len(),
            incumbent_sse: self.inc.sse,
            lower_bound: lb,
            master: None,
        });
    }

    /// The result: bound, incumbent, the open and closed leaves with their duals on the
    /// original scale (divided by `s^2`: exact), the cuts and counters.
    pub fn finish(self, scale: &Scale) -> BnpResult {
        let mut out = self.out;
        out.lower_bound = {
            let open = self.heap.peek().map_or(f64::INFINITY, |nd| nd.bound);
            open.min(self.closed_min)
                .max(self.run.nn)
                .max(self.enumerated)
        };
        out.open_nodes = self.heap.len();
        let unscaled = |p: &Option<Rc<NodeProof>>| {
            p.as_ref().map(|p| NodeProof {
                y: p.y.iter().map(|&v| scale.unscale(v)).collect(),
                cuts: p.cuts.clone(),
                sigma: p.sigma.iter().map(|&v| scale.unscale(v)).collect(),
            })
        };
        out.leaves = self
            .heap
            .iter()
            .map(|nd| Leaf {
                decisions: nd.cons.decisions().to_vec(),
                count: nd.cons.count(),
                bound: nd.bound,
                proof: unscaled(&nd.proof),
                open: true,
            })
            .chain(self.closed.iter().map(|(dec, count, b, p)| Leaf {
                decisions: dec.clone(),
                count: *count,
                bound: *b,
                proof: unscaled(p),
                open: false,
            }))
            .collect();
        out.cuts = self.cut_pool.cuts;
        out.proven_optimal = is_proven(out.lower_bound, self.inc.upper);
        out.columns = self.columns.groups.len();
        out.labels = self.inc.labels;
        out.sse = self.inc.sse;
        out.sse_upper = self.inc.upper;
        out.seconds = self.run.t0.elapsed().as_secs_f64();
        out
    }
}

/// The result before the root: the nn bound, no nodes.
fn empty_result(nn: f64) -> BnpResult {
    BnpResult {
        labels: Vec::new(),
        sse: 0.0,
        sse_upper: 0.0,
        lower_bound: nn,
        nn,
        proven_optimal: false,
        root_lp: f64::NAN,
        root_lp_cuts: f64::NAN,
        root_bound: nn,
        cut_rounds: 0,
        cuts: Vec::new(),
        leaves: Vec::new(),
        nodes: 0,
        open_nodes: 0,
        max_depth: 0,
        columns: 0,
        lp_solves: 0,
        exact_calls: 0,
        stopped: None,
        seconds: 0.0,
        node_log: Vec::new(),
        enumeration: None,
        rc_pool: None,
    }
}
