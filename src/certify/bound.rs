//! # Lower bounds for the workbench
//!
//! The one place that maps a bound name to its kernel in `microagg-solvers::bounds` and
//! reports it uniformly: the bound on the optimal SSE, the same as IL, whether it is
//! certified (a proof path exists in `proofs/` and the value is rounded outward), time and
//! method details. Used by `microagg bound`, `microagg run --bound` and experiment suites.
//!
//! | name | what | certified | proof |
//! |---|---|---|---|
//! | `nn` | `sum_i NN_{k-1}(i) / (2k)`, lists from the kd-tree (O(n^2 d) by scan below 4096 records) | always | `proofs/P06-nn-bound.md` |
//! | `nn-raised` | the nn duals, each raised by a share of the slack of the groups containing the record; lists of 6k records | always | `proofs/P25-raised-nn-bound.md` |
//! | `colgen` | Lagrangian bound of the column generation master (HiGHS), max with `nn` | always (the pricing bound is proven, exact or not) | `proofs/P09-lagrangian-bound.md` |
//! | `colgen-cuts` | `colgen` with rounds of subset-row cuts | always | `proofs/P14-subset-row-cuts.md` |
//! | `bnp` | branch-price-and-cut: least leaf bound of the search tree, with an incumbent | always | `proofs/P17`, `proofs/P18` |
//! | `auto` | the best certified bound in the time limit: nn, bnp, colgen or the local route chosen from n, k, T ([`auto`]) | always | that of the route; `proofs/P23` for `local` |
//!
//! Every bound is an entry of the registry [`BOUNDS`] ([`registry`]: the [`LowerBound`]
//! contract, typed parameters with documented defaults, printed by `microagg list`): `nn` and
//! `nn-raised` (`nn_entry`), `colgen` and `colgen-cuts` (`colgen_entry`: the master starts from the
//! `COLGEN_START` partition and an optional start labels file, until the time limit, by
//! default `COLGEN_DEFAULT_SECONDS`) and `bnp` (`bnp_entry`). [`prepare`] parses and
//! checks a bound's parameters once (from `bound --param`, a preset of [`presets`], `run
//! --bound-param`, a suite table or Python keywords); [`compute_prepared`] runs it. Besides
//! its value an entry may return a certificate, an incumbent partition and progress reports
//! while it runs (`extras`; [`BoundInfo`] says which), and its details as a serialised
//! struct.
//!
//! The gap of a solution to a bound is `100 (SSE - LB) / LB` ([`gap_percent`]): how far, in
//! percent of the bound, the solution may be from optimal.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::progress::Show;
use serde::Serialize;
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

pub mod auto;
pub mod bnp;
pub(crate) mod bnp_entry;
pub mod bnp_guard;
pub(crate) mod colgen_entry;
pub(crate) mod extras;
pub(crate) mod figures;
pub mod local_route;
pub(crate) mod nn_entry;
pub mod presets;
pub mod registry;
pub(crate) mod start;
pub(crate) mod ticker;
#[cfg(test)]
use colgen_entry::{is_colgen, COLGEN_CUTS_ROUNDS, COLGEN_DEFAULT_SECONDS};
pub use extras::{BoundProgress, Certificate, Incumbent};
pub use figures::{gap_percent, il_lower_bound};
pub(crate) use registry::names;
pub use registry::{
    compute_weighted, find, weighted_version, BoundInfo, LowerBound, PreparedBound,
    WeightedVersion, BOUNDS,
};

/// A computed bound.
#[derive(Debug, Clone, Serialize)]
pub struct BoundOutcome {
    /// Bound name (`nn`, ...): the method asked for.
    pub method: String,
    /// The method whose value `lower_bound` is: `method`, or `nn` when a colgen or bnp run
    /// ended at or below its nn start (its bound is then the nn one; see `producer`).
    pub produced_by: String,
    /// Lower bound on the optimal SSE (rounded outward when certified).
    pub lower_bound: f64,
    /// The bound as IL in percent, rounded down.
    pub il_lower_bound: f64,
    /// True only when the bound is proven valid (see the module table).
    pub certified: bool,
    /// Wall-clock seconds spent.
    pub seconds: f64,
    /// Method-specific details (iterations, columns, pricing gap, ...).
    pub details: Value,
    /// The certificate of the bound, to be re-checked by `verify-bound`, or why there is
    /// none (`nn` writes none; `colgen`: no Lagrangian bound within the time limit, P13;
    /// `bnp`: a leaf without proving duals, P18).
    #[serde(skip)]
    pub certificate: std::result::Result<Certificate, String>,
    /// `bnp`, `auto`: the best partition found (labels, SSE).
    #[serde(skip)]
    pub incumbent: Option<Incumbent>,
    /// What is reported of [`Self::incumbent`] (its SSE, IL, gap to the bound and whether
    /// the bound proves it optimal); absent for the bounds that search no partition.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub best_partition: Option<BestPartition>,
    /// A stop signal (Ctrl-C, SIGTERM) ended the bound early: the value is the best
    /// certified bound it held then.
    pub interrupted: bool,
}

/// The best partition a bound found, as reported beside the bound.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct BestPartition {
    /// Its SSE (recomputed from its labels).
    pub sse: f64,
    /// Its IL in percent.
    pub il: f64,
    /// `100 (SSE - LB) / LB` against the reported bound ([`gap_percent`]; None when LB = 0).
    pub gap_percent: Option<f64>,
    /// True when the certified bound proves it optimal (relative 1e-9, proofs/P12, P17).
    pub proven_optimal: bool,
}

impl BestPartition {
    /// The report of `inc` against the bound `lower_bound` of `inst`.
    pub fn of(inc: &Incumbent, inst: &Instance, lower_bound: f64) -> Self {
        BestPartition {
            sse: inc.sse,
            il: inst.il(inc.sse),
            gap_percent: gap_percent(inc.sse, lower_bound),
            proven_optimal: inc.proven_optimal,
        }
    }
}

/// Compute bound `name` for (instance, k) with its defaults and `time_limit` (seconds; the
/// bounds without one, `nn`, run to completion or to an interrupt, see [`compute_with`]).
pub fn compute(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
) -> Result<BoundOutcome> {
    let never = AtomicBool::new(false);
    let prepared = prepare(name, &Map::new(), time_limit)?;
    compute_prepared(&prepared, inst, k, Show::Auto, &never)
}

/// Parse and check the parameters `given` of bound `name` through the registry
/// ([`BoundInfo::prepare`]); `time_limit` (a command's `--time-limit`, a run's limit) sets
/// the `time_limit` parameter of the bounds that have one unless `given` sets it.
pub fn prepare(
    name: &str,
    given: &Map<String, Value>,
    time_limit: Option<f64>,
) -> Result<PreparedBound> {
    let info = find(name)?;
    let mut given = given.clone();
    if let Some(t) = time_limit {
        if info.takes("time_limit") && !given.contains_key("time_limit") {
            given.insert("time_limit".into(), t.into());
        }
    }
    info.prepare(&given)
}

/// [`compute`] with parameters `given` (a JSON object, as `bound --param` and suites give
/// them; see [`prepare`]). Progress reports of anytime bounds (`bnp`) go to stderr on a
/// terminal (`ticker`).
pub fn compute_with(
    name: &str,
    inst: &Instance,
    k: usize,
    given: &Value,
    interrupt: &AtomicBool,
) -> Result<BoundOutcome> {
    let prepared = prepare(name, &object(given)?, None)?;
    compute_prepared(&prepared, inst, k, Show::Auto, interrupt)
}

/// [`compute_with`] sending every progress report of `bnp` to `report`.
pub fn compute_reporting(
    name: &str,
    inst: &Instance,
    k: usize,
    given: &Value,
    interrupt: &AtomicBool,
    report: &mut dyn FnMut(&BoundProgress),
) -> Result<BoundOutcome> {
    let prepared = prepare(name, &object(given)?, None)?;
    run_prepared(&prepared, inst, k, Show::Auto, interrupt, report)
}

/// A prepared bound, its progress on stderr as `show` says (a terminal, `--progress`, `--quiet`).
pub fn compute_prepared(
    bound: &PreparedBound,
    inst: &Instance,
    k: usize,
    show: Show,
    interrupt: &AtomicBool,
) -> Result<BoundOutcome> {
    let shown = show.enabled();
    run_prepared(bound, inst, k, show, interrupt, &mut |p| {
        if shown {
            bnp::print_progress(inst, p)
        }
    })
}

/// Run a prepared bound through its registry entry. Once `interrupt` is set, `nn` stops its
/// neighbour lists and returns [`Error::Interrupted`] (a bound from part of the lists is not
/// computed), `colgen` cuts its start pipeline short and its kernel stops within one poll
/// (master iteration, pricing anchor) with the best certified bound it holds, and `bnp`
/// stops its search and returns its global bound and incumbent; the outcome is marked
/// [`BoundOutcome::interrupted`].
pub(crate) fn run_prepared(
    bound: &PreparedBound,
    inst: &Instance,
    k: usize,
    show: Show,
    interrupt: &AtomicBool,
    report: &mut dyn FnMut(&BoundProgress),
) -> Result<BoundOutcome> {
    inst.check_k(k)?;
    let started = Instant::now();
    let c = bound.run(inst, k, show, interrupt, report)?;
    let name = bound.info.name;
    Ok(BoundOutcome {
        method: name.to_string(),
        produced_by: producer(name, c.lower_bound, &c.details).to_string(),
        lower_bound: c.lower_bound,
        il_lower_bound: il_lower_bound(inst, c.lower_bound),
        certified: true,
        seconds: started.elapsed().as_secs_f64(),
        details: c.details,
        certificate: c.certificate,
        best_partition: (c.incumbent.as_ref()).map(|i| BestPartition::of(i, inst, c.lower_bound)),
        incumbent: c.incumbent,
        interrupted: interrupt.load(Ordering::SeqCst),
    })
}

/// The JSON object `given`, or a usage error.
fn object(given: &Value) -> Result<Map<String, Value>> {
    match given {
        Value::Object(m) => Ok(m.clone()),
        Value::Null => Ok(Map::new()),
        other => Err(Error::usage(format!(
            "bound parameters: expected an object of KEY: VALUE, got {other}"
        ))),
    }
}

/// The prepared bound after a run (`run --bound`, the Python `run(bound=...)`): computed
/// after the run so that it does not eat into the run's time limit, and skipped once
/// `interrupt` is set (it can take as long as the run). Returns the bound, or why it was
/// skipped; `(None, None)` when no bound was asked for.
pub fn after_run(
    bound: Option<&PreparedBound>,
    inst: &Instance,
    k: usize,
    show: Show,
    interrupt: &AtomicBool,
) -> Result<(Option<BoundOutcome>, Option<&'static str>)> {
    match bound {
        None => Ok((None, None)),
        Some(_) if interrupt.load(Ordering::SeqCst) => {
            Ok((None, Some("interrupted before the bound was computed")))
        }
        Some(b) => Ok((Some(compute_prepared(b, inst, k, show, interrupt)?), None)),
    }
}

/// The method whose value `lower_bound` is: `details.produced_by` when the bound says it
/// (`auto`); otherwise colgen and bnp take the larger of their own bound and the nn bound
/// they start from (`details.nn`), so a run that did not pass it returns the nn value, which
/// is then nn's, not theirs.
pub(crate) fn producer<'a>(name: &'a str, lower_bound: f64, details: &'a Value) -> &'a str {
    if let Some(by) = details.get("produced_by").and_then(Value::as_str) {
        return by; // `auto` names the method of its route
    }
    match details.get("nn").and_then(Value::as_f64) {
        Some(nn) if name != "nn" && lower_bound <= nn => "nn",
        _ => name,
    }
}

/// Check a bound name without computing it.
pub fn check_name(name: &str) -> Result<()> {
    find(name).map(|_| ())
}

#[cfg(test)]
mod tests;
