//! # Push-and-project ascent
//!
//! From a certified point along a direction: each candidate `y + t h` is projected onto the
//! pool's half-spaces (the pool grows by the negative groups heuristic pricing and the exact
//! checks meet), then certified; a raise moves the point, a fall shortens the step.
//!
//! ## Complexity
//! Per candidate up to 20 rounds of heuristic pricing (O(n L k^2)) and projection, and one
//! certified check whose time grows with the slowest complete one.
//!
//! ## References
//! - Agmon, S. (1954). The relaxation method for linear inequalities. Canadian Journal of
//!   Mathematics 6, 382-392.

use super::super::observer::ColgenObserver;
use super::super::pricing::Geometry;
use super::{certify_check_above, pool::project_candidate, Ascent, GroupPool, Projection};
use crate::deadline::Deadline;
use std::time::{Duration, Instant};

/// Most rounds of heuristic pricing and projection per candidate of [`push_project`].
const HEURISTIC_ROUNDS: usize = 20;

/// A check of [`push_project`] gets at most this many times the slowest complete check so far
/// (and at least [`MIN_CHECK_SECS`] or [`MIN_CHECK_SHARE`] of the time left): a search that
/// runs much longer is at a candidate with many negative groups, whose cut value is weak.
const CHECK_GROWTH: f64 = 3.0;

/// Least time a check of [`push_project`] is given (seconds).
const MIN_CHECK_SECS: f64 = 5.0;

/// [`push_project`] ends once its step falls below this fraction of the first step.
const MIN_STEP_RATIO: f64 = 1e-3;

/// Least share of the time left a check of [`push_project`] is given.
const MIN_CHECK_SHARE: f64 = 0.1;

/// Push-and-project ascent from `y_start` (a certified point) along `h`: the candidate
/// `y + t h` is projected onto the half-spaces of the pool's groups (`projection`;
/// the pool starts with `seed_groups` and collects every negative group the exact searches
/// meet, and the groups heuristic pricing finds at the candidate, in up to 20 rounds of
/// pricing and projection) and certified by one per-anchor exact pricing ([`certify_check`],
/// threshold `tau`, at most `check_share` of the time left and at most 3 times the slowest
/// complete check so far, at least a tenth of the time left). A better certified value moves `y` there and grows `t` by 1.5. A
/// complete check that does not improve refutes the candidate: `t` halves (the pool now
/// holds the groups that spoiled it, so the next projection avoids them). A check cut by its
/// time keeps `t` when it added groups to the pool (the next projection at the same step
/// differs), else halves it. With `stop_early` a check stops as soon as it provably cannot
/// beat the best certified value ([`certify_check_above`]; effort only: it counts as cut).
/// The ascent ends at the deadline or once `t` falls below `t_first / 1000`.
/// The reported bound is the best certified value; the steps and
/// the projections only choose the duals (proofs/P20, "Choosing the duals").
#[allow(clippy::too_many_arguments)]
pub fn push_project<'a>(
    geo: &Geometry,
    d: usize,
    y_start: &[f64],
    h: &[f64],
    t_first: f64,
    tau: f64,
    seed_groups: &[Vec<u32>],
    projection: Projection,
    check_share: f64,
    stop_early: bool,
    deadline: impl Into<Deadline<'a>>,
    obs: &mut dyn ColgenObserver,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let mut pool = GroupPool::seeded(geo, seed_groups);
    push_project_from(
        geo,
        d,
        (y_start, None),
        h,
        t_first,
        tau,
        &mut pool,
        projection,
        check_share,
        stop_early,
        deadline,
        obs,
    )
}

/// [`push_project`] from `start = (y, value)` with the caller's `pool` (it keeps the groups
/// met): with `value = Some(v)`, `v` must be a valid bound at `y` (certified there); the start
/// is then not checked again, and until a check completes each gets the first check's
/// share of the time.
#[allow(clippy::too_many_arguments)]
pub fn push_project_from(
    geo: &Geometry,
    d: usize,
    start: (&[f64], Option<f64>),
    h: &[f64],
    t_first: f64,
    tau: f64,
    pool: &mut GroupPool,
    projection: Projection,
    check_share: f64,
    stop_early: bool,
    deadline: Deadline,
    obs: &mut dyn ColgenObserver,
) -> Ascent {
    let (y_start, known) = start;
    let t0 = Instant::now();
    let mut out = Ascent::empty(tau);
    let scale = y_start.iter().map(|v| v.abs()).sum::<f64>() / y_start.len().max(1) as f64;
    let tol = 1e-9 * scale.max(f64::MIN_POSITIVE);
    let mut y = y_start.to_vec();
    let mut t = t_first;
    let mut first = known.is_none();
    if let Some(v) = known {
        out.lower_bound = v;
        out.duals = y.clone();
    }
    // Slowest complete check so far (seconds): scales the next checks' time.
    let mut slowest = 0.0f64;
    while deadline.left() > Duration::from_millis(50) {
        let mut cand: Vec<f64> = if first {
            y.clone()
        } else {
            y.iter().zip(h).map(|(a, b)| a + t * b).collect()
        };
        let mut left_over = 0.0;
        if !first {
            let raw = cand.clone();
            left_over = project_candidate(pool, projection, &raw, &mut cand, tol);
            // Cheap rounds before the exact check: heuristic pricing from every record finds
            // negative groups at the candidate, the pool takes them and the candidate is
            // projected again (the exact check is slow where many groups are negative).
            for _ in 0..HEURISTIC_ROUNDS {
                if deadline.passed() {
                    break;
                }
                let added = pool.add_heuristic_negatives(geo, &cand, tol);
                left_over = project_candidate(pool, projection, &raw, &mut cand, tol);
                if added == 0 {
                    break;
                }
            }
        }
        let now = Instant::now();
        let share = deadline.left().mul_f64(check_share);
        // A check without a reference gets its share: the first one (the start point), and
        // after a known start every one until a check completes.
        let cap = if first || (known.is_some() && slowest == 0.0) {
            share
        } else {
            let left = deadline.seconds_left();
            let floor = MIN_CHECK_SECS.max(MIN_CHECK_SHARE * left);
            share.min(Duration::from_secs_f64((CHECK_GROWTH * slowest).max(floor)))
        };
        let pool_before = pool.len();
        // A candidate whose sum is at or below the best value cannot improve on it (every
        // check's value is at most sum y): with `stop_early` such a check stops at once.
        let level = if stop_early {
            out.lower_bound
        } else {
            f64::NEG_INFINITY
        };
        let until = deadline.until(now + cap);
        let (check, stopped) = certify_check_above(geo, &cand, d, tau, until, pool, level);
        let v = check.value;
        let secs = now.elapsed().as_secs_f64();
        if check.complete {
            slowest = slowest.max(secs);
        }
        out.iterations += 1;
        out.checks
            .push((out.iterations, cand.iter().sum(), v, secs));
        let sizes: Vec<String> = check
            .seconds_per_size
            .iter()
            .map(|s| format!("{s:.1}"))
            .collect();
        obs.detail(format_args!(
            "push-project: {:7.1} s  t {t:.4}  sum y {:.6}  certified {v:.6} ({secs:.1} s, \
             {}, per size [{}] s, pool {}, left {left_over:.3e})",
            t0.elapsed().as_secs_f64(),
            cand.iter().sum::<f64>(),
            if stopped {
                "stopped"
            } else if check.complete {
                "complete"
            } else {
                "cut"
            },
            sizes.join(" "),
            pool.len()
        ));
        if v > out.lower_bound {
            out.lower_bound = v;
            out.duals = cand.clone();
            if !first {
                y = cand;
                t *= 1.5;
            }
        } else if check.complete || pool.len() == pool_before {
            t *= 0.5;
        }
        first = false;
        // A thousandfold below the first step (about ten more halvings than growths): what
        // is left along this direction is small, and the time goes to the next phase.
        if t < MIN_STEP_RATIO * t_first || !t.is_finite() {
            break;
        }
    }
    out
}
