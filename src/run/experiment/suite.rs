//! # Experiment suites
//!
//! A suite is one TOML file that describes a study: instances (ids, CSV files or generator
//! specs), k values, pipelines (the `--method` syntax with per-stage parameter tables), seeds
//! `{ base, replicates }`, a time limit per run and the lower bounds to compute, each a name
//! or a table of its name and parameters (those of `run --bound-param`). Parsing is strict
//! (`deny_unknown_fields` everywhere, so a misspelt key is an error naming the key and the
//! file), and [`Suite::validate`] resolves every pipeline with [`Pipeline::from_tables`] (the
//! tables deserialize straight into each stage's typed parameters) and every bound with its
//! parameters through the bound registry before anything runs.
//!
//! ```toml
//! name = "smoke"
//! instances = ["sim2:seed=1", "uniform:n=200,d=3,seed=1"]
//! optional_instances = ["tarragona"]   # used when the file is found, noted otherwise
//! k = [3, 5]
//! time_limit = 10.0                    # seconds per run (optional; not repeatable)
//! max_steps = 5000                     # step budget of every refiner stage (optional)
//! bounds = ["nn", { name = "colgen", cuts = 3 }]  # lower bounds per (instance, k), with
//!                                      # the parameters `microagg list` shows
//! trace = true                         # a search trace in every record (default false)
//! measures = true                      # utility and risk of the group means (default false)
//! seeds = { base = 1, replicates = 2 }
//!
//! [[pipeline]]
//! method = "mdav"
//!
//! [[pipeline]]
//! name = "mdav-generic"                # label in tables (default: the method string)
//! method = "mdav-generic"
//! params = {}                          # per stage: { stage = { key = value } }
//! ```
//!
//! ## Complexity
//! Linear in the size of the file; validation builds each pipeline once.
//!
//! ## References
//! None (configuration format of this workbench).

use super::bounds::{self, BoundRequest};
use crate::error::{Error, Result};
use crate::pipeline::{Pipeline, StageSpec};
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// A study as written in its TOML file.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Suite {
    /// Name of the study (default: the file stem).
    #[serde(default)]
    pub name: String,
    /// Free text shown by `--dry-run`.
    #[serde(default)]
    pub description: String,
    /// Instances that must load: ids, CSV paths (relative to the suite file) or generator specs.
    #[serde(default)]
    pub instances: Vec<String>,
    /// Instances used when available (e.g. CASC files that may not be downloaded).
    #[serde(default)]
    pub optional_instances: Vec<String>,
    /// Minimum group sizes.
    pub k: Vec<usize>,
    /// Pipelines to run on every (instance, k).
    pub pipeline: Vec<PipelineEntry>,
    /// Seeds: every run's seed is derived from `base` and the run's identity.
    #[serde(default)]
    pub seeds: Seeds,
    /// Wall-clock limit per run in seconds (refiners stop at it); none by default.
    #[serde(default)]
    pub time_limit: Option<f64>,
    /// Step budget of every refiner stage (repeatable, unlike a time limit); none by default.
    #[serde(default)]
    pub max_steps: Option<u64>,
    /// Lower bounds to compute once per (instance, k); gaps are reported against the best.
    #[serde(default)]
    #[schemars(with = "Vec<BoundEntryShape>")]
    pub bounds: Vec<BoundEntry>,
    /// Keep a search trace in every run record: a line per new best partition and per
    /// refiner stage end (stage, step, current and best IL; repeatable apart from its
    /// `seconds`), thinned to about 32 lines per decade of steps (`super::thin`); off by
    /// default.
    #[serde(default)]
    pub trace: bool,
    /// Add to every record the utility and risk measures of the file its partition implies
    /// (group means, not written): `release.measures`, as `run --masked-out --measures`
    /// ([`crate::measure`]; record linkage costs O(n^2 d) per run); off by default.
    #[serde(default)]
    pub measures: bool,
    /// The reference of every gap beside the suite's own bounds: `"library"` (the default:
    /// the benchmark library, `$MICROAGG_LIBRARY` or instances/library), a library folder
    /// (relative to the suite file), or `"none"`. Each record then also holds the library's
    /// verified bound (when higher it is the best bound) and the best-known SSE of its case.
    #[serde(default)]
    pub reference: Option<String>,
    /// Where the suite was read from (not part of the file).
    #[serde(skip)]
    pub path: PathBuf,
}

/// One pipeline of a suite.
#[derive(Debug, Clone, Deserialize, Serialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PipelineEntry {
    /// Label in records and tables (default: `method`); labels must be distinct.
    #[serde(default)]
    pub name: Option<String>,
    /// `init+refiner+...`, as for `microagg run --method`.
    pub method: String,
    /// Per-stage parameters: `{ stage = { key = value } }`, the keys of `microagg list`.
    #[serde(default)]
    #[schemars(with = "BTreeMap<String, BTreeMap<String, Value>>")]
    pub params: BTreeMap<String, BTreeMap<String, toml::Value>>,
}

/// A lower bound a suite asks for: its name (`"nn"`) or a table of its name and parameters
/// (`{ name = "colgen", cuts = 3, time_limit = 30 }`), the parameters `microagg list` shows
/// and `run --bound-param KEY=VALUE` sets. Values are checked by `Suite::resolve_bounds`.
#[derive(Debug, Clone, PartialEq, Deserialize, Serialize)]
#[serde(try_from = "toml::Value", into = "toml::Value")]
pub struct BoundEntry {
    pub name: String,
    pub params: BTreeMap<String, toml::Value>,
}

/// A lower bound of a suite: its name, or a table of its name and parameters. (A type for
/// the suite's schema only; [`BoundEntry`] reads both forms.)
#[derive(JsonSchema)]
#[schemars(rename = "Bound")]
#[serde(untagged)]
#[allow(dead_code)] // a type for its schema only
enum BoundEntryShape {
    /// The bound's name with its default parameters: `"nn"`.
    Name(String),
    /// The bound's name and parameters: `{ name = "colgen", cuts = 3, time_limit = 30 }`.
    Table(BoundTable),
}

/// A bound with parameters: `name`, and every other key a parameter of the bound
/// (`microagg list` shows them).
#[derive(JsonSchema)]
#[allow(dead_code)] // a type for its schema only
struct BoundTable {
    /// The bound's name (`microagg list`, section bounds).
    name: String,
    /// Its parameters, each `KEY = VALUE` as `run --bound-param KEY=VALUE`.
    #[serde(flatten)]
    params: BTreeMap<String, Value>,
}

/// The JSON Schema of a suite file (its TOML read as JSON), generated from [`Suite`].
pub fn schema() -> Value {
    serde_json::to_value(schemars::schema_for!(Suite)).expect("schemas serialise")
}

impl TryFrom<toml::Value> for BoundEntry {
    type Error = String;
    fn try_from(v: toml::Value) -> Result<Self, String> {
        let shape = "a bound is a name (\"nn\") or a table ({ name = \"colgen\", cuts = 3 })";
        match v {
            toml::Value::String(name) => Ok(BoundEntry {
                name,
                params: BTreeMap::new(),
            }),
            toml::Value::Table(mut t) => match t.remove("name") {
                Some(toml::Value::String(name)) => Ok(BoundEntry {
                    name,
                    params: t.into_iter().collect(),
                }),
                _ => Err(format!("{shape}: the table needs `name = \"...\"`")),
            },
            other => Err(format!("{shape}, not {other}")),
        }
    }
}

impl From<BoundEntry> for toml::Value {
    fn from(b: BoundEntry) -> toml::Value {
        if b.params.is_empty() {
            return toml::Value::String(b.name);
        }
        let mut t: toml::Table = b.params.into_iter().collect();
        t.insert("name".into(), toml::Value::String(b.name));
        toml::Value::Table(t)
    }
}

impl std::fmt::Display for BoundEntry {
    /// `nn`, or `colgen(cuts=3, time_limit=30)`.
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str(&self.name)?;
        if !self.params.is_empty() {
            let kv: Vec<String> = self
                .params
                .iter()
                .map(|(k, v)| format!("{k}={v}"))
                .collect();
            write!(f, "({})", kv.join(", "))?;
        }
        Ok(())
    }
}

/// Seeds of a suite.
#[derive(Debug, Clone, Copy, Deserialize, Serialize, PartialEq, Eq, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct Seeds {
    /// The study's base seed, from which every run's seed is derived.
    pub base: u64,
    /// Runs per (instance, k, pipeline), each with its own derived seed. A pipeline whose
    /// every stage draws no random number (`deterministic` in `microagg list`) runs once
    /// per (instance, k) whatever this says: its seeds would give the same result.
    pub replicates: usize,
}

impl Default for Seeds {
    fn default() -> Self {
        Seeds {
            base: 0,
            replicates: 1,
        }
    }
}

/// A pipeline checked by [`Pipeline::parse`], with its label and effective parameters.
pub struct ResolvedPipeline {
    pub label: String,
    pub pipeline: Pipeline,
}

impl ResolvedPipeline {
    pub fn stages(&self) -> &[StageSpec] {
        &self.pipeline.stages
    }
}

impl PipelineEntry {
    pub fn label(&self) -> &str {
        self.name.as_deref().unwrap_or(&self.method)
    }

    /// The parameter tables as JSON objects per stage, for
    /// [`Pipeline::from_tables`] (which deserializes them into each stage's typed
    /// parameters; no detour through `--param` text).
    pub(crate) fn param_tables(&self) -> Result<BTreeMap<String, serde_json::Map<String, Value>>> {
        let mut out = BTreeMap::new();
        for (stage, table) in &self.params {
            let mut map = serde_json::Map::new();
            for (key, value) in table {
                let json = serde_json::to_value(value).map_err(|e| {
                    Error::usage(format!("pipeline '{}': {stage}.{key}: {e}", self.label()))
                })?;
                map.insert(key.clone(), json);
            }
            out.insert(stage.clone(), map);
        }
        Ok(out)
    }
}

impl Suite {
    /// Read and validate a suite file; errors name the file (and, from serde, the key).
    /// The library named by `reference` (module doc of [`crate::library`]), or none.
    pub fn library(&self) -> Result<Option<crate::library::Library>> {
        let dir = match self.reference.as_deref() {
            Some("none") => return Ok(None),
            None | Some("library") => crate::library::default_dir(),
            Some(folder) => self
                .path
                .parent()
                .map_or_else(|| PathBuf::from(folder), |p| p.join(folder)),
        };
        if !dir.is_dir() {
            return if self.reference.as_deref().is_some_and(|r| r != "library") {
                Err(crate::error::Error::usage(format!(
                    "suite reference '{}': {} is not a folder",
                    self.reference.as_deref().unwrap_or_default(),
                    dir.display()
                )))
            } else {
                Ok(None)
            };
        }
        crate::library::Library::open(&dir).map(Some)
    }

    pub fn load(path: &Path) -> Result<Suite> {
        let text = std::fs::read_to_string(path).map_err(|e| Error::io(path, e))?;
        Suite::parse(&text, path)
    }

    /// Parse suite text as if read from `path` (used for embedded suites too).
    pub fn parse(text: &str, path: &Path) -> Result<Suite> {
        let mut suite: Suite = toml::from_str(text)
            .map_err(|e| Error::usage(format!("{}: {}", path.display(), e.to_string().trim())))?;
        suite.path = path.to_path_buf();
        if suite.name.is_empty() {
            suite.name = path
                .file_stem()
                .map(|s| s.to_string_lossy().into_owned())
                .unwrap_or_else(|| "suite".into());
        }
        suite.validate()?;
        Ok(suite)
    }

    fn err(&self, msg: impl std::fmt::Display) -> Error {
        Error::usage(format!("{}: {msg}", self.path.display()))
    }

    /// Check everything that can be checked without running: k, seeds, time limit, pipelines,
    /// parameters, bound names, duplicate labels.
    pub fn validate(&self) -> Result<()> {
        if self.instances.is_empty() && self.optional_instances.is_empty() {
            return Err(self.err("no instances: give `instances` or `optional_instances`"));
        }
        let mut seen = std::collections::BTreeSet::new();
        for spec in self.instances.iter().chain(&self.optional_instances) {
            if spec.trim().is_empty() {
                return Err(self.err("empty instance name"));
            }
            if !seen.insert(spec.as_str()) {
                return Err(self.err(format!("instance '{spec}' is listed twice")));
            }
        }
        if self.k.is_empty() {
            return Err(self.err("`k` is empty"));
        }
        if let Some(k) = self.k.iter().find(|&&k| k < 2) {
            return Err(self.err(format!("k = {k}: k must be at least 2")));
        }
        let mut ks = self.k.clone();
        ks.sort_unstable();
        ks.dedup();
        if ks.len() != self.k.len() {
            return Err(self.err("`k` lists a value twice"));
        }
        if self.seeds.replicates == 0 {
            return Err(self.err("seeds.replicates must be at least 1"));
        }
        if let Some(t) = self.time_limit {
            crate::search::check_time_limit(t)
                .map_err(|e| self.err(format!("time_limit = {e}")))?;
        }
        if self.max_steps == Some(0) {
            return Err(self.err("max_steps must be at least 1"));
        }
        if self.pipeline.is_empty() {
            return Err(self.err("no [[pipeline]] given"));
        }
        self.resolve_pipelines()?;
        self.resolve_bounds()?;
        Ok(())
    }

    /// Every bound with its parameters checked through the bound registry (names, keys and
    /// value types, as `run --bound-param`), in file order; a labels file given as `start`
    /// is read relative to the suite file. Errors name the file, the entry and the key.
    pub(crate) fn resolve_bounds(&self) -> Result<Vec<BoundRequest>> {
        let mut names = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for (i, entry) in self.bounds.iter().enumerate() {
            let at = format!("bounds[{i}] ({})", entry.name);
            bounds::check_name(&entry.name).map_err(|e| self.err(format!("{at}: {e}")))?;
            if !names.insert(entry.name.as_str()) {
                return Err(self.err(format!(
                    "{at}: bound '{}' is listed twice (one entry per bound)",
                    entry.name
                )));
            }
            // The typed TOML values go to the registry's parser as they are; a start file
            // is read relative to the suite file.
            let mut params = serde_json::Map::new();
            for (key, value) in &entry.params {
                let value = match value {
                    toml::Value::String(s) if key == "start" => {
                        serde_json::Value::String(self.instance_spec(s))
                    }
                    other => serde_json::to_value(other)
                        .map_err(|e| self.err(format!("{at}: {key} = {other}: {e}")))?,
                };
                params.insert(key.clone(), value);
            }
            let request = BoundRequest::new(&entry.name, &params)
                .map_err(|e| self.err(format!("{at}: {e}")))?;
            out.push(request);
        }
        Ok(out)
    }

    /// Every pipeline parsed and validated, in file order.
    pub fn resolve_pipelines(&self) -> Result<Vec<ResolvedPipeline>> {
        let mut labels = std::collections::BTreeSet::new();
        let mut out = Vec::new();
        for entry in &self.pipeline {
            let label = entry.label().to_string();
            if !labels.insert(label.clone()) {
                return Err(self.err(format!(
                    "two pipelines are labelled '{label}'; give one a distinct `name`"
                )));
            }
            let pipeline = entry
                .param_tables()
                .and_then(|tables| Pipeline::from_tables(&entry.method, tables))
                .map_err(|e| self.err(format!("pipeline '{label}': {e}")))?;
            out.push(ResolvedPipeline { label, pipeline });
        }
        Ok(out)
    }

    /// Resolve an instance spec: a path relative to the suite file when such a file exists,
    /// otherwise the spec as given (id, generator spec or path relative to the working dir).
    pub(crate) fn instance_spec(&self, spec: &str) -> String {
        if let Some(dir) = self.path.parent() {
            let candidate = dir.join(spec);
            if !spec.contains(':') && candidate.is_file() {
                return candidate.to_string_lossy().into_owned();
            }
        }
        spec.to_string()
    }
}
