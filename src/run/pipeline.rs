//! # Pipelines
//!
//! A pipeline is an initializer optionally followed by refiners, written with `+`
//! (`mdav`, `cbfs+decompose-shrink+ils`). It is parsed and validated once: each stage is a
//! registry entry with its parameters deserialized into the method's typed parameter struct
//! ([`MethodInfo::prepare`](crate::method::MethodInfo::prepare)), from `--param` arguments
//! ([`Pipeline::parse`]) or from a suite's tables ([`Pipeline::from_tables`]); running it
//! builds every algorithm from those typed parameters ([`StageSpec::maker`]) without parsing
//! again. [`Pipeline::run`] executes the stages with derived seeds and records per-stage
//! SSE, IL and time.
//!
//! ```
//! use microagg::pipeline::Pipeline;
//! use serde_json::json;
//! let tables = [("ils".to_string(), json!({ "stall": 50 }).as_object().unwrap().clone())];
//! let p = Pipeline::from_tables("mdav+ils", tables.into_iter().collect()).unwrap();
//! let q = Pipeline::parse("mdav+ils", &["ils.stall=50".to_string()]).unwrap();
//! assert_eq!(p.stages[1].params, q.stages[1].params);
//! assert_eq!(p.stages[1].params["stall"], 50);
//! assert!(Pipeline::parse("mdav+ils", &["ils.stall=many".to_string()]).is_err());
//! ```
//!
//! ## Complexity
//! Parsing is linear in the number of stages and parameters.
//!
//! ## References
//! - linfa (Rust machine-learning toolkit): `Params -> check() -> ValidParams`.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::method::Stats;
use crate::method::{BuildCtx, Initializer, Maker, MethodKind, Problem, StopRule};
use crate::params::group_param_args;
use crate::partition::Partition;
use crate::registry;
use crate::rng::{derive_seed, Rng};
use crate::search::observe::{notify, Event, Observer};
use crate::search::shared_lists::ListCache;
use crate::search::{deadline_after, execute_shared, Refiner, StopReason, Stops};
use rand::SeedableRng;
use serde::Serialize;
use serde_json::{Map, Value};
use std::collections::BTreeMap;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// The methods that read [`Instance::raw`] (`ps-meansort` with `scale = "raw"` sums the
/// original values); every other method reads only the z-scores.
pub const RAW_READERS: &[&str] = &["ps-meansort"];

/// A validated pipeline: its stages, each with its typed parameters.
pub struct Pipeline {
    pub spec: String,
    pub stages: Vec<StageSpec>,
}

/// One stage: a registry entry with its parameters parsed and checked once.
#[derive(Debug, Clone, Serialize)]
pub struct StageSpec {
    pub name: String,
    /// The effective parameters (defaults filled in), as written into records.
    pub params: Value,
    /// Builds the stage's algorithm from the typed parameters.
    #[serde(skip)]
    pub maker: Maker,
    /// The stage draws no random number with these parameters
    /// ([`MethodInfo::is_deterministic`](crate::method::MethodInfo::is_deterministic)).
    #[serde(skip)]
    pub deterministic: bool,
    /// The stage runs on data with missing cells
    /// (`MethodInfo::runs_on_missing_cells`).
    #[serde(skip)]
    pub missing_cells: bool,
}

impl StageSpec {
    /// The stage named `name` of the registered method `info`, with the parameters `given`
    /// checked and their defaults filled in, and its randomness as declared for them.
    pub fn registered(
        name: &str,
        info: &crate::method::MethodInfo,
        given: &serde_json::Map<String, Value>,
    ) -> Result<StageSpec> {
        let prepared = info.prepare(given)?;
        Ok(StageSpec {
            name: name.to_string(),
            deterministic: info.is_deterministic(&prepared.params),
            missing_cells: info.missing_cells,
            params: prepared.params,
            maker: prepared.maker,
        })
    }
}

/// What one stage did.
#[derive(Debug, Clone, Serialize)]
pub struct StageRecord {
    pub name: String,
    pub seed: u64,
    pub sse: f64,
    pub il: f64,
    pub groups: usize,
    pub seconds: f64,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stop: Option<StopReason>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub steps: Option<u64>,
    /// The refiner's counters (refiner stages only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<Stats>,
}

/// The final partition and the stage records of a pipeline run.
pub struct PipelineOutcome {
    pub partition: Partition,
    pub stages: Vec<StageRecord>,
    pub seconds: f64,
}

impl Pipeline {
    /// True when a stage reads the original values ([`Instance::raw`]), not only the
    /// z-scores: a run may free the raw copy ([`Instance::drop_raw`]) only when this is
    /// false (`tests/data/raw_dropped.rs` runs every registered method without it).
    pub fn reads_raw(&self) -> bool {
        self.stages
            .iter()
            .any(|s| RAW_READERS.contains(&s.name.as_str()))
    }

    /// True when a run of this pipeline reads nothing but the z-scores after the load: no
    /// file is released (`--masked-out` writes original-scale centroids), no weights, and
    /// no stage in [`RAW_READERS`]. Then the raw copy may be dropped, or never made
    /// ([`crate::data::RawCopy::Discard`] when missing cells are refused): `run` and the
    /// split runs (`--strata`, `--blocks`) share this one rule.
    pub fn reads_only_z(&self, releases_file: bool, weighted: bool) -> bool {
        !releases_file && !weighted && !self.reads_raw()
    }

    /// Parse `init+refiner+...` with `--param METHOD.KEY=VALUE` arguments.
    pub fn parse(spec: &str, param_args: &[String]) -> Result<Self> {
        Self::from_tables(spec, group_param_args(param_args)?)
    }

    /// Parse `init+refiner+...` with per-stage parameter tables (`{ stage: { key: value
    /// } }`, as a suite's `params` or grouped `--param`s), each deserialized into its
    /// stage's typed parameters; a table for a method that is not a stage is an error.
    pub fn from_tables(
        spec: &str,
        mut given: BTreeMap<String, Map<String, Value>>,
    ) -> Result<Self> {
        let names: Vec<&str> = spec.split('+').map(str::trim).collect();
        if names.iter().any(|n| n.is_empty()) {
            return Err(Error::usage(format!("pipeline '{spec}': empty stage name")));
        }
        let mut stages = Vec::new();
        for (i, name) in names.iter().enumerate() {
            let info = registry::find(name)?;
            match (i, info.kind()) {
                (0, MethodKind::Refiner) => {
                    return Err(Error::usage(format!(
                        "pipeline '{spec}': '{name}' is a refiner; start with an initializer (e.g. mdav+{name})"
                    )))
                }
                (i, MethodKind::Initializer) if i > 0 => {
                    return Err(Error::usage(format!(
                        "pipeline '{spec}': '{name}' is an initializer; only the first stage may be one"
                    )))
                }
                _ => {}
            }
            let params = given.get(*name).cloned().unwrap_or_default();
            stages.push(StageSpec::registered(name, &info, &params)?);
        }
        // Parameters addressed to a method that is not in the pipeline are mistakes.
        for name in &names {
            given.remove(*name);
        }
        if let Some(stray) = given.keys().next() {
            return Err(Error::usage(format!(
                "--param for '{stray}', which is not a stage of pipeline '{spec}'"
            )));
        }
        Ok(Pipeline {
            spec: spec.to_string(),
            stages,
        })
    }

    /// True when no stage draws a random number: the seed does not change the result, so an
    /// experiment runs the pipeline once per case ([`crate::experiment::expand`]).
    pub fn is_deterministic(&self) -> bool {
        self.stages.iter().all(|s| s.deterministic)
    }

    /// Seed of stage `index`, derived from the base seed and what identifies the run.
    pub(crate) fn stage_seed(&self, base: u64, inst: &Instance, k: usize, index: usize) -> u64 {
        derive_seed(
            base,
            &[
                &inst.sha256,
                &k.to_string(),
                &self.spec,
                &index.to_string(),
                &self.stages[index].name,
            ],
        )
    }

    /// Run every stage; `time_limit` (seconds) bounds the whole pipeline.
    pub fn run(
        &self,
        inst: &Instance,
        k: usize,
        seed: u64,
        time_limit: Option<f64>,
        interrupt: &AtomicBool,
    ) -> Result<PipelineOutcome> {
        self.run_with(inst, k, seed, time_limit, None, interrupt)
    }

    /// As [`run`](Self::run); `max_steps` also stops every refiner stage after that many
    /// steps (a budget that, unlike a time limit, repeats bit for bit).
    pub fn run_with(
        &self,
        inst: &Instance,
        k: usize,
        seed: u64,
        time_limit: Option<f64>,
        max_steps: Option<u64>,
        interrupt: &AtomicBool,
    ) -> Result<PipelineOutcome> {
        self.run_observed(inst, k, seed, time_limit, max_steps, interrupt, &mut [])
    }

    /// Every stage runs on `inst` ([`MethodInfo::runs_on_missing_cells`](crate::method::MethodInfo::runs_on_missing_cells)):
    /// on data with missing cells only the methods declared to run there.
    pub(crate) fn check_supported(&self, inst: &Instance) -> Result<()> {
        if inst.has_missing() {
            if let Some(stage) = self.stages.iter().find(|s| !s.missing_cells) {
                return Err(crate::missing::refuse_unsupported(&self.spec, &stage.name));
            }
        }
        Ok(())
    }

    /// As [`run_with`](Self::run_with), sending the run's events (stage start and end,
    /// every refiner step, new best, restart) to `observers`.
    #[allow(clippy::too_many_arguments)]
    pub fn run_observed(
        &self,
        inst: &Instance,
        k: usize,
        seed: u64,
        time_limit: Option<f64>,
        max_steps: Option<u64>,
        interrupt: &AtomicBool,
        observers: &mut [&mut dyn Observer],
    ) -> Result<PipelineOutcome> {
        let problem = Problem::new(inst, k)?;
        self.check_supported(inst)?;
        let t0 = Instant::now();
        let deadline = deadline_after(time_limit);
        let mut records = Vec::new();

        let first = &self.stages[0];
        let init: Box<dyn Initializer> = match &first.maker {
            Maker::Init(make) => make(),
            Maker::Refine(_) => unreachable!("the first stage is an initializer (parse)"),
        };
        let s0 = self.stage_seed(seed, inst, k, 0);
        let t = Instant::now();
        notify(
            observers,
            inst,
            &Event::StageStart {
                stage: &first.name,
                sse: 0.0,
            },
        );
        let mut partition = {
            // The initializer sees Ctrl-C and the deadline between its groups.
            let mut rng = Rng::seed_from_u64(s0);
            let stop = StopRule::new(interrupt, deadline);
            init.build(&problem, &mut BuildCtx::with_stop(&mut rng, stop))?
        };
        partition.compact(inst);
        let end = Event::StageEnd {
            stage: &first.name,
            steps: 0,
            sse: partition.sse(),
            stop: None,
            stats: &Stats::default(),
        };
        notify(observers, inst, &end);
        records.push(stage_record(&first.name, s0, inst, &partition, t, None));

        // One set of neighbour lists per run, shared by every stage that asks for it.
        let lists = ListCache::new();
        for (idx, stage) in self.stages.iter().enumerate().skip(1) {
            let mut refiner: Box<dyn Refiner> = match &stage.maker {
                Maker::Refine(make) => make(),
                Maker::Init(_) => unreachable!("later stages are refiners (parse)"),
            };
            let s = self.stage_seed(seed, inst, k, idx);
            let t = Instant::now();
            let stops = Stops::budget(deadline, max_steps);
            let out = execute_shared(
                refiner.as_mut(),
                inst,
                k,
                partition,
                &mut Rng::seed_from_u64(s),
                &stops,
                interrupt,
                observers,
                &lists,
            )?;
            partition = out.partition;
            partition.compact(inst);
            let done = Some((out.stop, out.steps, out.stats));
            records.push(stage_record(&stage.name, s, inst, &partition, t, done));
        }
        Ok(PipelineOutcome {
            partition,
            stages: records,
            seconds: t0.elapsed().as_secs_f64(),
        })
    }
}

fn stage_record(
    name: &str,
    seed: u64,
    inst: &Instance,
    p: &Partition,
    t: Instant,
    refined: Option<(StopReason, u64, Stats)>,
) -> StageRecord {
    let (stop, steps, stats) = match refined {
        Some((stop, steps, stats)) => (Some(stop), Some(steps), Some(stats)),
        None => (None, None, None),
    };
    StageRecord {
        name: name.to_string(),
        seed,
        sse: p.sse(),
        il: inst.il(p.sse()),
        groups: p.num_groups(),
        seconds: t.elapsed().as_secs_f64(),
        stop,
        steps,
        stats,
    }
}
