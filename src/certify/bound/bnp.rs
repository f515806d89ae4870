//! # Branch-and-price on the command line
//!
//! `microagg bound --method bnp` (through the bound registry's `bnp` entry,
//! [`crate::bound::BOUNDS`], as are `run --bound bnp` and suites) and `microagg solve-exact
//! --method branch-and-price` share this runner over the solver crate's engine
//! ([`microagg_solvers::bnp`], proofs/P17): the start partitions are the `crate::bound::COLGEN_START` pipeline's (run with seed 0 and at
//! most a tenth of the time limit; when that limit or Ctrl-C stops it before it has a
//! partition, [`FALLBACK_START`] in full) and, for `bound --start LABELS`, that file's; the search
//! runs until the time limit (default `DEFAULT_SECONDS`), Ctrl-C or the proof, and reports
//! the incumbent (SSE, IL), the certified global bound, the gap `100 (SSE - LB) / LB`, nodes
//! processed and open, seconds and whether the incumbent is proven optimal (P12's criterion,
//! relative 1e-9). Every improvement of the incumbent or the bound is reported as it happens,
//! and a "working" line after 10 s without one ([`crate::bound::BoundProgress`]; the
//! commands print it on stderr). Both commands can
//! write the incumbent's labels (`--labels-out`). The search separates subset-row cuts at the
//! root (`bound --cuts N` rounds, default 50) and one round per node (`--cuts 0`: no cuts
//! anywhere); `bound --certificate
//! FILE` writes the branch-and-price certificate ([`crate::bnp_certificate`], proofs/P18)
//! that `verify-bound` re-checks.
//!
//! ## Complexity
//! That of the engine, bounded by the time limit.
//!
//! ## References
//! See [`microagg_solvers::bnp`].

use super::colgen_entry::COLGEN_START;
use super::extras::BoundProgress;
use super::figures::{gap_percent, il_lower_bound};
use crate::data::Instance;
use crate::error::{Error, Result};
use microagg_solvers::bnp::{branch_and_price, BnpOptions, BnpResult};
use serde::Serialize;
use serde_json::{json, Value};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// `bound --method` name of branch-and-price.
pub(crate) const BOUND_NAME: &str = "bnp";

/// `solve-exact --method` name of branch-and-price.
pub(crate) const EXACT_NAME: &str = "branch-and-price";

/// Time limit in seconds when the caller gives none.
pub(crate) const DEFAULT_SECONDS: f64 = 60.0;

/// A finished (or stopped) run with what the report needs.
#[derive(Debug, Clone)]
pub struct BnpRun {
    pub result: BnpResult,
    /// SSE of the start pipeline's partition.
    pub start_sse: f64,
    /// The start pipeline: `COLGEN_START`, or [`FALLBACK_START`] when that one was
    /// stopped before it had a partition.
    pub start: &'static str,
    pub time_limit: f64,
    /// Wall-clock seconds including the start pipeline.
    pub seconds: f64,
}

/// Print a report on stderr, the line both commands write ([`progress_line`]).
pub(crate) fn print_progress(inst: &Instance, p: &BoundProgress) {
    eprintln!("{}", progress_line(p, inst.sst));
}

/// The stderr line of a report, with SSE and IL (`sst`: the instance's total SS); a
/// "working" report adds the node master's LP value when it has one.
pub(crate) fn progress_line(p: &BoundProgress, sst: f64) -> String {
    let master = p
        .master
        .map_or(String::new(), |v| format!("  master LP {v:.6}"));
    format!(
        "branch-and-price: {:8.1} s  {:>9}  nodes {:6} open {:6}  incumbent SSE {:.6} \
         (IL {:.6} %)  bound SSE {:.6} (IL {:.6} %){master}",
        p.seconds,
        p.what,
        p.nodes,
        p.open_nodes,
        p.incumbent_sse,
        100.0 * p.incumbent_sse / sst,
        p.lower_bound,
        100.0 * p.lower_bound / sst,
    )
}

/// Run branch-and-price on (instance, k) from the start pipeline's partition and `start`
/// (labels, every group of at least k records), within `time_limit` seconds (default
/// `DEFAULT_SECONDS`), stopping early once `interrupt` is set. Improvements go to stderr.
pub fn run(
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    start: Option<&[usize]>,
    start_source: &str,
    interrupt: &AtomicBool,
) -> Result<BnpRun> {
    run_with(
        inst,
        k,
        time_limit,
        start,
        start_source,
        &BnpOptions::default(),
        interrupt,
        &mut |p| print_progress(inst, p),
    )
}

/// [`run`] with the engine's options `base` (its time limit is replaced by what is left of
/// `time_limit` after the start pipeline); every improvement goes to `report`.
#[allow(clippy::too_many_arguments)]
pub fn run_with(
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    start: Option<&[usize]>,
    start_source: &str,
    base: &BnpOptions,
    interrupt: &AtomicBool,
    report: &mut dyn FnMut(&BoundProgress),
) -> Result<BnpRun> {
    inst.check_k(k)?;
    let started = Instant::now();
    let limit = time_limit.unwrap_or(DEFAULT_SECONDS);
    crate::search::check_time_limit(limit)
        .map_err(|e| Error::usage(format!("branch-and-price: time limit {e}")))?;
    if let Some(labels) = start {
        microagg_solvers::bounds::colgen::start_groups(labels, inst.n, k).map_err(|m| {
            Error::usage(format!(
                "branch-and-price: start partition {start_source}: {m}"
            ))
        })?;
    }
    let (first, start_name) = start_partition(inst, k, limit / 10.0, interrupt)?;
    let mut starts: Vec<&[usize]> = vec![first.partition.labels()];
    if let Some(labels) = start {
        starts.push(labels);
    }
    let remaining = if interrupt.load(Ordering::SeqCst) {
        1e-3
    } else {
        (limit - started.elapsed().as_secs_f64()).max(1e-3 * limit)
    };
    let opts = BnpOptions {
        time_limit: remaining,
        ..base.clone()
    };
    let result = branch_and_price(
        &inst.z,
        inst.n,
        inst.d,
        k,
        &starts,
        &opts,
        Some(interrupt),
        report,
    )
    .map_err(|e| Error::algorithm("branch-and-price", e))?;
    Ok(BnpRun {
        result,
        start_sse: first.partition.sse(),
        start: start_name,
        time_limit: limit,
        seconds: started.elapsed().as_secs_f64(),
    })
}

/// The start when `COLGEN_START` was stopped (time limit or Ctrl-C) before it had a
/// partition: run in full, so that every run answers with an incumbent.
pub const FALLBACK_START: &str = "mdav";

/// The start partition and the pipeline that made it: [`COLGEN_START`] within `seconds`
/// and `interrupt`, or, when its initializer was stopped (an initializer has no partial
/// partition), [`FALLBACK_START`] without a limit (O(n^2 d / k)).
fn start_partition(
    inst: &Instance,
    k: usize,
    seconds: f64,
    interrupt: &AtomicBool,
) -> Result<(crate::pipeline::PipelineOutcome, &'static str)> {
    let pipeline = |name: &str| crate::pipeline::Pipeline::parse(name, &[]);
    match pipeline(COLGEN_START)?.run(inst, k, 0, Some(seconds), interrupt) {
        Err(Error::Interrupted(_)) => {
            let never = AtomicBool::new(false);
            let run = pipeline(FALLBACK_START)?.run(inst, k, 0, None, &never)?;
            Ok((run, FALLBACK_START))
        }
        run => Ok((run?, COLGEN_START)),
    }
}

/// What a run found beyond its bound: incumbent, gap, tree and cut figures, start and
/// limits (the `details` of the registry's `bnp` entry, and part of [`to_json`]). NaN values
/// (never computed) serialise as null.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct BnpDetails {
    pub sse: f64,
    pub il: f64,
    pub groups: usize,
    pub gap_percent: Option<f64>,
    pub proven_optimal: bool,
    pub proof_rel_gap: f64,
    pub root_lp: f64,
    pub root_lp_cuts: f64,
    pub cut_rounds: usize,
    pub cuts: usize,
    pub cuts_by_kind: CutsByKind,
    pub root_bound: f64,
    pub nn: f64,
    pub nodes: u64,
    pub open_nodes: usize,
    pub max_depth: usize,
    pub columns: usize,
    pub lp_solves: u64,
    pub exact_calls: u64,
    pub stopped: Option<String>,
    pub enumeration: Option<EnumerationDetails>,
    /// The pool MIP over reduced-cost columns after the root (`rc_pool_columns`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub rc_pool: Option<microagg_solvers::bnp::RcPoolReport>,
    pub start: &'static str,
    pub start_sse: f64,
    pub time_limit: f64,
    pub interrupted: bool,
    /// The registry entry: whether a start labels file seeded the master.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub start_labels: Option<bool>,
}

/// The cuts found, by family: subset-row triples, rank-1 cuts on 4-5 records (P21), and
/// cuts on fractional blocks (P21 Part F).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct CutsByKind {
    pub triples: usize,
    pub rank1_4_5: usize,
    pub big: usize,
}

/// The proof by reduced-cost enumeration (`enumerate`, proofs/P19).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct EnumerationDetails {
    pub threshold: f64,
    pub columns: usize,
    pub complete: bool,
    pub search_nodes: u64,
    pub partitions: u64,
    pub lower_bound: f64,
    /// Seconds of its three steps (exact pricing, enumeration, pool search).
    pub seconds: [f64; 3],
}

impl BnpDetails {
    /// The details of `run` on `inst`.
    pub fn of(inst: &Instance, run: &BnpRun) -> Self {
        let r = &run.result;
        let count = |keep: fn(&microagg_solvers::bounds::colgen::cuts::Cut) -> bool| {
            r.cuts.iter().filter(|c| keep(c)).count()
        };
        BnpDetails {
            sse: r.sse,
            il: inst.il(r.sse),
            groups: r.labels.iter().max().map_or(0, |m| m + 1),
            gap_percent: gap_percent(r.sse, r.lower_bound),
            proven_optimal: r.proven_optimal,
            proof_rel_gap: microagg_solvers::exact::PROOF_REL_GAP,
            root_lp: r.root_lp,
            root_lp_cuts: r.root_lp_cuts,
            cut_rounds: r.cut_rounds,
            cuts: r.cuts.len(),
            cuts_by_kind: CutsByKind {
                triples: count(|c| c.as_triple().is_some()),
                rank1_4_5: count(|c| {
                    c.as_triple().is_none() && c.records().len() <= 5 && c.rhs() == 1
                }),
                big: count(|c| c.records().len() > 5 || c.rhs() > 1),
            },
            root_bound: r.root_bound,
            nn: r.nn,
            nodes: r.nodes,
            open_nodes: r.open_nodes,
            max_depth: r.max_depth,
            columns: r.columns,
            lp_solves: r.lp_solves,
            exact_calls: r.exact_calls,
            stopped: r.stopped.clone(),
            enumeration: r.enumeration.as_ref().map(|(e, _)| EnumerationDetails {
                threshold: e.threshold,
                columns: e.columns,
                complete: e.search.as_ref().is_some_and(|s| s.complete),
                search_nodes: e.search.as_ref().map_or(0, |s| s.nodes),
                partitions: e.search.as_ref().map_or(0, |s| s.partitions),
                lower_bound: e.lower_bound,
                seconds: e.seconds,
            }),
            rc_pool: r.rc_pool.clone(),
            start: run.start,
            start_sse: run.start_sse,
            time_limit: run.time_limit,
            interrupted: crate::interrupt::requested(),
            start_labels: None,
        }
    }
}

/// `BnpDetails` as JSON.
pub(crate) fn details(inst: &Instance, run: &BnpRun) -> Value {
    serde_json::to_value(BnpDetails::of(inst, run)).expect("details serialise")
}

/// The JSON record of a `solve-exact` run: instance, k, bound and [`details`].
pub(crate) fn to_json(inst: &Instance, k: usize, run: &BnpRun, command: &str) -> Value {
    let r = &run.result;
    let mut v = json!({
        "command": command,
        "method": if command == "bound" { BOUND_NAME } else { EXACT_NAME },
        "instance": inst.name,
        "instance_sha256": inst.sha256,
        "n": inst.n,
        "d": inst.d,
        "k": k,
        "sst": inst.sst,
        "lower_bound": r.lower_bound,
        "il_lower_bound": il_lower_bound(inst, r.lower_bound),
        "certified": true,
        "seconds": run.seconds,
        "version": env!("CARGO_PKG_VERSION"),
    });
    let o = v.as_object_mut().expect("an object");
    if let Value::Object(d) = details(inst, run) {
        o.extend(d);
    }
    v
}

/// One line of text for a run.
pub(crate) fn text(inst: &Instance, k: usize, run: &BnpRun) -> String {
    let r = &run.result;
    format!(
        "branch-and-price on {} (n={}, d={}), k={}: incumbent SSE {:.6} IL {:.6} %, bound SSE \
         {:.6} IL {:.6} %, gap {}, {}, {} nodes ({} open), {:.1} s",
        inst.name,
        inst.n,
        inst.d,
        k,
        r.sse,
        inst.il(r.sse),
        r.lower_bound,
        il_lower_bound(inst, r.lower_bound),
        gap_percent(r.sse, r.lower_bound).map_or("n/a".to_string(), |g| format!("{g:.4} %")),
        proof_text(r),
        r.nodes,
        r.open_nodes,
        run.seconds
    )
}

/// How a partition the certified bound proves optimal is described.
pub(crate) const PROVEN_OPTIMAL: &str =
    "proven optimal (certified bound within relative 1e-9; proofs/P17)";

/// [`PROVEN_OPTIMAL`] or "NOT proven (why)".
pub(crate) fn proof_text(r: &BnpResult) -> String {
    if r.proven_optimal {
        PROVEN_OPTIMAL.to_string()
    } else {
        format!(
            "NOT proven ({})",
            r.stopped
                .as_deref()
                .unwrap_or("tree closed above the bound")
        )
    }
}

/// `solve-exact --method branch-and-price`: run with the engine's options `base`, write
/// `labels_out` (if given), print JSON or text on stdout.
#[allow(clippy::too_many_arguments)]
pub fn command(
    inst: &Instance,
    k: usize,
    command: &str,
    time_limit: Option<f64>,
    start: Option<&Path>,
    labels_out: Option<&Path>,
    json: bool,
    base: &BnpOptions,
    interrupt: &AtomicBool,
) -> Result<()> {
    let labels = start.map(crate::labels::read_labels).transpose()?;
    let source = start.map_or(String::new(), |p| p.display().to_string());
    let run = run_with(
        inst,
        k,
        time_limit,
        labels.as_deref(),
        &source,
        base,
        interrupt,
        &mut |p| print_progress(inst, p),
    )?;
    if let Some(path) = labels_out {
        crate::labels::write_labels(path, &run.result.labels)?;
    }
    let line = if json {
        serde_json::to_string(&to_json(inst, k, &run, command)).expect("record serialises")
    } else {
        text(inst, k, &run)
    };
    crate::output::println(&line)
}
