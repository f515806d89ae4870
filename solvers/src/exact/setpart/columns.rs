//! # Phase 1 of the set-partitioning method: column generation and the heuristic MIP
//!
//! [`generate_columns`]: steps 1 and 2 of [`super`]. The starting columns (each record with
//! its k - 1 nearest neighbours, and the groups of the starting partition), column
//! generation with exact pricing (every complete pricing pass gives a certified Lagrangian
//! bound), then a time-capped MIP over the generated columns for a better partition.
//!
//! ## Complexity
//! The starting columns O(n^2 (d + log n)); each round one LP solve and one pruned pricing
//! enumeration (exponential worst case); the MIP one HiGHS solve.
//!
//! ## References
//! See [`super`].

use super::super::certify::{lagrangian_lower, partition_sse_upper};
use super::super::enumerate::{enumerate, Column, Mode};
use super::super::masks::greedy_cover;
use super::super::stop::Stop;
use super::master::{chosen, solve_master_lp, solve_master_mip, MasterSolution};
use super::prove::enumeration_margin;
use super::{mask_sse, masks_of_labels, Progress, SetPartOptions, MIP_SHARE};
use crate::sse::others_by_distance;
use std::collections::HashSet;
use std::time::Instant;

/// The generated columns (groups as masks) with their SSE, each mask once.
struct ColumnPool {
    masks: Vec<u64>,
    costs: Vec<f64>,
    seen: HashSet<u64>,
}

impl ColumnPool {
    /// Each record with its k-1 nearest neighbours (sizes k), and the groups of the starting
    /// partition `start`.
    fn starting(x: &[f64], n: usize, d: usize, k: usize, start: &[usize]) -> Self {
        let mut pool = ColumnPool {
            masks: Vec::new(),
            costs: Vec::new(),
            seen: HashSet::new(),
        };
        for i in 0..n {
            let near = others_by_distance(x, n, d, i);
            let m = near[..k - 1]
                .iter()
                .fold(1u64 << i, |m, &(_, j)| m | (1u64 << j));
            pool.add(x, d, m);
        }
        for m in masks_of_labels(start, k) {
            pool.add(x, d, m);
        }
        pool
    }

    /// Adds `mask` unless it is already there; says whether it was added.
    fn add(&mut self, x: &[f64], d: usize, mask: u64) -> bool {
        let new = self.seen.insert(mask);
        if new {
            self.masks.push(mask);
            self.costs.push(mask_sse(x, d, mask));
        }
        new
    }
}

/// Phase 1 of [`super::solve_setpart`] on data already scaled, from the feasible partition
/// `start`: column generation (certified Lagrangian bounds) and the heuristic MIP. Returns
/// the progress and, after a complete pricing pass, the last duals with their certified least
/// reduced cost. Never fails: a HiGHS failure, the deadline or an interrupt end it with a note.
pub(super) fn generate_columns(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    start: Vec<usize>,
    stop: Stop,
    opts: &SetPartOptions,
) -> (Progress, Option<(Vec<f64>, f64)>) {
    let mut pool = ColumnPool::starting(x, n, d, k, &start);
    let mut p = Progress::start(x, d, start);
    let (last, cost_scale) = column_generation(x, n, d, k, &mut pool, &mut p, stop, opts);
    p.columns = pool.masks.len();
    if last.is_none() {
        return (p, None);
    }
    if !stop.expired() {
        heuristic_mip(x, n, d, &pool, &mut p, stop, cost_scale, opts);
    }
    (p, last)
}

/// Step 1: column generation with exact pricing; every complete pricing pass gives a
/// certified Lagrangian bound. Returns the last (duals, certified least reduced cost), if a
/// pricing pass completed, and the cost scale the LP ended with.
#[allow(clippy::too_many_arguments)]
fn column_generation(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    pool: &mut ColumnPool,
    p: &mut Progress,
    stop: Stop,
    opts: &SetPartOptions,
) -> (Option<(Vec<f64>, f64)>, f64) {
    let mut last: Option<(Vec<f64>, f64)> = None;
    let mut cost_scale = 1.0;
    loop {
        if stop.expired() {
            p.note = Some(format!("{} during column generation", stop.reason()));
            break;
        }
        p.cg_iterations += 1;
        let Some(lp) = master_lp(n, pool, p, stop, cost_scale) else {
            break;
        };
        if round_lp(x, n, d, pool, &lp, p) {
            break;
        }
        let y = lp.duals;
        // Keep the LP objective about n on HiGHS' side: if it drifted by more than 16x (the
        // starting partition was far from optimal), rescale and solve again before trusting
        // "no negative column" (the duals of a badly scaled LP are only accurate to 1e-9 in
        // absolute terms).
        let wanted = crate::sse::pow2_near(n as f64 / lp.objective);
        let rescale = lp.objective > 0.0 && (wanted / cost_scale).log2().abs() >= 4.0;
        if rescale {
            cost_scale = wanted;
        }
        let tol = opts.pricing_tol * (1.0 + lp.objective.abs() * cost_scale) / cost_scale;
        let t = Instant::now();
        let e = enumerate(
            x,
            n,
            d,
            k,
            &y,
            Mode::Best {
                threshold: -tol,
                cap: opts.pricing_cap,
            },
            stop,
        );
        p.seconds[0] += t.elapsed().as_secs_f64();
        p.nodes += e.nodes;
        if !e.complete {
            p.note = Some(format!("{} during pricing", stop.reason()));
            break;
        }
        // Nothing below -tol was found, so the least reduced cost is at least -tol.
        let rho = (e.min_rc.min(-tol) - enumeration_margin(x, n, d, k, &y)).min(0.0);
        let lagrangian = lagrangian_lower(&y, n / k, rho);
        p.lower_bound = p.lower_bound.max(lagrangian);
        p.lp_bound = Some(p.lp_bound.map_or(lagrangian, |b: f64| b.max(lagrangian)));
        last = Some((y, rho));
        let mut added = 0;
        for Column { mask, .. } in e.columns {
            if pool.add(x, d, mask) {
                added += 1;
            }
        }
        if added == 0 && !rescale {
            break;
        }
    }
    (last, cost_scale)
}

/// The master LP over the pool, solved to optimality with a dual per record; None (with a
/// note in `p`) when HiGHS fails or stops short.
fn master_lp(
    n: usize,
    pool: &ColumnPool,
    p: &mut Progress,
    stop: Stop,
    cost_scale: f64,
) -> Option<MasterSolution> {
    let t = Instant::now();
    let lp = solve_master_lp(n, &pool.masks, &pool.costs, stop.time_left(), cost_scale);
    p.seconds[1] += t.elapsed().as_secs_f64();
    match lp {
        Ok(lp) if lp.optimal && lp.duals.len() == n => Some(lp),
        Ok(lp) => {
            p.note = Some(format!(
                "column generation stopped: master LP not solved to optimality ({} duals)",
                lp.duals.len()
            ));
            None
        }
        Err(e) => {
            p.note = Some(format!("column generation stopped: {e}"));
            None
        }
    }
}

/// Offers a disjoint rounding of the LP solution as a partition; true when the best
/// partition has SSE 0 (nothing beats it, and pricing many zero-cost groups, duplicates,
/// is skipped).
fn round_lp(
    x: &[f64],
    n: usize,
    d: usize,
    pool: &ColumnPool,
    lp: &MasterSolution,
    p: &mut Progress,
) -> bool {
    let groups: Vec<(u64, f64)> = pool
        .masks
        .iter()
        .copied()
        .zip(lp.values.iter().copied())
        .collect();
    if let Some(labels) = greedy_cover(&groups, n) {
        p.offer(x, d, labels);
    }
    partition_sse_upper(x, d, &p.labels) == 0.0
}

/// Step 2, an upper bound: the MIP over the generated columns (a heuristic here: its answer
/// is used only as a partition, checked and re-evaluated; a failure is ignored).
#[allow(clippy::too_many_arguments)]
fn heuristic_mip(
    x: &[f64],
    n: usize,
    d: usize,
    pool: &ColumnPool,
    p: &mut Progress,
    stop: Stop,
    cost_scale: f64,
    opts: &SetPartOptions,
) {
    let t = Instant::now();
    // Half the time left: HiGHS checks its MIP time limit only between its phases
    // (presolve, root cuts, nodes) and was seen to overrun it by 0.5 s on n = 40.
    let limit = stop.time_left().map_or(opts.heuristic_mip_seconds, |l| {
        (MIP_SHARE * l).min(opts.heuristic_mip_seconds)
    });
    let (masks, costs) = (&pool.masks, &pool.costs);
    let mip = solve_master_mip(n, masks, costs, Some(limit), cost_scale, opts.mip_solver);
    if let Ok(mip) = mip {
        p.mip_nodes = mip.mip_nodes;
        if let Ok(labels) = chosen(masks, &mip.values, n) {
            p.offer(x, d, labels);
        }
    }
    p.seconds[2] += t.elapsed().as_secs_f64();
}
