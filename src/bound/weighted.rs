//! # Lower bounds on the weighted SSE
//!
//! `bound --weights W` and `run --bound nn --weights W`: the weighted nearest-neighbour
//! bound of `microagg_solvers::bounds::nn_weighted` on the weighted SSE (sampling weights,
//! weighted centroids, groups of at least k *records*; proofs/P41-weighted-nn-bound.md).
//! Below [`SCAN_BELOW`] records every pair is scanned (each record's relaxation solved over
//! all other records); from there each record sees its [`LIST_LENGTH`] nearest from the
//! kd-tree and every other record as a pseudo-record at the last list distance with the
//! smallest weight (weaker, still valid). The other bounds (colgen, colgen-cuts, bnp) have
//! no weighted version: with `--weights` they are refused.
//!
//! The IL of the bound is on the weighted scale: `100 LB_w / SST_w`, rounded down.
//!
//! ## Complexity
//! O(n^2 d) below [`SCAN_BELOW`] records (EIA, n = 4092, d = 11: see docs/weights.md),
//! O(n m d) plus the kd-tree lists from there.
//!
//! ## References
//! Dinkelbach, W. (1967). On nonlinear fractional programming. Management Science 13(7).

use super::BoundOutcome;
use crate::data::Instance;
use crate::error::{Error, Result};
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Below this many records the weighted nn bound scans every pair.
pub const SCAN_BELOW: usize = 4096;

/// From [`SCAN_BELOW`] records, the length of each record's neighbour list (at least k - 1).
pub const LIST_LENGTH: usize = 64;

/// The bounds that have a weighted version.
pub const WEIGHTED_BOUNDS: &[&str] = &["nn"];

/// Refuse a bound without a weighted version before anything runs (names are checked
/// against the registry by the caller).
pub fn check_weighted_name(name: &str) -> Result<()> {
    if WEIGHTED_BOUNDS.contains(&name) {
        return Ok(());
    }
    Err(Error::usage(format!(
        "bound {name} with --weights: only nn has a weighted version (the weighted \
         nearest-neighbour bound, proofs/P41); colgen, colgen-cuts and bnp price unweighted \
         groups (docs/weights.md). Use --bound nn, or leave out --weights"
    )))
}

/// The weighted nearest-neighbour bound of `inst` (which must carry weights) for groups of
/// at least `k` records. Once `interrupt` is set the kd-tree lists stop and no bound is
/// returned ([`Error::Interrupted`]).
pub fn weighted_nn(inst: &Instance, k: usize, interrupt: &AtomicBool) -> Result<BoundOutcome> {
    inst.check_k(k)?;
    let w = inst.weights.as_ref().ok_or_else(|| {
        Error::usage("the weighted nn bound needs sampling weights (--weights COLUMN)")
    })?;
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
        let lists = crate::search::neighbours::Neighbours::build_reporting(
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
    Ok(BoundOutcome {
        method: "nn".into(),
        lower_bound: b.lower_bound,
        il_lower_bound: (100.0 * b.lower_bound / sst).next_down().max(0.0),
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
        certificate: Err("the weighted nn bound writes no certificate".to_string()),
        incumbent: None,
    })
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
