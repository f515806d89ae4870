//! # Exact large-neighbourhood search (`exact-lns`)
//!
//! Each step frees one neighbourhood of the partition and re-groups it optimally, or as
//! well as a node budget allows: a seed group and the groups whose centroids lie nearest
//! to its centroid, added until they hold at least `records` records, are solved as a
//! microaggregation problem of their own by branch-and-price
//! ([`microagg_solvers::bnp::branch_and_price`]) from their current grouping. A lower SSE
//! replaces their grouping; the rest of the partition is untouched, so the total SSE falls
//! by the same amount and every group keeps at least k records. Seeds are the groups of
//! the partition at the start of a pass, by decreasing group SSE (where the SSE is, the room
//! to lower it is); the refiner converges after a pass that changed nothing. A
//! neighbourhood the search proves optimal cannot be improved by any regrouping of its
//! records, which no move-based search (shift, swap, dissolve, re-split) guarantees.
//!
//! It minimises the unweighted SSE; pipelines refuse it on data with missing cells (it is not
//! declared to run there). [`regroup`] is one step on its own, for studies. It draws
//! no random number; the node budget makes a run repeat bit for bit, unless a
//! neighbourhood's `seconds` or the stage's time limit cuts a search short.
//!
//! ## Complexity
//! Per step O(G log G + n) to choose the neighbourhood (G groups) plus one branch-and-price
//! on about `records` records: at most `nodes` nodes, each a column generation whose exact
//! pricing is exponential in the group size in the worst case (proofs/P17). In practice a
//! neighbourhood of 80 records takes milliseconds to seconds at k = 3-5 and up to the
//! `seconds` cap at k = 10 on outlying records.
//!
//! ## References
//! - Shaw, P. (1998). Using constraint programming and local search methods to solve
//!   vehicle routing problems. CP 1998, LNCS 1520, 417-431.
//! - Pisinger, D. and Ropke, S. (2010). Large neighborhood search. In Handbook of
//!   Metaheuristics, 2nd ed., Springer, 399-419.

use crate::data::Instance;
use crate::error::Error;
use crate::method::{Ctx, MethodInfo, Refiner, SearchState, Stats, Step};
use crate::params::Params;
use crate::partition::Partition;
use crate::Result;
use microagg_solvers::bnp::{branch_and_price, BnpOptions, BnpResult};
use microagg_solvers::sse::partition_sse;
use serde::{Deserialize, Serialize};
use std::sync::atomic::AtomicBool;

/// Parameters of `exact-lns`.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ExactLnsParams {
    /// Records per neighbourhood (at least; whole groups are added).
    pub records: usize,
    /// Branch-and-price nodes per neighbourhood.
    pub nodes: u64,
    /// Seconds per neighbourhood (0: no limit of its own).
    pub seconds: f64,
}

impl Default for ExactLnsParams {
    fn default() -> Self {
        ExactLnsParams {
            records: 80,
            nodes: 50,
            seconds: 10.0,
        }
    }
}

impl Params for ExactLnsParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("records", "records per neighbourhood, at least 2: a seed group and its nearest groups (by centroid) are added whole until they hold this many (default 80; larger neighbourhoods find more and cost more, steeply at k >= 10)"),
        ("nodes", "branch-and-price nodes per neighbourhood, at least 1 (default 50): the budget that makes a run repeat bit for bit"),
        ("seconds", "time limit of each neighbourhood's branch-and-price, >= 0 (default 10; 0: none but the stage's): a neighbourhood cut short by it keeps the best grouping found, and the run then depends on the machine's speed"),
    ];
    fn check(&self) -> std::result::Result<(), String> {
        if self.records < 2 {
            return Err("records must be at least 2".into());
        }
        if self.nodes == 0 {
            return Err("nodes must be at least 1".into());
        }
        if !(self.seconds >= 0.0 && self.seconds.is_finite()) {
            return Err(format!(
                "seconds = {}: must be a finite number >= 0",
                self.seconds
            ));
        }
        Ok(())
    }
}

/// The `exact-lns` refiner.
pub struct ExactLns {
    params: ExactLnsParams,
    /// Seeds of the current pass (group slots) and the next one to take.
    seeds: Vec<usize>,
    cursor: usize,
    /// Neighbourhoods improved in the current pass.
    changed: u64,
    counts: Counts,
}

/// What the stage's record reports.
#[derive(Default)]
struct Counts {
    passes: u64,
    neighbourhoods: u64,
    improved: u64,
    proven: u64,
}

impl ExactLns {
    pub fn new(params: ExactLnsParams) -> Self {
        ExactLns {
            params,
            seeds: Vec::new(),
            cursor: 0,
            changed: 0,
            counts: Counts::default(),
        }
    }

    fn start_pass(&mut self, p: &Partition) {
        self.seeds = seeds_by_sse(p);
        self.cursor = 0;
        self.changed = 0;
    }

    /// The branch-and-price settings of one neighbourhood, within `left` seconds of the
    /// stage (None: no stage limit).
    fn bnp_options(&self, left: Option<f64>) -> BnpOptions {
        let mut limit = left.unwrap_or(f64::INFINITY);
        if self.params.seconds > 0.0 {
            limit = limit.min(self.params.seconds);
        }
        BnpOptions {
            time_limit: limit.max(1e-3),
            max_nodes: self.params.nodes,
            // No pool MIPs: their time limits would make the result depend on the machine.
            mip_seconds: 0.0,
            rc_pool_columns: 0,
            ..BnpOptions::default()
        }
    }
}

/// The non-empty groups of `p` by decreasing SSE (ties by slot): the seeds of one pass.
pub fn seeds_by_sse(p: &Partition) -> Vec<usize> {
    let mut seeds: Vec<usize> = (0..p.slots()).filter(|&g| p.size(g) > 0).collect();
    seeds.sort_by(|&a, &b| p.group_sse(b).total_cmp(&p.group_sse(a)).then(a.cmp(&b)));
    seeds
}

/// What re-grouping one neighbourhood did ([`regroup`]).
pub struct Regrouped {
    /// Records and groups of the neighbourhood, and their SSE before (two-pass).
    pub records: usize,
    pub groups: usize,
    pub before: f64,
    /// Whether the lower grouping of `result` replaced theirs.
    pub improved: bool,
    /// The branch-and-price run on the neighbourhood.
    pub result: BnpResult,
}

/// Re-group the neighbourhood of group `seed` of `p` (at least `records` records) by
/// branch-and-price with `opts` from its current grouping; a lower SSE replaces that
/// grouping in `p` (slots left over stay empty).
pub fn regroup(
    p: &mut Partition,
    inst: &Instance,
    k: usize,
    seed: usize,
    records: usize,
    opts: &BnpOptions,
    interrupt: Option<&AtomicBool>,
) -> Result<Regrouped> {
    let groups = neighbourhood(p, seed, records);
    let sub = Sub::of(p, inst, &groups);
    let (n, d) = (sub.records.len(), inst.d);
    let before = partition_sse(&sub.rows, d, &sub.labels);
    let starts: [&[usize]; 1] = [&sub.labels];
    let result = branch_and_price(&sub.rows, n, d, k, &starts, opts, interrupt, &mut |_| {})
        .map_err(|e| Error::Algorithm {
            method: "exact-lns".into(),
            message: format!("branch-and-price on a neighbourhood of {n} records: {e}"),
        })?;
    let improved = result.sse < before * (1.0 - 1e-12);
    if improved {
        apply(p, inst, &sub, &groups, &result.labels);
    }
    Ok(Regrouped {
        records: n,
        groups: groups.len(),
        before,
        improved,
        result,
    })
}

/// The seed group and its nearest groups by centroid distance (ties by slot), added whole
/// until they hold at least `records` records, at least two groups when there are two.
fn neighbourhood(p: &Partition, seed: usize, records: usize) -> Vec<usize> {
    let c = p.centroid(seed);
    let mut others: Vec<(f64, usize)> = (0..p.slots())
        .filter(|&g| g != seed && p.size(g) > 0)
        .map(|g| (crate::partition::sq_dist(c, p.centroid(g)), g))
        .collect();
    others.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
    let mut chosen = vec![seed];
    let mut held = p.size(seed);
    for (_, g) in others {
        if held >= records && chosen.len() >= 2 {
            break;
        }
        chosen.push(g);
        held += p.size(g);
    }
    chosen
}

/// One neighbourhood as its own instance: its records (sorted), their rows and their
/// current labels (0.. in the order of `groups`).
struct Sub {
    records: Vec<usize>,
    rows: Vec<f64>,
    labels: Vec<usize>,
}

impl Sub {
    fn of(p: &Partition, inst: &Instance, groups: &[usize]) -> Sub {
        let mut records: Vec<usize> = groups.iter().flat_map(|&g| p.members(g)).copied().collect();
        records.sort_unstable();
        let label = |g: usize| groups.iter().position(|&h| h == g).expect("chosen group");
        Sub {
            rows: records.iter().flat_map(|&i| inst.row(i)).copied().collect(),
            labels: records.iter().map(|&i| label(p.group_of(i))).collect(),
            records,
        }
    }
}

/// Move the records of `sub` into the grouping `labels`: sub-group j takes slot
/// `groups[j]` while there are chosen slots, then new slots; slots left over stay empty.
fn apply(p: &mut Partition, inst: &Instance, sub: &Sub, groups: &[usize], labels: &[usize]) {
    let count = labels.iter().max().map_or(0, |&l| l + 1);
    let slots: Vec<usize> = (0..count)
        .map(|j| groups.get(j).copied().unwrap_or_else(|| p.add_group()))
        .collect();
    for (&i, &l) in sub.records.iter().zip(labels) {
        p.apply_shift(inst, i, slots[l]);
    }
}

impl Refiner for ExactLns {
    fn name(&self) -> &str {
        "exact-lns"
    }

    fn stats(&self) -> Stats {
        let mut s = Stats::default();
        s.set("passes", self.counts.passes);
        s.set("neighbourhoods", self.counts.neighbourhoods);
        s.set("improved", self.counts.improved);
        s.set("proven", self.counts.proven);
        s
    }

    fn init(&mut self, state: &mut SearchState, _ctx: &mut Ctx) -> Result<()> {
        self.start_pass(&state.current);
        Ok(())
    }

    fn step(&mut self, state: &mut SearchState, ctx: &mut Ctx) -> Result<Step> {
        if self.cursor == self.seeds.len() {
            self.counts.passes += 1;
            if self.changed == 0 {
                return Ok(Step::Converged);
            }
            state.current.compact(ctx.inst);
            self.start_pass(&state.current);
            return Ok(Step::Continue);
        }
        let seed = self.seeds[self.cursor];
        self.cursor += 1;
        if state.current.size(seed) == 0 {
            return Ok(Step::Continue); // emptied by an earlier neighbourhood of this pass
        }
        self.improve(state, ctx, seed)?;
        Ok(Step::Continue)
    }
}

impl ExactLns {
    /// Re-group the neighbourhood of `seed` when branch-and-price finds a lower SSE.
    fn improve(&mut self, state: &mut SearchState, ctx: &mut Ctx, seed: usize) -> Result<()> {
        let opts = self.bnp_options(ctx.seconds_left());
        let flag = Some(ctx.interrupt_flag());
        let (inst, k, records) = (ctx.inst, ctx.k, self.params.records);
        let r = regroup(&mut state.current, inst, k, seed, records, &opts, flag)?;
        self.counts.neighbourhoods += 1;
        self.counts.proven += u64::from(r.result.proven_optimal);
        if r.improved {
            self.counts.improved += 1;
            self.changed += 1;
            state.record_if_better(k);
        }
        Ok(())
    }
}

pub fn method() -> MethodInfo {
    MethodInfo::refiner(
        "exact-lns",
        "exact large-neighbourhood search: re-group a group and its nearest groups optimally by branch-and-price, group after group, until a pass changes nothing",
        "Shaw (1998), CP 1998; Pisinger & Ropke (2010), Handbook of Metaheuristics",
        ExactLns::new,
    )
    .deterministic()
}
