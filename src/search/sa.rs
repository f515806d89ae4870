//! # Simulated annealing (SA)
//!
//! Metropolis search over shift and swap moves with the number of groups fixed (or, with
//! `group_moves` > 0, occasionally changed by dissolve/distill). A move picks a random record
//! i and a random neighbour j of i in another group: with probability 1/2 it shifts i to
//! j's group (when i's group keeps k records), otherwise it swaps i and j. A worsening
//! move of delta is accepted with probability exp(-delta / T). The temperature starts at
//! `t0` x (SSE / groups) and is lowered every `moves_per_temp` moves:
//! - `schedule = "geometric"`: T <- `alpha` T;
//! - `schedule = "adaptive"`: T <- `alpha` T when the acceptance ratio of the last batch is
//!   above `target_acceptance`, T <- T / `alpha` (bounded by the start) when below.
//!
//! When `reheat_after` batches pass without a new best, the search returns to the best
//! partition and T is reset to its start (a reheat). With neither a time limit nor a step
//! budget the run stops after `max_reheats` reheats (an executor's stop rule,
//! [`Refiner::convergence`]). One batch is one step.
//!
//! ## Complexity
//! O(d) per move after the neighbour lists ([`crate::geometry::neighbours`]: a kd-tree all-kNN from
//! 4096 records, brute force O(n^2 d) below).
//!
//! ## References
//! - Kirkpatrick, S., Gelatt, C. D. and Vecchi, M. P. (1983). Optimization by simulated
//!   annealing. Science 220(4598), 671-680.

use super::accept::metropolis::Metropolis;
use super::moves::dissolve::Dissolve;
use super::moves::distill::Distill;
use super::moves::shift::Shift;
use super::moves::swap::Swap;
use super::moves::{add_counters, Counted, MoveLog};
use super::restart::Restart;
use super::shared_lists::Build;
use super::{Ctx, Refiner, SearchState, Step, Stop};
use crate::error::Result;
use crate::geometry::neighbours::Neighbours;
use crate::method::{MethodInfo, Stats};
use crate::params::Params;
use rand::Rng as _;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Parameters of `sa`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct SaParams {
    pub schedule: String,
    pub t0: f64,
    pub alpha: f64,
    pub moves_per_temp: usize,
    pub target_acceptance: f64,
    pub reheat_after: u64,
    pub max_reheats: u64,
    pub neighbours: usize,
    pub group_moves: f64,
}

impl Default for SaParams {
    fn default() -> Self {
        SaParams {
            schedule: "geometric".into(),
            t0: 0.05,
            alpha: 0.98,
            moves_per_temp: 2000,
            target_acceptance: 0.05,
            reheat_after: 500,
            max_reheats: 3,
            neighbours: 30,
            group_moves: 0.0,
        }
    }
}

impl Params for SaParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("schedule", "\"geometric\" (default) or \"adaptive\" (cool when the acceptance ratio is above target_acceptance, warm when below)"),
        ("t0", "start temperature as a fraction of the mean group SSE (default 0.05)"),
        ("alpha", "cooling factor per batch, in (0, 1) (default 0.98)"),
        ("moves_per_temp", "moves per batch (one step) at one temperature (default 2000)"),
        ("target_acceptance", "acceptance ratio the adaptive schedule aims at (default 0.05)"),
        ("reheat_after", "batches without a new best before returning to the best and reheating (default 500)"),
        ("max_reheats", "reheats after which a run with neither a time limit nor a step budget stops (default 3)"),
        ("neighbours", "nearest records per record that supply move partners (default 30)"),
        ("group_moves", "probability that a move is a dissolve or distill, accepted by the same rule (default 0)"),
    ];
    fn check(&self) -> Result<(), String> {
        if self.schedule != "geometric" && self.schedule != "adaptive" {
            return Err(format!(
                "schedule must be \"geometric\" or \"adaptive\", not \"{}\"",
                self.schedule
            ));
        }
        if !(self.t0 > 0.0 && self.t0.is_finite()) {
            return Err("t0 must be positive".into());
        }
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            return Err("alpha must be in (0, 1)".into());
        }
        if self.moves_per_temp == 0 || self.neighbours == 0 || self.reheat_after == 0 {
            return Err("moves_per_temp, neighbours and reheat_after must be at least 1".into());
        }
        if !(0.0..=1.0).contains(&self.target_acceptance)
            || !(0.0..=1.0).contains(&self.group_moves)
        {
            return Err("target_acceptance and group_moves must be in [0, 1]".into());
        }
        Ok(())
    }
}

/// The `sa` refiner.
pub(crate) struct Sa {
    params: SaParams,
    /// The run's neighbour lists (from the context); None after an interrupted build.
    nb: Option<Arc<Neighbours>>,
    shift: Shift,
    swap: Swap,
    dissolve: Dissolve,
    distill: Distill,
    log: MoveLog,
    spare: Vec<usize>,
    t_start: f64,
    temperature: f64,
    /// Batches without a new best, for the reheat after `reheat_after`.
    restart: Restart,
    reheats: u64,
    /// Batches run and moves accepted.
    batches: u64,
    accepted: u64,
}

impl Sa {
    pub fn new(params: SaParams) -> Self {
        Sa {
            restart: Restart::new(params.reheat_after),
            params,
            nb: None,
            shift: Shift::default(),
            swap: Swap::default(),
            dissolve: Dissolve::default(),
            distill: Distill::default(),
            log: MoveLog::new(),
            spare: Vec::new(),
            t_start: 0.0,
            temperature: 0.0,
            reheats: 0,
            batches: 0,
            accepted: 0,
        }
    }

    fn accept(&self, delta: f64, ctx: &mut Ctx) -> bool {
        let rule = Metropolis {
            temperature: self.temperature,
            tolerant: false,
        };
        rule.accept(0.0, delta, ctx.rng)
    }
}

impl Refiner for Sa {
    fn name(&self) -> &str {
        "sa"
    }

    fn stats(&self) -> Stats {
        let mut s = Stats::default();
        s.set("batches", self.batches);
        s.set("accepted", self.accepted);
        s.set("reheats", self.reheats);
        let ops: [&dyn Counted; 4] = [&self.shift, &self.swap, &self.dissolve, &self.distill];
        for op in ops {
            add_counters(&mut s, op);
        }
        s
    }

    fn init(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        // A time limit or Ctrl-C stops the neighbour-list build (the stage then returns its input).
        self.nb = ctx.neighbours(self.params.neighbours, Build::Exact);
        if self.nb.is_none() {
            return Ok(());
        }
        let groups = state.current.num_groups().max(1) as f64;
        self.t_start = (self.params.t0 * state.current.sse() / groups).max(f64::MIN_POSITIVE);
        self.temperature = self.t_start;
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step> {
        let (inst, k) = (ctx.inst, ctx.k);
        let Some(nb) = self.nb.clone() else {
            return Ok(Step::Converged);
        };
        let m = nb.per_record();
        let mut accepted = 0usize;
        let mut improved = false;
        for _ in 0..self.params.moves_per_temp {
            if m == 0 {
                break;
            }
            let p = &mut state.current;
            let i = ctx.rng.random_range(0..inst.n);
            if self.params.group_moves > 0.0 && ctx.rng.random_bool(self.params.group_moves) {
                let before = p.sse();
                let done = if ctx.rng.random_bool(0.5) {
                    let g = p.group_of(i);
                    match self.dissolve.evaluate(p, inst, g, Some(&nb)) {
                        Some(plan) if self.accept(plan.delta, ctx) => {
                            self.dissolve.apply(p, inst, &plan, &mut self.log);
                            if p.size(g) == 0 {
                                self.spare.push(g);
                            }
                            true
                        }
                        _ => false,
                    }
                } else {
                    match self.distill.evaluate(p, inst, k, i, &nb) {
                        Some(plan) if self.accept(plan.delta, ctx) => {
                            self.distill
                                .apply(p, inst, &plan, &mut self.spare, &mut self.log);
                            true
                        }
                        _ => false,
                    }
                };
                self.log.clear();
                if done {
                    accepted += 1;
                    improved |= p.sse() < before && state.record_if_better(k);
                }
                continue;
            }
            let j = nb.of(i)[ctx.rng.random_range(0..m)] as usize;
            let to = p.group_of(j);
            if to == p.group_of(i) {
                continue;
            }
            if ctx.rng.random_bool(0.5) {
                if let Some(delta) = self.shift.evaluate(p, inst, k, i, to) {
                    if self.accept(delta, ctx) {
                        self.shift.apply(p, inst, i, to, &mut self.log);
                        accepted += 1;
                        if delta < 0.0 && p.sse() < state.best_sse() {
                            improved |= state.record_if_better(k);
                        }
                    }
                }
            } else if let Some(delta) = self.swap.evaluate(p, inst, i, j) {
                if self.accept(delta, ctx) {
                    self.swap.apply(p, inst, i, j, &mut self.log);
                    accepted += 1;
                    if delta < 0.0 && p.sse() < state.best_sse() {
                        improved |= state.record_if_better(k);
                    }
                }
            }
            self.log.clear();
        }
        self.batches += 1;
        self.accepted += accepted as u64;
        let ratio = accepted as f64 / self.params.moves_per_temp as f64;
        if self.params.schedule == "adaptive" && ratio < self.params.target_acceptance {
            self.temperature = (self.temperature / self.params.alpha).min(self.t_start);
        } else {
            self.temperature *= self.params.alpha;
        }
        if self.restart.tick(improved) {
            self.reheats += 1;
            self.restart.restore(state, ctx)?;
            self.spare.clear();
            self.temperature = self.t_start;
        }
        let p = &mut state.current;
        if p.slots() > p.num_groups() + 64 {
            p.compact(inst);
            self.spare.clear();
        }
        Ok(Step::Continue)
    }

    /// Without a budget the run stops at its reheat after `max_reheats` (the executor's
    /// rule; the best partition is kept).
    fn convergence(&self) -> Option<Stop> {
        Some(Stop::Restarts(self.params.max_reheats))
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "sa",
        "simulated annealing over shift/swap (optionally dissolve/distill), geometric or adaptive schedule with reheats",
        "Kirkpatrick, Gelatt & Vecchi (1983), Science 220",
        Sa::new,
    )
}
