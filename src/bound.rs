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
//! | `colgen` | Lagrangian bound of the column generation master (HiGHS), max with `nn` | always (the pricing bound is proven, exact or not) | `proofs/P09-lagrangian-bound.md` |
//! | `colgen-cuts` | `colgen` with rounds of subset-row cuts | always | `proofs/P14-subset-row-cuts.md` |
//! | `bnp` | branch-price-and-cut: least leaf bound of the search tree, with an incumbent | always | `proofs/P17`, `proofs/P18` |
//!
//! `colgen` starts its master from the partition of the pipeline [`COLGEN_START`] (run with
//! seed 0 and at most a tenth of the time limit) and, when [`BoundOptions::start`] is given
//! (`bound --start LABELS`), from that partition's groups too; it runs until the time limit
//! (which includes the start pipeline), by default
//! [`COLGEN_DEFAULT_SECONDS`] when none is given (suites pass none). Its details report
//! iterations, columns, `last_pricing_gap` (`floor(n/k) min(0, RC_lb)`, what the pricing bound
//! costs), `lp_value`, `pricing_exact`, `converged` and the start partition's SSE. With
//! [`BoundOptions::cut_rounds`] (`bound --cuts R`) it adds subset-row cuts on record triples
//! after the master converged (`proofs/P14-subset-row-cuts.md`) and reports `root_lp` (the LP
//! value before cuts), `converged_lp` (the last LP value pricing proved), `cut_rounds` and
//! `cuts`.
//!
//! Every bound is registered in [`BOUNDS`] with its parameters ([`BoundInfo`], printed by
//! `microagg list`); [`BoundOptions::set`] sets them from text, checked against the registry.
//! Besides its value an entry may return a certificate, an incumbent partition and progress
//! reports while it runs ([`extras`]; [`BoundInfo`] says which): `bnp`
//! ([`bnp_entry`]) returns all three, so `microagg bound --method bnp`, `run --bound bnp` and
//! suites (`bounds = [{ name = "bnp", time_limit = 600 }]`) share this one path.
//!
//! The gap of a solution to a bound is `100 (SSE - LB) / LB` ([`gap_percent`]): how far, in
//! percent of the bound, the solution may be from optimal.

use crate::data::Instance;
use crate::error::{Error, Result};
use serde::Serialize;
use serde_json::{json, Value};
use std::time::Instant;

pub mod bnp;
pub mod bnp_entry;
pub mod colgen_params;
pub mod extras;
pub mod figures;
pub mod options;
pub mod param;
pub mod start;
pub mod ticker;
pub mod weighted;
pub mod weighted_certificate;
pub use colgen_params::{
    is_colgen, COLGEN_CUTS_ROUNDS, COLGEN_DEFAULT_SECONDS, COLGEN_PROGRESS, COLGEN_START,
    COLGEN_START_PARAM, COLGEN_TIME_LIMIT,
};
pub use extras::{BoundProgress, Certificate, Incumbent};
pub use figures::{gap_percent, il_lower_bound};
pub use options::BoundOptions;
pub use param::BoundParam;

/// One registered bound: the name it is asked for by (`bound --method`, `run --bound`,
/// suites, Python), what it computes, whether it is certified and where its proof is, and
/// its parameters. `microagg list` prints these.
#[derive(Debug, Clone, Copy)]
pub struct BoundInfo {
    pub name: &'static str,
    pub summary: &'static str,
    /// When the bound is certified, with its proof in `proofs/`.
    pub certified: &'static str,
    pub params: &'static [BoundParam],
    /// The bound writes a certificate for `verify-bound` ([`BoundOutcome::certificate`]).
    pub certificate: bool,
    /// The bound searches partitions and returns its best ([`BoundOutcome::incumbent`]).
    pub incumbent: bool,
    /// The bound has a weighted version on the weighted SSE (`--weights`, [`weighted`]),
    /// named by its proof; `None`: it prices unweighted groups and refuses weights.
    pub weighted: Option<&'static str>,
}

impl BoundInfo {
    /// Whether the bound takes a start partition (its `start` parameter).
    pub fn takes_start(&self) -> bool {
        self.takes("start")
    }

    /// Whether the bound has a weighted version (`bound --weights`, `run --bound --weights`).
    pub fn has_weighted_version(&self) -> bool {
        self.weighted.is_some()
    }

    /// Whether the bound has the parameter `key`.
    pub fn takes(&self, key: &str) -> bool {
        self.params.iter().any(|p| p.key == key)
    }
}

/// Every bound this build computes, in the order `microagg list` prints them. Adding a
/// bound is its kernel, one entry here and one arm in [`compute_reporting`].
pub const BOUNDS: &[BoundInfo] = &[
    BoundInfo {
        name: "nn",
        summary: "nearest-neighbour bound sum_i NN_{k-1}(i) / (2k), k-nearest lists from the kd-tree (by scan below 4096 records)",
        certified: "always (proofs/P06-nn-bound.md)",
        params: &[],
        certificate: false,
        incumbent: false,
        weighted: Some("proofs/P41"),
    },
    BoundInfo {
        name: "colgen",
        summary: "Lagrangian bound of the column generation master (HiGHS), max with nn",
        certified: "always, the pricing bound is proven (proofs/P09-lagrangian-bound.md); certificate for verify-bound (proofs/P13)",
        params: &[
            COLGEN_TIME_LIMIT,
            BoundParam {
                key: "cuts",
                default: "0",
                doc: "rounds of subset-row cuts on record triples after the master converged (proofs/P14)",
            },
            COLGEN_START_PARAM,
            COLGEN_PROGRESS,
            colgen_params::NN_ASCENT,
            colgen_params::SUBGRADIENT,
            colgen_params::LP_SEGMENT,
            colgen_params::PUSH_PROJECT,
            colgen_params::ANCHOR_THRESHOLD,
            colgen_params::IPM,
            colgen_params::FINAL_FRACTION,
            colgen_params::CERTIFIED_SMOOTHING,
            colgen_params::SMOOTHING,
            colgen_params::AUTO_SMOOTHING,
            colgen_params::STOP_EARLY,
            colgen_params::TIGHTEN_FRACTION,
            colgen_params::SLACK_PUSH,
            colgen_params::POOL_MASTER,
            colgen_params::POOL_MASTER_MOVING_CENTRE,
            colgen_params::LP_PROJECTION,
            colgen_params::BOX_WIDTH,
            colgen_params::MASTER_UPPER,
            colgen_params::MAX_ITERATIONS,
        ],
        certificate: true,
        incumbent: false,
        weighted: Some("proofs/P43"),
    },
    BoundInfo {
        name: "colgen-cuts",
        summary: "colgen with rounds of subset-row cuts on record triples",
        certified: "always (proofs/P09, proofs/P14); certificate for verify-bound (proofs/P13)",
        params: &[
            COLGEN_TIME_LIMIT,
            BoundParam {
                key: "cuts",
                default: "50",
                doc: "rounds of subset-row cuts after the master converged (0: none, the same bound as colgen)",
            },
            COLGEN_START_PARAM,
            COLGEN_PROGRESS,
            colgen_params::NN_ASCENT,
            colgen_params::SUBGRADIENT,
            colgen_params::LP_SEGMENT,
            colgen_params::PUSH_PROJECT,
            colgen_params::ANCHOR_THRESHOLD,
            colgen_params::IPM,
            colgen_params::FINAL_FRACTION,
            colgen_params::CERTIFIED_SMOOTHING,
            colgen_params::SMOOTHING,
            colgen_params::AUTO_SMOOTHING,
            colgen_params::STOP_EARLY,
            colgen_params::TIGHTEN_FRACTION,
            colgen_params::SLACK_PUSH,
            colgen_params::POOL_MASTER,
            colgen_params::POOL_MASTER_MOVING_CENTRE,
            colgen_params::LP_PROJECTION,
            colgen_params::BOX_WIDTH,
            colgen_params::MASTER_UPPER,
            colgen_params::MAX_ITERATIONS,
        ],
        certificate: true,
        incumbent: false,
        weighted: None,
    },
    BoundInfo {
        name: "bnp",
        summary: "branch-price-and-cut on the column generation master (Ryan-Foster branching, subset-row cuts at the root and at every node): the least open leaf bound, with the incumbent partition and its gap",
        certified: "always, each leaf a Lagrangian bound with cuts rounded outward (proofs/P17); certificate of the leaves for verify-bound (proofs/P18)",
        params: bnp_entry::BNP_PARAMS,
        certificate: true,
        incumbent: true,
        weighted: None,
    },
];

/// The names of [`BOUNDS`], in order.
pub const NAMES: &[&str] = &names::<{ BOUNDS.len() }>();

const fn names<const N: usize>() -> [&'static str; N] {
    let mut out = [""; N];
    let mut i = 0;
    while i < N {
        out[i] = BOUNDS[i].name;
        i += 1;
    }
    out
}

/// The registered bound `name`, or an error listing the available ones.
pub fn find(name: &str) -> Result<&'static BoundInfo> {
    BOUNDS
        .iter()
        .find(|b| b.name == name)
        .ok_or_else(|| Error::usage(unknown(name)))
}

/// A computed bound.
#[derive(Debug, Clone, Serialize)]
pub struct BoundOutcome {
    /// Bound name (`nn`, ...): the method asked for.
    pub method: String,
    /// The method whose value `lower_bound` is: `method`, or `nn` when a colgen or bnp run
    /// ended at or below its nn start (its bound is then the nn one; see [`producer`]).
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
    /// `bnp`: the best partition found (labels, SSE).
    #[serde(skip)]
    pub incumbent: Option<Incumbent>,
    /// A stop signal (Ctrl-C, SIGTERM) ended the bound early: the value is the best
    /// certified bound it held then.
    pub interrupted: bool,
}

/// Progress of the nn bound's neighbour lists on stderr: silent for the first
/// [`NnProgress::QUIET`] seconds (short runs print nothing), then one line every
/// [`NnProgress::EVERY`] seconds.
struct NnProgress {
    n: usize,
    done: usize,
    started: Instant,
    last: f64,
}

impl NnProgress {
    const QUIET: f64 = 5.0;
    const EVERY: f64 = 10.0;

    fn new(n: usize) -> Self {
        NnProgress {
            n,
            done: 0,
            started: Instant::now(),
            last: Self::QUIET - Self::EVERY,
        }
    }

    fn tell(&mut self, done: usize) {
        self.done = done;
        let t = self.started.elapsed().as_secs_f64();
        if t >= self.last + Self::EVERY && done < self.n {
            self.last = t;
            eprintln!(
                "bound nn: neighbour lists of {done} of {} records ({:.0} %) after {t:.0} s",
                self.n,
                100.0 * done as f64 / self.n as f64
            );
        }
    }
}

/// Compute bound `name` for (instance, k). `time_limit` (seconds) is honoured by the bounds
/// that iterate (`colgen`, default [`COLGEN_DEFAULT_SECONDS`]); `nn` runs to completion
/// (or to an interrupt, see [`compute_with`]).
pub fn compute(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
) -> Result<BoundOutcome> {
    let never = std::sync::atomic::AtomicBool::new(false);
    compute_with(name, inst, k, time_limit, &BoundOptions::default(), &never)
}

/// [`compute`] with the options of [`BoundOptions`]; progress reports of anytime bounds
/// (`bnp`) go to stderr on a terminal or with [`BoundOptions::progress`]
/// ([`compute_reporting`], [`ticker`]).
pub fn compute_with(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    options: &BoundOptions,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<BoundOutcome> {
    let shown = options.show().enabled();
    compute_reporting(name, inst, k, time_limit, options, interrupt, &mut |p| {
        if shown {
            bnp::print_progress(inst, p)
        }
    })
}

/// [`compute_with`] sending every progress report of `bnp` to `report` (`colgen` shows its
/// own on a terminal or with [`BoundOptions::progress`], [`ticker`]). Once `interrupt` is
/// set, `nn` stops its neighbour lists and returns [`Error::Interrupted`] (a bound from part
/// of the lists is not computed), `colgen` cuts its start pipeline short and its kernel
/// stops within one poll (master iteration, pricing anchor) with the best certified bound
/// it holds, and `bnp` stops its search and returns its global bound and incumbent; the
/// outcome is marked [`BoundOutcome::interrupted`].
pub fn compute_reporting(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    options: &BoundOptions,
    interrupt: &std::sync::atomic::AtomicBool,
    report: &mut dyn FnMut(&BoundProgress),
) -> Result<BoundOutcome> {
    use std::sync::atomic::Ordering;
    inst.check_k(k)?;
    let info = find(name)?;
    // Options the bound has no parameter for are refused, never ignored.
    let given = [
        ("start", "start partition", options.start.is_some()),
        ("cuts", "cuts", options.cut_rounds.is_some()),
    ];
    for (key, what, set) in given {
        if set && !info.takes(key) {
            let takers: Vec<&str> = BOUNDS
                .iter()
                .filter(|b| b.takes(key))
                .map(|b| b.name)
                .collect();
            return Err(Error::usage(format!(
                "bound {name} takes no {what} (only {} do)",
                takers.join(", ")
            )));
        }
    }
    let started = Instant::now();
    let algo = |e: microagg_solvers::SolverError| Error::algorithm(format!("bound {name}"), e);
    let mut certificate = Err(format!("bound {name} writes no certificate"));
    let mut incumbent = None;
    let (lower_bound, certified, details) = match name {
        "nn" => {
            // Each record's k - 1 nearest from the neighbour lists (the static kd-tree
            // from 4096 records, the same lists as the scan, ties included: proofs/P06),
            // summed by the solvers crate with its own distance function (proofs/P06, P10).
            // A long pass reports its progress on stderr; Ctrl-C stops it (no bound).
            let mut report = NnProgress::new(inst.n);
            let lists = crate::search::neighbours::Neighbours::build_reporting(
                inst,
                k - 1,
                || interrupt.load(Ordering::SeqCst),
                |done| report.tell(done),
            )
            .ok_or_else(|| {
                Error::Interrupted(format!(
                    "bound nn: stopped after the lists of {} of {} records",
                    report.done, inst.n
                ))
            })?;
            let b = microagg_solvers::bounds::nn::nn_bound_from_lists(
                &inst.z,
                inst.n,
                inst.d,
                k,
                lists.as_flat(),
            )
            .map_err(algo)?;
            (b.lower_bound, true, json!({ "computed": b.computed }))
        }
        "colgen" | "colgen-cuts" => {
            let cut_rounds = match (name, options.cut_rounds) {
                (_, Some(r)) => r,
                ("colgen-cuts", None) => COLGEN_CUTS_ROUNDS,
                (_, None) => 0,
            };
            let limit = time_limit.unwrap_or(COLGEN_DEFAULT_SECONDS);
            crate::search::check_time_limit(limit)
                .map_err(|e| Error::usage(format!("bound colgen: time limit {e}")))?;
            if let Some(labels) = &options.start {
                // Checked before the start pipeline runs, so a bad file fails at once.
                microagg_solvers::bounds::colgen::start_groups(labels, inst.n, k).map_err(|m| {
                    Error::usage(format!(
                        "bound colgen: start partition {}: {m}",
                        options.start_source
                    ))
                })?;
            }
            let (start, remaining) =
                start::start_and_remaining(COLGEN_START, inst, k, limit, started, interrupt)?;
            let mut opts = microagg_solvers::bounds::ColgenOptions {
                time_limit: remaining,
                progress: options.progress,
                cut_rounds,
                ..Default::default()
            };
            options.k10.apply(&mut opts);
            let mut starts: Vec<&[usize]> = vec![start.partition.labels()];
            if let Some(labels) = &options.start {
                starts.push(labels);
            }
            let mut ticker = ticker::Ticker::new(options.show(), Some(start.partition.sse()));
            let b = microagg_solvers::bounds::colgen::colgen_bound_stoppable(
                &inst.z,
                inst.n,
                inst.d,
                k,
                &starts,
                &opts,
                Some(interrupt),
                &mut |p| ticker.tell(p),
            )
            .map_err(|e| Error::algorithm("bound colgen", e))?;
            certificate = Err("no Lagrangian bound was computed within the time limit".into());
            if !b.duals.is_empty() {
                certificate = Ok(Certificate::Lagrangian(
                    crate::certificate::BoundCertificate::lagrangian_with_cuts(
                        inst,
                        k,
                        b.lagrangian,
                        b.duals.clone(),
                        &b.cut_triples,
                        &b.cut_duals,
                    )
                    .with_anchor_threshold(b.anchor_threshold),
                ));
            }
            (
                b.lower_bound,
                true,
                json!({
                    "iterations": b.iterations,
                    "columns": b.columns,
                    "dropped_columns": b.dropped_columns,
                    "box_widenings": b.box_widenings,
                    "last_pricing_gap": b.last_pricing_gap,
                    "lp_value": b.lp_value,
                    "lagrangian": b.lagrangian,
                    "nn": b.nn,
                    "pricing_exact": b.pricing_exact,
                    "converged": b.converged,
                    "root_lp": finite_or_null(b.root_lp),
                    "converged_lp": finite_or_null(b.converged_lp),
                    "master_upper": b.master_upper.as_ref().map(|u| json!({
                        "value": u.value,
                        "recomputed": u.recomputed,
                        "residual": u.residual,
                        "support": u.support,
                        "seconds": u.seconds,
                    })),
                    "cut_rounds": b.cut_rounds,
                    "cuts": b.cuts,
                    "cuts_in_bound": b.cut_triples.len(),
                    "exact_calls": b.exact_calls,
                    "exact_nodes": b.exact_nodes,
                    "simplex_iterations": b.simplex_iterations,
                    "lp_seconds": b.lp_seconds,
                    "heuristic_seconds": b.heuristic_seconds,
                    "exact_seconds": b.exact_seconds,
                    "lp_error": b.lp_error,
                    "start": COLGEN_START,
                    "start_sse": start.partition.sse(),
                    "start_labels": options.start.is_some(),
                    "time_limit": limit,
                }),
            )
        }
        "bnp" => {
            let b = bnp_entry::compute(inst, k, time_limit, options, interrupt, report)?;
            certificate = b.certificate;
            incumbent = Some(b.incumbent);
            (b.lower_bound, true, b.details)
        }
        _ => return Err(Error::usage(unknown(name))),
    };
    Ok(BoundOutcome {
        method: name.to_string(),
        produced_by: producer(name, lower_bound, &details).to_string(),
        lower_bound,
        il_lower_bound: il_lower_bound(inst, lower_bound),
        certified,
        seconds: started.elapsed().as_secs_f64(),
        details,
        certificate,
        incumbent,
        interrupted: interrupt.load(Ordering::SeqCst),
    })
}

/// The bound `name` after a run (`run --bound`, the Python `run(bound=...)`): computed
/// after the run so that it does not eat into the run's time limit, and skipped once
/// `interrupt` is set (it can take as long as the run). Returns the bound, or why it was
/// skipped; `(None, None)` when no bound was asked for.
pub fn after_run(
    name: Option<&str>,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    options: &BoundOptions,
    interrupt: &std::sync::atomic::AtomicBool,
) -> Result<(Option<BoundOutcome>, Option<&'static str>)> {
    match name {
        None => Ok((None, None)),
        Some(_) if interrupt.load(std::sync::atomic::Ordering::SeqCst) => {
            Ok((None, Some("interrupted before the bound was computed")))
        }
        Some(b) => Ok((
            Some(compute_with(b, inst, k, time_limit, options, interrupt)?),
            None,
        )),
    }
}

/// The method whose value `lower_bound` is: colgen and bnp take the larger of their own
/// bound and the nn bound they start from (`details.nn`), so a run that did not pass it
/// returns the nn value, which is then nn's, not theirs.
pub fn producer<'a>(name: &'a str, lower_bound: f64, details: &Value) -> &'a str {
    match details.get("nn").and_then(Value::as_f64) {
        Some(nn) if name != "nn" && lower_bound <= nn => "nn",
        _ => name,
    }
}

/// A JSON number, or null for NaN (a value that was never computed).
fn finite_or_null(v: f64) -> Value {
    if v.is_finite() {
        json!(v)
    } else {
        Value::Null
    }
}

/// Check a bound name without computing it.
pub fn check_name(name: &str) -> Result<()> {
    find(name).map(|_| ())
}

fn unknown(name: &str) -> String {
    format!(
        "unknown bound '{name}'; available bounds: {}",
        NAMES.join(", ")
    )
}

#[cfg(test)]
mod tests;
