//! # Duals from the pool's restricted master, around a stability centre
//!
//! At k = 10 the column generation over all records stays on the dual side (the boxed
//! master's value is the box's, study-colgen 18-upper), and an unboxed master started from a
//! partition stays at the partition's value. Grown instead from the negative groups that
//! heuristic pricing finds at a certified point `y0` (and at `y0` plus the best partition's
//! slack direction), the unboxed restricted master `min { c x : A x = 1, x >= 0 }` over those
//! groups and the partition's has informative duals `y_m`; the point `(c + y_m) / 2` (Wentges'
//! smoothing with the centre `c`: fixed at `y0`, or moved to each midpoint that raised the
//! bound) is then certified by one per-anchor exact check.
//!
//! Per round: solve the master; price heuristically (from every record) at `y_m` and at the
//! midpoint and add the new negative groups as columns; when that finds none, certify the
//! midpoint (`subgrad::certify_check`, half of the time left; its search adds every negative
//! group it meets); a round that adds nothing at all and leaves the centre where it was ends
//! it (with a moving centre, a raised bound moves the midpoint on toward the master's duals,
//! and the master is solved again only when it has new columns). The reported bound is the
//! best certified value (at least the start's); the master and the midpoints only choose the
//! duals (proofs/P20, "Choosing the duals"). The last master value `U` lies above the LP
//! relaxation (P09 Part D; an estimate with HiGHS' tolerance, nothing certified rests on it).
//!
//! ## Complexity
//! Per round one warm simplex solve (or a cold interior point solve) over the columns so far
//! and O(n L k^2) heuristic pricing (L the neighbour-list length) at two points; an exact
//! check when the heuristic finds nothing (seconds at k = 10 on EIA, tens of seconds on Tarragona and census).

use super::ascent::slack_direction;
use super::master::Master;
use super::observer::ColgenObserver;
use super::pricing::Geometry;
use super::subgrad::{certify_check, Ascent, GroupPool};
use crate::deadline::Deadline;
use crate::sse::group_sse;
use std::time::{Duration, Instant};

/// Result of [`pool_master_push`].
#[derive(Debug, Clone, PartialEq)]
pub struct PoolMasterPush {
    /// Best certified value and its duals; `checks` holds (round, sum y, certified, seconds).
    pub ascent: Ascent,
    /// The last restricted master value (above the LP relaxation; an estimate).
    pub upper: f64,
    /// Master solves.
    pub rounds: usize,
    /// Columns of the master at the end.
    pub columns: usize,
}

/// Heuristic pricing at each of `points` into `pool` (tolerance 1e-9 of the point's mean
/// |y|); returns the groups that were new to the pool, in the order found.
fn new_negative_groups(geo: &Geometry, points: &[&[f64]], pool: &mut GroupPool) -> Vec<Vec<u32>> {
    let before = pool.len();
    for y in points {
        let tol = 1e-9 * y.iter().map(|v| v.abs()).sum::<f64>() / y.len().max(1) as f64;
        pool.add_heuristic_negatives(geo, y, tol);
    }
    pool.groups()[before..].to_vec()
}

/// Limits and choices of [`pool_master_push`].
#[derive(Debug, Clone, Copy)]
pub struct PoolMasterSettings<'a> {
    /// Anchor threshold `tau <= 0` of the checks.
    pub tau: f64,
    /// Most master solves.
    pub max_rounds: usize,
    /// The phase's end (with the bound's hard end and stop flag).
    pub deadline: Deadline<'a>,
    /// False: every midpoint is taken with the start `y0` (Wentges' fixed centre). True: the
    /// centre moves to each midpoint whose check raises the bound, so the midpoints close in
    /// on the master's duals (the centre is always a certified point).
    pub moving_centre: bool,
    /// Re-solve the master by the interior point method without crossover (central duals in
    /// the optimal face, where a degenerate master's vertex duals are arbitrary) instead of
    /// primal simplex from the kept basis; the first solve is always dual simplex.
    pub ipm: bool,
}

/// Grow the restricted master from the certified point `start = (y0, value)` and certify the
/// midpoints (module doc), within `settings`' deadline and rounds. `groups` is a partition of
/// the records into groups of at least `k` (it makes the master feasible, and gives the slack
/// direction); the master's first columns are `pool`'s groups and `groups` (e.g. the negative
/// groups an earlier ascent met), and `pool` keeps every group met. `Err` when HiGHS fails.
#[allow(clippy::too_many_arguments)]
pub fn pool_master_push(
    geo: &Geometry,
    x: &[f64],
    d: usize,
    start: (&[f64], f64),
    groups: &[Vec<u32>],
    pool: &mut GroupPool,
    settings: PoolMasterSettings,
    obs: &mut dyn ColgenObserver,
) -> Result<PoolMasterPush, String> {
    let PoolMasterSettings {
        tau,
        max_rounds,
        deadline,
        moving_centre,
        ipm,
    } = settings;
    let t0 = Instant::now();
    let (y0, value) = start;
    let cost = |g: &Vec<u32>| {
        let m: Vec<usize> = g.iter().map(|&i| i as usize).collect();
        group_sse(x, d, &m)
    };
    for g in groups {
        pool.add(geo, g.clone());
    }
    let first = pool.groups().to_vec();
    let first_costs = first.iter().map(cost).collect();
    let mut master = Master::new(geo.n, first, first_costs, None)?;
    master.ipm = ipm;
    let mut out = PoolMasterPush {
        ascent: Ascent {
            lower_bound: value,
            duals: y0.to_vec(),
            tau,
            iterations: 0,
            checks: Vec::new(),
        },
        upper: f64::INFINITY,
        rounds: 0,
        columns: pool.len(),
    };
    let h = slack_direction(x, d, groups, y0);
    let pushed: Vec<f64> = y0.iter().zip(&h).map(|(a, b)| a + b).collect();
    let mut fresh = new_negative_groups(geo, &[y0, &pushed], pool);
    // The master's last duals (empty before its first solve).
    let mut duals: Vec<f64> = Vec::new();
    loop {
        // Solved again only when it has new columns (with a moving centre a round can have
        // none: then only the midpoint moved).
        if duals.is_empty() || !fresh.is_empty() {
            if out.rounds >= max_rounds {
                break;
            }
            if !fresh.is_empty() {
                out.columns += fresh.len();
                let costs = fresh.iter().map(cost).collect();
                master.add_columns(std::mem::take(&mut fresh), costs)?;
            }
            let left = deadline.left();
            if left < Duration::from_millis(50) {
                break;
            }
            let Some(sol) = master.solve_stoppable(left.as_secs_f64(), deadline.flag())? else {
                break;
            };
            out.rounds += 1;
            out.upper = sol.value;
            obs.detail(format_args!(
                "pool-master: {:7.1} s  round {:3}  U {:.6}  {} columns",
                t0.elapsed().as_secs_f64(),
                out.rounds,
                sol.value,
                out.columns
            ));
            duals = sol.duals;
        }
        if deadline.passed() {
            break;
        }
        // A moving centre is the best certified point so far (the start until a raise).
        let centre: &[f64] = if moving_centre { &out.ascent.duals } else { y0 };
        let mid: Vec<f64> = centre
            .iter()
            .zip(&duals)
            .map(|(a, b)| 0.5 * (a + b))
            .collect();
        fresh = new_negative_groups(geo, &[&duals, &mid], pool);
        if !fresh.is_empty() {
            continue;
        }
        let before = pool.len();
        let now = Instant::now();
        let until = deadline.part(0.5);
        let check = certify_check(geo, &mid, d, tau, until, pool);
        let secs = now.elapsed().as_secs_f64();
        out.ascent.iterations += 1;
        out.ascent
            .checks
            .push((out.rounds, mid.iter().sum(), check.value, secs));
        obs.detail(format_args!(
            "pool-master: {:7.1} s  midpoint sum y {:.6}  certified {:.6} ({secs:.1} s, {})",
            t0.elapsed().as_secs_f64(),
            mid.iter().sum::<f64>(),
            check.value,
            if check.complete { "complete" } else { "cut" }
        ));
        let raised = check.value > out.ascent.lower_bound;
        if raised {
            out.ascent.lower_bound = check.value;
            out.ascent.duals = mid;
        }
        fresh = pool.groups()[before..].to_vec();
        // Nothing new and the same centre: the next midpoint would be this one.
        if fresh.is_empty() && !(moving_centre && raised) {
            break;
        }
    }
    Ok(out)
}
