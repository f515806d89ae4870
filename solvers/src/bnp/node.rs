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
use super::{BnpOptions, BnpResult, Incumbent, Node, NodeProof};
use crate::bounds::colgen::count_row::column_threshold;
use crate::bounds::colgen::cuts::{self, Cut, CutDuals, MAX_CUT_RECORDS};
use crate::bounds::colgen::master::Master;
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
        let mut new: Vec<Cut> = Vec::new();
        for (t, _) in found {
            self.triples.insert(t);
            new.push(Cut::triple(t));
        }
        if opts.rank1_cuts && new.len() < room {
            // The 4- and 5-record rank-1 cuts (P21) share the round's room with the triples.
            let found = rank1::separate(
                n,
                members,
                x,
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
                n,
                members,
                x,
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
    /// columns at positive value and their values, and whether artificials are in it.
    Solved {
        support: Vec<(usize, f64)>,
        artificial: bool,
        converged: bool,
    },
}

/// Column generation at one node (module doc): raises `node.bound` by the node's Lagrangian
/// bounds (original scale) and returns how it ended.
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
) -> Result<NodeEnd, ColgenError> {
    let n = geo.n;
    // The node's master: compatible pool columns (the others are fixed to 0 by leaving them
    // out), with big-M artificials so that it is feasible.
    let cols: Vec<usize> = (0..pool.len())
        .filter(|&c| node.cons.allows(&pool[c]))
        .collect();
    let mut in_master: HashSet<Vec<u32>> = cols.iter().map(|&c| pool[c].clone()).collect();
    let mut master_cols: Vec<usize> = cols.clone();
    let scaled_inc = inc.sse / unscale(1.0);
    let mut big_m = 2.0 * scaled_inc.max(1.0) + (2 * geo.k) as f64 * geo.max_dist;
    let zeros = vec![0.0; n];
    let mut delta = vec![big_m; n];
    let mut master = Master::new(
        n,
        cols.iter().map(|&c| pool[c].clone()).collect(),
        cols.iter().map(|&c| costs[c]).collect(),
        Some((&zeros, &delta)),
    )
    .map_err(ColgenError::Lp)?;
    if opts.count_row {
        // The group-count row (proofs/P22), before the cuts (it is row n).
        master.add_count_row(groups_max).map_err(ColgenError::Lp)?;
    }
    // Every cut found so far (at the root or other nodes) is valid here too.
    master
        .add_rank1_cuts(&cut_pool.cuts)
        .map_err(ColgenError::Lp)?;
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
        let y = &sol.duals;
        let cd = CutDuals::new(n, &master.cuts, &sol.cut_duals);
        // A group improves the master when rc < mu (the count dual, 0 without the row, P22).
        let below = column_threshold(sol.count_dual, opts.tol);
        // Heuristic pricing (cut penalties charged), compatible groups only.
        let mut new_cols: Vec<(f64, Vec<u32>)> = Vec::new();
        let mut seen: HashSet<Vec<u32>> = HashSet::new();
        for seed in 0..n {
            if seed % 64 == 63 && stop() {
                return Ok(NodeEnd::Stopped);
            }
            if let Some((rc, g)) = heuristic_cuts(geo, y, &cd, seed) {
                if rc < below
                    && node.cons.allows(&g)
                    && !in_master.contains(&g)
                    && seen.insert(g.clone())
                {
                    new_cols.push((rc, g));
                }
            }
        }
        let mut converged = false;
        if new_cols.is_empty() {
            // Exact pricing over the compatible groups with the cut penalties: a proven bound
            // for the node (P17 with P14).
            let mut price = |stop_after: usize| {
                out.exact_calls += 1;
                ExactSearch::new(&cd).pairs(Some(&node.cons)).run(
                    geo,
                    y,
                    ExactBudget {
                        nodes: opts.exact_nodes,
                        deadline,
                        max_columns: cap,
                        stop_after_columns: stop_after,
                    },
                    &mut Vec::new(),
                )
            };
            let mut ex = price(opts.exact_stop_after.max(1));
            let fresh = |ex: &pricing::ExactPricing| {
                ex.columns
                    .iter()
                    .any(|(rc, g)| *rc < below && !in_master.contains(g))
            };
            if !ex.exact && !fresh(&ex) && !stop() {
                ex = price(usize::MAX);
            }
            // The weak bound ignores the decisions and the (nonnegative) cut penalties: a
            // lower bound over a larger set. With the count row the same formula holds (and
            // dominates the row's own Lagrangian bound, P22 Part B).
            let rho = weak_rc_bound(geo, y).max(ex.rc_lower_bound).min(0.0);
            let lb = unscale(least_rc_lagrangian(geo, y, d, &cd, groups_max, rho));
            if lb > node.bound {
                node.bound = lb;
                node.proof = Some(Rc::new(NodeProof {
                    y: y.clone(),
                    cuts: cd.cuts.clone(),
                    sigma: cd.sigma(),
                }));
            }
            if is_proven(node.bound, inc.upper) {
                return Ok(NodeEnd::Pruned);
            }
            if !shrunk
                && !fresh(&ex)
                && sol.artificial <= 1e-7
                && small_duals::should_shrink(y, &sol.cut_duals, sol.value)
            {
                // Duals that offset each other hide the bound under their rounding margins;
                // the same node with a small box looks for small duals (small_duals.rs).
                shrunk = true;
                big_m = small_duals::half_width(sol.value);
                delta.iter_mut().for_each(|v| *v = big_m);
                master.set_box(&zeros, &delta).map_err(ColgenError::Lp)?;
                continue;
            }
            new_cols.extend(
                ex.columns
                    .into_iter()
                    .filter(|(rc, g)| *rc < below && !in_master.contains(g)),
            );
            if new_cols.is_empty() {
                converged = ex.exact;
            }
        }
        if new_cols.is_empty() {
            if sol.artificial > 1e-7 && converged && raises < 40 {
                // Artificials left in a converged solution: M too small or an empty region;
                // a larger M lets the duals (and the bound) grow.
                big_m *= 16.0;
                delta.iter_mut().for_each(|v| *v = big_m);
                master.set_box(&zeros, &delta).map_err(ColgenError::Lp)?;
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
            let support: Vec<(usize, f64)> = sol
                .primal
                .iter()
                .enumerate()
                .filter(|&(_, &v)| v > 1e-9)
                .map(|(j, &v)| (master_cols[j], v))
                .collect();
            return Ok(NodeEnd::Solved {
                support,
                artificial: sol.artificial > 1e-7,
                converged,
            });
        }
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
            master_cols.push(at);
            in_master.insert(g.clone());
            gs.push(g);
            cs.push(c);
        }
        master.add_columns(gs, cs).map_err(ColgenError::Lp)?;
    }
}
