//! # Certified Wentges smoothing
//!
//! The column generation loop of [`super`] prices at the smoothed point
//! `y_sep = alpha y_centre + (1 - alpha) y_LP` with the heuristic only, so at k = 10 (where the
//! exact pricing takes seconds and the heuristic always finds some column) the stability
//! centre never moves and the master stays degenerate at its start partition
//! (study-colgen.txt "18-k10"). Here every iteration certifies the smoothed point:
//!
//! 1. solve the restricted master, read its row duals `y_LP` (clipped to `[0, 4 max y_centre]`
//!    for the smoothing only, as the segment search does: a degenerate master has a few
//!    extreme duals that would otherwise dominate the point);
//! 2. price at `y_sep` with the per-anchor exact search at the anchor threshold `tau`
//!    ([`super::subgrad::certify_check`]: plain and anchored Lagrangian bounds, sizes above
//!    `k` completed from size `k`, proofs/P20) and with the heuristic from every record;
//! 3. add to the master every group met (the exact search's negative groups, per anchor and
//!    size, and the heuristic's) whose reduced cost at the unclipped `y_LP` is below `-tol`,
//!    most negative first, at most `max_columns`;
//! 4. a certified value above the best moves the centre to `y_sep` (serious step); the box
//!    of the master, when there is one, follows the centre.
//!
//! The weight `alpha` is fixed (halved on a mispricing, Wentges' rule), or adapted: after a
//! serious step as in Pessoa, Sadykov, Uchoa and Vanderbeck (2018), with `g` a subgradient at
//! `y_sep` (here `1 - ` the coverage of the pool's most negative group per medoid, the
//! `floor(n/k)` most negative ones: the subgradient of the anchored function restricted to
//! the groups met), `g . (y_LP - y_centre) > 0` means the bound still rises toward the
//! master's duals, so `alpha` drops by 0.1, otherwise it rises by `0.1 (1 - alpha)`; after a
//! null step (no better certified value) `alpha` moves half-way to 1.
//!
//! Validity does not depend on any of these choices: every reported value is a certified
//! Lagrangian bound at the point where it was evaluated (proofs/P09, P20 "Choosing the
//! duals"); the master, the smoothing and `alpha` only choose the points.
//!
//! ## Complexity
//! Per iteration one master re-solve, one per-anchor exact pricing (capped at three times the
//! slowest complete one so far, at least 5 s or a tenth of the time left, at most half of
//! it) and O(n L k^2) heuristic pricing.
//!
//! ## References
//! - Wentges, P. (1997). Weighted Dantzig-Wolfe decomposition for linear mixed-integer
//!   programming. International Transactions in Operational Research 4(2), 151-162.
//! - Pessoa, A., Sadykov, R., Uchoa, E. and Vanderbeck, F. (2018). Automation and combination
//!   of linear-programming based stabilization techniques in column generation. INFORMS
//!   Journal on Computing 30(2), 339-360.

use super::master::Master;
use super::observer::ColgenObserver;
use super::pricing::{heuristic, Geometry};
use super::subgrad::{certify_check_above, GroupPool};
use crate::deadline::Deadline;
use std::collections::HashSet;
use std::time::{Duration, Instant};

/// Parameters of [`certified_smoothing`].
#[derive(Debug, Clone, PartialEq)]
pub struct SmoothingParams {
    /// First smoothing weight `alpha` in `[0, 1)` of the centre.
    pub alpha: f64,
    /// Adapt `alpha` by the subgradient rule of Pessoa et al. (2018).
    pub auto: bool,
    /// Anchor threshold `tau <= 0` of the certifying searches (proofs/P20).
    pub tau: f64,
    /// Reduced costs above `-tol` at the master's duals are not added.
    pub tol: f64,
    /// Most columns added per iteration.
    pub max_columns: usize,
    /// Half-widths of the master's dual box (None: no box); the box follows the centre.
    pub box_delta: Option<Vec<f64>>,
    /// Stop a check once it provably cannot beat the best certified value
    /// ([`super::pricing::StopBelow`]).
    pub stop_early: bool,
}

/// What the smoothing phase found.
#[derive(Debug, Clone, PartialEq)]
pub struct Smoothing {
    /// Best certified value (the start value when nothing improved).
    pub lower_bound: f64,
    /// Its duals (the start centre when nothing improved).
    pub duals: Vec<f64>,
    /// Per iteration: alpha, master LP value, certified value, check seconds, complete?
    pub trace: Vec<(f64, f64, f64, f64, bool)>,
    /// Seconds in master solves, columns added.
    pub lp_seconds: f64,
    pub columns_added: usize,
}

/// A check gets at most this many times the slowest complete check so far.
const CHECK_GROWTH: f64 = 3.0;
/// Least seconds and least share of the time left a check gets.
const MIN_CHECK_SECS: f64 = 5.0;
const MIN_CHECK_SHARE: f64 = 0.1;

/// Runs the certified smoothing loop from the certified centre `centre` (value `value`) until
/// `until`, adding columns to `master` (their groups to `known`); `cost` gives a group's SSE.
/// Returns the best certified point; `Err` when HiGHS fails.
#[allow(clippy::too_many_arguments)]
pub fn certified_smoothing(
    geo: &Geometry,
    d: usize,
    master: &mut Master,
    known: &mut HashSet<Vec<u32>>,
    cost: &dyn Fn(&[u32]) -> f64,
    centre: &[f64],
    value: f64,
    params: &SmoothingParams,
    until: Deadline,
    obs: &mut dyn ColgenObserver,
) -> Result<Smoothing, String> {
    let n = geo.n;
    let t0 = Instant::now();
    let mut out = Smoothing {
        lower_bound: value,
        duals: centre.to_vec(),
        trace: Vec::new(),
        lp_seconds: 0.0,
        columns_added: 0,
    };
    let mut alpha = params.alpha;
    let mut slowest = 0.0f64;
    while until.left() > Duration::from_millis(50) {
        let t = Instant::now();
        let Some(sol) = master.solve_stoppable(until.seconds_left(), until.flag())? else {
            break;
        };
        let lp_secs = t.elapsed().as_secs_f64();
        out.lp_seconds += lp_secs;
        let y_lp = &sol.duals[..n];
        let c = &out.duals;
        let top = c.iter().fold(0.0f64, |m, v| m.max(v.abs()));
        let y_sep: Vec<f64> = c
            .iter()
            .zip(y_lp)
            .map(|(a, b)| alpha * a + (1.0 - alpha) * b.clamp(0.0, 4.0 * top))
            .collect();
        // Certify y_sep (its negative groups go into the pool).
        let now = Instant::now();
        let left = until.seconds_left();
        let cap = if slowest > 0.0 {
            (CHECK_GROWTH * slowest).max(MIN_CHECK_SECS.max(MIN_CHECK_SHARE * left))
        } else {
            left
        }
        .min(left / 2.0);
        let mut pool = GroupPool::default();
        // A check that provably cannot beat the best value stops early (subgrad.rs): the
        // points far from the centre cost minutes and only give null steps.
        let (check, stopped) = certify_check_above(
            geo,
            &y_sep,
            d,
            params.tau,
            until.until(now + Duration::from_secs_f64(cap)),
            &mut pool,
            if params.stop_early {
                out.lower_bound
            } else {
                f64::NEG_INFINITY
            },
        );
        let secs = now.elapsed().as_secs_f64();
        if check.complete {
            slowest = slowest.max(secs);
        }
        // The heuristic's groups at y_sep too.
        let t_heur = Instant::now();
        for r in 0..n {
            if r % 64 == 63 && until.passed() {
                break;
            }
            if let Some((_, mut g)) = heuristic(geo, &y_sep, r) {
                g.sort_unstable();
                pool.add(geo, g);
            }
        }
        // Columns: the pool's groups that are negative at the master's duals.
        let mut cols: Vec<(f64, Vec<u32>)> = pool
            .groups()
            .iter()
            .filter(|g| !known.contains(*g))
            .map(|g| (geo.reduced_cost(g, y_lp), g.clone()))
            .filter(|(rc, _)| *rc < -params.tol)
            .collect();
        cols.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        cols.truncate(params.max_columns);
        let heur_secs = t_heur.elapsed().as_secs_f64();
        let improved = check.value > out.lower_bound;
        if params.auto {
            alpha = auto_alpha(alpha, improved, &pool, &y_sep, y_lp, c, top, geo.k);
        }
        out.trace
            .push((alpha, sol.value, check.value, secs, check.complete));
        obs.detail(format_args!(
            "smoothing: {:7.1} s  lp {:.6} ({lp_secs:.1} s, {} cols)  certified {:.6} ({secs:.1} \
             s, {})  heuristic {heur_secs:.1} s  best {:.6}  +{} cols  alpha {alpha:.3}",
            t0.elapsed().as_secs_f64(),
            sol.value,
            master.columns.len(),
            check.value,
            if stopped {
                "stopped below best"
            } else if check.complete {
                "complete"
            } else {
                "cut"
            },
            out.lower_bound.max(check.value),
            cols.len()
        ));
        if improved {
            out.lower_bound = check.value;
            out.duals = y_sep;
            if let Some(delta) = params.box_delta.as_ref() {
                master.set_box(&out.duals, delta)?;
            }
        }
        if cols.is_empty() {
            if !improved && alpha <= 0.0 {
                break; // nothing to add and nothing left to smooth
            }
            if !params.auto {
                // Mispricing: move toward the master's duals (Wentges' rule).
                alpha = if alpha < 0.05 { 0.0 } else { alpha / 2.0 };
            }
            continue;
        }
        let (groups, costs): (Vec<Vec<u32>>, Vec<f64>) =
            cols.into_iter().map(|(_, g)| (g.clone(), cost(&g))).unzip();
        out.columns_added += groups.len();
        known.extend(groups.iter().cloned());
        master.add_columns(groups, costs)?;
    }
    Ok(out)
}

/// The next smoothing weight of the automatic rule, from `alpha`, whether the check at
/// `y_sep` `improved`, the pool, the master's duals `y_lp`, the centre `c` and its largest
/// magnitude `top` (`k` the minimum group size).
#[allow(clippy::too_many_arguments)]
fn auto_alpha(
    alpha: f64,
    improved: bool,
    pool: &GroupPool,
    y_sep: &[f64],
    y_lp: &[f64],
    c: &[f64],
    top: f64,
    k: usize,
) -> f64 {
    let n = y_sep.len();
    if !improved {
        // Null step (the certified value did not rise, often a check cut by its time far
        // from the centre): back toward the centre. Pessoa et al.'s rule below assumes an
        // exact pricing at y_sep; with a cut or thresholded check its subgradient says
        // little (a first version took it here and walked alpha to 0 into points worth
        // -50, study-colgen.txt "18-k10: certified smoothing").
        return alpha + 0.5 * (1.0 - alpha);
    }
    // Pessoa et al.'s rule with the pool's subgradient at y_sep.
    let (_, chosen) = pool.estimate(y_sep, n / k);
    let mut g = vec![1.0; n];
    for &j in &chosen {
        for &i in &pool.groups()[j] {
            g[i as usize] -= 1.0;
        }
    }
    let dir: f64 = g
        .iter()
        .zip(y_lp.iter().zip(c))
        .map(|(gi, (o, ci))| gi * (o.clamp(0.0, 4.0 * top) - ci))
        .sum();
    if dir > 0.0 {
        (alpha - 0.1).max(0.0)
    } else {
        alpha + 0.1 * (1.0 - alpha)
    }
}
