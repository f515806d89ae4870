//! # Box-step ascent on the anchored bound
//!
//! [`ascend`] (Marsten, Hogan and Blankenship 1975): inside a box around the best certified
//! point, projected subgradient steps on the pool model pick a candidate, which exact
//! per-anchor pricing certifies ([`super::certify`]); a better value moves the centre and
//! widens the box, otherwise the box halves.
//!
//! ## Complexity
//! Per iteration O(n L k^2) heuristic pricing and one pass over the pool; per box one
//! per-anchor exact pricing within `check_share` of the time left.
//!
//! ## References
//! - Marsten, R. E., Hogan, W. W. and Blankenship, J. W. (1975). The boxstep method for
//!   large-scale optimization. Operations Research 23(3), 389-405.
//! - Held, M., Wolfe, P. and Crowder, H. P. (1974). Validation of subgradient optimization.
//!   Mathematical Programming 6, 62-88.

use super::super::observer::ColgenObserver;
use super::super::pricing::Geometry;
use super::{certify, GroupPool};
use crate::deadline::Deadline;
use std::time::{Duration, Instant};

/// Parameters of [`ascend`].
#[derive(Debug, Clone, PartialEq)]
pub struct SubgradOptions {
    /// Half-width of the first trust box around the centre, relative to the mean |centre|.
    pub box_width: f64,
    /// Model (pool) subgradient steps per box.
    pub inner: usize,
    /// Anchor threshold of the exact pricing as a fraction of `UB / floor(n/k)` (P20's
    /// `tau = -threshold UB / floor(n/k)`; 0: exact per-anchor minima).
    pub threshold: f64,
    /// Most of the remaining time one exact evaluation may take.
    pub check_share: f64,
}

impl Default for SubgradOptions {
    fn default() -> Self {
        SubgradOptions {
            box_width: 0.05,
            inner: 30,
            threshold: 0.002,
            check_share: 0.3,
        }
    }
}

/// Result of [`ascend`].
#[derive(Debug, Clone, PartialEq)]
pub struct Ascent {
    /// Best certified (rounded) bound over the evaluated points (`-inf` if none).
    pub lower_bound: f64,
    /// Its duals.
    pub duals: Vec<f64>,
    /// Anchor threshold `tau` of every exact evaluation (proofs/P20).
    pub tau: f64,
    /// Model steps made.
    pub iterations: usize,
    /// (model steps so far, model estimate, certified bound, seconds) per exact evaluation.
    pub checks: Vec<(usize, f64, f64, f64)>,
}

impl Ascent {
    /// An ascent at anchor threshold `tau` with no step made and no certified point yet.
    pub(super) fn empty(tau: f64) -> Ascent {
        Ascent {
            lower_bound: f64::NEG_INFINITY,
            duals: Vec::new(),
            tau,
            iterations: 0,
            checks: Vec::new(),
        }
    }
}

/// Box-step ascent (Marsten, Hogan and Blankenship 1975) from `y_start` on the anchored
/// bound: within a box around the centre (the best certified point), projected subgradient
/// steps on the pool model pick a candidate; exact pricing certifies it; a better certified
/// value moves the centre and widens the box (serious step), otherwise the box halves and the
/// exact pricing's negative groups refine the model (null step). `ub` (the best known SSE)
/// scales the anchor threshold; `seed_groups` start the pool. Stops at `deadline`.
#[allow(clippy::too_many_arguments)]
pub fn ascend<'a>(
    geo: &Geometry,
    d: usize,
    y_start: &[f64],
    ub: f64,
    seed_groups: &[Vec<u32>],
    opts: &SubgradOptions,
    deadline: impl Into<Deadline<'a>>,
    obs: &mut dyn ColgenObserver,
) -> Ascent {
    let deadline: Deadline = deadline.into();
    let t0 = Instant::now();
    let n = geo.n;
    let g = (n / geo.k).max(1);
    let tau = -(opts.threshold * ub.abs() / g as f64);
    let mut pool = GroupPool::seeded(geo, seed_groups);
    let mut out = Ascent::empty(tau);
    let mut check = |y: &[f64], est: f64, pool: &mut GroupPool, out: &mut Ascent| -> f64 {
        let t = Instant::now();
        let v = certify(geo, y, d, tau, deadline.part(opts.check_share), pool);
        let secs = t.elapsed().as_secs_f64();
        out.checks.push((out.iterations, est, v, secs));
        obs.detail(format_args!(
            "subgradient: {:7.1} s  step {}  model {est:.6}  certified {v:.6} \
             ({secs:.1} s, pool {})",
            t0.elapsed().as_secs_f64(),
            out.iterations,
            pool.len()
        ));
        if v > out.lower_bound {
            out.lower_bound = v;
            out.duals = y.to_vec();
        }
        v
    };
    let mut centre = y_start.to_vec();
    check(&centre, f64::NAN, &mut pool, &mut out);
    let mean_abs = centre.iter().map(|v| v.abs()).sum::<f64>() / n.max(1) as f64;
    let mut delta = opts.box_width * mean_abs.max(f64::MIN_POSITIVE);
    while deadline.left() > Duration::from_millis(50) {
        let mut y = centre.clone();
        let mut best: Option<(f64, Vec<f64>)> = None;
        for it in 0..opts.inner {
            if deadline.passed() {
                break;
            }
            pool.add_heuristic_negatives(geo, &y, 0.0);
            let (est, chosen) = pool.estimate(&y, g);
            out.iterations += 1;
            if it > 0 && best.as_ref().is_none_or(|b| est > b.0) {
                best = Some((est, y.clone()));
            }
            let mut s = vec![1.0; n];
            for &j in &chosen {
                for &i in &pool.groups()[j] {
                    s[i as usize] -= 1.0;
                }
            }
            if s.iter().all(|&v| v == 0.0) {
                break; // the chosen groups partition the records
            }
            let step = 0.5 * delta / ((it + 1) as f64).sqrt();
            for ((yi, si), ci) in y.iter_mut().zip(&s).zip(&centre) {
                *yi = (*yi + step * si).clamp(ci - delta, ci + delta);
            }
        }
        let Some((est, cand)) = best else {
            break;
        };
        if deadline.passed() {
            break;
        }
        let before = out.lower_bound;
        let v = check(&cand, est, &mut pool, &mut out);
        if v > before {
            centre = cand;
            delta *= 1.5;
        } else {
            delta *= 0.5;
        }
        if delta < 1e-9 * mean_abs {
            break;
        }
    }
    out
}
