//! # Stop rules
//!
//! The executor, not the refiner, decides when a refinement stops: each [`Stop`] is checked
//! before every step, in the order interrupt (Ctrl-C), time limit, step budget, no
//! improvement, target, restarts, and the first that holds names the [`StopReason`]. A
//! refiner that runs until its own convergence without a budget does not stop itself: it
//! names the rule ([`Refiner::convergence`](crate::method::Refiner::convergence), e.g.
//! [`Stop::Restarts`]) and the executor adds it when the stage has neither a time limit nor
//! a step budget ([`Stops::with_convergence`]). Refiners see
//! only the share of the budget used ([`Stops::progress`], through
//! [`Ctx::progress`](crate::method::Ctx::progress)): by steps when a step budget is given
//! (repeatable), else by time.
//!
//! ```
//! use microagg::search::stop::{Stop, Stops};
//! use microagg::search::StopReason;
//! let stops = Stops::new(vec![Stop::MaxSteps(10), Stop::NoImprovement(3)]);
//! assert_eq!(stops.check(10, 0, 0, 1.0), Some(StopReason::StepLimit));
//! assert_eq!(stops.check(5, 3, 0, 1.0), Some(StopReason::NoImprovement));
//! assert_eq!(stops.check(5, 2, 0, 1.0), None);
//! assert_eq!(stops.progress(5), Some(0.5));
//! // A refiner's own convergence rule joins only a stage without a budget.
//! let free = Stops::new(vec![]).with_convergence(Some(Stop::Restarts(0)));
//! assert_eq!(free.check(5, 2, 1, 1.0), Some(StopReason::Converged));
//! assert_eq!(stops.with_convergence(Some(Stop::Restarts(0))).check(5, 2, 1, 1.0), None);
//! ```
//!
//! ## Complexity
//! O(number of rules) per step; a time limit reads the clock once.
//!
//! ## References
//! - argmin (Rust optimization library): termination reasons checked by the executor.

use crate::method::Budget;
use serde::{Deserialize, Serialize};
use std::time::Instant;

/// Why a refinement stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Converged,
    TimeLimit,
    /// The stage's step budget (`--max-steps`) was used up.
    StepLimit,
    Interrupted,
    /// [`Stop::NoImprovement`] steps passed without a new best.
    NoImprovement,
    /// The best SSE reached [`Stop::TargetSse`].
    TargetReached,
}

/// One stop rule.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stop {
    /// Stop at this instant (the run's `--time-limit`).
    TimeLimit(Instant),
    /// Stop after this many steps (`--max-steps`).
    MaxSteps(u64),
    /// Stop after this many steps in a row without a new best partition.
    NoImprovement(u64),
    /// Stop once the best SSE is at most this (e.g. a lower bound times 1 + gap).
    TargetSse(f64),
    /// Stop once the refiner has returned to its best partition more than this many times
    /// (`Ctx::restarted`) : it has converged (reason
    /// [`StopReason::Converged`]). ILS's and SA's rule without a budget.
    Restarts(u64),
}

/// The stop rules of one stage, with its [`Budget`] (time limit and step budget, from
/// the instant the stage started).
#[derive(Debug, Clone)]
pub struct Stops {
    rules: Vec<Stop>,
    budget: Budget,
}

impl Stops {
    pub fn new(rules: Vec<Stop>) -> Self {
        let deadline = rules.iter().find_map(|r| match r {
            Stop::TimeLimit(d) => Some(*d),
            _ => None,
        });
        let max_steps = rules.iter().find_map(|r| match r {
            Stop::MaxSteps(m) => Some(*m),
            _ => None,
        });
        Stops {
            rules,
            budget: Budget::new(deadline, max_steps),
        }
    }

    /// The rules of `--time-limit` (as a deadline) and `--max-steps`.
    pub fn budget(deadline: Option<Instant>, max_steps: Option<u64>) -> Self {
        let mut rules = Vec::new();
        rules.extend(deadline.map(Stop::TimeLimit));
        rules.extend(max_steps.map(Stop::MaxSteps));
        Stops::new(rules)
    }

    /// What refiners see of these rules (through [`Ctx`](crate::method::Ctx)).
    pub fn view(&self) -> Budget {
        self.budget
    }

    /// The deadline, if a time limit is among the rules.
    pub fn deadline(&self) -> Option<Instant> {
        self.budget.deadline()
    }

    /// The step budget, if one is among the rules.
    pub fn max_steps(&self) -> Option<u64> {
        self.budget.max_steps()
    }

    /// These rules and, when they hold neither a time limit nor a step budget, the
    /// refiner's own convergence rule `convergence`.
    pub fn with_convergence(mut self, convergence: Option<Stop>) -> Self {
        let budgeted = self.deadline().is_some() || self.max_steps().is_some();
        if !budgeted {
            self.rules.extend(convergence);
        }
        self
    }

    /// The first rule that holds after `steps` steps, `since_best` of them without a new
    /// best, `restarts` returns to the best, with best SSE `best_sse` (time limit first,
    /// then the others in the order step budget, no improvement, target, restarts).
    pub fn check(
        &self,
        steps: u64,
        since_best: u64,
        restarts: u64,
        best_sse: f64,
    ) -> Option<StopReason> {
        if self.deadline().is_some_and(|d| Instant::now() >= d) {
            return Some(StopReason::TimeLimit);
        }
        if self.max_steps().is_some_and(|m| steps >= m) {
            return Some(StopReason::StepLimit);
        }
        self.rules.iter().find_map(|r| match *r {
            Stop::NoImprovement(m) if since_best >= m => Some(StopReason::NoImprovement),
            Stop::TargetSse(t) if best_sse <= t => Some(StopReason::TargetReached),
            Stop::Restarts(m) if restarts > m => Some(StopReason::Converged),
            _ => None,
        })
    }

    /// Share of the budget used after `steps` steps ([`Budget::progress`]).
    pub fn progress(&self, steps: u64) -> Option<f64> {
        self.budget.progress(steps)
    }
}
