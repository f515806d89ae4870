//! # Early stop of a certifying check
//!
//! [`StopBelow`] tracks an upper estimate of a per-anchor check's value while the search runs
//! (proofs/P20 "Early stop"); the exact search ([`super::exact`]) and the per-anchor size
//! completion ([`super::local_completion`]) consult it. Effort only: every value a stopped
//! check returns stays a valid bound.
//!
//! ## Complexity
//! [`StopBelow::push`]: O(log g) per anchor (a heap of the `g = floor(n/k)` most negative
//! excesses).

use crate::total_order::TotalF64;

/// Early stop of a certifying check that cannot reach `level` (a choice of effort, never a
/// bound): at duals `y`, the check's value is the larger of the plain and the anchored
/// Lagrangian bounds, each at most `sum y + sum_{r in A} max(V_r, weak)` for any `floor(n/k)`
/// anchors `A` at size `k` (a feasible choice of the size knapsack; the plain bound uses the
/// least value), and the values `V_r` only fall as the search goes on (an anchor not yet
/// searched is at most `tau`). So `sum y` plus the `floor(n/k)` most negative size-`k` values
/// met so far (the others at `tau`) bounds the final value from above; once it is below
/// `level` (the best certified value so far) the check cannot improve on it and the search
/// gives only root bounds from there (valid, cheap).
#[derive(Debug, Clone)]
pub struct StopBelow {
    level: f64,
    /// `sum y + g * max(tau, weak)` (capped at 0 per term).
    base: f64,
    floor_rc: f64,
    at_tau: f64,
    g: usize,
    /// The `g` most negative excesses `max(V, weak) - max(tau, weak)` (<= 0) met so far,
    /// least negative on top.
    kept: std::collections::BinaryHeap<TotalF64>,
    excess: f64,
    /// True once the estimate fell below `level`.
    pub fired: bool,
}

impl StopBelow {
    /// Stop level `level`, duals summing to `sum_y`, threshold `tau`, weak pricing bound
    /// `floor_rc`, `g = floor(n/k)` groups.
    pub fn new(level: f64, sum_y: f64, tau: f64, floor_rc: f64, g: usize) -> StopBelow {
        let at_tau = tau.max(floor_rc).min(0.0);
        StopBelow {
            level,
            base: sum_y + g as f64 * at_tau,
            floor_rc,
            at_tau,
            g,
            kept: std::collections::BinaryHeap::new(),
            excess: 0.0,
            fired: false,
        }
    }

    /// The upper estimate of the check's value so far.
    pub fn estimate(&self) -> f64 {
        self.base + self.excess
    }

    /// One anchor's final size-`k` value; true when the check should stop.
    pub fn push(&mut self, v: f64) -> bool {
        let e = v.max(self.floor_rc).min(0.0) - self.at_tau;
        if e < 0.0 && self.g > 0 {
            if self.kept.len() < self.g {
                self.kept.push(TotalF64(e));
                self.excess += e;
            } else if let Some(&TotalF64(top)) = self.kept.peek() {
                if e < top {
                    self.kept.pop();
                    self.kept.push(TotalF64(e));
                    self.excess += e - top;
                }
            }
        }
        if !self.fired && self.estimate() < self.level {
            self.fired = true;
        }
        self.fired
    }
}
