//! # Method contracts
//!
//! The contracts every algorithm implements and nothing else: an [`Initializer`] builds a
//! partition from nothing, a [`Refiner`] improves one a bounded [`Step`] at a time on a
//! [`SearchState`] through a [`Ctx`], and [`MethodInfo`] describes a method (name,
//! reference, documented parameters with defaults, factory). Each algorithm module exposes
//! `pub fn method() -> MethodInfo`; the one list of them is
//! [`registry`](crate::registry::registry), at the top of the crate, so this file imports
//! no algorithm and no algorithm imports the registry.
//!
//! ## Complexity
//! O(1) per call; [`SearchState::record_if_better`] copies the labels, O(n).
//!
//! ## References
//! - argmin (Rust optimization library, S. Kroboth and contributors): a solver implements
//!   one step method, an executor owns the loop, the stop rules and the observers.
//! - linfa (Rust machine-learning toolkit): `Params -> check() -> ValidParams`.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::geometry::neighbours::Neighbours;
use crate::params::{parse_params, Params};
use crate::partition::Partition;
use crate::rng::Rng;
use crate::search::shared_lists::{Build, ListCache};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

mod budget;
mod problem;
mod stats;

pub use budget::Budget;
pub use problem::{BuildCtx, Problem, StopRule};
pub use stats::Stats;

/// Builds a feasible partition (every group of at least k records). Registered with
/// [`MethodInfo::initializer`] and one line in [`registry`](crate::registry::registry).
///
/// ```
/// use microagg::method::{BuildCtx, Initializer, MethodInfo, Problem};
/// use microagg::params::NoParams;
/// use microagg::partition::Partition;
///
/// /// Consecutive records in groups of k, the remainder joining the last group.
/// struct Chunks;
/// impl Initializer for Chunks {
///     fn name(&self) -> &str { "chunks" }
///     fn build(&self, problem: &Problem, _ctx: &mut BuildCtx) -> microagg::Result<Partition> {
///         let (inst, k) = (problem.inst(), problem.k());
///         let groups = (inst.n / k).max(1);
///         let labels = (0..inst.n).map(|i| (i / k).min(groups - 1)).collect();
///         Partition::from_labels(inst, labels)
///     }
/// }
///
/// let info = MethodInfo::initializer("chunks", "consecutive groups", "none", |_: NoParams| Chunks);
/// let init = info.make_initializer(&Default::default()).unwrap();
/// let inst = microagg::data::load("uniform:n=10,d=2,seed=1",
///     &microagg::data::ColumnSelection::All).unwrap();
/// let mut rng = <microagg::rng::Rng as rand::SeedableRng>::seed_from_u64(0);
/// let problem = Problem::new(&inst, 3).unwrap();
/// let p = init.build(&problem, &mut BuildCtx::new(&mut rng)).unwrap();
/// assert!(p.is_feasible(3) && p.num_groups() == 3);
/// ```
pub trait Initializer: Send {
    fn name(&self) -> &str;
    /// A feasible partition of `problem`; [`Error::Interrupted`] when `ctx`'s stop rule
    /// fires first.
    fn build(&self, problem: &Problem, ctx: &mut BuildCtx) -> Result<Partition>;
}

/// What a registered method is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MethodKind {
    Initializer,
    Refiner,
}

/// Builds a stage's algorithm from parameters parsed and checked once
/// ([`MethodInfo::prepare`]): each call makes a fresh algorithm from a copy of the typed
/// parameters, with no JSON in between.
#[derive(Clone)]
pub enum Maker {
    Init(Arc<dyn Fn() -> Box<dyn Initializer> + Send + Sync>),
    Refine(Arc<dyn Fn() -> Box<dyn Refiner> + Send + Sync>),
}

impl std::fmt::Debug for Maker {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(match self {
            Maker::Init(_) => "Maker::Init",
            Maker::Refine(_) => "Maker::Refine",
        })
    }
}

impl Maker {
    pub fn kind(&self) -> MethodKind {
        match self {
            Maker::Init(_) => MethodKind::Initializer,
            Maker::Refine(_) => MethodKind::Refiner,
        }
    }
}

/// A registered method with its parameters validated: the effective parameters (defaults
/// filled in, as JSON for records) and the [`Maker`] holding the typed ones.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub params: Value,
    pub maker: Maker,
}

type Prepare = Arc<dyn Fn(&Map<String, Value>) -> Result<Prepared> + Send + Sync>;

/// A registry entry: name, description, parameters with defaults, and a factory.
#[derive(Clone)]
pub struct MethodInfo {
    pub name: &'static str,
    pub summary: &'static str,
    pub reference: &'static str,
    /// (parameter, description) pairs.
    pub params_doc: &'static [(&'static str, &'static str)],
    /// Default parameters as JSON.
    pub defaults: Value,
    /// The method needs one-attribute data (d = 1).
    pub one_attribute: bool,
    /// The method runs on data with missing cells, on the masked SSE
    /// (`MethodInfo::runs_on_missing_cells`); every other is refused there.
    pub missing_cells: bool,
    /// Whether the method draws random numbers ([`Randomness`]); [`Randomness::Random`]
    /// unless declared ([`MethodInfo::deterministic`], `MethodInfo::deterministic_when`).
    pub randomness: Randomness,
    kind: MethodKind,
    /// User-given parameters -> typed, checked parameters and their maker.
    prepare: Prepare,
}

/// Whether a method draws random numbers. A deterministic method's result depends on the
/// data, k and its parameters (and, under a time limit, on when the clock stops it), never on
/// the seed: the `Rng` of [`Initializer::build`] and [`Ctx::rng`] stay untouched. An
/// experiment runs a pipeline of deterministic stages once per case, not once per seed.
/// `tests/run/determinism.rs` checks every declaration both ways (a deterministic method draws
/// nothing, any other draws).
#[derive(Debug, Clone, Copy)]
pub enum Randomness {
    /// It draws random numbers; the default, so that a method not known to ignore them is
    /// never run once for all seeds.
    Random,
    /// It never draws one, whatever its parameters.
    Deterministic,
    /// It draws none when `test` holds for its effective parameters (JSON, defaults filled
    /// in); `otherwise` says in words when it does (`list` and the docs show it).
    DeterministicWhen {
        test: fn(&Value) -> bool,
        otherwise: &'static str,
    },
}

/// Parse and check `given` into `P` once; the maker clones the typed value per algorithm.
fn prepare_with<P: Params>(
    name: &'static str,
    given: &Map<String, Value>,
    maker: impl FnOnce(P) -> Maker,
) -> Result<Prepared> {
    let p: P = parse_params(name, given)?;
    Ok(Prepared {
        params: serde_json::to_value(&p).expect("params serialise"),
        maker: maker(p),
    })
}

impl MethodInfo {
    fn new<P: Params>(
        name: &'static str,
        summary: &'static str,
        reference: &'static str,
        kind: MethodKind,
        maker: impl Fn(P) -> Maker + Send + Sync + 'static,
    ) -> Self {
        let prepare: Prepare = Arc::new(move |given| prepare_with(name, given, &maker));
        MethodInfo {
            name,
            summary,
            reference,
            params_doc: P::DOC,
            defaults: serde_json::to_value(P::default()).expect("params serialise"),
            one_attribute: false,
            missing_cells: false,
            randomness: Randomness::Random,
            kind,
            prepare,
        }
    }

    /// Register an initializer with parameters `P`, made by `make`.
    pub fn initializer<P: Params, I: Initializer + 'static>(
        name: &'static str,
        summary: &'static str,
        reference: &'static str,
        make: fn(P) -> I,
    ) -> Self {
        Self::new(
            name,
            summary,
            reference,
            MethodKind::Initializer,
            move |p: P| {
                Maker::Init(Arc::new(move || {
                    Box::new(make(p.clone())) as Box<dyn Initializer>
                }))
            },
        )
    }

    /// Register a refiner with parameters `P`, made by `make`.
    pub fn refiner<P: Params, R: Refiner + 'static>(
        name: &'static str,
        summary: &'static str,
        reference: &'static str,
        make: fn(P) -> R,
    ) -> Self {
        Self::new(
            name,
            summary,
            reference,
            MethodKind::Refiner,
            move |p: P| {
                Maker::Refine(Arc::new(move || {
                    Box::new(make(p.clone())) as Box<dyn Refiner>
                }))
            },
        )
    }

    /// Mark the method as needing one-attribute data (d = 1).
    pub fn one_attribute(mut self) -> Self {
        self.one_attribute = true;
        self
    }

    /// Declare that the method runs on data with missing cells (`--missing ignore`): its
    /// distances, centroids and moves are those of the masked SSE (`crate::missing`).
    pub(crate) fn runs_on_missing_cells(mut self) -> Self {
        self.missing_cells = true;
        self
    }

    /// Declare that the method draws no random number, whatever its parameters
    /// ([`Randomness::Deterministic`]).
    pub fn deterministic(mut self) -> Self {
        self.randomness = Randomness::Deterministic;
        self
    }

    /// Declare that the method draws no random number when `test` holds for its effective
    /// parameters, `otherwise` saying in words when it draws ([`Randomness::DeterministicWhen`]).
    pub(crate) fn deterministic_when(
        mut self,
        test: fn(&Value) -> bool,
        otherwise: &'static str,
    ) -> Self {
        self.randomness = Randomness::DeterministicWhen { test, otherwise };
        self
    }

    /// True when the method with the effective parameters `params` draws no random number.
    pub fn is_deterministic(&self, params: &Value) -> bool {
        match self.randomness {
            Randomness::Random => false,
            Randomness::Deterministic => true,
            Randomness::DeterministicWhen { test, .. } => test(params),
        }
    }

    pub fn kind(&self) -> MethodKind {
        self.kind
    }

    /// Parse and check user-given parameters once into the method's typed parameters
    /// (unknown keys and bad values are errors naming the method and key).
    pub fn prepare(&self, given: &Map<String, Value>) -> Result<Prepared> {
        (self.prepare)(given)
    }

    /// Validated parameters with defaults filled in.
    pub fn effective_params(&self, given: &Map<String, Value>) -> Result<Value> {
        Ok(self.prepare(given)?.params)
    }

    pub fn make_initializer(&self, given: &Map<String, Value>) -> Result<Box<dyn Initializer>> {
        match self.kind {
            MethodKind::Initializer => self.prepare(given)?.initializer(self.name),
            MethodKind::Refiner => Err(Error::usage(format!(
                "'{}' is a refiner: it must follow an initializer (e.g. mdav+{})",
                self.name, self.name
            ))),
        }
    }

    pub fn make_refiner(&self, given: &Map<String, Value>) -> Result<Box<dyn Refiner>> {
        match self.kind {
            MethodKind::Refiner => self.prepare(given)?.refiner(self.name),
            MethodKind::Initializer => Err(Error::usage(format!(
                "'{}' is an initializer: it can only be the first stage of a pipeline",
                self.name
            ))),
        }
    }
}

impl Prepared {
    /// A fresh initializer (an error if the method `name` is a refiner).
    pub fn initializer(&self, name: &str) -> Result<Box<dyn Initializer>> {
        match &self.maker {
            Maker::Init(make) => Ok(make()),
            Maker::Refine(_) => Err(Error::usage(format!("'{name}' is a refiner"))),
        }
    }

    /// A fresh refiner (an error if the method `name` is an initializer).
    pub fn refiner(&self, name: &str) -> Result<Box<dyn Refiner>> {
        match &self.maker {
            Maker::Refine(make) => Ok(make()),
            Maker::Init(_) => Err(Error::usage(format!("'{name}' is an initializer"))),
        }
    }
}

/// Outcome of one refiner step.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Step {
    Continue,
    Converged,
}

/// The partition being refined and the best one seen.
pub struct SearchState {
    pub current: Partition,
    best_labels: Vec<usize>,
    best_sse: f64,
    /// False once a refiner minimising another objective (the weighted SSE of
    /// `--weights`) has taken over the best partition ([`SearchState::set_best_to_current`]).
    minimises_sse: bool,
}

impl SearchState {
    pub fn new(start: Partition) -> Self {
        SearchState {
            best_labels: start.labels().to_vec(),
            best_sse: start.sse(),
            current: start,
            minimises_sse: true,
        }
    }

    /// For a refiner that minimises another objective than the SSE (the weighted descent,
    /// which never worsens its own objective): the current partition becomes the best one,
    /// whatever its SSE, and [`record_if_better`](Self::record_if_better) no longer replaces
    /// it. `best_sse` is then the SSE of that partition (what observers report).
    pub(crate) fn set_best_to_current(&mut self) {
        self.minimises_sse = false;
        self.best_sse = self.current.sse();
        self.best_labels.clear();
        self.best_labels.extend_from_slice(self.current.labels());
    }

    /// True unless [`set_best_to_current`](Self::set_best_to_current) was called.
    pub(crate) fn minimises_sse(&self) -> bool {
        self.minimises_sse
    }

    pub fn best_sse(&self) -> f64 {
        self.best_sse
    }

    /// Remember the current partition if it is feasible and better than the best so far.
    pub fn record_if_better(&mut self, k: usize) -> bool {
        if self.minimises_sse && self.current.sse() < self.best_sse && self.current.is_feasible(k) {
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
    pub(crate) fn record_labels_if_better(&mut self, labels: &[usize], sse: f64) -> bool {
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

/// What a refiner may read and use during a step. The budget is the executor's: a
/// refiner sees the share of it used ([`Ctx::progress`]), never the raw deadline.
pub struct Ctx<'a> {
    pub inst: &'a Instance,
    pub k: usize,
    pub rng: &'a mut Rng,
    budget: Budget,
    /// The run's neighbour lists ([`Ctx::neighbours`]).
    lists: &'a ListCache,
    interrupt: &'a AtomicBool,
    /// Steps started so far in this stage (the current one included).
    steps: u64,
    /// Restarts the refiner reported ([`Ctx::restarted`]).
    restarts: u64,
}

impl<'a> Ctx<'a> {
    /// The context of one stage (made by the executor).
    pub fn new(
        inst: &'a Instance,
        k: usize,
        rng: &'a mut Rng,
        budget: Budget,
        interrupt: &'a AtomicBool,
        lists: &'a ListCache,
    ) -> Self {
        Ctx {
            inst,
            k,
            rng,
            budget,
            lists,
            interrupt,
            steps: 0,
            restarts: 0,
        }
    }

    /// The `m` nearest records of every record, built once per run and shared by every
    /// stage and operator that asks ([`ListCache`]); `None` when a time limit or Ctrl-C
    /// stopped the build (the stage then returns its input).
    pub fn neighbours(&self, m: usize, build: Build) -> Option<Arc<Neighbours>> {
        self.lists.get(self.inst, m, build, || self.should_stop())
    }

    /// Steps started so far in this stage (the current one included).
    pub fn steps(&self) -> u64 {
        self.steps
    }

    pub(crate) fn set_steps(&mut self, steps: u64) {
        self.steps = steps;
    }

    /// Share of the budget used, in [0, 1]: of the step budget when one was given (so that
    /// step-budgeted runs repeat bit for bit), else of the time limit; `None` without a
    /// budget. Schedules that run down a budget (ILS's temperature) use it.
    pub fn progress(&self) -> Option<f64> {
        self.budget.progress(self.steps)
    }

    /// True when the stage runs under a time limit.
    pub(crate) fn has_time_limit(&self) -> bool {
        self.budget.deadline().is_some()
    }

    /// Seconds left before the time limit, if there is one (for a sub-solver's own limit).
    pub(crate) fn seconds_left(&self) -> Option<f64> {
        self.budget.seconds_left()
    }

    /// Seconds since the stage started.
    pub fn elapsed(&self) -> f64 {
        self.budget.elapsed()
    }

    /// True once the deadline has passed or the run was interrupted (Ctrl-C).
    pub fn should_stop(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
            || self.budget.deadline().is_some_and(|d| Instant::now() >= d)
    }

    /// The run's interrupt flag (Ctrl-C), for a sub-solver that polls it.
    pub(crate) fn interrupt_flag(&self) -> &AtomicBool {
        self.interrupt
    }

    /// True once the run was interrupted (Ctrl-C).
    pub fn interrupted(&self) -> bool {
        self.interrupt.load(Ordering::Relaxed)
    }

    /// Report that the refiner went back to its best partition (observers see a
    /// `Restart` event).
    pub(crate) fn restarted(&mut self) {
        self.restarts += 1;
    }

    /// Restarts reported so far.
    pub fn restarts(&self) -> u64 {
        self.restarts
    }
}

/// An improvement method over partitions: one required method, [`Refiner::step`]; the
/// executor ([`execute`](crate::search::execute)) owns the loop, the budget, the stop rules
/// and the observers.
///
/// ```
/// use microagg::method::{Ctx, Refiner, SearchState, Step};
/// use microagg::search::{execute, stop::Stops, StopReason};
/// use rand::SeedableRng;
///
/// /// Tries to move each record once to the group of the next record, if that helps.
/// struct NextGroup(usize);
/// impl Refiner for NextGroup {
///     fn name(&self) -> &str { "next-group" }
///     fn step(&mut self, s: &mut SearchState, ctx: &mut Ctx) -> microagg::Result<Step> {
///         let (i, n) = (self.0, ctx.inst.n);
///         if i + 1 >= n { return Ok(Step::Converged); }
///         let to = s.current.group_of(i + 1);
///         let p = &mut s.current;
///         if p.size(p.group_of(i)) > ctx.k && p.shift_delta(ctx.inst, i, to) < 0.0 {
///             p.apply_shift(ctx.inst, i, to);
///             s.record_if_better(ctx.k);
///         }
///         self.0 += 1;
///         Ok(Step::Continue)
///     }
/// }
///
/// let inst = microagg::data::load("uniform:n=60,d=2,seed=1",
///     &microagg::data::ColumnSelection::All).unwrap();
/// let start = microagg::pipeline::Pipeline::parse("mdav", &[]).unwrap()
///     .run(&inst, 3, 0, None, &Default::default()).unwrap().partition;
/// let mut rng = microagg::rng::Rng::seed_from_u64(0);
/// let out = execute(&mut NextGroup(0), &inst, 3, start, &mut rng, &Stops::new(vec![]),
///     &Default::default(), &mut []).unwrap();
/// assert_eq!(out.stop, StopReason::Converged);
/// assert!(out.partition.is_feasible(3));
/// ```
pub trait Refiner: Send {
    fn name(&self) -> &str;
    /// Called once before the first step.
    fn init(&mut self, _state: &mut SearchState, _ctx: &mut Ctx) -> Result<()> {
        Ok(())
    }
    /// One bounded unit of work; call `state.record_if_better` after improvements.
    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step>;
    /// The stop rule that ends the stage when it runs with neither a time limit nor a step
    /// budget (e.g. [`Stop::Restarts`](crate::search::Stop::Restarts)); the executor adds
    /// it, so a refiner never asks which budget it runs under. None by default: the
    /// refiner converges by returning [`Step::Converged`].
    fn convergence(&self) -> Option<crate::search::Stop> {
        None
    }
    /// Counters of the stage so far (written into run records); none by default.
    fn stats(&self) -> Stats {
        Stats::default()
    }
}
