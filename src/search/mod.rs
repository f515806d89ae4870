//! # Refinement framework
//!
//! A [`Refiner`] improves a feasible partition one bounded step at a time; the executor
//! ([`refine`]) owns the loop, the clock and the stop rules (argmin's shape), keeps the best
//! partition seen, and guarantees that what it returns is feasible and never worse than its
//! input. Local search, simulated annealing, ILS, IMHM and decompose/shrink are refiners.
//!
//! Two budgets stop a refiner: a wall-clock deadline (`--time-limit`), whose result depends
//! on the machine's speed and load, and a step budget (`--max-steps`), which stops each
//! refiner stage after that many steps and so repeats bit for bit. With a step budget the
//! refiners with a budget-driven schedule (ILS) run it over the steps
//! ([`Ctx::progress`]) instead of over the clock.

pub mod column_pool;
pub mod decompose_shrink;
pub mod descent;
pub mod ils;
pub mod imhm;
pub mod moves;
pub mod neighbours;
pub mod sa;
pub mod tfrp2;
pub mod trace;

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::partition::Partition;
use crate::rng::Rng;
use serde::Serialize;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Outcome of one refiner step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Continue,
    Converged,
}

/// Why a refinement stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    Converged,
    TimeLimit,
    /// The stage's step budget (`--max-steps`) was used up.
    StepLimit,
    Interrupted,
}

/// The partition being refined and the best one seen.
pub struct SearchState {
    pub current: Partition,
    best_labels: Vec<usize>,
    best_sse: f64,
}

impl SearchState {
    pub fn new(start: Partition) -> Self {
        SearchState {
            best_labels: start.labels().to_vec(),
            best_sse: start.sse(),
            current: start,
        }
    }

    pub fn best_sse(&self) -> f64 {
        self.best_sse
    }

    /// Remember the current partition if it is feasible and better than the best so far.
    pub fn record_if_better(&mut self, k: usize) -> bool {
        if self.current.sse() < self.best_sse && self.current.is_feasible(k) {
            self.best_sse = self.current.sse();
            self.best_labels.clear();
            self.best_labels.extend_from_slice(self.current.labels());
            true
        } else {
            false
        }
    }

    /// Labels of the best partition seen.
    pub fn best_labels(&self) -> &[usize] {
        &self.best_labels
    }

    /// Remember `labels` (a partition of SSE `sse`, feasible for k, found outside the
    /// current trajectory) if it is better than the best so far; the current partition is
    /// left alone.
    pub fn record_labels_if_better(&mut self, labels: &[usize], sse: f64) -> bool {
        if sse < self.best_sse {
            self.best_sse = sse;
            self.best_labels.clear();
            self.best_labels.extend_from_slice(labels);
            true
        } else {
            false
        }
    }

    /// The best partition seen (rebuilt from its labels with fresh statistics).
    pub fn best(&self, inst: &Instance) -> Result<Partition> {
        Partition::from_labels(inst, self.best_labels.clone())
    }
}

/// What a refiner may read and use during a step.
pub struct Ctx<'a> {
    pub inst: &'a Instance,
    pub k: usize,
    pub rng: &'a mut Rng,
    pub deadline: Option<Instant>,
    pub interrupt: &'a AtomicBool,
    /// The stage's step budget, when one was given (`--max-steps`).
    pub max_steps: Option<u64>,
    /// Steps started so far in this stage (the current one included).
    pub steps: u64,
}

impl Ctx<'_> {
    /// Share of the step budget used, in [0, 1]; `None` without a step budget. Schedules
    /// that run down a budget use it, so that step-budgeted runs repeat bit for bit.
    pub fn progress(&self) -> Option<f64> {
        self.max_steps
            .map(|m| (self.steps as f64 / m.max(1) as f64).min(1.0))
    }

    /// True when the stage runs under a budget (time or steps), false when it runs until
    /// its own convergence rule.
    pub fn has_budget(&self) -> bool {
        self.deadline.is_some() || self.max_steps.is_some()
    }

    /// True once the deadline has passed or the run was interrupted (Ctrl-C).
    pub fn should_stop(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed) || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// An improvement method over partitions.
pub trait Refiner: Send {
    fn name(&self) -> &str;
    /// Called once before the first step.
    fn init(&mut self, _state: &mut SearchState, _ctx: &mut Ctx) -> Result<()> {
        Ok(())
    }
    /// One bounded unit of work; call `state.record_if_better` after improvements.
    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step>;
}

/// Result of running a refiner to a stop.
pub struct RefineOutcome {
    pub partition: Partition,
    pub stop: StopReason,
    pub steps: u64,
    pub seconds: f64,
}

/// Run `refiner` from `start` until it converges, the deadline passes or `interrupt` is set.
pub fn refine(
    refiner: &mut dyn Refiner,
    inst: &Instance,
    k: usize,
    start: Partition,
    rng: &mut Rng,
    deadline: Option<Instant>,
    interrupt: &AtomicBool,
) -> Result<RefineOutcome> {
    refine_with(refiner, inst, k, start, rng, deadline, None, interrupt)
}

/// As [`refine`], also stopping after `max_steps` steps when given.
#[allow(clippy::too_many_arguments)]
pub fn refine_with(
    refiner: &mut dyn Refiner,
    inst: &Instance,
    k: usize,
    start: Partition,
    rng: &mut Rng,
    deadline: Option<Instant>,
    max_steps: Option<u64>,
    interrupt: &AtomicBool,
) -> Result<RefineOutcome> {
    let t0 = Instant::now();
    let input_sse = start.sse();
    let mut state = SearchState::new(start);
    let mut ctx = Ctx {
        inst,
        k,
        rng,
        deadline,
        interrupt,
        max_steps,
        steps: 0,
    };
    refiner.init(&mut state, &mut ctx)?;
    let mut steps = 0u64;
    let stop = loop {
        if ctx.interrupt.load(Ordering::Relaxed) {
            break StopReason::Interrupted;
        }
        if ctx.deadline.is_some_and(|d| Instant::now() >= d) {
            break StopReason::TimeLimit;
        }
        if max_steps.is_some_and(|m| steps >= m) {
            break StopReason::StepLimit;
        }
        steps += 1;
        ctx.steps = steps;
        let outcome = refiner.step(&mut state, &mut ctx)?;
        trace::observe(
            inst,
            refiner.name(),
            steps,
            state.current.sse(),
            state.best_sse(),
            false,
        );
        if outcome == Step::Converged {
            break StopReason::Converged;
        }
    };
    state.record_if_better(k);
    trace::observe(
        inst,
        refiner.name(),
        steps,
        state.current.sse(),
        state.best_sse(),
        true,
    );
    let partition = state.best(inst)?;
    if !partition.is_feasible(k) {
        return Err(Error::Algorithm {
            method: refiner.name().into(),
            message: "returned an infeasible partition".into(),
        });
    }
    // The best-so-far is the input unless something strictly better was recorded.
    debug_assert!(partition.sse() <= input_sse * (1.0 + 1e-9) + 1e-12);
    Ok(RefineOutcome {
        partition,
        stop,
        steps,
        seconds: t0.elapsed().as_secs_f64(),
    })
}

/// Deadline `secs` seconds from now (None for no limit). A limit beyond what the clock can
/// represent is no limit (callers reject such values first, see [`check_time_limit`]).
pub fn deadline_after(secs: Option<f64>) -> Option<Instant> {
    let s = secs?;
    let d = Duration::try_from_secs_f64(s.max(0.0)).ok()?;
    Instant::now().checked_add(d)
}

/// The largest time limit accepted, in seconds (about 31.7 years).
pub const MAX_TIME_LIMIT: f64 = 1e9;

/// Check a time limit in seconds: positive, finite and at most [`MAX_TIME_LIMIT`].
pub fn check_time_limit(t: f64) -> Result<(), String> {
    if !(t > 0.0 && t.is_finite()) {
        return Err(format!("{t}: must be a positive number of seconds"));
    }
    if t > MAX_TIME_LIMIT {
        return Err(format!(
            "{t} s is more than the largest limit accepted, {MAX_TIME_LIMIT:e} s (about 31 \
             years); leave the limit out for none"
        ));
    }
    Ok(())
}
