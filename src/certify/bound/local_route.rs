//! # The large-data route of `auto`: block duals, priced over the whole data
//!
//! Column generation needs the full distance matrix and refuses more than
//! `pricing::MAX_RECORDS` records. This route gets a certified bound above nn at any size:
//!
//! 1. duals: the records are cut into spatial blocks of a few hundred records
//!    ([`LocalRouteOptions::dual_block`]) and column generation runs on each block as its own
//!    instance (a share of the time each); a block without a Lagrangian point keeps the nn
//!    duals `NN_{k-1}(i) / (2k)` (proofs/P09 Part C);
//! 2. bound: at points on the segment from the nn duals toward the block duals (`STEPS`),
//!    the anchored Lagrangian bound over the whole data, priced by exact searches on local
//!    sets ([`microagg_solvers::bounds::local_lagrangian`], proofs/P23). The bound is valid
//!    for any duals; the blocks only point the way. The largest value, and never less than
//!    nn, is the result.
//!
//! ## Complexity
//! Neighbour lists O(n log n k d) (kd-tree); per dual block the column generation on its
//! records (O(b^2) memory); the pricing of [`microagg_solvers::bounds::local_lagrangian`].
//!
//! ## References
//! Aloise et al. (2014) for the column generation; proofs/P20, P23 for the anchored bound.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::geometry::neighbours::Neighbours;
use microagg_solvers::bounds::colgen::colgen_bound_stoppable;
use microagg_solvers::bounds::colgen::observer::Quiet;
use microagg_solvers::bounds::local_lagrangian::{
    local_lagrangian, spatial_blocks, LocalBound, LocalOptions,
};
use microagg_solvers::bounds::ColgenOptions;
use microagg_solvers::sse::sq_dist;
use serde_json::{json, Value};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The points priced on the segment from the nn duals to the block duals, in order: the
/// block duals overshoot where blocks meet (groups across a boundary price negative), so the
/// bound is concave along the segment with its maximum usually at a small step.
const STEPS: [f64; 5] = [0.5, 0.25, 0.12, 0.06, 0.03];

/// Time share of the line search from the nn duals in each block's column generation.
const NN_ASCENT: f64 = 0.2;

/// Shape and budget of the route.
#[derive(Debug, Clone, Copy)]
pub struct LocalRouteOptions {
    /// Most records of a block whose duals column generation computes.
    pub dual_block: usize,
    /// Share of the time for the block duals (the rest prices them).
    pub dual_share: f64,
    /// The pricing's per-anchor threshold as a fraction of the mean group cost `k sum y / n`
    /// (each anchor is charged at most that much for the groups it does not search).
    pub threshold_fraction: f64,
    /// Blocks and local sets of the pricing.
    pub local: LocalOptions,
}

impl Default for LocalRouteOptions {
    fn default() -> Self {
        LocalRouteOptions {
            dual_block: 400,
            dual_share: 0.3,
            threshold_fraction: 1e-3,
            local: LocalOptions::default(),
        }
    }
}

/// The route's certified bound (never below `nn`) and its figures.
pub struct LocalRouteOutcome {
    pub lower_bound: f64,
    /// True when a local Lagrangian value beat `nn`.
    pub above_nn: bool,
    pub details: Value,
}

/// Run the route (module doc) within `seconds`.
pub fn compute(
    inst: &Instance,
    k: usize,
    nn: f64,
    seconds: f64,
    opts: &LocalRouteOptions,
    interrupt: &AtomicBool,
) -> Result<LocalRouteOutcome> {
    let started = Instant::now();
    let end = started + Duration::from_secs_f64(seconds.max(0.0));
    let sums = nn_sums(inst, k);
    let w = 2 * k - 1;
    let y_nn: Vec<f64> = (0..inst.n)
        .map(|i| sums[i * w + k - 1] / (2 * k) as f64)
        .collect();
    let dual_end = started + Duration::from_secs_f64(seconds.max(0.0) * opts.dual_share);
    let (y_blocks, solved) = block_duals(inst, k, &y_nn, opts.dual_block, dual_end, interrupt);
    let dual_seconds = started.elapsed().as_secs_f64();
    let mut tried = Vec::new();
    for (step, theta) in STEPS.iter().enumerate() {
        let now = Instant::now();
        if now >= end || interrupt.load(std::sync::atomic::Ordering::SeqCst) {
            break;
        }
        let y: Vec<f64> = y_nn
            .iter()
            .zip(&y_blocks)
            .map(|(a, b)| a + theta * (b - a))
            .collect();
        let share = 1.0 / (STEPS.len() - step) as f64;
        let until = now + end.duration_since(now).mul_f64(share);
        let b = price(inst, k, &y, &sums, opts, until, interrupt)?;
        let previous = tried.last().map(|t: &(f64, LocalBound)| t.1.lower_bound);
        let fell = previous.is_some_and(|p| p > nn && b.lower_bound < p);
        tried.push((*theta, b));
        if fell {
            break; // concave along the segment: past its maximum, smaller steps lose more
        }
    }
    let best = tried
        .iter()
        .max_by(|a, b| a.1.lower_bound.total_cmp(&b.1.lower_bound));
    let value = best.map_or(f64::NEG_INFINITY, |b| b.1.lower_bound);
    let details = json!({
        "nn": nn,
        "dual_blocks": spatial_count(inst, opts.dual_block),
        "dual_blocks_solved": solved,
        "dual_seconds": dual_seconds,
        "best_step": best.map(|b| b.0),
        "evaluations": tried.iter().map(|(theta, b)| json!({
            "step": theta,
            "lower_bound": b.lower_bound,
            "dual_sum": b.dual_sum,
            "charge": b.charge,
            "blocks": b.blocks,
            "searched": b.searched,
            "largest_local": b.largest_local,
            "negative_anchors": b.negative_anchors,
            "exact": b.exact,
        })).collect::<Vec<_>>(),
    });
    Ok(LocalRouteOutcome {
        lower_bound: value.max(nn),
        above_nn: value > nn,
        details,
    })
}

/// The anchored local bound of duals `y` until `until` (proofs/P23).
fn price(
    inst: &Instance,
    k: usize,
    y: &[f64],
    sums: &[f64],
    opts: &LocalRouteOptions,
    until: Instant,
    interrupt: &AtomicBool,
) -> Result<LocalBound> {
    let mean_group = k as f64 * y.iter().sum::<f64>() / inst.n as f64;
    let local = LocalOptions {
        threshold: -(opts.threshold_fraction * mean_group).max(0.0),
        ..opts.local
    };
    local_lagrangian(
        &inst.z,
        inst.n,
        inst.d,
        k,
        y,
        sums,
        &local,
        until,
        Some(interrupt),
    )
    .map_err(|e| Error::algorithm("bound auto (local pricing)", e))
}

/// Each record's sums of its `r` smallest squared distances, `r = 0..=2k-2`, row-major of
/// width `2k - 1`, from the exact kd-tree neighbour lists (the same lists as the scan, ties
/// included: proofs/P06); infinite where fewer than `r` others exist. The nn duals are
/// `NN_{k-1}(i) / (2k)` (their Lagrangian bound is the nn bound, P09 Part C).
pub(crate) fn nn_sums(inst: &Instance, k: usize) -> Vec<f64> {
    let (d, w) = (inst.d, 2 * k - 1);
    let row = |i: usize| &inst.z[i * d..(i + 1) * d];
    let lists = Neighbours::build(inst, 2 * k - 2);
    let mut out = vec![0.0; inst.n * w];
    for i in 0..inst.n {
        let list = lists.of(i);
        let mut acc = 0.0;
        for r in 1..w {
            acc = match list.get(r - 1) {
                Some(&j) => acc + sq_dist(row(i), row(j as usize)),
                None => f64::INFINITY,
            };
            out[i * w + r] = acc;
        }
    }
    out
}

fn spatial_count(inst: &Instance, size: usize) -> usize {
    spatial_blocks(&inst.z, inst.n, inst.d, size).len()
}

/// Column generation duals per spatial block of at most `size` records (module doc); the
/// nn duals where a block has none. Returns the duals and the number of blocks solved.
fn block_duals(
    inst: &Instance,
    k: usize,
    y_nn: &[f64],
    size: usize,
    end: Instant,
    interrupt: &AtomicBool,
) -> (Vec<f64>, usize) {
    let d = inst.d;
    let blocks = spatial_blocks(&inst.z, inst.n, d, size.max(2 * k));
    let mut y = y_nn.to_vec();
    let mut solved = 0;
    for (b, block) in blocks.iter().enumerate() {
        let now = Instant::now();
        if now >= end || block.len() < 2 * k {
            continue;
        }
        let share = end.duration_since(now).as_secs_f64() / (blocks.len() - b) as f64;
        let mut x = Vec::with_capacity(block.len() * d);
        for &i in block {
            x.extend_from_slice(&inst.z[i as usize * d..(i as usize + 1) * d]);
        }
        let start = leaf_labels(&x, block.len(), d, k);
        // The line search from the nn duals certifies points above nn early (P20).
        let opts = ColgenOptions {
            time_limit: share.max(1e-3),
            nn_ascent: NN_ASCENT,
            ..Default::default()
        };
        let nb = block.len();
        let run =
            colgen_bound_stoppable(&x, nb, d, k, &[&start], &opts, Some(interrupt), &mut Quiet);
        if let Ok(r) = run {
            // Only duals that proved more than the block's nn bound replace the nn duals.
            if r.duals.len() == nb && r.lagrangian > r.nn {
                for (p, &i) in block.iter().enumerate() {
                    y[i as usize] = r.duals[p];
                }
                solved += 1;
            }
        }
    }
    (y, solved)
}

/// A feasible start partition of `n >= 2k` records: the leaves of the median splits down
/// to at most `2k - 1` records (each leaf has at least `k`: a split of `s >= 2k` records
/// leaves halves of at least `k`).
fn leaf_labels(x: &[f64], n: usize, d: usize, k: usize) -> Vec<usize> {
    let mut labels = vec![0; n];
    for (g, leaf) in spatial_blocks(x, n, d, 2 * k - 1).iter().enumerate() {
        leaf.iter().for_each(|&i| labels[i as usize] = g);
    }
    labels
}
