//! # Late acceptance
//!
//! An acceptance rule without a temperature: a change is kept when its SSE is at most the
//! current SSE or at most the SSE the search had L iterations ago. A history of L costs,
//! all equal to the start's SSE at first, is read and updated in a ring: at iteration I the
//! candidate is compared with entry v = I mod L, and after the decision entry v becomes the
//! current SSE if that is lower (Burke & Bykov 2017, Fig. 2, the variant that never raises
//! an entry). A long history accepts more worsening changes early and converges later. It
//! draws no random number, so a run repeats bit for bit without a time limit. The refiner
//! `lahc` is ILS with this rule (`search/lahc.rs`).
//!
//! ## Complexity
//! O(1) per decision; O(L) memory.
//!
//! ## References
//! - Burke, E. K. and Bykov, Y. (2017). The late acceptance hill-climbing heuristic.
//!   European Journal of Operational Research 258(1), 70-78.

use super::{tolerance, Accept};
use crate::rng::Rng;
use serde::{Deserialize, Serialize};

/// Parameters of `late_acceptance`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct LateAcceptanceParams {
    pub length: usize,
}

impl Default for LateAcceptanceParams {
    fn default() -> Self {
        LateAcceptanceParams { length: 50 }
    }
}

impl crate::params::Params for LateAcceptanceParams {
    const DOC: &'static [(&'static str, &'static str)] = &[(
        "length",
        "history length L: a change is kept when its SSE is at most the current one or the one of L iterations ago, 1..=1000000 (default 50, not tuned)",
    )];
    fn check(&self) -> Result<(), String> {
        if !(1..=1_000_000).contains(&self.length) {
            return Err("length must be in 1..=1000000".into());
        }
        Ok(())
    }
}

/// The late-acceptance rule with a history of `length` costs.
#[derive(Debug, Clone)]
pub(crate) struct LateAcceptance {
    length: usize,
    history: Vec<f64>,
    iteration: usize,
}

impl LateAcceptance {
    pub fn new(length: usize) -> Self {
        LateAcceptance {
            length: length.max(1),
            history: Vec::new(),
            iteration: 0,
        }
    }

    fn slot(&self) -> usize {
        self.iteration % self.length
    }
}

impl Accept for LateAcceptance {
    fn name(&self) -> &'static str {
        "late-acceptance"
    }
    fn start(&mut self, sse: f64, _groups: usize, _progress: Option<f64>) {
        self.history = vec![sse; self.length];
        self.iteration = 0;
    }
    fn accept(&mut self, before: f64, delta: f64, _rng: &mut Rng) -> bool {
        delta <= tolerance(before) || before + delta <= self.history[self.slot()]
    }
    fn after(&mut self, current: f64, _progress: Option<f64>) {
        let v = self.slot();
        if current < self.history[v] {
            self.history[v] = current;
        }
        self.iteration += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    /// Burke & Bykov's rule by hand with L = 2: a worse candidate passes when it is at most
    /// the cost of two iterations ago, and an entry is lowered, never raised.
    #[test]
    fn keeps_what_beats_the_cost_of_l_iterations_ago() {
        let mut rng = Rng::seed_from_u64(0);
        let mut la = LateAcceptance::new(2);
        la.start(10.0, 4, None);
        // Iteration 0 (entry 0 = 10): 9 -> 9.5 is worse than current but <= 10.
        assert!(la.accept(9.0, 0.5, &mut rng));
        la.after(9.5, None); // entry 0 := 9.5
                             // Iteration 1 (entry 1 = 10): 9.5 -> 10.5 is above both.
        assert!(!la.accept(9.5, 1.0, &mut rng));
        la.after(9.5, None); // entry 1 := 9.5
                             // Iteration 2 (entry 0 = 9.5): 9.5 -> 9.6 above 9.5: rejected; 9.5 -> 9.5 kept.
        assert!(!la.accept(9.5, 0.1, &mut rng));
        assert!(la.accept(9.5, 0.0, &mut rng));
        la.after(9.7, None); // entry 0 stays 9.5 (never raised)
        assert_eq!(la.history, vec![9.5, 9.5]);
    }
}
