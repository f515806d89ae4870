//! # The schedule of a column-generation run
//!
//! A run is a list of [`Step`]s, each a [`Phase`] and the [`Share`] of the time limit that
//! fixes where the phase ends. [`Schedule::from_options`] builds the list the options ask
//! for; [`TimeShares`] is the one place where the options' fractions become phase ends and
//! where their combinations are checked. A schedule is checked once when it is built:
//! every share in `[0, 1)`, and every phase after the phases whose output it reads
//! ([`Phase::needs`]). Running it hands each phase its [`PhaseBudget`] (its deadline,
//! computed when it starts) and the run's [`ColgenState`].
//!
//! ```text
//! nn ascent | box ascent | incumbent box | aggregate | certified smoothing
//!   | column generation (+ cut rounds)                                                 main
//! final solve | lp segment | push-project | slack push | pool master | tighten | final evaluations
//! ```
//!
//! ## Complexity
//! O(phases) besides the phases.
//!
//! ## References
//! See [`super`] and each phase.

use super::observer::ColgenObserver;
use super::phases;
use super::state::ColgenState;
use super::{ColgenError, ColgenOptions};
use crate::deadline::Deadline;
use std::time::{Duration, Instant};

/// The phases a schedule can hold (each in its own file under `phases/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// Line search from the nn duals along the best start partition's slacks.
    NnAscent,
    /// Box-step ascent on the anchored bound from the best point so far.
    BoxAscent,
    /// Place the full master's dual box around the incumbent's dual estimates.
    IncumbentBox,
    /// Column generation on the aggregated master, its columns seeding the full master.
    Aggregate,
    /// Wentges smoothing with every smoothed point certified (replaces column generation).
    CertifiedSmoothing,
    /// Column generation with heuristic and exact pricing, box and cut rounds.
    ColumnGeneration,
    /// Re-solve the master for the duals the final phases start from.
    FinalSolve,
    /// Line search from the best point toward the master's duals.
    LpSegment,
    /// Push-and-project along the line search's direction.
    PushProject,
    /// Push-and-project along the best start partition's slacks.
    SlackPush,
    /// Unboxed restricted master over the pool, midpoints certified.
    PoolMaster,
    /// Re-certify the best point at smaller anchor thresholds.
    Tighten,
    /// Evaluate the bound at the final duals and the last separation point.
    FinalEvaluations,
}

impl Phase {
    /// The phase whose output this one reads (it must come earlier in the schedule).
    pub fn needs(self) -> Option<Phase> {
        match self {
            Phase::LpSegment | Phase::FinalEvaluations => Some(Phase::FinalSolve),
            Phase::PushProject | Phase::SlackPush | Phase::PoolMaster | Phase::Tighten => {
                Some(Phase::LpSegment)
            }
            _ => None,
        }
    }

    /// Run the phase on `state` within `budget`.
    fn run(
        self,
        state: &mut ColgenState,
        budget: PhaseBudget,
        obs: &mut dyn ColgenObserver,
    ) -> Result<(), ColgenError> {
        match self {
            Phase::NnAscent => phases::nn_ascent::run(state, budget, obs),
            Phase::BoxAscent => phases::box_ascent::run(state, budget, obs),
            Phase::IncumbentBox => phases::incumbent_box::run(state, budget, obs),
            Phase::Aggregate => phases::aggregate::run(state, budget, obs),
            Phase::CertifiedSmoothing => phases::certified_smoothing::run(state, budget, obs),
            Phase::ColumnGeneration => phases::column_generation::run(state, budget, obs),
            Phase::FinalSolve => phases::final_solve::run(state, budget, obs),
            Phase::LpSegment => phases::lp_segment::run(state, budget, obs),
            Phase::PushProject => phases::push_project::run(state, budget, obs),
            Phase::SlackPush => phases::slack_push::run(state, budget, obs),
            Phase::PoolMaster => phases::pool_master::run(state, budget, obs),
            Phase::Tighten => phases::tighten::run(state, budget, obs),
            Phase::FinalEvaluations => phases::final_evaluations::run(state, budget, obs),
        }
    }
}

/// Where a phase ends, in fractions `f` of the time limit `T` (never past the run's end).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Share {
    /// At `start + f T`, `start` the run's start.
    FromStart(f64),
    /// At `f T` after the phase starts.
    FromPhaseStart(f64),
    /// At `end - f T`; with `halve`, halfway from the phase's start to there.
    BeforeEnd { reserve: f64, halve: bool },
    /// At the run's end.
    ToEnd,
}

impl Share {
    fn fraction(self) -> f64 {
        match self {
            Share::FromStart(f) | Share::FromPhaseStart(f) => f,
            Share::BeforeEnd { reserve, .. } => reserve,
            Share::ToEnd => 0.0,
        }
    }
}

/// What a phase may spend: it ends at `until` (which carries the run's stop flag).
#[derive(Debug, Clone, Copy)]
pub struct PhaseBudget<'a> {
    pub until: Deadline<'a>,
}

/// One phase of a schedule and its share of the time.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Step {
    pub phase: Phase,
    pub share: Share,
}

/// The options' fractions of the time limit, read once (module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TimeShares {
    pub nn_ascent: f64,
    pub subgradient: f64,
    pub final_fraction: f64,
    pub slack_push: f64,
    pub pool_master: f64,
    pub tighten: f64,
}

impl TimeShares {
    pub fn of(opts: &ColgenOptions) -> Self {
        TimeShares {
            nn_ascent: opts.nn_ascent,
            subgradient: opts.subgradient,
            final_fraction: opts.final_fraction,
            slack_push: opts.slack_push,
            pool_master: opts.pool_master,
            tighten: opts.tighten_fraction,
        }
    }

    /// The combinations of shares a run needs (each share's range is checked with its
    /// option): the phases before column generation leave it time, and the final ascents'
    /// shares come out of the final phase, whose start the line search needs too.
    pub fn check(&self) -> Result<(), String> {
        if !(0.0..1.0).contains(&self.subgradient) || self.nn_ascent + self.subgradient >= 1.0 {
            return Err("subgradient must be in [0, 1) and nn_ascent + subgradient below 1".into());
        }
        if self.slack_push > 0.0 && self.slack_push + self.tighten >= self.final_fraction {
            return Err("slack_push + tighten_fraction must be below final_fraction (their shares come out of the final phase)".into());
        }
        if self.pool_master > 0.0
            && self.slack_push + self.pool_master + self.tighten >= self.final_fraction
        {
            return Err("slack_push + pool_master + tighten_fraction must be below final_fraction (their shares come out of the final phase)".into());
        }
        Ok(())
    }

    /// Where `phase` ends (`push_project`: whether push-and-project follows the line
    /// search, which then takes half of the time up to the final ascents' shares). The
    /// final ascents' shares are reserved at the end of the run, in the order slack push,
    /// pool master, tighten; the line search's end leaves the slack and pool shares only.
    pub fn share(&self, phase: Phase, push_project: bool) -> Share {
        let main = 1.0 - self.final_fraction;
        match phase {
            Phase::NnAscent => Share::FromStart(self.nn_ascent),
            Phase::BoxAscent => Share::FromPhaseStart(self.subgradient),
            Phase::IncumbentBox
            | Phase::Aggregate
            | Phase::CertifiedSmoothing
            | Phase::ColumnGeneration => Share::FromStart(main),
            Phase::LpSegment => Share::BeforeEnd {
                reserve: self.slack_push + self.pool_master,
                halve: push_project,
            },
            Phase::PushProject => Share::BeforeEnd {
                reserve: self.tighten + self.slack_push + self.pool_master,
                halve: false,
            },
            Phase::SlackPush => Share::BeforeEnd {
                reserve: self.tighten + self.pool_master,
                halve: false,
            },
            Phase::PoolMaster => Share::BeforeEnd {
                reserve: self.tighten,
                halve: false,
            },
            Phase::FinalSolve | Phase::Tighten | Phase::FinalEvaluations => Share::ToEnd,
        }
    }
}

/// A checked list of steps (module doc).
#[derive(Debug, Clone, PartialEq)]
pub struct Schedule {
    steps: Vec<Step>,
}

impl Schedule {
    /// The schedule `opts` ask for. The final ascents need `lp_segment`; without it their
    /// options are checked but they do not run.
    pub fn from_options(opts: &ColgenOptions) -> Result<Self, ColgenError> {
        let shares = TimeShares::of(opts);
        shares.check().map_err(ColgenError::Params)?;
        let mut phases = Vec::new();
        let mut add = |on: bool, phase: Phase| {
            if on {
                phases.push(phase);
            }
        };
        add(opts.nn_ascent > 0.0, Phase::NnAscent);
        add(opts.subgradient > 0.0, Phase::BoxAscent);
        add(opts.incumbent_box, Phase::IncumbentBox);
        add(opts.aggregate, Phase::Aggregate);
        add(opts.certified_smoothing, Phase::CertifiedSmoothing);
        add(true, Phase::ColumnGeneration);
        add(true, Phase::FinalSolve);
        add(opts.lp_segment, Phase::LpSegment);
        add(opts.lp_segment && opts.push_project, Phase::PushProject);
        add(opts.lp_segment && opts.slack_push > 0.0, Phase::SlackPush);
        add(opts.lp_segment && opts.pool_master > 0.0, Phase::PoolMaster);
        add(
            opts.lp_segment && opts.tighten_fraction > 0.0,
            Phase::Tighten,
        );
        add(true, Phase::FinalEvaluations);
        let steps = phases
            .into_iter()
            .map(|phase| Step {
                phase,
                share: shares.share(phase, opts.push_project),
            })
            .collect();
        Schedule::new(steps)
    }

    /// A schedule of `steps`, checked: every share in `[0, 1)`, every phase after the one
    /// it needs.
    pub fn new(steps: Vec<Step>) -> Result<Self, ColgenError> {
        for (i, step) in steps.iter().enumerate() {
            let f = step.share.fraction();
            if !(0.0..1.0).contains(&f) {
                return Err(ColgenError::Params(format!(
                    "schedule: {:?} has share {f}, not in [0, 1)",
                    step.phase
                )));
            }
            if let Some(need) = step.phase.needs() {
                if !steps[..i].iter().any(|s| s.phase == need) {
                    return Err(ColgenError::Params(format!(
                        "schedule: {:?} needs {need:?} before it",
                        step.phase
                    )));
                }
            }
        }
        Ok(Schedule { steps })
    }

    /// The steps in order.
    pub fn steps(&self) -> &[Step] {
        &self.steps
    }

    /// Run every step in order on `state`.
    pub(super) fn run(
        &self,
        state: &mut ColgenState,
        obs: &mut dyn ColgenObserver,
    ) -> Result<(), ColgenError> {
        for step in &self.steps {
            let budget = PhaseBudget {
                until: phase_end(state, step.share),
            };
            obs.phase(step.phase);
            step.phase.run(state, budget, obs)?;
        }
        Ok(())
    }
}

/// The deadline of a phase with `share` that starts now.
fn phase_end<'a>(state: &ColgenState<'a>, share: Share) -> Deadline<'a> {
    let (deadline, limit) = (state.deadline, state.opts.time_limit);
    match share {
        Share::FromStart(f) => deadline.until(state.start + Duration::from_secs_f64(limit * f)),
        Share::FromPhaseStart(f) => {
            deadline.until(Instant::now() + Duration::from_secs_f64(limit * f))
        }
        Share::BeforeEnd { reserve, halve } => {
            let now = Instant::now();
            let end = deadline.instant();
            let reserved = Duration::from_secs_f64(limit * reserve);
            let before = deadline.until(end.checked_sub(reserved).unwrap_or(end));
            if halve {
                before.until(now + before.left() / 2)
            } else {
                before
            }
        }
        Share::ToEnd => deadline,
    }
}
