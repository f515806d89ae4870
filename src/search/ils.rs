//! # Iterated local search (ILS)
//!
//! In the spirit of Laszlo and Mukherjee (2015), a short composition of the search kit:
//! descend with shift and swap ([`LocalSearch`] over nearest-neighbour candidate groups),
//! then repeat perturb - descend - accept or undo. The perturbation
//! ([`Perturb`](super::perturb::Perturb)) is a pool-and-re-split of the groups around a
//! random record ([`PoolResplit`]: changes the number of groups locally), or with
//! probability `dissolve_rate` a dissolve or distill ([`DissolveDistill`]). The acceptance
//! rule ([`Accept`](super::accept::Accept)) is [`Annealing`]: keep a result whose SSE did
//! not rise, or one that did with Metropolis probability at an outer temperature run down
//! over the budget (by steps with `--max-steps`, so repeatable; else by time); without a
//! budget the run starts at the cold end and cools by `cooling` per iteration, which keeps
//! it reproducible bit for bit. A rejected result is undone through the move log. Other
//! rules compose the same way ([`Ils::composed`]; `lahc` is late acceptance).
//! After `stall` iterations without a new best the search returns to the best partition
//! (a restart, reported to observers; without a budget it stops there instead). Every
//! iteration is a step, so the time limit holds to within one perturbation and descent
//! (milliseconds).
//!
//! Options of the descent: `cycles` lets it apply 3-cycles at shift/swap optima
//! ([`LocalSearch`]); `split_large` splits, after each descent, every group of 2k or more
//! records whose split lowers the SSE (a group that large is never needed: splitting it
//! never raises the SSE, P30), then descends again. Options of the re-split: `settle`,
//! `sizes`, `carves`, `pool` ([`PoolResplit`]).
//!
//! Set-partitioning merge (`merge_pool`, off by default; the ILS-SP idea of Subramanian et
//! al. 2013): the distinct groups (k..2k-1 records) touched by kept iterations are collected
//! ([`ColumnPool`]); once `merge_pool` of them are held, a set-partitioning MIP on HiGHS
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

use super::accept::metropolis::Annealing;
use super::accept::Accept;
use super::column_pool::ColumnPool;
use super::descent::Strategy;
use super::local_search::LocalSearch;
use super::moves::split::Split;
use super::moves::MoveLog;
use super::neighbours::Neighbours;
use super::perturb::dissolve_distill::DissolveDistill;
use super::perturb::pool_resplit::PoolResplit;
pub use super::perturb::pool_resplit::{PoolBy, Sizes};
use super::perturb::{Perturb, Workspace};
use super::restart::Restart;
use super::{Ctx, Refiner, SearchState, Step};
use crate::data::Instance;
use crate::error::Result;
use crate::method::{MethodInfo, Stats};
use crate::params::Params;
use crate::partition::Partition;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// Parameters of `ils`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IlsParams {
    pub neighbours: usize,
    pub min_pool: usize,
    pub max_pool: usize,
    pub dissolve_rate: f64,
    pub temperature: f64,
    pub cooling: f64,
    pub end_ratio: f64,
    pub stall: u64,
    pub carves: usize,
    pub strategy: Strategy,
    pub pool: PoolBy,
    pub cycles: bool,
    pub settle: usize,
    pub split_large: bool,
    pub sizes: Sizes,
    pub merge_pool: usize,
    pub merge_time: f64,
    pub merge_share: f64,
}

impl Default for IlsParams {
    fn default() -> Self {
        IlsParams {
            neighbours: 30,
            min_pool: 2,
            max_pool: 12,
            dissolve_rate: 0.05,
            temperature: 0.1,
            cooling: 0.99999,
            end_ratio: 0.01,
            stall: 20_000,
            carves: 1,
            strategy: Strategy::First,
            pool: PoolBy::Records,
            cycles: true,
            settle: 0,
            split_large: true,
            sizes: Sizes::Balanced,
            merge_pool: 0,
            merge_time: 5.0,
            merge_share: 0.1,
        }
    }
}

impl Params for IlsParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("neighbours", "nearest records per record that supply candidate groups (default 30)"),
        ("min_pool", "fewest groups pooled and re-split by one perturbation (default 2)"),
        ("max_pool", "most groups pooled and re-split by one perturbation (default 12)"),
        ("dissolve_rate", "probability that a perturbation is a dissolve or distill instead (default 0.05)"),
        ("temperature", "outer acceptance temperature at the start, as a fraction of the mean group SSE; 0 = accept only non-worsening (default 0.1; without a time limit the run starts at temperature x end_ratio)"),
        ("cooling", "without a time limit: factor applied to the temperature every iteration (default 0.99999)"),
        ("end_ratio", "with a time limit the temperature falls geometrically with elapsed time to this fraction of its start at the deadline; without one the run starts at this fraction (default 0.01)"),
        ("stall", "iterations without a new best before returning to the best and reheating; with no time limit, the search stops there (default 20000)"),
        ("carves", "random re-splits of a pool tried per perturbation, 1..=10000; the one of lowest SSE is applied (default 1)"),
        ("pool", "which groups a perturbation pools with the random record's group: \"records\" (default) the groups of its nearest records, \"centroids\" the groups of nearest centroid"),
        ("settle", "passes of a best-improvement shift/swap descent among the re-split pool's own groups before the neighbour-list descent (0 = none; default 0)"),
        ("split_large", "after each descent, split every group of 2k or more records whose CBFS split lowers the SSE, then descend again (default true)"),
        ("sizes", "group sizes of a re-split pool: \"balanced\" (default) as equal as possible, \"random\" k each plus the remainder spread at random"),
        ("cycles", "descent: when a record has no improving shift or swap, also try 3-cycles (the record into a neighbour group, a member of that group into a third group, a member of the third into the record's group; default true)"),
        ("strategy", "descent: \"first\" (default) applies a record's first improving shift/swap, \"best\" its best one"),
        ("merge_pool", "set-partitioning merge: once this many distinct groups (of k..2k-1 records) have been touched by kept iterations, solve a set-partitioning MIP (HiGHS) over them and the best partition's groups, record its answer if it beats the best, and empty the pool (0 = never; default 0)"),
        ("merge_time", "time limit in seconds of one merge; on the limit HiGHS' best solution is used, and the run then depends on the machine's speed even without a time limit of its own (default 5; never beyond the run's own limit)"),
        ("merge_share", "with a time limit, most fraction of the elapsed time spent in merges: a full pool is emptied without a merge while merges have taken more (default 0.1)"),
    ];
    fn check(&self) -> Result<(), String> {
        if self.neighbours == 0 {
            return Err("neighbours must be at least 1".into());
        }
        if self.min_pool < 1 || self.max_pool < self.min_pool {
            return Err("need 1 <= min_pool <= max_pool".into());
        }
        if !(0.0..=1.0).contains(&self.dissolve_rate) {
            return Err("dissolve_rate must be in [0, 1]".into());
        }
        if !(self.temperature >= 0.0 && self.temperature.is_finite()) {
            return Err("temperature must be finite and >= 0".into());
        }
        if !(self.end_ratio > 0.0 && self.end_ratio <= 1.0) {
            return Err("end_ratio must be in (0, 1]".into());
        }
        if !(self.cooling > 0.0 && self.cooling <= 1.0) {
            return Err("cooling must be in (0, 1]".into());
        }
        if self.stall == 0 {
            return Err("stall must be at least 1".into());
        }
        if !(1..=10_000).contains(&self.carves) {
            // Each carving is O(pool d); an unbounded count made one step endless (found by
            // tests/fuzz_parsers.rs with carves = 2^64 - 1).
            return Err("carves must be in 1..=10000".into());
        }
        if !(self.merge_time > 0.0 && self.merge_time.is_finite()) {
            return Err("merge_time must be finite and > 0".into());
        }
        if !(self.merge_share > 0.0 && self.merge_share <= 1.0) {
            return Err("merge_share must be in (0, 1]".into());
        }
        Ok(())
    }
}

/// The `ils` refiner: a perturbation, a descent and an acceptance rule ([`Accept`]),
/// [`Annealing`] by default.
pub struct Ils {
    name: &'static str,
    params: IlsParams,
    accept: Box<dyn Accept>,
    nb: Option<Neighbours>,
    ls: Option<LocalSearch>,
    log: MoveLog,
    spare: Vec<usize>,
    resplit: PoolResplit,
    group_moves: DissolveDistill,
    split: Split,
    descended: bool,
    iterations: u64,
    /// Steps without a new best, for the return to the best after `stall`.
    restart: Restart,
    groups: Vec<usize>,
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

/// Records examined per step during the initial descent.
const STEP_RECORDS: usize = 256;

impl Ils {
    pub fn new(params: IlsParams) -> Self {
        let accept = Annealing::new(params.temperature, params.cooling, params.end_ratio);
        Ils::composed("ils", params, Box::new(accept))
    }

    /// ILS's perturbation and descent with the acceptance rule `accept` (whose own
    /// parameters replace `temperature`, `cooling` and `end_ratio`), named `name`.
    pub fn composed(name: &'static str, params: IlsParams, accept: Box<dyn Accept>) -> Self {
        let resplit = PoolResplit::new(
            params.min_pool,
            params.max_pool,
            params.pool,
            params.sizes,
            params.carves,
            params.settle,
        );
        let restart = Restart::new(params.stall);
        Ils {
            name,
            accept,
            params,
            resplit,
            nb: None,
            ls: None,
            log: MoveLog::new(),
            spare: Vec::new(),
            group_moves: DissolveDistill::default(),
            split: Split::default(),
            descended: false,
            iterations: 0,
            restart,
            groups: Vec::new(),
            columns: ColumnPool::default(),
            merge_seconds: 0.0,
            touched: Vec::new(),
            accepted: 0,
            merges: 0,
            merges_improved: 0,
            restarts: 0,
        }
    }

    /// Descend to a local optimum; with `split_large`, then split every group of 2k or more
    /// records whose split lowers the SSE (a split never raises it, P30) and descend again.
    fn descend(&mut self, p: &mut Partition, inst: &Instance, k: usize) {
        loop {
            let nb = self.nb.as_ref().expect("initialised");
            let ls = self.ls.as_mut().expect("initialised");
            let eps = ls.improvement_eps();
            // Bounded: the queue only grows by the groups of applied improving moves.
            while !ls.is_idle() {
                ls.run(p, inst, k, nb, &mut self.log, 1 << 12);
            }
            if !self.params.split_large {
                return;
            }
            let mut split_any = false;
            for g in 0..p.slots() {
                if p.size(g) < 2 * k {
                    continue;
                }
                let Some(plan) = self.split.evaluate(p, inst, k, g) else {
                    continue;
                };
                if plan.delta >= -eps {
                    continue;
                }
                self.split
                    .apply(p, inst, &plan, &mut self.spare, &mut self.log);
                for part in &plan.groups {
                    let slot = p.group_of(part[0]);
                    if !self.groups.contains(&slot) {
                        self.groups.push(slot);
                    }
                    for &i in part {
                        ls.push(i);
                    }
                }
                split_any = true;
            }
            if !split_any {
                return;
            }
        }
    }

    /// Offer the groups of the records moved since the log was last cleared to the pool.
    fn pool_touched_groups(&mut self, p: &Partition, k: usize) {
        self.touched.clear();
        self.touched
            .extend(self.log.moved_records().map(|i| p.group_of(i)));
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

    fn remember_empty_slots(&mut self, p: &Partition) {
        for &g in &self.groups {
            if g < p.slots() && p.size(g) == 0 && !self.spare.contains(&g) {
                self.spare.push(g);
            }
        }
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
        if let Some(ls) = &self.ls {
            ls.add_stats(&mut s);
        }
        self.resplit.add_stats(&mut s);
        self.group_moves.add_stats(&mut s);
        super::moves::add_counters(&mut s, &self.split);
        s
    }

    fn init(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        let inst = ctx.inst;
        // The lists are the costliest single step; a time limit or Ctrl-C stops their build (the stage then
        // returns its input).
        self.nb = Neighbours::build_until(inst, self.params.neighbours, || ctx.should_stop());
        if self.nb.is_none() {
            return Ok(());
        }
        let mut ls = LocalSearch::new(inst, self.params.strategy == Strategy::Best);
        ls.cycles = self.params.cycles;
        for i in 0..inst.n {
            ls.push(i);
        }
        self.ls = Some(ls);
        let (sse, groups) = (state.current.sse(), state.current.num_groups());
        self.accept.start(sse, groups, ctx.has_budget());
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step> {
        let (inst, k) = (ctx.inst, ctx.k);
        if self.nb.is_none() {
            // Only after an interrupted init, which the executor sees before any step.
            return Ok(Step::Converged);
        }
        let p = &mut state.current;
        if !self.descended {
            let nb = self.nb.as_ref().expect("initialised");
            let ls = self.ls.as_mut().expect("initialised");
            ls.run(p, inst, k, nb, &mut self.log, STEP_RECORDS);
            if ls.is_idle() {
                self.descend(p, inst, k);
                self.descended = true;
            }
            self.log.clear();
            state.record_if_better(k);
            return Ok(Step::Continue);
        }
        self.iterations += 1;
        let before = p.sse();
        let r = ctx.rng.random_range(0..inst.n);
        let mut ws = Workspace {
            nb: self.nb.as_ref().expect("initialised"),
            ls: self.ls.as_mut().expect("initialised"),
            log: &mut self.log,
            spare: &mut self.spare,
            groups: &mut self.groups,
        };
        let changed = if ctx.rng.random_bool(self.params.dissolve_rate) {
            self.group_moves.perturb(p, ctx, r, &mut ws)
        } else {
            self.resplit.perturb(p, ctx, r, &mut ws)
        };
        if changed {
            self.descend(p, inst, k);
            let delta = p.sse() - before;
            if self.accept.accept(before, delta, ctx.rng) {
                self.accepted += 1;
                if self.params.merge_pool > 0 {
                    self.pool_touched_groups(p, k);
                }
                self.log.clear();
            } else {
                self.log.undo(p, inst);
            }
            self.remember_empty_slots(p);
        }
        // The budget (steps when given, so repeatable; else time) drives the schedule.
        self.accept.after(state.current.sse(), ctx.progress());
        self.restart.tick(state.record_if_better(k));
        if self.params.merge_pool > 0 && self.columns.len() >= self.params.merge_pool {
            // The share is a clock rule, so it applies to time-limited runs only: without a
            // limit every full pool is merged and the run stays reproducible.
            let within_share = !ctx.has_time_limit()
                || self.merge_seconds <= self.params.merge_share * ctx.elapsed();
            if within_share {
                self.merge(state, ctx)?;
            } else {
                self.columns.clear();
            }
        }
        if self.restart.due() {
            if !ctx.has_budget() {
                return Ok(Step::Converged);
            }
            // Restart from the best partition (the budget's schedule goes on).
            self.restart.restore(state, ctx)?;
            self.spare.clear();
            self.restarts += 1;
        }
        // Keep the slot table from growing without bound.
        let p = &mut state.current;
        if p.slots() > p.num_groups() + 64 {
            p.compact(inst);
            self.spare.clear();
        }
        Ok(Step::Continue)
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
