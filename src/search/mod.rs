//! # Refinement framework
//!
//! A [`Refiner`] improves a feasible partition one bounded step at a time; the executor
//! ([`refine`]) owns the loop, the clock and the stop rules (argmin's shape), keeps the best
//! partition seen, and guarantees that what it returns is feasible and never worse than its
//! input. Local search, simulated annealing, ILS, IMHM and decompose/shrink are refiners.

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
}

impl Ctx<'_> {
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
    let t0 = Instant::now();
    let input_sse = start.sse();
    let mut state = SearchState::new(start);
    let mut ctx = Ctx {
        inst,
        k,
        rng,
        deadline,
        interrupt,
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
        steps += 1;
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

/// Deadline `secs` seconds from now (None for no limit).
pub fn deadline_after(secs: Option<f64>) -> Option<Instant> {
    secs.map(|s| Instant::now() + Duration::from_secs_f64(s.max(0.0)))
}
