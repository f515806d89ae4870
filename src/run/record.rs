//! # Run records
//!
//! The record of a run ([`Record`]), written by `microagg run --json` (unless the run is
//! split: `crate::parts::SplitRecord`) and by every experiment (one JSON line per run, [`crate::experiment::record`] reads and writes the
//! files). Its JSON Schema, generated from these types with `schemars`, is one of the two
//! alternatives of `schema/run-record.json` ([`crate::schema`]; the other is a split run's
//! record). Fields: the effective configuration (pipeline stages with defaults
//! filled in, k, time limit, step budget, seeds, bounds requested), the instance's identity
//! (spec, name, shape, sha256, SST), crate version and git commit, per-stage results with the
//! refiners' counters, the final SSE/IL, the bounds with the best certified one and the gap
//! to it, and the search trace when asked for. Timing lives only in fields named `seconds`.
//!
//! ## Complexity
//! Building a record is linear in its stages and trace.
//!
//! ## References
//! JSON Schema draft 2020-12 (json-schema.org); schemars crate documentation.

use crate::bound::BoundOutcome;
use crate::data::Instance;
use crate::partition::Partition;
use crate::pipeline::{PipelineOutcome, StageSpec};
use crate::search::trace::TracePoint;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;

/// What one stage did (mirror of [`StageRecord`](crate::pipeline::StageRecord) that can
/// also be read back).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct StageResult {
    pub name: String,
    pub seed: u64,
    pub sse: f64,
    pub il: f64,
    pub groups: usize,
    pub seconds: f64,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stop: Option<String>,
    /// Refiner steps (moves attempted by the refiner's own accounting).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// The refiner's counters (iterations, accepted, operator evaluations, ...).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stats: Option<crate::method::Stats>,
}

impl From<&crate::pipeline::StageRecord> for StageResult {
    fn from(s: &crate::pipeline::StageRecord) -> Self {
        StageResult {
            name: s.name.clone(),
            seed: s.seed,
            sse: s.sse,
            il: s.il,
            groups: s.groups,
            seconds: s.seconds,
            stop: s.stop.map(|r| {
                serde_json::to_value(r)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_string))
                    .unwrap_or_default()
            }),
            steps: s.steps,
            stats: s.stats.clone(),
        }
    }
}

/// A stage's effective parameters (defaults filled in).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct StageParams {
    pub name: String,
    pub params: Value,
}

impl StageParams {
    /// The name and effective parameters of the pipeline stage `spec`.
    pub(crate) fn of(spec: &StageSpec) -> Self {
        StageParams {
            name: spec.name.clone(),
            params: spec.params.clone(),
        }
    }
}

/// A lower bound of the run's case.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct BoundResult {
    /// The method whose value `sse` is (`nn`, `nn-raised`, `colgen`, `bnp`, or `library`
    /// for the benchmark library's stored certificate): a colgen run that ended at its nn
    /// start is `nn` here, with `requested` = `colgen`.
    pub name: String,
    /// The bound asked for, when another one produced the value.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requested: Option<String>,
    /// Where the value comes from, in words ("stored certificate, verified", "colgen, 120 s",
    /// "nn"); absent in records written before it was added.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub source: String,
    /// The bound's parameters as given (`KEY` -> `VALUE`, e.g. `cuts` -> `3`), when any
    /// (suite `bounds = [{ name = "colgen", cuts = 3 }]`, `run --bound-param cuts=3`).
    #[serde(default, skip_serializing_if = "BTreeMap::is_empty")]
    pub params: BTreeMap<String, String>,
    /// Lower bound on the optimal SSE.
    pub sse: f64,
    /// The same as IL (percent), rounded down.
    pub il: f64,
    /// True when the bound is proven valid and rounded outward (see `microagg::bound`).
    pub certified: bool,
    pub seconds: f64,
}

/// Seeds of a run.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct RunSeeds {
    /// The suite's base seed.
    pub base: u64,
    /// Derived from base, instance, k, pipeline and replicate.
    pub run: u64,
    pub replicate: usize,
    /// Seed of each stage, derived from the run seed.
    pub stages: Vec<u64>,
}

/// One run's record: `microagg run --json` and every experiment record (one line of
/// `records.jsonl`). A single `run` is a suite of one run: `suite` is `"run"`, `index` 0,
/// `run_id` `INSTANCE|k=K|METHOD|seed=SEED`, and its seeds are all the `--seed`.
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, JsonSchema)]
pub struct Record {
    pub suite: String,
    pub index: usize,
    pub run_id: String,
    /// The instance as written in the suite.
    pub instance: String,
    /// The instance's name (manifest id for CASC files).
    pub instance_name: String,
    pub instance_sha256: String,
    /// Where the data came from (a file path or generator spec), when it differs from
    /// `instance` (`microagg run`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub source: Option<String>,
    pub n: usize,
    pub d: usize,
    /// Total sum of squares of the standardised data (IL = 100 SSE / SST); absent in records
    /// written before it was added.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sst: Option<f64>,
    pub k: usize,
    /// Pipeline label.
    pub pipeline: String,
    /// The `--method` string.
    pub method: String,
    /// Effective parameters of every stage (defaults filled in).
    pub params: Vec<StageParams>,
    pub seeds: RunSeeds,
    /// True when no stage of the pipeline draws a random number (`deterministic` in
    /// `microagg list`): the seeds do not change the result, and an experiment runs the
    /// pipeline once per (instance, k), replicate 0, whatever its `replicates`; tables count
    /// it as one run and the Wilcoxon tests pair its one value with the other pipeline's
    /// median over seeds. False in records written before it was added.
    #[serde(default)]
    pub deterministic: bool,
    pub time_limit: Option<f64>,
    /// Step budget of every refiner stage, when the suite gives one (absent otherwise).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_steps: Option<u64>,
    /// Bounds the suite asked for.
    pub bounds_requested: Vec<String>,
    pub stages: Vec<StageResult>,
    pub sse: f64,
    pub il: f64,
    pub groups: usize,
    pub min_group_size: usize,
    pub max_group_size: usize,
    /// Bounds computed for the case, and the best (largest) one.
    pub bounds: Vec<BoundResult>,
    pub best_bound: Option<BoundResult>,
    /// 100 (sse - best bound) / best bound, when a positive bound exists.
    pub gap: Option<f64>,
    /// The best-known SSE of the case (the benchmark library's partition), when known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub best_known_sse: Option<f64>,
    /// 100 (sse - best_known_sse) / best_known_sse: how far the run is above the best-known
    /// partition (negative when it beats it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub gap_best_known: Option<f64>,
    /// Why a requested bound was not computed (`microagg run` interrupted before it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bound_skipped: Option<String>,
    /// Wall-clock seconds of the pipeline.
    pub seconds: f64,
    /// True when a signal stopped the run: the record holds the best partition found until
    /// then (`microagg run`; an experiment never records an interrupted run).
    #[serde(default)]
    pub interrupted: bool,
    /// The search trace, when asked for (`trace = true` in a suite: thinned, see
    /// `crate::experiment::thin`; `run --json --trace FILE`: a line per new best or 0.1 s).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub trace: Option<Vec<crate::search::trace::TracePoint>>,
    /// `microagg run --masked-out`: the released file, its aggregation and the IL of its
    /// values (and its measures with `--measures`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub release: Option<crate::release::ReleaseRecord>,
    /// `microagg run --missing ignore` on data with missing cells: how many, where, and
    /// what the released file holds there (absent for complete data).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub missing: Option<crate::missing::MissingRecord>,
    /// `microagg run --weights COLUMN`: the weighted SSE, SST and IL of the partition
    /// (`il` above stays the unweighted IL) and which objective the method minimised
    /// (`docs/weights.md`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub weights: Option<crate::weighted::WeightedIl>,
    pub version: String,
    pub git_commit: String,
}

impl From<&BoundOutcome> for BoundResult {
    /// Labelled by the method that produced the value ([`BoundOutcome::produced_by`]).
    fn from(b: &BoundOutcome) -> Self {
        let fell_back = b.produced_by != b.method;
        BoundResult {
            name: b.produced_by.clone(),
            requested: fell_back.then(|| b.method.clone()),
            source: if fell_back {
                format!(
                    "{} ({} asked, {:.0} s, did not pass it)",
                    b.produced_by, b.method, b.seconds
                )
            } else if b.method == "nn" {
                "nn".to_string()
            } else {
                format!("{}, {:.0} s", b.method, b.seconds)
            },
            params: BTreeMap::new(),
            sse: b.lower_bound,
            il: b.il_lower_bound,
            certified: b.certified,
            seconds: b.seconds,
        }
    }
}

/// The benchmark library's stored, verified bound of a case as a bound of the run.
pub(crate) fn library_bound(
    reference: &crate::library::Reference,
    inst: &Instance,
) -> Option<BoundResult> {
    let lb = reference.bound?;
    Some(BoundResult {
        name: crate::library::Reference::LABEL.to_string(),
        requested: None,
        source: format!(
            "{} ({})",
            crate::library::Reference::SOURCE,
            reference.bound_file.as_deref().unwrap_or("?")
        ),
        params: BTreeMap::new(),
        sse: lb,
        il: crate::bound::il_lower_bound(inst, lb),
        certified: true,
        seconds: 0.0,
    })
}

/// The gaps of a run of SSE `sse`: to the best certified bound among `bounds` and the
/// library's (which is added to `bounds`), and to the best-known SSE.
pub(crate) struct Gaps {
    pub best_bound: Option<BoundResult>,
    pub gap: Option<f64>,
    pub best_known_sse: Option<f64>,
    pub gap_best_known: Option<f64>,
}

impl Gaps {
    pub fn of(
        sse: f64,
        bounds: &mut Vec<BoundResult>,
        reference: Option<&crate::library::Reference>,
        inst: &Instance,
    ) -> Gaps {
        if let Some(b) = reference.and_then(|r| library_bound(r, inst)) {
            bounds.push(b);
        }
        let best_bound = best_certified(bounds);
        let best_known_sse = reference.and_then(|r| r.best_sse);
        Gaps {
            gap: best_bound
                .as_ref()
                .and_then(|b| crate::bound::gap_percent(sse, b.sse)),
            best_bound,
            gap_best_known: best_known_sse.and_then(|b| crate::bound::gap_percent(sse, b)),
            best_known_sse,
        }
    }
}

/// Gaps are stated only against certified bounds: the largest certified one (the first of
/// equal ones, so a run's own bound is kept over an equal stored one).
pub(crate) fn best_certified(bounds: &[BoundResult]) -> Option<BoundResult> {
    bounds
        .iter()
        .filter(|b| b.certified)
        .reduce(|best, b| if b.sse > best.sse { b } else { best })
        .cloned()
}

/// What `microagg run` knows about its one run.
pub struct SingleRun<'a> {
    pub inst: &'a Instance,
    /// The `--method` string.
    pub method: &'a str,
    pub k: usize,
    pub seed: u64,
    pub time_limit: Option<f64>,
    pub max_steps: Option<u64>,
    pub params: &'a [StageSpec],
    pub outcome: &'a PipelineOutcome,
    /// The bound asked for (`--bound`), and its outcome when it was computed.
    pub bound_requested: Option<&'a str>,
    /// Its parameters (`--bound-param KEY=VALUE`).
    pub bound_params: BTreeMap<String, String>,
    pub bound: Option<&'a BoundOutcome>,
    pub bound_skipped: Option<&'a str>,
    pub interrupted: bool,
    pub trace: Option<Vec<TracePoint>>,
    pub release: Option<crate::release::ReleaseRecord>,
}

/// What a pipeline minimises when the instance carries sampling weights: the weighted SSE
/// for `univariate` alone (the weighted DP over sorted runs) and for any pipeline whose
/// last stage is `descent` (the weighted descent from the previous stages' partition, a
/// local optimum of the weighted SSE); every other method and refiner minimises the
/// unweighted SSE (`docs/weights.md`).
pub(crate) fn weighted_objective(stages: &[StageSpec]) -> &'static str {
    match stages {
        [only] if only.name == "univariate" => "weighted",
        [_, .., last] if last.name == "descent" => "weighted",
        _ => "unweighted",
    }
}

impl Record {
    /// The record of one `microagg run`.
    pub fn single_run(r: SingleRun) -> Record {
        let p: &Partition = &r.outcome.partition;
        let stages: Vec<StageResult> = r.outcome.stages.iter().map(StageResult::from).collect();
        let bounds: Vec<BoundResult> = r
            .bound
            .map(|b| BoundResult {
                params: r.bound_params.clone(),
                ..BoundResult::from(b)
            })
            .into_iter()
            .collect();
        // The benchmark library's best known for the case ($MICROAGG_LIBRARY or the
        // source tree's instances/library).
        let reference = crate::library::reference_default(r.inst, r.k);
        let seeds = RunSeeds {
            base: r.seed,
            run: r.seed,
            replicate: 0,
            stages: stages.iter().map(|s| s.seed).collect(),
        };
        Record {
            suite: "run".into(),
            run_id: format!("{}|k={}|{}|seed={}", r.inst.name, r.k, r.method, r.seed),
            source: (r.inst.source != r.inst.name).then(|| r.inst.source.clone()),
            pipeline: r.method.to_string(),
            method: r.method.to_string(),
            params: r.params.iter().map(StageParams::of).collect(),
            seeds,
            deterministic: r.params.iter().all(|s| s.deterministic),
            time_limit: r.time_limit,
            max_steps: r.max_steps,
            bounds_requested: r.bound_requested.map(str::to_string).into_iter().collect(),
            bound_skipped: r.bound_skipped.map(str::to_string),
            seconds: r.outcome.seconds,
            interrupted: r.interrupted,
            trace: r.trace,
            release: r.release,
            weights: r.inst.weights.as_ref().and_then(|w| {
                let objective = weighted_objective(r.params);
                crate::weighted::WeightedIl::of(
                    r.inst,
                    weighted_sse_of_partition(r.inst, &w.values, p),
                    Some(objective),
                )
            }),
            ..Record::of_partition(r.inst, r.k, p, stages, bounds, reference.as_ref())
        }
    }

    /// A record of `p` on `inst` with groups of `k`: the instance, the stages, the
    /// partition's figures and its gaps to `bounds` (the library's bound added) and to the
    /// library's best known (`reference`); the run's identity, seeds and options are left
    /// empty for the caller to fill.
    pub(crate) fn of_partition(
        inst: &Instance,
        k: usize,
        p: &Partition,
        stages: Vec<StageResult>,
        mut bounds: Vec<BoundResult>,
        reference: Option<&crate::library::Reference>,
    ) -> Record {
        let (min_size, max_size) = p.size_range();
        let sse = p.sse();
        let gaps = Gaps::of(sse, &mut bounds, reference, inst);
        Record {
            suite: String::new(),
            index: 0,
            run_id: String::new(),
            instance: inst.name.clone(),
            instance_name: inst.name.clone(),
            instance_sha256: inst.sha256.clone(),
            source: None,
            n: inst.n,
            d: inst.d,
            sst: Some(inst.sst),
            k,
            pipeline: String::new(),
            method: String::new(),
            params: Vec::new(),
            seeds: RunSeeds {
                base: 0,
                run: 0,
                replicate: 0,
                stages: Vec::new(),
            },
            deterministic: false,
            time_limit: None,
            max_steps: None,
            bounds_requested: Vec::new(),
            stages,
            sse,
            il: inst.il(sse),
            groups: p.num_groups(),
            min_group_size: min_size,
            max_group_size: max_size,
            gap: gaps.gap,
            best_bound: gaps.best_bound,
            best_known_sse: gaps.best_known_sse,
            gap_best_known: gaps.gap_best_known,
            bounds,
            bound_skipped: None,
            seconds: 0.0,
            interrupted: false,
            trace: None,
            release: None,
            missing: None,
            weights: None,
            version: env!("CARGO_PKG_VERSION").to_string(),
            git_commit: env!("MICROAGG_GIT_COMMIT").to_string(),
        }
    }
}

/// Weighted SSE of a run's partition: [`crate::partition::Partition::weighted_sse`] on
/// complete data; over the observed cells with missing ones (the partition of a masked run
/// is built on group-imputed z-scores, whose weighted SSE is not the masked one).
fn weighted_sse_of_partition(inst: &Instance, w: &[f64], p: &Partition) -> f64 {
    if inst.has_missing() {
        crate::weighted::weighted_sse_of_labels(inst, w, p.labels())
    } else {
        p.weighted_sse(inst, w)
    }
}
