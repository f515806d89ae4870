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

// The neighbour lists live in the geometry room; this path stays for the search's own
// modules and for users of `microagg::search::neighbours`.
pub use crate::geometry::neighbours;
pub mod accept;
pub(crate) mod column_pool;
pub(crate) mod decompose_shrink;
pub mod descent;
pub mod exact_lns;
pub mod ils;
pub mod imhm;
pub mod kit;
pub(crate) mod lahc;
pub mod local_search;
pub mod moves;
pub mod observe;
pub mod operators;
pub mod perturb;
pub mod restart;
pub mod sa;
pub mod shared_lists;
pub mod stop;
pub(crate) mod tfrp2;
pub mod trace;
pub(crate) mod work_queue;

pub use crate::method::{Ctx, Refiner, SearchState, Stats, Step};
pub use observe::{Event, Observer};
pub use stop::{Stop, StopReason, Stops};

use observe::notify;

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::partition::Partition;
use crate::rng::Rng;
use shared_lists::ListCache;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Result of running a refiner to a stop.
pub struct RefineOutcome {
    pub partition: Partition,
    pub stop: StopReason,
    pub steps: u64,
    /// The refiner's counters ([`Refiner::stats`]).
    pub stats: Stats,
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
    let stops = Stops::budget(deadline, max_steps);
    execute(refiner, inst, k, start, rng, &stops, interrupt, &mut [])
}

/// The executor: run `refiner` from `start` until it converges, a [`Stop`](stop::Stop)
/// rule holds or `interrupt` is set, sending every step, new best, restart and the stage's
/// end with the refiner's [`Stats`] to `observers`. Returns the best partition seen, which
/// is feasible and never worse than `start`.
#[allow(clippy::too_many_arguments)]
pub fn execute(
    refiner: &mut dyn Refiner,
    inst: &Instance,
    k: usize,
    start: Partition,
    rng: &mut Rng,
    stops: &Stops,
    interrupt: &AtomicBool,
    observers: &mut [&mut dyn Observer],
) -> Result<RefineOutcome> {
    execute_shared(
        refiner,
        inst,
        k,
        start,
        rng,
        stops,
        interrupt,
        observers,
        &ListCache::new(),
    )
}

/// As [`execute`], with the run's neighbour lists `lists` (a pipeline shares one
/// [`ListCache`] between its stages, so each list is built once per run).
#[allow(clippy::too_many_arguments)]
pub(crate) fn execute_shared(
    refiner: &mut dyn Refiner,
    inst: &Instance,
    k: usize,
    start: Partition,
    rng: &mut Rng,
    stops: &Stops,
    interrupt: &AtomicBool,
    observers: &mut [&mut dyn Observer],
    lists: &ListCache,
) -> Result<RefineOutcome> {
    let t0 = Instant::now();
    let input_sse = start.sse();
    let mut state = SearchState::new(start);
    let name = refiner.name().to_string();
    let stage = name.as_str();
    notify(
        observers,
        inst,
        &Event::StageStart {
            stage,
            sse: input_sse,
        },
    );
    let stops = &stops.clone().with_convergence(refiner.convergence());
    let mut ctx = Ctx::new(inst, k, rng, stops.view(), interrupt, lists);
    refiner.init(&mut state, &mut ctx)?;
    let mut steps = 0u64;
    let mut since_best = 0u64;
    let stop = loop {
        if ctx.interrupted() {
            break StopReason::Interrupted;
        }
        if let Some(reason) = stops.check(steps, since_best, ctx.restarts(), state.best_sse()) {
            break reason;
        }
        steps += 1;
        ctx.set_steps(steps);
        let (best_before, restarts_before) = (state.best_sse(), ctx.restarts());
        let outcome = refiner.step(&mut state, &mut ctx)?;
        let improved = state.best_sse() < best_before;
        since_best = if improved { 0 } else { since_best + 1 };
        if !observers.is_empty() {
            let (current_sse, best_sse) = (state.current.sse(), state.best_sse());
            if ctx.restarts() > restarts_before {
                notify(observers, inst, &Event::Restart { stage, step: steps });
            }
            if improved {
                let e = Event::NewBest {
                    stage,
                    step: steps,
                    sse: best_sse,
                };
                notify(observers, inst, &e);
            }
            let e = Event::Step {
                stage,
                step: steps,
                current_sse,
                best_sse,
            };
            notify(observers, inst, &e);
        }
        if outcome == Step::Converged {
            break StopReason::Converged;
        }
    };
    state.record_if_better(k);
    let stats = refiner.stats();
    let partition = state.best(inst)?;
    if !partition.is_feasible(k) {
        return Err(Error::Algorithm {
            method: name,
            message: "returned an infeasible partition".into(),
        });
    }
    // The best-so-far is the input unless something strictly better was recorded.
    // (Unless the refiner minimised another objective: the weighted descent.)
    debug_assert!(!state.minimises_sse() || partition.sse() <= input_sse * (1.0 + 1e-9) + 1e-12);
    let end = Event::StageEnd {
        stage,
        steps,
        sse: partition.sse(),
        stop: Some(stop),
        stats: &stats,
    };
    notify(observers, inst, &end);
    Ok(RefineOutcome {
        partition,
        stop,
        steps,
        stats,
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
pub(crate) const MAX_TIME_LIMIT: f64 = 1e9;

/// Check a time limit in seconds: positive, finite and at most `MAX_TIME_LIMIT`.
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
