//! # Descent (local search over shift and swap)
//!
//! First- or best-improvement descent over the shift and swap moves with candidate groups
//! taken from each record's nearest neighbours. A work queue holds the records whose
//! neighbourhood may have changed: initially all (in a seeded random order), then, after an
//! applied move, the members of the two groups it touched. For record i in group g and each
//! distinct group h of its neighbours, the candidates are shifting i to h (when g keeps k
//! records) and swapping i with each member of h. `strategy = "first"` applies the first
//! improving candidate found, `"best"` the best one of the record. The descent stops at a
//! local optimum of this granular neighbourhood (queue empty). The engine is [`LocalSearch`]
//! (`local_search.rs`), which ILS reuses; this file is the refiner around it.
//!
//! On data with missing cells (`--missing ignore`) the same engine runs on the masked SSE
//! (the instance's objective, `crate::objective::masked`, `proofs/P42-masked-deltas.md`):
//! neighbours by the masked distance (a scan), records queued in row order on a partition
//! renumbered by first appearance (no seed needed), sweeps until none moves; `cycles = true`
//! is refused there (no masked 3-cycle delta).
//!
//! With `cycles = true`, a record with no improving shift or swap waits in a second queue;
//! when the first is empty (a shift/swap local optimum), its best improving 3-cycle is
//! applied if there is one ([`Cycle3`](super::operators::cycle3::Cycle3): the record into a neighbour group
//! B, a member of B into a third group C, a member of C, among the record's neighbours,
//! into the record's group; every size stays, delta in P02). It escapes swap optima where
//! nearly every group has exactly k records and no shift is allowed. A record's cycles
//! also depend on groups other than its own, so the `descent` refiner then queues every
//! record again until a whole sweep applies no move (ILS does not: its perturbations
//! re-queue records anyway).
//!
//! ## Complexity
//! Per record examined, O(m + G_nb s d) for m neighbours spread over G_nb groups of size s:
//! with m = 30 and k = 3 about 10 groups, 40 O(d) evaluations. A 3-cycle search adds
//! O((G_nb s + m + 64) d) (64 = 8 x 8 closing pairs). Every swap partner and every 3-cycle
//! term costs one dot product (P02, "One dot product per candidate"); the measured effect
//! of both on the ILS iteration rate is in studies/study-ils-moves.txt.
//!
//! ## References
//! - Laszlo, M. and Mukherjee, S. (2015). Iterated local search for microaggregation.
//!   Journal of Systems and Software 100, 15-26.
//! - Toth, P. and Vigo, D. (2003). The granular tabu search and its application to the
//!   vehicle-routing problem. INFORMS Journal on Computing 15(4), 333-346.
//! - Ahuja, R. K., Orlin, J. B. and Sharma, D. (2000). Very large-scale neighborhood
//!   search. International Transactions in Operational Research 7(4-5), 301-317 (cyclic
//!   exchanges).

pub use super::local_search::{LocalSearch, IMPROVE_EPS};
use super::moves::MoveLog;
use super::shared_lists::Build;
use super::{Ctx, Refiner, SearchState, Step};
use crate::error::Result;
use crate::geometry::neighbours::Neighbours;
use crate::method::{MethodInfo, Stats};
use crate::params::Params;
use crate::partition::Partition;
use rand::seq::SliceRandom;
use serde::{Deserialize, Serialize};
use std::sync::Arc;

/// Which improving move of a record the descent applies (`"first"` or `"best"`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Strategy {
    First,
    Best,
}

/// Parameters of `descent`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct DescentParams {
    pub strategy: Strategy,
    /// Nearest records per record that supply candidate groups (`None`: `auto_neighbours`
    /// by n).
    pub neighbours: Option<usize>,
    pub cycles: bool,
    /// Neighbour lists (1 + approx)-approximate (0: exact; `None`: `auto_approx` by n).
    pub approx: Option<f64>,
}

impl Default for DescentParams {
    fn default() -> Self {
        DescentParams {
            strategy: Strategy::First,
            neighbours: None,
            cycles: false,
            approx: None,
        }
    }
}

impl Params for DescentParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("strategy", "\"first\" (default): apply the first improving move of a record; \"best\": its best one"),
        ("neighbours", "nearest records per record that supply candidate groups. Default (unset, null in records): 30 below 250 000 records, 10 from 250 000 (on large files the moves over 30 neighbours cost about three times those over 10); a given value is used at any n"),
        ("approx", "eps >= 0: build the neighbour lists by the (1 + eps)-approximate kd-tree search (each listed record within 1 + eps of the true nearest distance of its rank; from 4096 records, below them and in the masked descent of --missing ignore the lists stay exact); 0: exact lists. Default (unset, null in records): exact lists below 250 000 records, eps = 1 from 250 000 (the border repair of --blocks keeps exact lists unless approx is given). At d = 10, eps = 1 makes the lists several times cheaper for a slightly higher IL (below 0.1 % relative)"),
        ("cycles", "at a shift/swap local optimum, also apply improving 3-cycles (the record into a neighbour group, a member of that group into a third group, a member of the third into the record's group; default false)"),
    ];
    fn check(&self) -> Result<(), String> {
        if self.neighbours == Some(0) {
            return Err("neighbours must be at least 1".into());
        }
        if let Some(eps) = self.approx.filter(|e| !(*e >= 0.0 && e.is_finite())) {
            return Err(format!("approx = {eps}: must be a finite number >= 0"));
        }
        Ok(())
    }
}

/// The `descent` refiner.
pub struct Descent {
    params: DescentParams,
    nb: Option<Arc<Neighbours>>,
    ls: Option<LocalSearch>,
    log: MoveLog,
    /// Moves applied since every record was last queued.
    since_sweep: usize,
}

impl Descent {
    pub fn new(params: DescentParams) -> Self {
        Descent {
            params,
            nb: None,
            ls: None,
            log: MoveLog::new(),
            since_sweep: 0,
        }
    }

    /// `ls` with every record queued: in a seeded random order, or in record order on data
    /// with missing cells (the masked descent draws no random numbers).
    fn queue_all(&self, mut ls: LocalSearch, ctx: &mut Ctx) -> LocalSearch {
        let mut order: Vec<usize> = (0..ctx.inst.n).collect();
        if !ls.is_masked() {
            order.shuffle(ctx.rng);
        }
        order.into_iter().for_each(|i| ls.push(i));
        ls
    }
}

/// Fewest records for which the default descent (`approx` unset) builds (1 + eps)-
/// approximate lists, eps = [`AUTO_EPS`]. At d = 10, k = 5 from MDAV the exact lists cost
/// most of the descent from about 10^5 records: 21.8 s CPU at 2 x 10^5 with 30 neighbours
/// (eps = 1: 4.0 s, IL 6.541876 % instead of 6.536351 %), an estimated 345 s at 10^6
/// (10 neighbours, measured: 236 s against 23.6 s), which puts the default `mdav+descent`
/// over two minutes at 10^6. Below the crossover the exact lists are affordable and kept,
/// so every result below it (the CASC files, every test instance) is unchanged
/// (`studies/study-engine.txt`, 24-pool).
pub(crate) const AUTO_APPROX_FROM: usize = 250_000;
/// The eps of the approximate lists the default picks from [`AUTO_APPROX_FROM`] records
/// (eps = 3 loses too much: 4.51 % below MDAV at 10^6 against 5.08 % for eps = 1).
pub(crate) const AUTO_EPS: f64 = 1.0;

/// The eps of the default descent's lists for `n` records: 0 (exact) below
/// [`AUTO_APPROX_FROM`], [`AUTO_EPS`] from it.
pub(crate) fn auto_approx(n: usize) -> f64 {
    below_or_from_crossover(n, 0.0, AUTO_EPS)
}

/// Neighbours per record of the default descent (`neighbours` unset) from
/// [`AUTO_APPROX_FROM`] records (below it [`SMALL_NEIGHBOURS`]). At n = 10^6, d = 10, k = 5
/// from MDAV the descent's moves run on one thread: 43 s with 30 neighbours against 14 s
/// with 10, which puts the default `mdav+descent` over two minutes there (~141-148 s
/// derived); with 10 it ends 5.09 % below MDAV's IL (30: 6.25 %)
/// (`studies/study-engine.txt`, 24-pool and 24-defaults). Below the
/// crossover the default stays 30, so every result there is unchanged.
pub(crate) const AUTO_NEIGHBOURS: usize = 10;
/// Neighbours per record of the default descent below [`AUTO_APPROX_FROM`] records (the
/// default before the size rule, at every n).
pub(crate) const SMALL_NEIGHBOURS: usize = 30;

/// The neighbours per record of the default descent for `n` records: [`SMALL_NEIGHBOURS`]
/// below [`AUTO_APPROX_FROM`], [`AUTO_NEIGHBOURS`] from it (the same crossover as the
/// approximate lists).
pub(crate) fn auto_neighbours(n: usize) -> usize {
    below_or_from_crossover(n, SMALL_NEIGHBOURS, AUTO_NEIGHBOURS)
}

/// `below` for fewer than [`AUTO_APPROX_FROM`] records, `from` otherwise: the one size rule
/// of the default descent's lists (their eps and their neighbours per record).
fn below_or_from_crossover<T>(n: usize, below: T, from: T) -> T {
    if n >= AUTO_APPROX_FROM {
        from
    } else {
        below
    }
}

impl DescentParams {
    /// The neighbours per record for `n` records: the given value, else [`auto_neighbours`].
    pub(crate) fn neighbours_for(&self, n: usize) -> usize {
        self.neighbours.unwrap_or_else(|| auto_neighbours(n))
    }

    /// The lists' eps for `n` records: the given value, else [`auto_approx`].
    pub(crate) fn approx_for(&self, n: usize) -> f64 {
        self.approx.unwrap_or_else(|| auto_approx(n))
    }
}

/// Records examined per step (short enough for the time limit to hold within a few ms).
const STEP_RECORDS: usize = 256;

impl Refiner for Descent {
    fn name(&self) -> &str {
        "descent"
    }

    fn stats(&self) -> Stats {
        let mut s = Stats::default();
        if let Some(ls) = &self.ls {
            ls.add_stats(&mut s);
        }
        s
    }

    fn init(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<()> {
        let inst = ctx.inst;
        // A time limit or Ctrl-C stops the neighbour-list build (the stage then returns its input).
        let m = self.params.neighbours_for(inst.n);
        self.nb = if inst.has_missing() {
            Neighbours::build_masked_until(inst, m, || ctx.should_stop()).map(Arc::new)
        } else {
            let eps = self.params.approx_for(inst.n);
            ctx.neighbours(m, Build::Approx(eps))
        };
        if self.nb.is_none() {
            return Ok(());
        }
        if inst.has_missing() {
            // Group slots numbered by first appearance and members in record order: the
            // masked descent's queue follows them (its result needs no seed).
            state.current = Partition::from_labels(inst, state.current.canonical_labels())?;
        }
        // The instance's objective: with unequal sampling weights the weighted SSE (equal
        // weights make it a multiple of the SSE, descended with the same labels); with
        // missing cells the masked SSE.
        let best = self.params.strategy == Strategy::Best;
        let ls = LocalSearch::on_objective(inst, &state.current, best, self.params.cycles)
            .map_err(crate::error::Error::usage)?;
        if !ls.minimises_sse() {
            // Every applied move lowers the objective: the current partition is the best.
            state.set_best_to_current();
        }
        self.ls = Some(self.queue_all(ls, ctx));
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step> {
        let (Some(nb), Some(ls)) = (&self.nb, &mut self.ls) else {
            return Ok(Step::Converged);
        };
        self.since_sweep += ls.run(
            &mut state.current,
            ctx.inst,
            ctx.k,
            nb,
            &mut self.log,
            STEP_RECORDS,
        );
        self.log.clear();
        if ls.minimises_sse() {
            state.record_if_better(ctx.k);
        } else {
            state.set_best_to_current();
        }
        if !ls.is_idle() {
            return Ok(Step::Continue);
        }
        if !ls.escapes() || self.since_sweep == 0 {
            return Ok(Step::Converged);
        }
        // A record is re-queued only when its own group changes, but its 3-cycles also
        // depend on other groups: sweep every record again until a sweep moves nothing.
        // (On data with missing cells the engine sweeps by itself, LocalSearch's sweep mode.)
        self.since_sweep = 0;
        for i in 0..ctx.inst.n {
            ls.push(i);
        }
        Ok(Step::Continue)
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "descent",
        "first- or best-improvement shift and swap descent over nearest-neighbour candidate groups",
        "Laszlo & Mukherjee (2015), J. Systems and Software 100",
        Descent::new,
    )
    .runs_on_missing_cells()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::parse_params;
    use serde_json::json;

    fn parse(v: serde_json::Value) -> Result<DescentParams> {
        parse_params("descent", v.as_object().unwrap())
    }

    /// Unset `approx` is the size rule; a given one (0 included) is used as it is, at
    /// any n; a negative one is refused.
    #[test]
    fn approx_default_is_exact_below_the_crossover_and_given_values_win() {
        assert_eq!(auto_approx(AUTO_APPROX_FROM - 1), 0.0);
        assert_eq!(auto_approx(AUTO_APPROX_FROM), AUTO_EPS);
        assert_eq!(parse(json!({})).unwrap().approx, None);
        assert_eq!(parse(json!({"approx": 0})).unwrap().approx, Some(0.0));
        assert_eq!(parse(json!({"approx": 1.5})).unwrap().approx, Some(1.5));
        let err = parse(json!({"approx": -1})).unwrap_err().to_string();
        assert!(err.contains("approx = -1"), "{err}");
    }

    /// Unset `neighbours` is 30 below the crossover and 10 from it; a given one (30
    /// included) is used as it is at any n; 0 is refused.
    #[test]
    fn neighbours_default_is_30_below_the_crossover_and_given_values_win() {
        assert_eq!(auto_neighbours(AUTO_APPROX_FROM - 1), 30);
        assert_eq!(auto_neighbours(AUTO_APPROX_FROM), AUTO_NEIGHBOURS);
        let unset = parse(json!({})).unwrap();
        assert_eq!(unset.neighbours, None);
        assert_eq!(unset.neighbours_for(1000), 30);
        assert_eq!(unset.neighbours_for(1_000_000), 10);
        assert_eq!(unset.approx_for(1_000_000), AUTO_EPS);
        let given = parse(json!({"neighbours": 30})).unwrap();
        assert_eq!(given.neighbours_for(1_000_000), 30);
        assert_eq!(
            parse(json!({"neighbours": 7})).unwrap().neighbours_for(10),
            7
        );
        let err = parse(json!({"neighbours": 0})).unwrap_err().to_string();
        assert!(err.contains("neighbours must be at least 1"), "{err}");
    }
}
