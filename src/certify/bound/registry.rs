//! # The bound registry
//!
//! The contract every lower bound implements ([`LowerBound`]: typed, checked [`Params`] and
//! a computation) and the one list of them ([`BOUNDS`]), the bounds' counterpart of the
//! methods' [`crate::method::MethodInfo`] and [`crate::registry::registry`]. From an entry's
//! `Params` come `microagg list` (defaults and docs), `bound --param KEY=VALUE`, `run
//! --bound-param`, suite tables and the Python keywords: each passes its key/values to
//! [`BoundInfo::prepare`], which parses them with the methods' parser
//! ([`crate::params::parse_params`]: unknown keys and bad values are errors naming the
//! bound and key), checks them and reads a start labels file before any work starts.
//! Adding a bound is its entry module plus one line in [`BOUNDS`]. An entry that also bounds
//! the weighted SSE (`--weights`) says so with a [`WeightedVersion`] in its own module;
//! [`weighted_version`] refuses the others before anything runs, naming those that have one.
//!
//! ## Complexity
//! O(parameters) to prepare a bound (plus O(n) for a start labels file).
//!
//! ## References
//! - linfa (Rust machine-learning toolkit): `Params -> check() -> ValidParams`.

use super::extras::{BoundProgress, Certificate, Incumbent};
use super::{bnp_entry, colgen_entry, nn_entry};
use crate::data::Instance;
use crate::error::{Error, Result};
use crate::params::{parse_params, Params};
use serde_json::{Map, Value};
use std::path::PathBuf;
use std::sync::atomic::AtomicBool;

/// A lower bound on the optimal SSE: its typed parameters and how it is computed from them.
pub trait LowerBound {
    /// The bound's parameters (serde, documented defaults, `check`).
    type Params: Params;

    /// The labels file whose groups seed the bound (its `start` parameter), if any: read
    /// once when the bound is prepared, so that a bad file fails before any work.
    fn start_file(_params: &Self::Params) -> Option<&PathBuf> {
        None
    }

    /// Compute the bound on `run`'s instance with `params`.
    fn compute(params: &Self::Params, run: &mut BoundRun) -> Result<Computed>;
}

/// What a bound computes from its inputs besides its parameters.
pub struct BoundRun<'a> {
    pub inst: &'a Instance,
    pub k: usize,
    /// A feasible partition whose groups seed the master (`start` parameter, or one given
    /// in memory by `PreparedBound::with_start`), and where it came from.
    pub start: Option<(&'a [usize], &'a str)>,
    /// Progress on stderr even when it is not a terminal (`super::ticker`).
    pub show: crate::progress::Show,
    /// Once set (Ctrl-C, SIGTERM), the bound returns the best certified value it holds.
    pub interrupt: &'a AtomicBool,
    /// Every progress report of an anytime bound (`bnp`).
    pub report: &'a mut dyn FnMut(&BoundProgress),
}

/// What an entry returns: the certified value, its details (a serialised struct), and what
/// the registry says it produces besides.
pub struct Computed {
    pub lower_bound: f64,
    pub details: Value,
    pub certificate: std::result::Result<Certificate, String>,
    pub incumbent: Option<Incumbent>,
}

/// One registered bound: the name it is asked for by (`bound --method`, `run --bound`,
/// suites, Python), what it computes, whether it is certified and where its proof is, and
/// its parameters. `microagg list` prints these.
#[derive(Clone, Copy)]
pub struct BoundInfo {
    pub name: &'static str,
    pub summary: &'static str,
    /// When the bound is certified, with its proof in `proofs/`.
    pub certified: &'static str,
    /// The bound writes a certificate for `verify-bound` ([`Computed::certificate`]).
    pub certificate: bool,
    /// The bound searches partitions and returns its best ([`Computed::incumbent`]).
    pub incumbent: bool,
    /// The bound's version on the weighted SSE (`--weights`; see [`weighted_version`]); `None`:
    /// it refuses weights.
    pub weighted: Option<WeightedVersion>,
    /// (parameter, description) pairs of its `Params`.
    pub params_doc: &'static [(&'static str, &'static str)],
    defaults: fn() -> Value,
    prepare: fn(&'static BoundInfo, &Map<String, Value>) -> Result<PreparedBound>,
}

/// The descriptive fields of an entry; [`entry`] adds the parameters of its type.
pub(crate) struct About {
    pub name: &'static str,
    pub summary: &'static str,
    pub certified: &'static str,
    pub certificate: bool,
    pub incumbent: bool,
    pub weighted: Option<WeightedVersion>,
}

/// A bound's version on the weighted SSE (sampling weights, weighted centroids, groups of
/// at least k records).
#[derive(Clone, Copy, Debug)]
pub struct WeightedVersion {
    /// Its proof in `proofs/`.
    pub proof: &'static str,
    /// The bound parameters it reads; with `--weights` the others are refused.
    pub params: &'static [&'static str],
    /// It writes a certificate for `verify-bound --weights`.
    pub certificate: bool,
    /// Compute it on an instance carrying weights, for k, within a time limit (seconds;
    /// None: its default), with an extra start partition (labels), until the interrupt.
    pub compute: WeightedCompute,
}

/// The computation of a [`WeightedVersion`].
pub type WeightedCompute =
    fn(&Instance, usize, Option<f64>, Option<&[usize]>, &AtomicBool) -> WeightedComputed;

/// What a [`WeightedCompute`] returns: the outcome, and the certificate or why there is none.
pub type WeightedComputed = Result<(
    super::BoundOutcome,
    std::result::Result<crate::certificate::weighted::WeightedCertificate, String>,
)>;

/// The registry entry of bound `B`.
pub(crate) const fn entry<B: LowerBound + 'static>(about: About) -> BoundInfo {
    BoundInfo {
        name: about.name,
        summary: about.summary,
        certified: about.certified,
        certificate: about.certificate,
        incumbent: about.incumbent,
        weighted: about.weighted,
        params_doc: <B::Params as Params>::DOC,
        defaults: defaults_of::<B>,
        prepare: prepare_of::<B>,
    }
}

/// Every bound this build computes, in the order `microagg list` prints them.
pub const BOUNDS: &[BoundInfo] = &[
    nn_entry::ENTRY,
    nn_entry::RAISED,
    colgen_entry::COLGEN,
    colgen_entry::COLGEN_CUTS,
    bnp_entry::ENTRY,
    super::auto::ENTRY,
];

fn defaults_of<B: LowerBound>() -> Value {
    serde_json::to_value(B::Params::default()).expect("params serialise")
}

fn prepare_of<B: LowerBound + 'static>(
    info: &'static BoundInfo,
    given: &Map<String, Value>,
) -> Result<PreparedBound> {
    if let Some(key) = given.keys().find(|key| !info.takes(key)) {
        let keys = info.keys();
        return Err(Error::usage(format!(
            "bound {} has no parameter '{key}'; its parameters: {}",
            info.name,
            if keys.is_empty() {
                "none".to_string()
            } else {
                keys.join(", ")
            }
        )));
    }
    let params: B::Params = parse_params(&format!("bound {}", info.name), given)?;
    let start = match B::start_file(&params) {
        Some(path) => Some((
            crate::labels::read_labels(path)?,
            path.display().to_string(),
        )),
        None => None,
    };
    Ok(PreparedBound {
        info,
        effective: serde_json::to_value(&params).expect("params serialise"),
        given: given.clone(),
        start,
        compute: Box::new(move |run| B::compute(&params, run)),
    })
}

type ComputeFn = Box<dyn Fn(&mut BoundRun) -> Result<Computed> + Send + Sync>;

/// A registered bound with its parameters parsed and checked, ready to compute.
pub struct PreparedBound {
    pub info: &'static BoundInfo,
    /// Every parameter with defaults filled in.
    pub effective: Value,
    /// The parameters as given.
    pub given: Map<String, Value>,
    start: Option<(Vec<usize>, String)>,
    compute: ComputeFn,
}

impl std::fmt::Debug for PreparedBound {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "PreparedBound({} {})", self.info.name, self.effective)
    }
}

impl BoundInfo {
    /// Every parameter's default.
    pub fn defaults(&self) -> Value {
        (self.defaults)()
    }

    /// The parameter keys, in the order of their docs.
    pub fn keys(&self) -> Vec<&'static str> {
        self.params_doc.iter().map(|(k, _)| *k).collect()
    }

    /// Whether the bound has the parameter `key`.
    pub fn takes(&self, key: &str) -> bool {
        self.params_doc.iter().any(|(k, _)| *k == key)
    }

    /// Whether the bound takes a start partition (its `start` parameter).
    pub fn takes_start(&self) -> bool {
        self.takes("start")
    }

    /// Whether the bound has a weighted version (`bound --weights`, `run --bound --weights`).
    pub fn has_weighted_version(&self) -> bool {
        self.weighted.is_some()
    }

    /// Parse and check `given` into the bound's parameters (module doc).
    pub fn prepare(&'static self, given: &Map<String, Value>) -> Result<PreparedBound> {
        (self.prepare)(self, given)
    }
}

impl PreparedBound {
    /// Seed the bound with `labels` (in memory; from `source`) instead of a `start` file.
    pub(crate) fn with_start(mut self, labels: Vec<usize>, source: &str) -> Result<Self> {
        if !self.info.takes_start() {
            return Err(Error::usage(format!(
                "bound {} takes no start partition (only {} do)",
                self.info.name,
                names_where(BoundInfo::takes_start).join(", ")
            )));
        }
        self.start = Some((labels, source.to_string()));
        Ok(self)
    }

    /// The effective value of parameter `key` (null when the bound has none).
    pub fn param(&self, key: &str) -> &Value {
        self.effective.get(key).unwrap_or(&Value::Null)
    }

    /// Compute the bound (see [`super::compute_reporting`]).
    pub fn run(
        &self,
        inst: &Instance,
        k: usize,
        show: crate::progress::Show,
        interrupt: &AtomicBool,
        report: &mut dyn FnMut(&BoundProgress),
    ) -> Result<Computed> {
        let mut run = BoundRun {
            inst,
            k,
            start: self.start.as_ref().map(|(l, s)| (l.as_slice(), s.as_str())),
            show,
            interrupt,
            report,
        };
        (self.compute)(&mut run)
    }
}

/// The registered bound `name`, or an error listing the available ones.
pub fn find(name: &str) -> Result<&'static BoundInfo> {
    BOUNDS
        .iter()
        .find(|b| b.name == name)
        .ok_or_else(|| Error::usage(unknown(name)))
}

/// The names of the registered bounds, in order.
pub(crate) fn names() -> Vec<&'static str> {
    BOUNDS.iter().map(|b| b.name).collect()
}

/// The names of the registered bounds for which `has` holds (for error messages).
pub(crate) fn names_where(has: fn(&BoundInfo) -> bool) -> Vec<&'static str> {
    BOUNDS.iter().filter(|b| has(b)).map(|b| b.name).collect()
}

pub(crate) fn unknown(name: &str) -> String {
    format!(
        "unknown bound '{name}'; available bounds: {}",
        names().join(", ")
    )
}

/// The weighted version of bound `name`, or an error before anything runs: the message
/// names the bounds that have one, with their proofs, and those that do not, from the
/// registry.
pub fn weighted_version(name: &str) -> Result<WeightedVersion> {
    if let Some(version) = find(name)?.weighted {
        return Ok(version);
    }
    let (with, without): (Vec<&BoundInfo>, Vec<&BoundInfo>) =
        BOUNDS.iter().partition(|b| b.has_weighted_version());
    let names: Vec<&str> = with.iter().map(|b| b.name).collect();
    let with: Vec<String> = with
        .iter()
        .filter_map(|b| b.weighted.map(|w| format!("{} ({})", b.name, w.proof)))
        .collect();
    let without: Vec<&str> = without.iter().map(|b| b.name).collect();
    Err(Error::usage(format!(
        "bound {name} with --weights: only {} have a weighted version; {} bound the \
         unweighted SSE (docs/weights.md). Use --bound {}, or leave out --weights",
        and_list(&with),
        and_list(&without),
        names.join(" or ")
    )))
}

/// `a`, `a and b`, `a, b and c`.
fn and_list<T: AsRef<str>>(items: &[T]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_string(),
        [rest @ .., last] => format!(
            "{} and {}",
            rest.iter()
                .map(|s| s.as_ref())
                .collect::<Vec<_>>()
                .join(", "),
            last.as_ref()
        ),
    }
}

/// The weighted bound `name` (an entry with a weighted version) of `inst` (with weights) for
/// groups of at least `k` records; `extra_start` (labels) joins the colgen master's start
/// columns.
pub fn compute_weighted(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    extra_start: Option<&[usize]>,
    interrupt: &AtomicBool,
) -> Result<super::BoundOutcome> {
    let version = weighted_version(name)?;
    (version.compute)(inst, k, time_limit, extra_start, interrupt).map(|b| b.0)
}

/// The sampling weights of `inst` for the weighted `bound` with groups of `k` (checked);
/// an error when the data carry none.
pub(super) fn weights_for<'a>(
    inst: &'a Instance,
    k: usize,
    bound: &str,
) -> Result<&'a crate::data::weights::Weights> {
    inst.check_k(k)?;
    inst.weights.as_ref().ok_or_else(|| {
        Error::usage(format!(
            "the weighted {bound} bound needs sampling weights (--weights COLUMN)"
        ))
    })
}

// Here rather than beside the type in `crate::weighted`, which sits below the registry.
impl crate::weighted::WeightedBound {
    /// The figures of a computed weighted bound against the weighted SSE `sse`.
    pub fn of(b: &super::BoundOutcome, sse: f64) -> Self {
        Self {
            method: b.method.clone(),
            lower_bound: b.lower_bound,
            il_lower_bound: b.il_lower_bound,
            gap_percent: super::figures::gap_percent(sse, b.lower_bound),
            seconds: b.seconds,
        }
    }
}

/// The outcome of a weighted bound on `inst` (with weights `w`): `names` = (the method asked
/// for, the method whose value `lower_bound` is), its IL on the weighted scale (`100 LB_w /
/// SST_w`, rounded down), the seconds since `started`, and the weights' figures (`weighted`,
/// `weights`, `sst_weighted`) beside the method's `details`. Its certificate field holds
/// `no_certificate`: a weighted certificate travels beside the outcome.
pub(super) fn weighted_outcome(
    inst: &Instance,
    w: &crate::data::Weights,
    (method, produced_by): (&str, &str),
    lower_bound: f64,
    started: std::time::Instant,
    details: Value,
    no_certificate: &str,
) -> super::BoundOutcome {
    let sst = crate::weighted::weighted_sst(inst, &w.values);
    let mut all = Map::new();
    all.insert("weighted".into(), Value::Bool(true));
    all.insert("weights".into(), Value::from(w.column.as_str()));
    all.insert("sst_weighted".into(), Value::from(sst));
    if let Value::Object(more) = details {
        all.extend(more);
    }
    super::BoundOutcome {
        method: method.into(),
        produced_by: produced_by.into(),
        lower_bound,
        il_lower_bound: super::figures::il_lower_bound_of(lower_bound, sst),
        certified: true,
        seconds: started.elapsed().as_secs_f64(),
        details: Value::Object(all),
        certificate: Err(no_certificate.into()),
        incumbent: None,
        best_partition: None,
        interrupted: false,
    }
}
