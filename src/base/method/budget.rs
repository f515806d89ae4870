//! # Stage budget
//!
//! [`Budget`]: a stage's time limit and/or step budget from the instant the stage started,
//! as refiners see it through [`Ctx`](super::Ctx) (the share used, never the raw deadline).
//! Moved out of [`super`] unchanged.
//!
//! ## Complexity
//! O(1) per call.
//!
//! ## References
//! - argmin (Rust optimization library, S. Kroboth and contributors): the executor owns the
//!   budget and the stop rules, a solver only sees its state.

use std::time::Instant;

/// A stage's budget as refiners see it: a time limit and/or a step budget, from the
/// instant the stage started. The executor's stop rules
/// ([`Stops`](crate::search::stop::Stops)) hold one.
#[derive(Debug, Clone, Copy)]
pub struct Budget {
    deadline: Option<Instant>,
    max_steps: Option<u64>,
    started: Instant,
}

impl Budget {
    /// A budget starting now.
    pub fn new(deadline: Option<Instant>, max_steps: Option<u64>) -> Self {
        Budget {
            deadline,
            max_steps,
            started: Instant::now(),
        }
    }

    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    pub fn max_steps(&self) -> Option<u64> {
        self.max_steps
    }

    /// Share of the budget used after `steps` steps, in [0, 1]: by steps with a step
    /// budget (repeatable), else by elapsed time with a time limit, else `None`.
    pub fn progress(&self, steps: u64) -> Option<f64> {
        if let Some(m) = self.max_steps {
            return Some((steps as f64 / m.max(1) as f64).min(1.0));
        }
        let d = self.deadline?;
        let total = d.saturating_duration_since(self.started).as_secs_f64();
        if total <= 0.0 {
            return Some(1.0);
        }
        Some((self.started.elapsed().as_secs_f64() / total).min(1.0))
    }

    /// Seconds until the time limit (0 once passed), if there is one.
    pub(crate) fn seconds_left(&self) -> Option<f64> {
        self.deadline
            .map(|d| d.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// Seconds since the stage started.
    pub fn elapsed(&self) -> f64 {
        self.started.elapsed().as_secs_f64()
    }
}
