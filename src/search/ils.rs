//! # Iterated local search (ILS)
//!
//! In the spirit of Laszlo and Mukherjee (2015): descend with shift and swap
//! ([`LocalSearch`] over nearest-neighbour candidate groups), then repeat
//! perturb - descend - accept or undo. The main perturbation changes the number of groups
//! locally: take a random record, pool the records of its group and of the next
//! t - 1 distinct groups among its nearest neighbours (t uniform in
//! `min_pool..=max_pool`), and re-split the pool into t - 1, t or t + 1 groups (chosen
//! uniformly among those that keep every group at k or more records), each carved from a
//! random start by nearest-to-centroid growth (`moves::split::carve`; `carves` such carvings
//! are tried and the one of lowest SSE is applied); then descend from the pooled records.
//! With probability `dissolve_rate` the perturbation is instead a dissolve
//! of the random record's group or a distill around it (the paper's group-count moves).
//! The result is kept if the SSE did not rise, or, with Metropolis probability
//! exp(-delta / T), at an outer temperature T; otherwise every elementary change is undone
//! through the move log. T starts at `temperature` x (SSE / groups). With a time limit it
//! falls geometrically with elapsed time, T = T0 x `end_ratio`^(elapsed / limit), so the
//! whole budget is one annealing run over perturbation-descent steps (the result then
//! depends on the machine's speed, as any time-limited run does). Without a time limit the
//! run starts at the cold end, T0 x `end_ratio`, and cools by `cooling` per iteration, which
//! keeps it reproducible bit for bit. With a step budget (`--max-steps`) T falls the same
//! way as with a time limit, but with the share of steps used instead of the share of time
//! (takes precedence over a time limit), so the whole budget is one annealing run that
//! repeats bit for bit.
//! After `stall` iterations without a new best the search returns to the best partition
//! (without a time limit or step budget it stops there instead). Every iteration is a step, so the time
//! limit holds to within one perturbation and descent (milliseconds).
//!
//! Options of the descent and the re-split (study-ils-moves.txt, stop 14; `cycles` and
//! `split_large` on by default since then, `settle` and `sizes` off):
//! `cycles` lets the descent apply 3-cycles at shift/swap optima ([`LocalSearch`]);
//! `split_large` splits, after each descent, every group of 2k or more records whose split
//! lowers the SSE (a group that large is never needed: splitting it never raises the SSE,
//! P30), then descends again; `settle` runs a few best-improvement passes among the pool's
//! own groups before the neighbour-list descent (cheaper repair of a random carving);
//! `sizes = "random"` re-splits into groups of k plus a randomly spread remainder instead
//! of balanced sizes.
//!
//! Set-partitioning merge (`merge_pool`, off by default; the ILS-SP idea of Subramanian et
//! al. 2013): the distinct groups (k..2k-1 records) touched by kept iterations are collected
//! ([`ColumnPool`]); once `merge_pool` of them are held, a set-partitioning MIP on HiGHS
//! (`microagg_solvers::merge::solve_pool`) picks the least-SSE partition made of them and of
//! the best partition's groups, within `merge_time` seconds. A better answer becomes the best
//! partition; the search goes on from where it is (so that it keeps supplying new groups,
//! and returns to the best after `stall` iterations), and the pool is emptied. With a time
//! limit, merges take at most `merge_share` of the elapsed time (a full pool is otherwise
//! emptied unmerged). Measured (study-merge.txt): on EIA (n = 4092, k = 3, 4) the first
//! merge of 10000 groups, solved to optimality in 0.5-0.8 s, reaches within seconds the
//! partition that plain ILS reaches after minutes, if at all; on Tarragona and on Census
//! with k >= 4 the MIPs over such pools are not solved within seconds and the merges cost
//! search time, hence the default.
//!
//! `pool = "centroids"` pools the groups of nearest centroid instead of the groups of the
//! record's nearest records (which at k = 10 and 30 neighbours rarely reach more than
//! five groups); it was not better in the study below and is kept as a documented variant.
//!
//! ## Defaults (parameter studies under proofs/certificates/)
//! study-ils-params.txt (stop 12): stall 20000 and max_pool 8 from a Census study at 20 s
//! per run on a shared machine, with an outer temperature of 0.002 x mean group SSE cooled
//! by 0.99999 per iteration (in effect a descent with rare uphill steps).
//! study-ils-schedule.txt (stop 13; idle machine, one core per run, 20 s per run, seed 0
//! unless stated, so single differences under about 0.1 % are noise): the time-based
//! schedule from 0.1 to 0.001 x mean group SSE lowered every Census case (k = 3, 4, 5, 10:
//! 4.7021 -> 4.6979, 6.0694 -> 6.0604, 7.3258 -> 7.2750, 11.4271 -> 11.3828); start
//! temperatures 0.03 and 0.3 were about as good, 1.0 worse. max_pool 12 then gave 4.6819
//! 6.0355 7.2802 11.4228 (seed 1: 4.6808 6.0476 7.2535 11.4003); max_pool 4 was worse
//! everywhere, 16 no better; neighbours 20 and pool = "centroids" were mixed. Tarragona and
//! EIA were checked with the same settings (no case worse than the stop-12 campaign).
//!
//! ## Complexity
//! O(n^2 d) once for the neighbour lists; per iteration O(P^2 d / k) for a pool of P
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

use super::column_pool::ColumnPool;
use super::descent::{LocalSearch, Strategy};
use super::moves::dissolve::Dissolve;
use super::moves::distill::Distill;
use super::moves::split::{carve, Split};
use super::moves::{fresh_slot, MoveLog};
use super::neighbours::Neighbours;
use super::{Ctx, Refiner, SearchState, Step};
use crate::data::Instance;
use crate::error::Result;
use crate::method::MethodInfo;
use crate::params::Params;
use crate::partition::{group_stats, sq_dist, Partition};
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

/// Sizes of the groups a pool of m records is re-split into (q groups, m >= q k).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Sizes {
    /// As equal as possible: m / q, the first m % q groups one more.
    Balanced,
    /// k each, the m - q k others given one at a time to uniformly random groups.
    Random,
}

/// Which groups a perturbation pools with the random record's group.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum PoolBy {
    /// The groups of the record's nearest records.
    Records,
    /// The groups whose centroids are nearest to the record's group centroid.
    Centroids,
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

/// The `ils` refiner.
pub struct Ils {
    params: IlsParams,
    nb: Option<Neighbours>,
    ls: Option<LocalSearch>,
    log: MoveLog,
    spare: Vec<usize>,
    dissolve: Dissolve,
    distill: Distill,
    split: Split,
    descended: bool,
    temperature: f64,
    t0: f64,
    /// Start of the run and its length, for the time-based schedule.
    clock: Option<(std::time::Instant, f64)>,
    iterations: u64,
    since_best: u64,
    groups: Vec<usize>,
    pool: Vec<usize>,
    ranked: Vec<(f64, usize)>,
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
}

/// Records examined per step during the initial descent.
const STEP_RECORDS: usize = 256;

impl Ils {
    pub fn new(params: IlsParams) -> Self {
        Ils {
            params,
            nb: None,
            ls: None,
            log: MoveLog::new(),
            spare: Vec::new(),
            dissolve: Dissolve::default(),
            split: Split::default(),
            distill: Distill::default(),
            descended: false,
            temperature: 0.0,
            t0: 0.0,
            clock: None,
            iterations: 0,
            since_best: 0,
            groups: Vec::new(),
            pool: Vec::new(),
            ranked: Vec::new(),
            columns: ColumnPool::default(),
            merge_seconds: 0.0,
            touched: Vec::new(),
            accepted: 0,
            merges: 0,
            merges_improved: 0,
        }
    }

    /// Pool the groups around record `r` and re-split them; false if nothing was changed.
    fn pool_and_resplit(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize) -> bool {
        let (inst, k) = (ctx.inst, ctx.k);
        let nb = self.nb.as_ref().expect("initialised");
        let want = ctx
            .rng
            .random_range(self.params.min_pool..=self.params.max_pool);
        self.groups.clear();
        let g = p.group_of(r);
        self.groups.push(g);
        if self.params.pool == PoolBy::Centroids {
            let c = p.centroid(g);
            self.ranked.clear();
            self.ranked.extend(
                (0..p.slots())
                    .filter(|&h| h != g && p.size(h) > 0)
                    .map(|h| (sq_dist(c, p.centroid(h)), h)),
            );
            let take = (want - 1).min(self.ranked.len());
            if take > 0 && take < self.ranked.len() {
                self.ranked.select_nth_unstable_by(take - 1, |a, b| {
                    a.0.total_cmp(&b.0).then(a.1.cmp(&b.1))
                });
            }
            self.groups.extend(self.ranked[..take].iter().map(|x| x.1));
        } else {
            for &j in nb.of(r) {
                if self.groups.len() >= want {
                    break;
                }
                let h = p.group_of(j as usize);
                if !self.groups.contains(&h) {
                    self.groups.push(h);
                }
            }
        }
        self.pool.clear();
        for &g in &self.groups {
            self.pool.extend_from_slice(p.members(g));
        }
        self.pool.sort_unstable();
        let t = self.groups.len();
        let m = self.pool.len();
        let mut options = [0usize; 3];
        let mut count = 0;
        for q in [t.saturating_sub(1), t, t + 1] {
            if q >= 1 && q * k <= m && !(q == 1 && t == 1) {
                options[count] = q;
                count += 1;
            }
        }
        if count == 0 {
            return false;
        }
        let q = options[ctx.rng.random_range(0..count)];
        let sizes: Vec<usize> = match self.params.sizes {
            Sizes::Balanced => {
                let (base, extra) = (m / q, m % q);
                (0..q).map(|g| base + usize::from(g < extra)).collect()
            }
            Sizes::Random => {
                let mut sizes = vec![k; q];
                for _ in q * k..m {
                    sizes[ctx.rng.random_range(0..q)] += 1;
                }
                sizes
            }
        };
        // Best of `carves` random carvings (the first one wins ties).
        let mut parts = Vec::new();
        let mut parts_sse = f64::INFINITY;
        for _ in 0..self.params.carves {
            let cand = carve(inst, &self.pool, &sizes, Some(&mut *ctx.rng));
            let sse = if self.params.carves == 1 {
                0.0
            } else {
                cand.iter().map(|g| group_stats(inst, g).1).sum()
            };
            if sse < parts_sse {
                parts = cand;
                parts_sse = sse;
            }
        }
        for (idx, part) in parts.iter().enumerate() {
            let slot = if idx < t {
                self.groups[idx]
            } else {
                fresh_slot(p, &mut self.spare)
            };
            for &i in part {
                self.log.shift(p, inst, i, slot);
            }
            if idx >= t {
                self.groups.push(slot);
            }
        }
        self.settle_pool(p, inst, k);
        let ls = self.ls.as_mut().expect("initialised");
        for &i in &self.pool {
            ls.push(i);
        }
        true
    }

    /// Up to `settle` passes over the pool records, each applying a record's best improving
    /// shift or swap among the pool's groups (`self.groups`); stops early at a pass without
    /// a move. Cheaper than letting the neighbour-list descent repair a random carving.
    fn settle_pool(&mut self, p: &mut Partition, inst: &Instance, k: usize) {
        let ls = self.ls.as_mut().expect("initialised");
        for _ in 0..self.params.settle {
            let mut moved = false;
            for &i in &self.pool {
                if let Some((_, partner, h)) = ls.best_move(p, inst, k, i, &self.groups, false) {
                    ls.apply_move(p, inst, i, partner, h, &mut self.log);
                    moved = true;
                }
            }
            if !moved {
                break;
            }
        }
    }

    /// Dissolve the group of `r` or distill a group around it.
    fn dissolve_or_distill(&mut self, p: &mut Partition, ctx: &mut Ctx, r: usize) -> bool {
        let (inst, k) = (ctx.inst, ctx.k);
        let nb = self.nb.as_ref().expect("initialised");
        let ls = self.ls.as_mut().expect("initialised");
        self.groups.clear();
        if ctx.rng.random_bool(0.5) {
            let g = p.group_of(r);
            let Some(plan) = self.dissolve.evaluate(p, inst, g, Some(nb)) else {
                return false;
            };
            self.dissolve.apply(p, inst, &plan, &mut self.log);
            self.groups.push(g);
            for &(i, h) in &plan.targets {
                ls.push(i);
                if !self.groups.contains(&h) {
                    self.groups.push(h);
                }
            }
        } else {
            let Some(plan) = self.distill.evaluate(p, inst, k, r, nb) else {
                return false;
            };
            let slot = self
                .distill
                .apply(p, inst, &plan, &mut self.spare, &mut self.log);
            self.groups.push(slot);
            for &i in &plan.records {
                ls.push(i);
            }
        }
        true
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
        let limit = match ctx.deadline {
            Some(d) => d
                .saturating_duration_since(std::time::Instant::now())
                .as_secs_f64()
                .min(self.params.merge_time),
            None => self.params.merge_time,
        };
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
        .map_err(|e| crate::error::Error::algorithm("ils", e))?;
        self.merge_seconds += t.elapsed().as_secs_f64();
        self.columns.clear();
        self.merges += 1;
        if out.improved && state.record_labels_if_better(&out.labels, out.sse) {
            self.merges_improved += 1;
            self.since_best = 0;
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
        "ils"
    }

    fn init(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        let inst = ctx.inst;
        // The lists cost O(n^2 d); a time limit or Ctrl-C stops their build (the stage then
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
        let groups = state.current.num_groups().max(1) as f64;
        let now = std::time::Instant::now();
        // A step budget drives the schedule when given (repeatable); else the clock does.
        let by_clock = ctx.deadline.filter(|_| ctx.max_steps.is_none());
        self.clock = by_clock.map(|d| {
            (
                now,
                d.saturating_duration_since(now).as_secs_f64().max(1e-9),
            )
        });
        // Without a time limit there is no schedule to run down: start at its cold end.
        let scale = if ctx.has_budget() {
            1.0
        } else {
            self.params.end_ratio
        };
        self.t0 = scale * self.params.temperature * state.current.sse() / groups;
        self.temperature = self.t0;
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
        let changed = if ctx.rng.random_bool(self.params.dissolve_rate) {
            self.dissolve_or_distill(p, ctx, r)
        } else {
            self.pool_and_resplit(p, ctx, r)
        };
        if changed {
            self.descend(p, inst, k);
            let delta = p.sse() - before;
            let tol = 1e-12 * before.abs().max(1.0);
            let keep = delta <= tol
                || (self.temperature > 0.0
                    && ctx.rng.random::<f64>() < (-delta / self.temperature).exp());
            if keep {
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
        self.temperature = match (ctx.progress(), self.clock) {
            (Some(f), _) => self.t0 * self.params.end_ratio.powf(f),
            (None, Some((start, total))) => {
                let f = (start.elapsed().as_secs_f64() / total).min(1.0);
                self.t0 * self.params.end_ratio.powf(f)
            }
            (None, None) => self.temperature * self.params.cooling,
        };
        if state.record_if_better(k) {
            self.since_best = 0;
        } else {
            self.since_best += 1;
        }
        if self.params.merge_pool > 0 && self.columns.len() >= self.params.merge_pool {
            // The share is a clock rule, so it applies to time-limited runs only: without a
            // limit every full pool is merged and the run stays reproducible.
            let within_share = self.clock.is_none_or(|(start, _)| {
                self.merge_seconds <= self.params.merge_share * start.elapsed().as_secs_f64()
            });
            if within_share {
                self.merge(state, ctx)?;
            } else {
                self.columns.clear();
            }
        }
        if self.since_best >= self.params.stall {
            if !ctx.has_budget() {
                return Ok(Step::Converged);
            }
            // Restart from the best partition with the initial temperature.
            state.current = state.best(inst)?;
            self.spare.clear();
            if !ctx.has_budget() {
                self.temperature = self.t0;
            }
            self.since_best = 0;
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
