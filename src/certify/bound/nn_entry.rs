//! # The `nn` and `nn-raised` entries of the bound registry
//!
//! The nearest-neighbour bound `sum_i NN_{k-1}(i) / (2k)` (proofs/P06): each record's k - 1
//! nearest from the neighbour lists (the static kd-tree from 4096 records, the same lists as
//! the scan, ties included), summed by the solvers crate with its own distance function
//! (proofs/P06, P10). `nn-raised` takes wider lists (`raised_width`) and raises each
//! record's dual by a share of the slack every group containing it has at the nn duals
//! ([`microagg_solvers::bounds::nn_raised`], proofs/P25). Neither takes parameters; both run
//! to completion; a long pass reports its progress on stderr, and Ctrl-C stops it without
//! a value (a bound from part of the lists is not computed).
//!
//! `nn`'s weighted version ([`weighted_nn`], `bound --weights W`, `run --bound nn --weights
//! W`) bounds the weighted SSE (sampling weights, weighted centroids, groups of at least k
//! records; `microagg_solvers::bounds::nn_weighted`, proofs/P41): below 4096 records every
//! pair is scanned; from there each record sees its 64 nearest from the kd-tree and every
//! other record as a pseudo-record at the last list distance with the smallest weight
//! (weaker, still valid). It writes no certificate.
//!
//! ## Complexity
//! O(n^2 d) by scan below 4096 records, about O(n log n d w) with the kd-tree above, for
//! lists of w records (k - 1 for nn, `raised_width` for nn-raised).
//!
//! ## References
//! See [`microagg_solvers::bounds::nn`] and [`microagg_solvers::bounds::nn_raised`].

use super::registry::{
    entry, weighted_outcome, About, BoundInfo, BoundRun, Computed, LowerBound, WeightedComputed,
    WeightedVersion,
};
use crate::data::Instance;
use crate::error::{Error, Result};
use crate::params::NoParams;
use serde::Serialize;
use serde_json::json;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// The nearest-neighbour bound.
pub struct Nn;

pub(crate) const ENTRY: BoundInfo = entry::<Nn>(About {
    name: "nn",
    summary: "nearest-neighbour bound sum_i NN_{k-1}(i) / (2k), k-nearest lists from the kd-tree (by scan below 4096 records)",
    certified: "always (proofs/P06-nn-bound.md)",
    certificate: false,
    incumbent: false,
    weighted: Some(WeightedVersion {
        proof: "proofs/P41",
        params: &[],
        certificate: false,
        compute: weighted_nn,
    }),
});

/// The raised nn bound.
pub(crate) struct NnRaised;

pub(crate) const RAISED: BoundInfo = entry::<NnRaised>(About {
    name: "nn-raised",
    summary: "the nn bound with each record's dual raised by a share of the slack every group containing it has at the nn duals, from lists of the 6k nearest records (proofs/P25): never below nn, seconds on 20000 records",
    certified: "always (proofs/P25-raised-nn-bound.md)",
    certificate: false,
    incumbent: false,
    weighted: None,
});

/// Neighbours per record that `nn-raised` examines, per unit of k: on generated data the
/// gain over nn with 5k neighbours is within a tenth of that with 10k.
pub(crate) const RAISED_WIDTH_PER_K: usize = 6;

/// The list width of `nn-raised` for `n` records and groups of `k`: [`RAISED_WIDTH_PER_K`]
/// times k, at most n - 1 and at least 2k - 2 (the sizes up to 2k - 1 need them).
pub(crate) fn raised_width(n: usize, k: usize) -> usize {
    (RAISED_WIDTH_PER_K * k).max(2 * k - 2).min(n - 1)
}

/// The details of an `nn-raised` bound.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NnRaisedDetails {
    /// The nn bound from the same lists.
    pub nn: f64,
    /// The sum of the raises, rounded down.
    pub raised_by: f64,
    /// Records whose dual was raised.
    pub raised_records: usize,
    /// Neighbours examined per record.
    pub width: usize,
}

impl LowerBound for NnRaised {
    type Params = NoParams;

    fn compute(_: &NoParams, run: &mut BoundRun) -> Result<Computed> {
        let (inst, k) = (run.inst, run.k);
        let width = raised_width(inst.n, k);
        let lists = neighbour_lists(run, width, "nn-raised")?;
        let b = microagg_solvers::bounds::nn_raised::raised_nn_bound(
            &inst.z,
            inst.n,
            inst.d,
            k,
            lists.as_flat(),
            width,
        )
        .map_err(|e| Error::algorithm("bound nn-raised", e))?;
        let details = NnRaisedDetails {
            nn: b.nn.lower_bound,
            raised_by: b.raised_by,
            raised_records: b.raised_records,
            width,
        };
        Ok(Computed {
            lower_bound: b.lower_bound,
            details: serde_json::to_value(details).expect("details serialise"),
            certificate: Err(
                "bound nn-raised writes no certificate; recomputing it takes about as long as nn"
                    .into(),
            ),
            incumbent: None,
        })
    }
}

/// Each record's `width` nearest others (the exact kd-tree, by scan on small data), with
/// progress on stderr; an error when interrupted.
fn neighbour_lists(
    run: &BoundRun,
    width: usize,
    name: &str,
) -> Result<crate::geometry::neighbours::Neighbours> {
    let (inst, interrupt) = (run.inst, run.interrupt);
    let mut report = NnProgress::new(inst.n);
    crate::geometry::neighbours::Neighbours::build_reporting(
        inst,
        width,
        || interrupt.load(Ordering::SeqCst),
        |done| report.tell(done),
    )
    .ok_or_else(|| {
        Error::Interrupted(format!(
            "bound {name}: stopped after the lists of {} of {} records",
            report.done, inst.n
        ))
    })
}

/// The details of an `nn` bound.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct NnDetails {
    /// The bound as computed, before outward rounding.
    pub computed: f64,
}

impl LowerBound for Nn {
    type Params = NoParams;

    fn compute(_: &NoParams, run: &mut BoundRun) -> Result<Computed> {
        let (inst, k) = (run.inst, run.k);
        let lists = neighbour_lists(run, k - 1, "nn")?;
        let b = microagg_solvers::bounds::nn::nn_bound_from_lists(
            &inst.z,
            inst.n,
            inst.d,
            k,
            lists.as_flat(),
        )
        .map_err(|e| Error::algorithm("bound nn", e))?;
        let details = NnDetails {
            computed: b.computed,
        };
        Ok(Computed {
            lower_bound: b.lower_bound,
            details: serde_json::to_value(details).expect("details serialise"),
            certificate: Err("bound nn writes no certificate".into()),
            incumbent: None,
        })
    }
}

/// Progress of the neighbour lists on stderr: silent for the first [`NnProgress::QUIET`]
/// seconds (short runs print nothing), then one line every [`NnProgress::EVERY`] seconds.
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

/// Below this many records the weighted nn bound scans every pair.
const WEIGHTED_SCAN_BELOW: usize = 4096;

/// From [`WEIGHTED_SCAN_BELOW`] records, the length of each record's neighbour list (at
/// least k - 1) for the weighted nn bound.
const WEIGHTED_LIST_LENGTH: usize = 64;

/// The weighted nearest-neighbour bound of `inst` (which must carry weights) for groups of
/// at least `k` records, as the nn entry's [`WeightedVersion`] (it reads no time
/// limit or start and writes no certificate). Once `interrupt` is set the kd-tree lists
/// stop and no bound is returned ([`Error::Interrupted`]).
pub(crate) fn weighted_nn(
    inst: &Instance,
    k: usize,
    _time_limit: Option<f64>,
    _extra_start: Option<&[usize]>,
    interrupt: &AtomicBool,
) -> WeightedComputed {
    let w = super::registry::weights_for(inst, k, "nn")?;
    let started = Instant::now();
    let algo = |e: microagg_solvers::SolverError| Error::algorithm("bound nn (weighted)", e);
    let (b, lists) = if inst.n < WEIGHTED_SCAN_BELOW {
        let b = microagg_solvers::bounds::nn_weighted::weighted_nn_bound(
            &inst.z, inst.n, inst.d, k, &w.values,
        )
        .map_err(algo)?;
        (b, json!("all other records (scan)"))
    } else {
        let m = WEIGHTED_LIST_LENGTH.max(k - 1);
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
    let none = "the weighted nn bound writes no certificate";
    let details = json!({
        "computed": b.computed,
        "estimate": b.estimate,
        "fallbacks": b.fallbacks,
        "dinkelbach_iterations": b.iterations,
        "candidates": lists,
    });
    let names = ("nn", "nn");
    let outcome = weighted_outcome(inst, w, names, b.lower_bound, started, details, none);
    Ok((outcome, Err(none.into())))
}
