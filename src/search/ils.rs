//! # Iterated local search (ILS)
//!
//! In the spirit of Laszlo and Mukherjee (2015), a composition of the search kit's parts
//! (PyVRP's `IteratedLocalSearch(perturb, search, accept)`): descend ([`LocalSearch`] over
//! a list of operators, `ils.operators`, and nearest-neighbour candidate groups), then
//! repeat perturb - descend - accept or undo. The perturbation is drawn from a weighted
//! list ([`Perturb`], `ils.perturb`, [`Weighted`]); by default a pool-and-re-split of the
//! groups around a random record (`PoolResplit`: changes the number of groups locally),
//! or with probability `dissolve_rate` a dissolve or distill (`DissolveDistill`). The
//! acceptance rule ([`Accept`], `ils.accept`) is by default annealing: keep a result whose SSE did
//! not rise, or one that did with Metropolis probability at an outer temperature run down
//! over the budget (by steps with `--max-steps`, so repeatable; else by time); without a
//! budget the run starts at the cold end and cools by `cooling` per iteration, which keeps
//! it reproducible bit for bit. A rejected result is undone through the move log. Each part
//! is named with its own parameters in a suite (`ils.perturb = [{ pool_resplit = {..},
//! weight = 0.95 }, ..]`, `ils.accept = { late_acceptance = { length = 50 } }`,
//! `ils.operators = [{ shift = {} }, ..]`, see [`kit`](super::kit)); the flat keys set the
//! default parts. `lahc` is this refiner with the late-acceptance rule.
//! After `stall` iterations without a new best the search returns to the best partition
//! (a restart, reported to observers); without a budget the executor stops the stage at
//! that first restart ([`Stop::Restarts`]). Every
//! iteration is a step, so the time limit holds to within one perturbation and descent
//! (milliseconds).
//!
//! Options of the descent: `cycles` adds the 3-cycle operator to the default list
//! ([`LocalSearch`]); `split_large` splits, after each descent, every group of 2k or more
//! records whose split lowers the SSE (a group that large is never needed: splitting it
//! never raises the SSE, P30), then descends again. Options of the re-split: `settle`,
//! `sizes`, `carves`, `pool` (`PoolResplit`).
//!
//! Set-partitioning merge (`merge_pool`, off by default; the ILS-SP idea of Subramanian et
//! al. 2013): the distinct groups (k..2k-1 records) touched by kept iterations are collected
//! (`ColumnPool`); once `merge_pool` of them are held, a set-partitioning MIP on HiGHS
//! (`microagg_solvers::merge::solve_pool`) picks the least-SSE partition made of them and of
//! the best partition's groups, within `merge_time` seconds. A better answer becomes the best
//! partition; the search goes on from where it is (so that it keeps supplying new groups),
//! and the pool is emptied. With a time limit, merges take at most `merge_share` of the
//! elapsed time (a full pool is otherwise emptied unmerged). Off by default because the
//! MIPs pay only where they solve within about a second (EIA; see study-merge.txt).
//!
//! The defaults and options come from the studies under `studies/`:
//! study-ils-params.txt (stall, pool sizes), study-ils-schedule.txt (the budget-driven
//! schedule, start temperature, `max_pool`, `pool`), study-ils-moves.txt (`cycles`,
//! `split_large` on, `settle` and `sizes` off), study-merge.txt (`merge_*`).
//!
//! ## Complexity
//! Once, the neighbour lists ([`super::neighbours`]: a kd-tree all-kNN from 4096 records,
//! brute force O(n^2 d) below); per iteration O(P^2 d / k) for a pool of P
//! records plus the local descent; with merges, O(m log m) per touched group of m records
//! kept, and one MIP per `merge_pool` groups.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.
//! - Subramanian, A., Uchoa, E. and Ochi, L. S. (2013). A hybrid algorithm for a class of
//!   vehicle routing problems. Computers & Operations Research 40(10), 2519-2531.
//! - Lourenco, H. R., Martin, O. C. and Stutzle, T. (2003). Iterated local search. In
//!   Handbook of Metaheuristics, Kluwer, 321-353.

use super::accept::Accept;
use super::column_pool::ColumnPool;
use super::descent::Strategy;
use super::kit;
use super::local_search::LocalSearch;
use super::moves::split::Split;
use super::moves::MoveLog;
use super::neighbours::Neighbours;
pub use super::perturb::pool_resplit::{PoolBy, Sizes};
use super::perturb::{Perturb, Weighted, Workspace};
use super::restart::Restart;
use super::shared_lists::Build;
use super::{Ctx, Refiner, SearchState, Step, Stop};
use crate::data::Instance;
use crate::error::Result;
use crate::method::{MethodInfo, Stats};
use crate::partition::Partition;
use crate::registry::Registry;
use rand::Rng as _;
use std::sync::Arc;

mod params;
pub use params::IlsParams;

/// The `ils` refiner: a weighted list of perturbations, a descent over a list of
/// operators and an acceptance rule, built from its parameters' parts when the stage starts.
pub struct Ils {
    name: &'static str,
    params: IlsParams,
    /// The registry the parts are built from; none: the one in use ([`crate::registry::current`]).
    registry: Option<Arc<Registry>>,
    /// The parts and buffers of a started stage (None before `init`, or after a build of
    /// the neighbour lists cut by the time limit or Ctrl-C).
    run: Option<Running>,
    split: Split,
    descended: bool,
    iterations: u64,
    /// Steps without a new best, for the return to the best after `stall`.
    restart: Restart,
    /// Groups touched by kept iterations, for the set-partitioning merge.
    columns: ColumnPool,
    /// Seconds spent in merges (for the time share).
    merge_seconds: f64,
    touched: Vec<usize>,
    /// Iterations whose result was kept.
    pub accepted: u64,
    /// Set-partitioning merges run, and those whose answer became the best partition.
    pub merges: u64,
    pub merges_improved: u64,
    /// Returns to the best partition after `stall` iterations without a new best.
    pub restarts: u64,
}

/// What a started ILS stage works with.
struct Running {
    nb: Arc<Neighbours>,
    ls: LocalSearch,
    perturbs: Vec<Box<dyn Perturb>>,
    choice: Weighted,
    accept: Box<dyn Accept>,
    log: MoveLog,
    spare: Vec<usize>,
    groups: Vec<usize>,
}

/// Records examined per step during the initial descent.
const STEP_RECORDS: usize = 256;

impl Running {
    /// Build the parts named in `params` from the registry `reg`.
    fn new(
        params: &IlsParams,
        reg: &Registry,
        inst: &Instance,
        nb: Arc<Neighbours>,
    ) -> Result<Self> {
        let list = params.perturb_list();
        let mut perturbs = Vec::with_capacity(list.len());
        for s in &list {
            perturbs.push(
                kit::find("perturbation", &reg.perturbs, &s.part.name)?.make(&s.part.params)?,
            );
        }
        let weights: Vec<f64> = list.iter().map(|s| s.weight).collect();
        let a = params.accept_spec();
        let accept = kit::find("acceptance rule", &reg.accepts, &a.name)?.make(&a.params)?;
        let mut ops = Vec::new();
        for o in params.operator_list() {
            ops.push(kit::find("operator", &reg.operators, &o.name)?.make(&o.params)?);
        }
        let mut ls = LocalSearch::with_operators(inst, params.strategy == Strategy::Best, ops);
        for i in 0..inst.n {
            ls.push(i);
        }
        Ok(Running {
            nb,
            ls,
            perturbs,
            choice: Weighted::new(&weights),
            accept,
            log: MoveLog::new(),
            spare: Vec::new(),
            groups: Vec::new(),
        })
    }

    /// Descend to a local optimum; with `split_large`, then split every group of 2k or more
    /// records whose split lowers the SSE (a split never raises it, P30) and descend again.
    fn descend(
        &mut self,
        split: &mut Split,
        split_large: bool,
        p: &mut Partition,
        inst: &Instance,
        k: usize,
    ) {
        loop {
            let eps = self.ls.improvement_eps();
            // Bounded: the queue only grows by the groups of applied improving moves.
            while !self.ls.is_idle() {
                self.ls.run(p, inst, k, &self.nb, &mut self.log, 1 << 12);
            }
            if !split_large {
                return;
            }
            let mut split_any = false;
            for g in 0..p.slots() {
                if p.size(g) < 2 * k {
                    continue;
                }
                let Some(plan) = split.evaluate(p, inst, k, g) else {
                    continue;
                };
                if plan.delta >= -eps {
                    continue;
                }
                split.apply(p, inst, &plan, &mut self.spare, &mut self.log);
                for part in &plan.groups {
                    let slot = p.group_of(part[0]);
                    if !self.groups.contains(&slot) {
                        self.groups.push(slot);
                    }
                    for &i in part {
                        self.ls.push(i);
                    }
                }
                split_any = true;
            }
            if !split_any {
                return;
            }
        }
    }

    /// Apply one perturbation drawn from the weighted list around a random record.
    fn perturb(&mut self, p: &mut Partition, ctx: &mut Ctx) -> bool {
        let r = ctx.rng.random_range(0..ctx.inst.n);
        let which = self.choice.choose(ctx.rng);
        let mut ws = Workspace {
            nb: &self.nb,
            ls: &mut self.ls,
            log: &mut self.log,
            spare: &mut self.spare,
            groups: &mut self.groups,
        };
        self.perturbs[which].perturb(p, ctx, r, &mut ws)
    }

    fn remember_empty_slots(&mut self, p: &Partition) {
        for &g in &self.groups {
            if g < p.slots() && p.size(g) == 0 && !self.spare.contains(&g) {
                self.spare.push(g);
            }
        }
    }
}

impl Ils {
    pub fn new(params: IlsParams) -> Self {
        Ils::named("ils", params)
    }

    /// ILS with the parts of `params`, reported as `name` (`lahc` is ILS with late
    /// acceptance).
    pub fn named(name: &'static str, params: IlsParams) -> Self {
        let restart = Restart::new(params.stall);
        Ils {
            name,
            params,
            registry: None,
            run: None,
            split: Split::default(),
            descended: false,
            iterations: 0,
            restart,
            columns: ColumnPool::default(),
            merge_seconds: 0.0,
            touched: Vec::new(),
            accepted: 0,
            merges: 0,
            merges_improved: 0,
            restarts: 0,
        }
    }

    /// ILS whose parts are built from `reg` instead of the registry in use: parts that
    /// exist for one run only (those written in Python). `params` must have been checked
    /// against `reg` ([`IlsParams::check_with`]).
    pub fn with_registry(params: IlsParams, reg: Arc<Registry>) -> Self {
        let mut ils = Ils::new(params);
        ils.registry = Some(reg);
        ils
    }

    /// Offer the groups of the records moved since the log was last cleared to the pool.
    fn pool_touched_groups(&mut self, log: &MoveLog, p: &Partition, k: usize) {
        self.touched.clear();
        self.touched
            .extend(log.moved_records().map(|i| p.group_of(i)));
        self.touched.sort_unstable();
        self.touched.dedup();
        for &g in &self.touched {
            self.columns.offer(p, g, k);
        }
    }

    /// Set-partitioning merge of the pool with the best partition's groups: a better
    /// answer becomes the best partition (the search itself goes on from where it is, so
    /// that it keeps supplying new groups). The pool is emptied afterwards.
    fn merge(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        let inst = ctx.inst;
        let limit = ctx
            .seconds_left()
            .map_or(self.params.merge_time, |s| s.min(self.params.merge_time));
        let t = std::time::Instant::now();
        let out = microagg_solvers::merge::solve_pool(
            &inst.z,
            inst.n,
            inst.d,
            ctx.k,
            self.columns.groups(),
            state.best_labels(),
            Some(limit),
        )
        .map_err(|e| crate::error::Error::algorithm(self.name, e))?;
        self.merge_seconds += t.elapsed().as_secs_f64();
        self.columns.clear();
        self.merges += 1;
        if out.improved && state.record_labels_if_better(&out.labels, out.sse) {
            self.merges_improved += 1;
            self.restart.reset();
        }
        Ok(())
    }

    /// One perturb - descend - accept or undo iteration on the current partition.
    fn iterate(&mut self, run: &mut Running, state: &mut SearchState, ctx: &mut Ctx) {
        let (inst, k) = (ctx.inst, ctx.k);
        self.iterations += 1;
        let p = &mut state.current;
        let before = p.sse();
        if run.perturb(p, ctx) {
            run.descend(&mut self.split, self.params.split_large, p, inst, k);
            let delta = p.sse() - before;
            if run.accept.accept(before, delta, ctx.rng) {
                self.accepted += 1;
                if self.params.merge_pool > 0 {
                    self.pool_touched_groups(&run.log, p, k);
                }
                run.log.clear();
            } else {
                run.log.undo(p, inst);
            }
            run.remember_empty_slots(p);
        }
        // The budget (steps when given, so repeatable; else time) drives the schedule.
        run.accept.after(state.current.sse(), ctx.progress());
    }
}

impl Refiner for Ils {
    fn name(&self) -> &str {
        self.name
    }

    fn stats(&self) -> Stats {
        let mut s = Stats::default();
        s.set("iterations", self.iterations);
        s.set("accepted", self.accepted);
        s.set("restarts", self.restarts);
        if self.params.merge_pool > 0 {
            s.set("merges", self.merges);
            s.set("merges_improved", self.merges_improved);
        }
        if let Some(run) = &self.run {
            run.ls.add_stats(&mut s);
            for p in &run.perturbs {
                p.add_stats(&mut s);
            }
        }
        super::moves::add_counters(&mut s, &self.split);
        s
    }

    fn init(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        // The lists are the costliest single step; a time limit or Ctrl-C stops their build
        // (the stage then returns its input).
        let Some(nb) = ctx.neighbours(self.params.neighbours, Build::Exact) else {
            return Ok(());
        };
        let reg = self
            .registry
            .clone()
            .unwrap_or_else(crate::registry::current);
        let mut run = Running::new(&self.params, &reg, ctx.inst, nb)?;
        let (sse, groups) = (state.current.sse(), state.current.num_groups());
        run.accept.start(sse, groups, ctx.progress());
        self.run = Some(run);
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step> {
        let (inst, k) = (ctx.inst, ctx.k);
        // None only after an interrupted init, which the executor sees before any step.
        let Some(mut run) = self.run.take() else {
            return Ok(Step::Converged);
        };
        if !self.descended {
            let p = &mut state.current;
            run.ls.run(p, inst, k, &run.nb, &mut run.log, STEP_RECORDS);
            if run.ls.is_idle() {
                run.descend(&mut self.split, self.params.split_large, p, inst, k);
                self.descended = true;
            }
            run.log.clear();
            state.record_if_better(k);
            self.run = Some(run);
            return Ok(Step::Continue);
        }
        self.iterate(&mut run, state, ctx);
        self.restart.tick(state.record_if_better(k));
        self.maybe_merge(state, ctx)?;
        if self.restart.due() {
            // Restart from the best partition (a budget's schedule goes on; without a
            // budget the executor's Stop::Restarts ends the stage here).
            self.restart.restore(state, ctx)?;
            run.spare.clear();
            self.restarts += 1;
        }
        // Keep the slot table from growing without bound.
        let p = &mut state.current;
        if p.slots() > p.num_groups() + 64 {
            p.compact(inst);
            run.spare.clear();
        }
        self.run = Some(run);
        Ok(Step::Continue)
    }

    /// Without a budget the stage ends at its first return to the best partition.
    fn convergence(&self) -> Option<Stop> {
        Some(Stop::Restarts(0))
    }
}

impl Ils {
    /// The set-partitioning merge once the pool is full (within the time share).
    fn maybe_merge(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        if self.params.merge_pool == 0 || self.columns.len() < self.params.merge_pool {
            return Ok(());
        }
        // The share is a clock rule, so it applies to time-limited runs only: without a
        // limit every full pool is merged and the run stays reproducible.
        let within_share =
            !ctx.has_time_limit() || self.merge_seconds <= self.params.merge_share * ctx.elapsed();
        if within_share {
            self.merge(state, ctx)
        } else {
            self.columns.clear();
            Ok(())
        }
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "ils",
        "iterated local search: shift/swap descent, pool-and-resplit perturbation changing the number of groups, annealed acceptance",
        "Laszlo & Mukherjee (2015), J. Systems and Software 100",
        Ils::new,
    )
}
