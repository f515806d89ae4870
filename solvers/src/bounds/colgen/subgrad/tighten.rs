//! # Re-certification at smaller anchor thresholds
//!
//! [`tighten`] re-certifies a point at thresholds `tau` times 0.4, 0.16, ... while each check
//! completes and raises the value (proofs/P20: every threshold gives a valid bound).
//!
//! ## Complexity
//! One per-anchor exact pricing per threshold, each within the deadline.
//!
//! ## References
//! - proofs/P20 (anchored bound, threshold).

use super::super::observer::ColgenObserver;
use super::super::pricing::Geometry;
use super::{certify_check, GroupPool};
use crate::deadline::Deadline;
use std::time::Instant;

/// Each step of [`tighten`] multiplies the anchor threshold by this.
pub const TIGHTEN_FACTOR: f64 = 0.4;

/// What [`tighten`] certified: the best value over its checks and the threshold it was
/// certified at (`NEG_INFINITY` and `tau` when no check ran), and the checks run.
#[derive(Debug, Clone, PartialEq)]
pub struct Tightened {
    pub value: f64,
    pub tau: f64,
    pub checks: usize,
}

/// Re-certifies `y` at thresholds `tau` times 0.4, 0.16, ... ([`certify_check`]) until the
/// deadline, a check cut by it, or a step that does not raise the value. A search to a
/// smaller threshold costs more but loses less: a finished check certifies each anchor only
/// down to its threshold, so `floor(n/k) |tau|` is what a threshold can cost at duals whose
/// groups are all near 0 (proofs/P20: every `tau <= 0` gives a valid bound, so the best
/// value is kept with its threshold).
pub fn tighten<'a>(
    geo: &Geometry,
    d: usize,
    y: &[f64],
    tau: f64,
    deadline: impl Into<Deadline<'a>>,
    obs: &mut dyn ColgenObserver,
) -> Tightened {
    let deadline: Deadline = deadline.into();
    let mut out = Tightened {
        value: f64::NEG_INFINITY,
        tau,
        checks: 0,
    };
    let mut at = tau;
    while at < 0.0 && !deadline.passed() {
        let t = Instant::now();
        at *= TIGHTEN_FACTOR;
        let check = certify_check(geo, y, d, at, deadline, &mut GroupPool::default());
        out.checks += 1;
        obs.detail(format_args!(
            "tighten: threshold {at:.6}: {:.6} ({}, {:.1} s)",
            check.value,
            if check.complete { "complete" } else { "cut" },
            t.elapsed().as_secs_f64()
        ));
        let rose = check.value > out.value;
        if rose {
            out.value = check.value;
            out.tau = at;
        }
        if !check.complete || !rose {
            break;
        }
    }
    out
}
