//! # Lower bounds on the weighted SSE
//!
//! `bound --weights W` and `run --bound nn --weights W`: the weighted nearest-neighbour
//! bound of `microagg_solvers::bounds::nn_weighted` on the weighted SSE (sampling weights,
//! weighted centroids, groups of at least k *records*; proofs/P41-weighted-nn-bound.md).
//! Below `SCAN_BELOW` records every pair is scanned (each record's relaxation solved over
//! all other records); from there each record sees its `LIST_LENGTH` nearest from the
//! kd-tree and every other record as a pseudo-record at the last list distance with the
//! smallest weight (weaker, still valid).
//!
//! `bound --method colgen --weights W` and `run --bound colgen --weights W`: the weighted
//! column generation bound of `microagg_solvers::bounds::colgen_weighted`
//! (proofs/P43-weighted-lagrangian-bound.md), its master seeded by the
//! `WEIGHTED_COLGEN_START` partition (and the run's own partition under `run`), with a
//! certificate for `verify-bound --weights W` (`super::weighted_certificate`).
//!
//! Each is its registry entry's [`super::WeightedVersion`] (its proof, the parameters it
//! reads, whether it writes a certificate, its computation), so `bound --weights` and `run
//! --bound --weights` dispatch through the entry; an entry without one (nn-raised,
//! colgen-cuts, bnp, auto) is refused with `--weights` ([`weighted_version`]).
//!
//! The IL of the bound is on the weighted scale: `100 LB_w / SST_w`, rounded down.
//!
//! ## Complexity
//! O(n^2 d) below `SCAN_BELOW` records (EIA, n = 4092, d = 11: see docs/weights.md),
//! O(n m d) plus the kd-tree lists from there.
//!
//! ## References
//! Dinkelbach, W. (1967). On nonlinear fractional programming. Management Science 13(7).

use super::weighted_certificate::WeightedCertificate;
use super::BoundOutcome;
use crate::data::Instance;
use crate::error::{Error, Result};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Below this many records the weighted nn bound scans every pair.
pub(crate) const SCAN_BELOW: usize = 4096;

/// From [`SCAN_BELOW`] records, the length of each record's neighbour list (at least k - 1).
pub(crate) const LIST_LENGTH: usize = 64;

/// The weighted version of bound `name`, or an error before anything runs: the message
/// names the bounds that have one, with their proofs, and those that do not, from the
/// registry.
pub fn weighted_version(name: &str) -> Result<super::WeightedVersion> {
    if let Some(version) = super::find(name)?.weighted {
        return Ok(version);
    }
    let (with, without): (Vec<&super::BoundInfo>, Vec<&super::BoundInfo>) =
        super::BOUNDS.iter().partition(|b| b.has_weighted_version());
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

/// The weighted nearest-neighbour bound of `inst` (which must carry weights) for groups of
/// at least `k` records, as the nn entry's [`super::WeightedVersion`] (it reads no time
/// limit or start and writes no certificate). Once `interrupt` is set the kd-tree lists
/// stop and no bound is returned ([`Error::Interrupted`]).
pub(crate) fn weighted_nn(
    inst: &Instance,
    k: usize,
    _time_limit: Option<f64>,
    _extra_start: Option<&[usize]>,
    interrupt: &AtomicBool,
) -> Result<(
    BoundOutcome,
    std::result::Result<WeightedCertificate, String>,
)> {
    let w = weights_for(inst, k, "nn")?;
    let started = Instant::now();
    let algo = |e: microagg_solvers::SolverError| Error::algorithm("bound nn (weighted)", e);
    let (b, lists) = if inst.n < SCAN_BELOW {
        let b = microagg_solvers::bounds::nn_weighted::weighted_nn_bound(
            &inst.z, inst.n, inst.d, k, &w.values,
        )
        .map_err(algo)?;
        (b, json!("all other records (scan)"))
    } else {
        let m = LIST_LENGTH.max(k - 1);
        let lists = crate::geometry::neighbours::Neighbours::build_reporting(
            inst,
            m,
            || interrupt.load(Ordering::SeqCst),
            |_| {},
        )
        .ok_or_else(|| Error::Interrupted("bound nn (weighted): stopped".into()))?;
        let b = microagg_solvers::bounds::nn_weighted::weighted_nn_bound_from_lists(
            &inst.z,
            inst.n,
            inst.d,
            k,
            &w.values,
            lists.per_record(),
            lists.as_flat(),
        )
        .map_err(algo)?;
        (b, json!(lists.per_record()))
    };
    let sst = crate::weighted::weighted_sst(inst, &w.values);
    let none = "the weighted nn bound writes no certificate".to_string();
    let outcome = BoundOutcome {
        method: "nn".into(),
        produced_by: "nn".into(),
        lower_bound: b.lower_bound,
        il_lower_bound: super::figures::il_lower_bound_of(b.lower_bound, sst),
        certified: true,
        seconds: started.elapsed().as_secs_f64(),
        details: json!({
            "weighted": true,
            "weights": w.column,
            "sst_weighted": sst,
            "computed": b.computed,
            "estimate": b.estimate,
            "fallbacks": b.fallbacks,
            "dinkelbach_iterations": b.iterations,
            "candidates": lists,
        }),
        certificate: Err(none.clone()),
        incumbent: None,
        best_partition: None,
        interrupted: false,
    };
    Ok((outcome, Err(none)))
}

/// Pipeline whose partition seeds the weighted colgen master: with weights its descent
/// minimises the weighted SSE (the unweighted [`super::COLGEN_START`] does not).
pub(crate) const WEIGHTED_COLGEN_START: &str = "mdav+descent";

/// The weighted bound `name` (an entry with a weighted version) of `inst` (with weights) for
/// groups of at least `k` records; `extra_start` (labels) joins the colgen master's start
/// columns.
pub fn compute(
    name: &str,
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    extra_start: Option<&[usize]>,
    interrupt: &AtomicBool,
) -> Result<BoundOutcome> {
    let version = weighted_version(name)?;
    (version.compute)(inst, k, time_limit, extra_start, interrupt).map(|b| b.0)
}

/// The sampling weights of `inst` for the weighted `bound` with groups of `k` (checked);
/// an error when the data carry none.
fn weights_for<'a>(
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

/// The weighted column generation bound (proofs/P43) within `time_limit` seconds (default
/// [`super::COLGEN_DEFAULT_SECONDS`], the start pipeline included), with its certificate.
pub(crate) fn weighted_colgen(
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    extra_start: Option<&[usize]>,
    interrupt: &AtomicBool,
) -> Result<(
    BoundOutcome,
    std::result::Result<WeightedCertificate, String>,
)> {
    use super::COLGEN_DEFAULT_SECONDS;
    let w = weights_for(inst, k, "colgen")?;
    let started = Instant::now();
    let limit = time_limit.unwrap_or(COLGEN_DEFAULT_SECONDS);
    crate::search::check_time_limit(limit)
        .map_err(|e| Error::usage(format!("bound colgen: time limit {e}")))?;
    if let Some(labels) = extra_start {
        microagg_solvers::bounds::colgen::start_groups(labels, inst.n, k)
            .map_err(|m| Error::usage(format!("bound colgen (weighted): start partition: {m}")))?;
    }
    // The start pipeline on the weighted instance (its descent is the weighted one).
    let (start, remaining) = super::start::start_and_remaining(
        WEIGHTED_COLGEN_START,
        inst,
        k,
        limit,
        started,
        interrupt,
    )?;
    let opts = microagg_solvers::bounds::colgen_weighted::WeightedColgenOptions {
        time_limit: remaining,
        ..Default::default()
    };
    let mut starts: Vec<&[usize]> = vec![start.partition.labels()];
    if let Some(labels) = extra_start {
        starts.push(labels);
    }
    let b = microagg_solvers::bounds::colgen_weighted::weighted_colgen_bound(
        &inst.z, inst.n, inst.d, k, &w.values, &starts, &opts,
    )
    .map_err(|e| Error::algorithm("bound colgen (weighted)", e))?;
    let sst = crate::weighted::weighted_sst(inst, &w.values);
    let certificate = if b.duals.is_empty() {
        Err("no weighted Lagrangian bound was computed within the time limit".to_string())
    } else {
        Ok(WeightedCertificate::new(
            inst,
            k,
            b.lagrangian,
            b.duals.clone(),
            b.anchor_threshold,
        )?)
    };
    let outcome = BoundOutcome {
        method: "colgen".into(),
        produced_by: if b.lower_bound <= b.nn {
            "nn"
        } else {
            "colgen"
        }
        .into(),
        lower_bound: b.lower_bound,
        il_lower_bound: super::figures::il_lower_bound_of(b.lower_bound, sst),
        certified: true,
        seconds: started.elapsed().as_secs_f64(),
        details: json!({
            "weighted": true,
            "weights": w.column,
            "sst_weighted": sst,
            "lagrangian": b.lagrangian,
            "nn": b.nn,
            "lp_value": b.lp_value,
            "anchor_threshold": b.anchor_threshold,
            "iterations": b.iterations,
            "columns": b.columns,
            "exact_calls": b.exact_calls,
            "exact_nodes": b.exact_nodes,
            "pricing_exact": b.pricing_exact,
            "converged": b.converged,
            "lp_seconds": b.lp_seconds,
            "pricing_seconds": b.pricing_seconds,
            "lp_error": b.lp_error,
            "start": WEIGHTED_COLGEN_START,
            "start_sse_weighted": b.start_sse,
            "start_labels": extra_start.is_some(),
            "time_limit": limit,
        }),
        certificate: Err("the weighted certificate is returned beside the outcome".into()),
        incumbent: None,
        best_partition: None,
        interrupted: interrupt.load(Ordering::SeqCst),
    };
    Ok((outcome, certificate))
}

// Here rather than beside the type in `crate::weighted`, which sits below the registry.
impl crate::weighted::WeightedBound {
    /// The figures of a computed weighted bound against the weighted SSE `sse`.
    pub fn of(b: &BoundOutcome, sse: f64) -> Self {
        Self {
            method: b.method.clone(),
            lower_bound: b.lower_bound,
            il_lower_bound: b.il_lower_bound,
            gap_percent: super::figures::gap_percent(sse, b.lower_bound),
            seconds: b.seconds,
        }
    }
}
