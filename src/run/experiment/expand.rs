//! # Run matrix
//!
//! Expands a validated [`Suite`] into its runs: every (instance, k, pipeline, replicate) in
//! file order, each with a stable index, a run id and a seed derived with
//! `derive_seed` from the suite's base seed and the run's identity
//! (instance as written, k, pipeline label, replicate). Stages then get child seeds from the
//! run seed ([`Pipeline::run`](crate::pipeline::Pipeline::run)). A deterministic pipeline
//! (no stage draws a random number, [`Pipeline::is_deterministic`]) has one run per
//! (instance, k), replicate 0, whatever the suite's replicates: more seeds would repeat it.
//! A shard `I/N` is the runs
//! whose index is `I-1` modulo `N`, so shards are disjoint, cover the matrix, and do not
//! depend on which machine runs them.
//!
//! ## Complexity
//! O(runs) after loading the instances.
//!
//! ## References
//! None.

use super::bounds::BoundRequest;
use super::suite::{ResolvedPipeline, Suite};
use crate::data::{self, ColumnSelection, Instance};
use crate::error::{Error, Result};
use crate::pipeline::Pipeline;
use crate::rng::derive_seed;

/// An instance of the suite, with the spec it was listed under.
pub struct SuiteInstance {
    /// The spec as written in the suite (the run id uses it).
    pub spec: String,
    pub inst: Instance,
}

/// One run of the matrix.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// Position in the full (unsharded) matrix.
    pub index: usize,
    /// `instance|k=K|pipeline|r=R`, unique in the suite.
    pub run_id: String,
    /// Index into [`Plan::instances`].
    pub instance: usize,
    pub k: usize,
    /// Index into [`Plan::pipelines`].
    pub pipeline: usize,
    pub replicate: usize,
    pub seed: u64,
    /// The pipeline draws no random number: this one run stands for every replicate.
    pub deterministic: bool,
}

/// A suite with its instances loaded, its pipelines resolved and its runs expanded.
pub struct Plan {
    pub suite: Suite,
    pub instances: Vec<SuiteInstance>,
    pub pipelines: Vec<ResolvedPipeline>,
    /// The suite's bounds with their parameters, validated.
    pub bounds: Vec<BoundRequest>,
    pub runs: Vec<Run>,
    /// Optional instances left out, with the reason.
    pub notes: Vec<String>,
}

/// `--shard I/N`: the I-th of N slices (1-based).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl From<crate::parts::Part> for Shard {
    fn from(p: crate::parts::Part) -> Shard {
        Shard {
            index: p.index,
            count: p.count,
        }
    }
}

impl Shard {
    /// Parse `I/N` (1 <= I <= N), as `--part` ([`crate::parts::Part::parse`]).
    pub fn parse(s: &str) -> Result<Shard> {
        crate::parts::Part::parse(s, "--shard").map(Shard::from)
    }

    pub fn contains(&self, run_index: usize) -> bool {
        run_index % self.count == self.index - 1
    }
}

/// Runs per (instance, k) of a pipeline: one when it is deterministic, else `replicates`.
pub(crate) fn replicates_of(pipeline: &Pipeline, replicates: usize) -> usize {
    if pipeline.is_deterministic() {
        1
    } else {
        replicates
    }
}

/// The seed of a run: derived from the base seed and the run's identity.
pub(crate) fn run_seed(
    base: u64,
    instance: &str,
    k: usize,
    pipeline: &str,
    replicate: usize,
) -> u64 {
    derive_seed(
        base,
        &[
            "run",
            instance,
            &k.to_string(),
            pipeline,
            &replicate.to_string(),
        ],
    )
}

/// Why an instance spec has no file to read (`None` when it has one or needs none).
fn missing_file(spec: &str) -> Result<Option<String>> {
    if data::synthetic::try_generate(spec)?.is_some() {
        return Ok(None);
    }
    if let Some(entry) = data::manifest::Manifest::embedded()?.find(spec) {
        // Where the loader looks, with its message when the file is in none of them.
        return Ok(entry.locate().err().map(|e| e.to_string()));
    }
    Ok((!std::path::Path::new(spec).is_file()).then(|| format!("file '{spec}' not found")))
}

/// The suite's instance `spec`, loaded (an error names the suite and the instance).
fn load_instance(suite: &Suite, spec: &str) -> Result<SuiteInstance> {
    let inst = data::load(&suite.instance_spec(spec), &ColumnSelection::All)
        .map_err(|e| Error::usage(format!("{}: instance '{spec}': {e}", suite.path.display())))?;
    Ok(SuiteInstance {
        spec: spec.to_string(),
        inst,
    })
}

impl Plan {
    /// Load the instances (required ones must load; optional ones are noted when missing),
    /// check k against every instance, and expand the runs.
    pub fn new(suite: Suite) -> Result<Plan> {
        let pipelines = suite.resolve_pipelines()?;
        let bounds = suite.resolve_bounds()?;
        let mut instances = Vec::new();
        let mut notes = Vec::new();
        for spec in &suite.instances {
            instances.push(load_instance(&suite, spec)?);
        }
        for spec in &suite.optional_instances {
            // Only a missing file makes an optional instance drop out; a file that is there
            // but wrong (bad checksum, bad cell) is an error, as for required instances.
            if let Some(missing) = missing_file(&suite.instance_spec(spec))? {
                notes.push(format!("optional instance '{spec}' left out: {missing}"));
                continue;
            }
            instances.push(load_instance(&suite, spec)?);
        }
        for si in &instances {
            for &k in &suite.k {
                si.inst.check_k(k).map_err(|e| {
                    Error::usage(format!(
                        "{}: instance '{}' with k = {k}: {e}",
                        suite.path.display(),
                        si.spec
                    ))
                })?;
            }
        }
        let mut runs = Vec::new();
        for (ii, si) in instances.iter().enumerate() {
            for &k in &suite.k {
                for (pi, p) in pipelines.iter().enumerate() {
                    let deterministic = p.pipeline.is_deterministic();
                    for r in 0..replicates_of(&p.pipeline, suite.seeds.replicates) {
                        runs.push(Run {
                            index: runs.len(),
                            run_id: format!("{}|k={k}|{}|r={r}", si.spec, p.label),
                            instance: ii,
                            k,
                            pipeline: pi,
                            replicate: r,
                            seed: run_seed(suite.seeds.base, &si.spec, k, &p.label, r),
                            deterministic,
                        });
                    }
                }
            }
        }
        Ok(Plan {
            suite,
            instances,
            pipelines,
            bounds,
            runs,
            notes,
        })
    }

    /// The runs of a shard (all runs when `shard` is None), in index order.
    pub fn shard(&self, shard: Option<Shard>) -> Vec<&Run> {
        self.runs
            .iter()
            .filter(|r| shard.is_none_or(|s| s.contains(r.index)))
            .collect()
    }

    /// The run matrix as text (for `--dry-run`).
    pub fn describe(&self, shard: Option<Shard>) -> String {
        let mut s = String::new();
        s.push_str(&format!(
            "suite '{}' ({})",
            self.suite.name,
            self.suite.path.display()
        ));
        if !self.suite.description.is_empty() {
            s.push_str(&format!(": {}", self.suite.description));
        }
        s.push('\n');
        for note in &self.notes {
            s.push_str(&format!("note: {note}\n"));
        }
        for si in &self.instances {
            s.push_str(&format!(
                "instance {:<40} n={:<7} d={:<3} sha256={}\n",
                si.spec, si.inst.n, si.inst.d, si.inst.sha256
            ));
        }
        for p in &self.pipelines {
            let params: Vec<String> = p
                .stages()
                .iter()
                .map(|st| format!("{}{}", st.name, st.params))
                .collect();
            let once = if p.pipeline.is_deterministic() {
                " (deterministic: one run per case)"
            } else {
                ""
            };
            s.push_str(&format!(
                "pipeline {:<20} {}{once}\n",
                p.label,
                params.join(" + ")
            ));
        }
        s.push_str(&format!(
            "k = {:?}, seeds = {{ base = {}, replicates = {} }}, time limit = {}, max steps = {}, bounds = {:?}\n",
            self.suite.k,
            self.suite.seeds.base,
            self.suite.seeds.replicates,
            self.suite
                .time_limit
                .map_or("none".to_string(), |t| format!("{t} s")),
            self.suite
                .max_steps
                .map_or("none".to_string(), |m| m.to_string()),
            self.suite
                .bounds
                .iter()
                .map(ToString::to_string)
                .collect::<Vec<_>>()
        ));
        let runs = self.shard(shard);
        s.push_str(&format!("{:>6}  {:<20}  run\n", "index", "seed"));
        for r in &runs {
            s.push_str(&format!("{:>6}  {:<20}  {}\n", r.index, r.seed, r.run_id));
        }
        s.push_str(&format!(
            "{} of {} runs{}\n",
            runs.len(),
            self.runs.len(),
            shard.map_or(String::new(), |sh| format!(
                " (shard {}/{})",
                sh.index, sh.count
            ))
        ));
        s
    }
}
