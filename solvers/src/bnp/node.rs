//! # Column generation at one branch-and-price node
//!
//! See [`super`] (module doc, "Node" and "Pricing at a node") and proofs/P17.
//!
//! ## Complexity
//! Per iteration one master re-solve, O(n L k^2) heuristic pricing and, when it finds
//! nothing, one exact pricing call (budgeted).
//!
//! ## References
//! See [`super`].

use super::big_cuts::{self, BigCutSearch};
use super::rank1::{self, Rank1Search};
use super::small_duals;
use super::{BnpOptions, BnpResult, Incumbent, MasterPoint, Node, NodeProof};
use crate::bounds::colgen::count_row::column_threshold;
use crate::bounds::colgen::cuts::{self, Cut, CutDuals, MAX_CUT_RECORDS};
use crate::bounds::colgen::incumbent_box::{box_of, dual_brackets};
use crate::bounds::colgen::master::Master;
use crate::bounds::colgen::pairs::PairConstraints;
use crate::bounds::colgen::pricing::{
    self, heuristic_cuts, weak_rc_bound, ExactBudget, ExactSearch, Geometry,
};
use crate::bounds::colgen::{least_rc_lagrangian, ColgenError};
use crate::deadline::Deadline;
use crate::exact::certify::is_proven;
use std::collections::{HashMap, HashSet};
use std::rc::Rc;

/// The cuts shared by every node's master (valid for every partition, P14, P21).
#[derive(Debug, Default)]
pub(super) struct CutPool {
    pub cuts: Vec<Cut>,
    triples: HashSet<[u32; 3]>,
    set: HashSet<Cut>,
}

impl CutPool {
    /// Separate at a master solution (columns `members`, values `x`) and keep the new cuts;
    /// returns them.
    fn separate(
        &mut self,
        n: usize,
        members: &[Vec<u32>],
        x: &[f64],
        opts: &BnpOptions,
    ) -> Vec<Cut> {
        let room = opts
            .max_cuts
            .saturating_sub(self.cuts.len())
            .min(opts.cuts_per_round);
        let found = cuts::separate(
            n,
            members,
            x,
            &self.triples,
            room,
            CUTS_PER_RECORD,
            opts.cut_violation,
        );
        let point = MasterPoint::new(n, members, x);
        let mut new: Vec<Cut> = Vec::new();
        for (t, _) in found {
            self.triples.insert(t);
            new.push(Cut::triple(t));
        }
        if opts.rank1_cuts && new.len() < room {
            // The 4- and 5-record rank-1 cuts (P21) share the round's room with the triples.
            let found = rank1::separate(
                &point,
                &self.set,
                &Rank1Search {
                    partners: opts.rank1_partners,
                    max_cuts: room - new.len(),
                    per_record: CUTS_PER_RECORD,
                    min_violation: opts.cut_violation,
                },
            );
            new.extend(found.into_iter().map(|(c, _)| c));
        }
        if opts.big_cut_records > 0 && new.len() < room {
            // Subset-row cuts 1/q on fractional blocks (P21 Part F), after the others.
            let found = big_cuts::separate(
                &point,
                &self.set,
                &BigCutSearch {
                    max_records: opts.big_cut_records.min(MAX_CUT_RECORDS),
                    max_component: BIG_CUT_COMPONENT,
                    max_cuts: room - new.len(),
                    min_violation: opts.cut_violation,
                },
            );
            new.extend(found.into_iter().map(|(c, _)| c));
        }
        for &c in &new {
            self.set.insert(c);
            self.cuts.push(c);
        }
        new
    }
}

/// A record in at most this many new cuts per round (as in the root colgen bound).
const CUTS_PER_RECORD: usize = 3;

/// Fractional blocks with more records than this are not searched for cuts on blocks.
const BIG_CUT_COMPONENT: usize = 128;

/// How a node's column generation ended.
pub(super) enum NodeEnd {
    /// The node's bound reached the incumbent (pruned).
    Pruned,
    /// Time, node budget or interrupt: the node stays open.
    Stopped,
    /// HiGHS could not solve the node's master (after its retries): the node stays open
    /// with the bound it has, and the search ends without a proof beyond it.
    Failed(String),
    /// Column generation ended (converged or pricing cut short) with this master solution:
    /// columns at positive value and their values, and whether artificials are in it; the
    /// master and its value, for strong branching.
    Solved {
        support: Vec<(usize, f64)>,
        artificial: bool,
        converged: bool,
        master: Box<Master>,
        value: f64,
    },
}

/// What a node's column generation tells the tree while it runs (original scale).
pub(super) enum NodeReport {
    /// The node's certified bound rose to this value.
    Bound(f64),
    /// A master solve ended, with this LP value when no artificial column carries part of it.
    Master(Option<f64>),
}

/// Column generation at one node (module doc): raises `node.bound` by the node's Lagrangian
/// bounds (original scale), reporting each raised value and each master solve to
/// `on_report` as they come, and returns how it ended.
#[allow(clippy::too_many_arguments)]
pub(super) fn process_node(
    geo: &Geometry,
    d: usize,
    node: &mut Node,
    pool: &mut Vec<Vec<u32>>,
    pool_index: &mut HashMap<Vec<u32>, usize>,
    costs: &mut Vec<f64>,
    cost_of: &dyn Fn(&[u32]) -> f64,
    inc: &Incumbent,
    opts: &BnpOptions,
    cap: usize,
    groups_max: usize,
    unscale: impl Fn(f64) -> f64,
    cut_pool: &mut CutPool,
    mut cut_rounds: usize,
    stop: &dyn Fn() -> bool,
    deadline: Deadline,
    out: &mut BnpResult,
    on_report: &mut dyn FnMut(NodeReport),
    start_box: Option<(Vec<f64>, Vec<f64>)>,
) -> Result<NodeEnd, ColgenError> {
    let n = geo.n;
    let master_cols: Vec<usize> = (0..pool.len())
        .filter(|&c| node.cons.allows(&pool[c]))
        .collect();
    let mut cols = NodeColumns {
        in_master: master_cols.iter().map(|&c| pool[c].clone()).collect(),
        master_cols,
    };
    let scaled_inc = inc.sse / unscale(1.0);
    let big_m = 2.0 * scaled_inc.max(1.0) + (2 * geo.k) as f64 * geo.max_dist;
    let mut dual_box = match start_box {
        Some((centre, delta)) => DualBox::following(centre, delta, big_m),
        None => DualBox::wide(n, big_m),
    };
    let mut master = node_master(
        n,
        &cols.master_cols,
        pool,
        costs,
        &dual_box,
        opts,
        groups_max,
        node.cons.has_count(),
        cut_pool,
    )?;
    let mut raises = 0;
    let mut shrunk = false;
    loop {
        if stop() {
            return Ok(NodeEnd::Stopped);
        }
        let Some(sol) = master
            .solve_stoppable(deadline.seconds_left(), deadline.flag())
            .map_err(ColgenError::Lp)?
        else {
            return Ok(match master.failure() {
                Some(why) => NodeEnd::Failed(why.to_string()),
                None => NodeEnd::Stopped,
            });
        };
        out.lp_solves += 1;
        on_report(NodeReport::Master(
            (sol.artificial <= 1e-7).then(|| unscale(sol.value)),
        ));
        let y = &sol.duals;
        let cd = CutDuals::new(n, &master.cuts, &sol.cut_duals);
        // A group improves the master when rc < mu (the count dual, 0 without the row, P22).
        let below = column_threshold(sol.count_dual, opts.tol);
        let Some(mut new_cols) = heuristic_columns(geo, y, &cd, below, &node.cons, &cols, stop)
        else {
            return Ok(NodeEnd::Stopped);
        };
        let mut converged = false;
        if new_cols.is_empty() {
            let before = node.bound;
            let (ex, fresh) = exact_at_node(
                geo, d, y, &cd, below, node, &cols, opts, cap, groups_max, &unscale, stop,
                deadline, out,
            );
            if node.bound > before {
                on_report(NodeReport::Bound(node.bound));
                dual_box.serious_step(y, &mut master)?;
            }
            if is_proven(node.bound, inc.upper) {
                return Ok(NodeEnd::Pruned);
            }
            if !shrunk
                && !fresh
                && sol.artificial <= 1e-7
                && small_duals::should_shrink(y, &sol.cut_duals, sol.value)
            {
                // Duals that offset each other hide the bound under their rounding margins;
                // the same node with a small box looks for small duals (small_duals.rs).
                shrunk = true;
                dual_box.around_zero(small_duals::half_width(sol.value), &mut master)?;
                continue;
            }
            new_cols.extend(
                ex.columns
                    .into_iter()
                    .filter(|(rc, g)| *rc < below && !cols.in_master.contains(g)),
            );
            if new_cols.is_empty() {
                converged = ex.exact;
            }
        }
        if new_cols.is_empty() {
            if sol.artificial > 1e-7 && converged && raises < 40 {
                // Artificials left in a converged solution: the box binds (M too small or
                // an empty region); a wider box lets the duals (and the bound) grow.
                dual_box.widen(y, &mut master)?;
                raises += 1;
                continue;
            }
            if converged && sol.artificial <= 1e-7 {
                // The node's master LP (with the cuts so far) is reached.
                if node.depth == 0 {
                    if out.root_lp.is_nan() {
                        out.root_lp = unscale(sol.value);
                    }
                    out.root_lp_cuts = unscale(sol.value);
                }
                if cut_rounds > 0 && !stop() {
                    cut_rounds -= 1;
                    let new = cut_pool.separate(n, &master.columns, &sol.primal, opts);
                    if !new.is_empty() {
                        master.add_rank1_cuts(&new).map_err(ColgenError::Lp)?;
                        out.cut_rounds += 1;
                        continue;
                    }
                }
            }
            return Ok(NodeEnd::Solved {
                support: cols.support(&sol.primal),
                artificial: sol.artificial > 1e-7,
                converged,
                master: Box::new(master),
                value: sol.value,
            });
        }
        let (gs, cs) = cols.take_new(new_cols, cap, cost_of, pool, pool_index, costs);
        master.add_columns(gs, cs).map_err(ColgenError::Lp)?;
    }
}

/// The dual box of a node's master (module doc "Node"): big-M artificials around 0, or a
/// du Merle box that follows the duals of each better bound from a given start (the
/// incumbent's estimates at the root, [`super::BnpOptions::incumbent_box`]). The box only
/// steers the duals: every bound is the Lagrangian bound at the duals found (P17).
pub(super) struct DualBox {
    centre: Vec<f64>,
    delta: Vec<f64>,
    /// The half-width of the box around 0 (grown by 16 when it binds).
    big_m: f64,
    /// Whether the box follows the duals.
    follows: bool,
}

impl DualBox {
    fn wide(n: usize, big_m: f64) -> Self {
        DualBox {
            centre: vec![0.0; n],
            delta: vec![big_m; n],
            big_m,
            follows: false,
        }
    }

    fn following(centre: Vec<f64>, delta: Vec<f64>, big_m: f64) -> Self {
        DualBox {
            centre,
            delta,
            big_m,
            follows: true,
        }
    }

    /// A better bound at the duals `y`: a following box moves its centre there.
    fn serious_step(&mut self, y: &[f64], master: &mut Master) -> Result<(), ColgenError> {
        if !self.follows {
            return Ok(());
        }
        self.centre.copy_from_slice(y);
        master
            .set_box(&self.centre, &self.delta)
            .map_err(ColgenError::Lp)
    }

    /// The box binds at convergence (duals `y`): a following box moves to `y` and quadruples
    /// its half-widths (du Merle); the box around 0 grows M sixteenfold.
    fn widen(&mut self, y: &[f64], master: &mut Master) -> Result<(), ColgenError> {
        if self.follows {
            self.centre.copy_from_slice(y);
            self.delta.iter_mut().for_each(|v| *v *= 4.0);
        } else {
            self.big_m *= 16.0;
            self.delta.iter_mut().for_each(|v| *v = self.big_m);
        }
        master
            .set_box(&self.centre, &self.delta)
            .map_err(ColgenError::Lp)
    }

    /// The box of the incumbent partition `labels` of the (scaled) data `xs`: each record's
    /// dual between its removal saving and its insertion cost ([`dual_brackets`]).
    pub(super) fn of_incumbent(xs: &[f64], d: usize, labels: &[usize]) -> (Vec<f64>, Vec<f64>) {
        let groups = crate::merge::groups_of(labels);
        let (centre, delta, _) = box_of(&dual_brackets(xs, labels.len(), d, &groups));
        (centre, delta)
    }

    /// A box of half-width `m` around 0 from now on ([`small_duals`]).
    fn around_zero(&mut self, m: f64, master: &mut Master) -> Result<(), ColgenError> {
        self.follows = false;
        self.big_m = m;
        self.centre.iter_mut().for_each(|v| *v = 0.0);
        self.delta.iter_mut().for_each(|v| *v = m);
        master
            .set_box(&self.centre, &self.delta)
            .map_err(ColgenError::Lp)
    }
}

/// The columns of a node's master: pool indices in master order, and the groups in it.
struct NodeColumns {
    master_cols: Vec<usize>,
    in_master: HashSet<Vec<u32>>,
}

impl NodeColumns {
    /// The columns at positive value in the master solution `primal`, with their values.
    fn support(&self, primal: &[f64]) -> Vec<(usize, f64)> {
        primal
            .iter()
            .enumerate()
            .filter(|&(_, &v)| v > 1e-9)
            .map(|(j, &v)| (self.master_cols[j], v))
            .collect()
    }

    /// The `cap` most negative of `new_cols` (sorted, deduplicated), entered in the global
    /// pool (found again when already there) and in the master's columns; returns their
    /// groups and costs for the master.
    fn take_new(
        &mut self,
        mut new_cols: Vec<(f64, Vec<u32>)>,
        cap: usize,
        cost_of: &dyn Fn(&[u32]) -> f64,
        pool: &mut Vec<Vec<u32>>,
        pool_index: &mut HashMap<Vec<u32>, usize>,
        costs: &mut Vec<f64>,
    ) -> (Vec<Vec<u32>>, Vec<f64>) {
        new_cols.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        new_cols.dedup_by(|a, b| a.1 == b.1);
        new_cols.truncate(cap);
        let mut gs = Vec::with_capacity(new_cols.len());
        let mut cs = Vec::with_capacity(new_cols.len());
        for (_, g) in new_cols {
            let c = cost_of(&g);
            let at = *pool_index.entry(g.clone()).or_insert_with(|| {
                pool.push(g.clone());
                costs.push(c);
                pool.len() - 1
            });
            self.master_cols.push(at);
            self.in_master.insert(g.clone());
            gs.push(g);
            cs.push(c);
        }
        (gs, cs)
    }
}

/// A node's master: the compatible pool columns `cols` (the others are fixed to 0 by leaving
/// them out), the artificials of `dual_box` so that it is feasible, the group-count row
/// `sum x <= groups_max` with `count_row` or a count decision (proofs/P22, row n, before the
/// cuts) and every cut found so far (valid at every node).
#[allow(clippy::too_many_arguments)]
fn node_master(
    n: usize,
    cols: &[usize],
    pool: &[Vec<u32>],
    costs: &[f64],
    dual_box: &DualBox,
    opts: &BnpOptions,
    groups_max: usize,
    count_decided: bool,
    cut_pool: &CutPool,
) -> Result<Master, ColgenError> {
    let mut master = Master::new(
        n,
        cols.iter().map(|&c| pool[c].clone()).collect(),
        cols.iter().map(|&c| costs[c]).collect(),
        Some((&dual_box.centre, &dual_box.delta)),
    )
    .map_err(ColgenError::Lp)?;
    if opts.count_row || count_decided {
        master.add_count_row(groups_max).map_err(ColgenError::Lp)?;
    }
    master
        .add_rank1_cuts(&cut_pool.cuts)
        .map_err(ColgenError::Lp)?;
    Ok(master)
}

/// Heuristic pricing from every record (cut penalties charged): the compatible groups not in
/// the master with reduced cost below `below`, each once; None once `stop` says so.
fn heuristic_columns(
    geo: &Geometry,
    y: &[f64],
    cd: &CutDuals,
    below: f64,
    cons: &PairConstraints,
    cols: &NodeColumns,
    stop: &dyn Fn() -> bool,
) -> Option<Vec<(f64, Vec<u32>)>> {
    let mut new_cols: Vec<(f64, Vec<u32>)> = Vec::new();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for seed in 0..geo.n {
        if seed % 64 == 63 && stop() {
            return None;
        }
        if let Some((rc, g)) = heuristic_cuts(geo, y, cd, seed) {
            if rc < below
                && cons.allows(&g)
                && !cols.in_master.contains(&g)
                && seen.insert(g.clone())
            {
                new_cols.push((rc, g));
            }
        }
    }
    Some(new_cols)
}

/// Exact pricing over the node's compatible groups with the cut penalties (P17 with P14),
/// stopped after `exact_stop_after` columns and run again in full when those were all in the
/// master; raises `node.bound` (original scale) to the proven Lagrangian bound. Returns the
/// search and whether it found a group below `below` that is not in the master.
#[allow(clippy::too_many_arguments)]
fn exact_at_node(
    geo: &Geometry,
    d: usize,
    y: &[f64],
    cd: &CutDuals,
    below: f64,
    node: &mut Node,
    cols: &NodeColumns,
    opts: &BnpOptions,
    cap: usize,
    groups_max: usize,
    unscale: &dyn Fn(f64) -> f64,
    stop: &dyn Fn() -> bool,
    deadline: Deadline,
    out: &mut BnpResult,
) -> (pricing::ExactPricing, bool) {
    let mut price = |stop_after: usize| {
        out.exact_calls += 1;
        let budget = ExactBudget {
            nodes: opts.exact_nodes,
            deadline,
            max_columns: cap,
            stop_after_columns: stop_after,
        };
        ExactSearch::new(cd)
            .pairs(Some(&node.cons))
            .run(geo, y, budget, &mut Vec::new())
    };
    let mut ex = price(opts.exact_stop_after.max(1));
    let fresh = |ex: &pricing::ExactPricing| {
        ex.columns
            .iter()
            .any(|(rc, g)| *rc < below && !cols.in_master.contains(g))
    };
    if !ex.exact && !fresh(&ex) && !stop() {
        ex = price(usize::MAX);
    }
    // The weak bound ignores the decisions and the (nonnegative) cut penalties: a lower
    // bound over a larger set. With the count row the same formula holds (and dominates the
    // row's own Lagrangian bound, P22 Part B).
    let rho = weak_rc_bound(geo, y).max(ex.rc_lower_bound).min(0.0);
    let lb = unscale(least_rc_lagrangian(geo, y, d, cd, groups_max, rho));
    if lb > node.bound {
        node.bound = lb;
        node.proof = Some(Rc::new(NodeProof {
            y: y.to_vec(),
            cuts: cd.cuts.clone(),
            sigma: cd.sigma(),
        }));
    }
    let found = fresh(&ex);
    (ex, found)
}
