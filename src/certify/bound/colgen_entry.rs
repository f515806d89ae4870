//! # The `colgen` and `colgen-cuts` entries of the bound registry
//!
//! The Lagrangian bound of the column generation master (HiGHS, proofs/P09), max with nn,
//! optionally with rounds of subset-row cuts after the master converged (proofs/P14), and a
//! certificate for `verify-bound` (proofs/P13). Both entries share [`ColgenParams`]; they
//! differ in the default of `cuts` ([`CutsDefault`]: 0 for `colgen`, `COLGEN_CUTS_ROUNDS`
//! for `colgen-cuts`).
//!
//! The master starts from the partition of the pipeline `COLGEN_START` (seed 0, at most a
//! tenth of the time limit) and from the `start` labels file's groups when one is given; it
//! runs until `time_limit` (the start pipeline included). The other parameters choose the
//! dual points where the exact per-anchor pricing certifies a bound when the master does not
//! converge in time, as at k = 10 (proofs/P20): each maps one-to-one onto a field of
//! [`ColgenOptions`] ([`ColgenParams::options`], documented there); their defaults are
//! `ColgenOptions::default()`'s.
//!
//! `colgen`'s weighted version ([`weighted_colgen`], `bound --method colgen --weights W`,
//! `run --bound colgen --weights W`) bounds the weighted SSE with the kernel's weighted
//! column generation (`microagg_solvers::bounds::colgen_weighted`, proofs/P43); its master
//! starts from the `WEIGHTED_COLGEN_START` partition (and a run's own), and it writes a
//! certificate for `verify-bound --weights W` ([`crate::certificate::weighted`]). The IL of a
//! weighted bound is on the weighted scale, `100 LB_w / SST_w` rounded down.
//!
//! ## Complexity
//! That of the kernel, bounded by the time limit; O(1) per parameter.
//!
//! ## References
//! See [`microagg_solvers::bounds::colgen`].

use super::extras::Certificate;
use super::registry::{
    entry, weighted_outcome, About, BoundInfo, BoundRun, Computed, LowerBound, WeightedComputed,
    WeightedVersion,
};
use super::{start, ticker};
use crate::certificate::weighted::WeightedCertificate;
use crate::data::Instance;
use crate::error::{Error, Result};
use crate::params::Params;
use microagg_solvers::bounds::colgen::aggregation::AggregationReport;
use microagg_solvers::bounds::colgen::master_upper::MasterUpper;
use microagg_solvers::bounds::{ColgenBound, ColgenOptions};
use serde::{Deserialize, Serialize};
use serde_json::json;
use std::marker::PhantomData;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// Cut rounds of the `colgen-cuts` bound when the caller sets none: more than the 5-7 rounds
/// the CASC cases used before no violated triple remained or the time ran out
/// (studies/study-colgen.txt section 6); the time limit ends it earlier.
pub(crate) const COLGEN_CUTS_ROUNDS: usize = 50;

/// Pipeline whose partition gives the colgen master its first columns.
pub(crate) const COLGEN_START: &str = "mdav+decompose-shrink";

/// Time limit of `colgen` in seconds when the caller gives none.
pub(crate) const COLGEN_DEFAULT_SECONDS: f64 = 60.0;

/// The default of the `cuts` parameter, the one difference between the two entries.
pub trait CutsDefault: std::fmt::Debug + Clone + PartialEq + Send + Sync + 'static {
    const CUTS: usize;
}

/// `colgen`: no cuts unless asked.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct NoCuts;
impl CutsDefault for NoCuts {
    const CUTS: usize = 0;
}

/// `colgen-cuts`: [`COLGEN_CUTS_ROUNDS`] rounds.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct WithCuts;
impl CutsDefault for WithCuts {
    const CUTS: usize = COLGEN_CUTS_ROUNDS;
}

/// The column generation bound, with `C::CUTS` cut rounds by default.
pub struct Colgen<C>(PhantomData<C>);

pub(crate) const COLGEN: BoundInfo = entry::<Colgen<NoCuts>>(About {
    name: "colgen",
    summary: "Lagrangian bound of the column generation master (HiGHS), max with nn",
    certified: "always, the pricing bound is proven (proofs/P09-lagrangian-bound.md); certificate for verify-bound (proofs/P13)",
    certificate: true,
    incumbent: false,
    weighted: Some(WeightedVersion {
        proof: "proofs/P43",
        params: &["time_limit", "start"],
        certificate: true,
        compute: weighted_colgen,
    }),
});

pub(crate) const COLGEN_CUTS: BoundInfo = entry::<Colgen<WithCuts>>(About {
    name: "colgen-cuts",
    summary: "colgen with rounds of subset-row cuts on record triples",
    certified: "always (proofs/P09, proofs/P14); certificate for verify-bound (proofs/P13)",
    certificate: true,
    incumbent: false,
    weighted: None,
});

/// True for the bounds computed by column generation (`colgen`, `colgen-cuts`).
#[cfg(test)]
pub(crate) fn is_colgen(name: &str) -> bool {
    name == COLGEN.name || name == COLGEN_CUTS.name
}

/// The parameters of `colgen` (`NoCuts`) and `colgen-cuts` (`WithCuts`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default, bound = "")]
pub struct ColgenParams<C: CutsDefault> {
    pub time_limit: f64,
    pub cuts: usize,
    pub start: Option<PathBuf>,
    pub nn_ascent: f64,
    pub subgradient: f64,
    pub lp_segment: bool,
    pub push_project: bool,
    pub anchor_threshold: f64,
    pub ipm: bool,
    pub final_fraction: f64,
    pub certified_smoothing: bool,
    pub smoothing: f64,
    pub auto_smoothing: bool,
    pub stop_early: bool,
    pub tighten_fraction: f64,
    pub slack_push: f64,
    pub pool_master: f64,
    pub pool_master_moving_centre: bool,
    pub lp_projection: bool,
    pub box_width: f64,
    pub master_upper: f64,
    pub max_iterations: usize,
    pub aggregate: bool,
    pub incumbent_box: bool,
    #[serde(skip)]
    pub cuts_default: PhantomData<C>,
}

impl<C: CutsDefault> Default for ColgenParams<C> {
    fn default() -> Self {
        let o = ColgenOptions::default();
        ColgenParams {
            time_limit: COLGEN_DEFAULT_SECONDS,
            cuts: C::CUTS,
            start: None,
            nn_ascent: o.nn_ascent,
            subgradient: o.subgradient,
            lp_segment: o.lp_segment,
            push_project: o.push_project,
            anchor_threshold: o.anchor_threshold,
            ipm: o.ipm,
            final_fraction: o.final_fraction,
            certified_smoothing: o.certified_smoothing,
            smoothing: o.smoothing,
            auto_smoothing: o.auto_smoothing,
            stop_early: o.stop_early,
            tighten_fraction: o.tighten_fraction,
            slack_push: o.slack_push,
            pool_master: o.pool_master,
            pool_master_moving_centre: o.pool_master_moving_centre,
            lp_projection: o.lp_projection,
            box_width: o.box_width,
            master_upper: o.master_upper_seconds,
            max_iterations: o.max_iterations,
            aggregate: o.aggregate,
            incumbent_box: o.incumbent_box,
            cuts_default: PhantomData,
        }
    }
}

impl<C: CutsDefault> ColgenParams<C> {
    /// The kernel's options for a run of `seconds` (what is left of `time_limit` after the
    /// start pipeline): one field per parameter, the rest `ColgenOptions::default()`.
    pub fn options(&self, seconds: f64, progress: bool) -> ColgenOptions {
        ColgenOptions {
            time_limit: seconds,
            progress,
            cut_rounds: self.cuts,
            nn_ascent: self.nn_ascent,
            subgradient: self.subgradient,
            lp_segment: self.lp_segment,
            push_project: self.push_project,
            anchor_threshold: self.anchor_threshold,
            ipm: self.ipm,
            final_fraction: self.final_fraction,
            certified_smoothing: self.certified_smoothing,
            smoothing: self.smoothing,
            auto_smoothing: self.auto_smoothing,
            stop_early: self.stop_early,
            tighten_fraction: self.tighten_fraction,
            slack_push: self.slack_push,
            pool_master: self.pool_master,
            pool_master_moving_centre: self.pool_master_moving_centre,
            lp_projection: self.lp_projection,
            box_width: self.box_width,
            master_upper_seconds: self.master_upper,
            max_iterations: self.max_iterations,
            aggregate: self.aggregate,
            incumbent_box: self.incumbent_box,
            ..ColgenOptions::default()
        }
    }
}

impl<C: CutsDefault> Params for ColgenParams<C> {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("time_limit", "wall-clock seconds, the start pipeline included (run --bound: the run's limit)"),
        ("cuts", "rounds of subset-row cuts on record triples after the master converged (0: none, the colgen bound; proofs/P14)"),
        ("start", "a labels file whose groups seed the master next to the mdav+decompose-shrink partition (null: none)"),
        ("nn_ascent", "fraction of the time for a line search from the nn duals along the best start partition's slacks (anchored bound, proofs/P20; 0: none)"),
        ("subgradient", "fraction of the time for a box-step ascent on the anchored bound after the line search (0: none)"),
        ("lp_segment", "at the end, a line search from the best bound's duals toward the master's last duals (anchored bound)"),
        ("push_project", "with lp_segment: push-and-project steps from the line search's best point, each certified (half of the final phase)"),
        ("anchor_threshold", "anchor threshold tau of those searches as a fraction of best SSE / floor(n/k) (0: exact per-anchor minima; proofs/P20)"),
        ("ipm", "re-solve the master by interior point (no crossover): central duals"),
        ("final_fraction", "fraction of the time kept for the final evaluations (lp_segment included)"),
        ("certified_smoothing", "after nn_ascent: certify every smoothed point alpha y_centre + (1 - alpha) y_LP by per-anchor pricing, add its negative groups, move the centre on improvement (proofs/P20)"),
        ("smoothing", "Wentges smoothing weight alpha of the stability centre, in [0, 1)"),
        ("auto_smoothing", "with certified_smoothing: adapt alpha by the subgradient rule of Pessoa et al. (2018)"),
        ("stop_early", "with certified_smoothing or push_project: stop a check once it provably cannot beat the best certified value (effort only; proofs/P20)"),
        ("tighten_fraction", "with lp_segment: fraction of the time limit, taken off push-and-project's end, that re-certifies the best point at smaller anchor thresholds (proofs/P20; 0: none)"),
        ("slack_push", "with lp_segment: fraction of the time limit, taken off push-and-project's end before the tightening's share, for push-and-project rounds from the best point along the best start partition's slacks, recomputed each round; with tighten_fraction below final_fraction (0: none)"),
        ("pool_master", "with lp_segment: fraction of the time limit, after the slack rounds and before the tightening's share, for an unboxed restricted master grown from the best point's negative groups whose midpoints with that point are certified; with slack_push and tighten_fraction below final_fraction (0: none)"),
        ("pool_master_moving_centre", "with pool_master: each midpoint is taken with the last midpoint that raised the bound (a certified point) instead of with the phase's start point"),
        ("lp_projection", "with push_project or slack_push: bring each candidate onto the pool's groups by the least total lowering (a covering LP, HiGHS) instead of cyclic projections; the checks certify whatever point results (proofs/P20)"),
        ("box_width", "dual box half-width around the stability centre, relative to its mean |y| (box step; 0: no box; with a box, smoothing is off)"),
        ("master_upper", "after the bound, seconds to solve the run's columns as a restricted master without box or cuts: its value lies above the LP relaxation (an estimate with HiGHS' tolerance, not a bound; proofs/P09 Part D; 0: not done)"),
        ("max_iterations", "most master solves: the master phase ends there even with time left, and the final evaluations run (an integer >= 1)"),
        ("aggregate", "before the column generation, column generation on an aggregated master whose rows are super-points (identical records, and records the start partitions keep together), split where negative columns cut them; its columns seed the full master, and the bound is still certified by exact pricing over all records (proofs/P24)"),
        ("incumbent_box", "the dual box of each record placed between the cost of removing it from its group in the start partition and of adding it to the nearest other group, instead of the uniform box (needs box_width > 0; with aggregate, also in the aggregated master)"),
    ];

    fn check(&self) -> std::result::Result<(), String> {
        crate::search::check_time_limit(self.time_limit).map_err(|e| format!("time_limit {e}"))?;
        if self.max_iterations == 0 {
            return Err("max_iterations must be at least 1".into());
        }
        for (key, v) in [
            ("box_width", self.box_width),
            ("master_upper", self.master_upper),
        ] {
            if !v.is_finite() || v < 0.0 {
                return Err(format!("{key} must be a finite number >= 0"));
            }
        }
        self.options(self.time_limit, false)
            .check()
            .map_err(|e| e.to_string())
    }
}

impl<C: CutsDefault> LowerBound for Colgen<C> {
    type Params = ColgenParams<C>;

    fn start_file(params: &Self::Params) -> Option<&PathBuf> {
        params.start.as_ref()
    }

    fn compute(params: &Self::Params, run: &mut BoundRun) -> Result<Computed> {
        let (inst, k) = (run.inst, run.k);
        let started = Instant::now();
        let limit = params.time_limit;
        if let Some((labels, source)) = run.start {
            // Checked before the start pipeline runs, so a bad file fails at once.
            microagg_solvers::bounds::colgen::start_groups(labels, inst.n, k).map_err(|m| {
                Error::usage(format!("bound colgen: start partition {source}: {m}"))
            })?;
        }
        let (first, remaining) =
            start::start_and_remaining(COLGEN_START, inst, k, limit, started, run.interrupt)?;
        let opts = params.options(remaining, run.show == crate::progress::Show::Always);
        let mut starts: Vec<&[usize]> = vec![first.partition.labels()];
        if let Some((labels, _)) = run.start {
            starts.push(labels);
        }
        let mut ticker = ticker::Ticker::new(run.show, Some(first.partition.sse()));
        let b = microagg_solvers::bounds::colgen::colgen_bound_stoppable(
            &inst.z,
            inst.n,
            inst.d,
            k,
            &starts,
            &opts,
            Some(run.interrupt),
            &mut ticker,
        )
        .map_err(|e| Error::algorithm("bound colgen", e))?;
        let mut certificate = Err("no Lagrangian bound was computed within the time limit".into());
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
        let details = ColgenDetails::of(&b, first.partition.sse(), run.start.is_some(), limit);
        Ok(Computed {
            lower_bound: b.lower_bound,
            details: serde_json::to_value(details).expect("details serialise"),
            certificate,
            incumbent: None,
        })
    }
}

/// The details of a colgen bound (`bound --json`'s `details`, suites' records): how the
/// kernel got there. NaN values (never computed) serialise as null.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct ColgenDetails {
    pub iterations: usize,
    pub columns: usize,
    pub dropped_columns: usize,
    pub box_widenings: usize,
    /// `floor(n/k) min(0, RC_lb)`: what the pricing bound costs.
    pub last_pricing_gap: f64,
    pub lp_value: f64,
    pub lagrangian: f64,
    pub nn: f64,
    pub pricing_exact: bool,
    pub converged: bool,
    /// The LP value before cuts, and the last LP value pricing proved.
    pub root_lp: f64,
    pub converged_lp: f64,
    pub master_upper: Option<MasterUpperDetails>,
    pub cut_rounds: usize,
    pub cuts: usize,
    pub cuts_in_bound: usize,
    pub exact_calls: usize,
    pub exact_nodes: u64,
    pub simplex_iterations: i64,
    pub lp_seconds: f64,
    pub heuristic_seconds: f64,
    pub exact_seconds: f64,
    pub lp_error: Option<String>,
    /// The aggregation phase (parameter `aggregate`; null when it did not run).
    pub aggregation: Option<AggregationDetails>,
    /// The start pipeline and its partition's SSE; whether a start labels file was given.
    pub start: &'static str,
    pub start_sse: f64,
    pub start_labels: bool,
    pub time_limit: f64,
}

/// The `master_upper` estimate (parameter `master_upper`), as the kernel computed it.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct MasterUpperDetails {
    pub value: f64,
    pub recomputed: f64,
    pub residual: f64,
    pub support: usize,
    pub seconds: f64,
}

impl From<&MasterUpper> for MasterUpperDetails {
    fn from(u: &MasterUpper) -> Self {
        MasterUpperDetails {
            value: u.value,
            recomputed: u.recomputed,
            residual: u.residual,
            support: u.support,
            seconds: u.seconds,
        }
    }
}

/// The aggregation phase's figures (parameter `aggregate`), as the kernel reported them.
#[derive(Debug, Clone, Serialize)]
pub(crate) struct AggregationDetails {
    pub super_points_start: usize,
    pub super_points: usize,
    pub splits: usize,
    pub iterations: usize,
    pub lp_seconds: f64,
    pub lp_value: f64,
    pub converged: bool,
    pub columns: usize,
    pub seconds: f64,
    pub error: Option<String>,
}

impl From<&AggregationReport> for AggregationDetails {
    fn from(a: &AggregationReport) -> Self {
        AggregationDetails {
            super_points_start: a.super_points_start,
            super_points: a.super_points,
            splits: a.splits,
            iterations: a.iterations,
            lp_seconds: a.lp_seconds,
            lp_value: a.lp_value,
            converged: a.converged,
            columns: a.columns,
            seconds: a.seconds,
            error: a.error.clone(),
        }
    }
}

impl ColgenDetails {
    /// The details of kernel result `b`, started from a partition of SSE `start_sse`.
    pub fn of(b: &ColgenBound, start_sse: f64, start_labels: bool, time_limit: f64) -> Self {
        ColgenDetails {
            iterations: b.iterations,
            columns: b.columns,
            dropped_columns: b.dropped_columns,
            box_widenings: b.box_widenings,
            last_pricing_gap: b.last_pricing_gap,
            lp_value: b.lp_value,
            lagrangian: b.lagrangian,
            nn: b.nn,
            pricing_exact: b.pricing_exact,
            converged: b.converged,
            root_lp: b.root_lp,
            converged_lp: b.converged_lp,
            master_upper: b.master_upper.as_ref().map(MasterUpperDetails::from),
            cut_rounds: b.cut_rounds,
            cuts: b.cuts,
            cuts_in_bound: b.cut_triples.len(),
            exact_calls: b.exact_calls,
            exact_nodes: b.exact_nodes,
            simplex_iterations: b.simplex_iterations,
            lp_seconds: b.lp_seconds,
            heuristic_seconds: b.heuristic_seconds,
            exact_seconds: b.exact_seconds,
            lp_error: b.lp_error.clone(),
            aggregation: b.aggregation.as_ref().map(AggregationDetails::from),
            start: COLGEN_START,
            start_sse,
            start_labels,
            time_limit,
        }
    }
}

/// Pipeline whose partition seeds the weighted colgen master: with weights its descent
/// minimises the weighted SSE (the unweighted [`super::COLGEN_START`] does not).
pub(crate) const WEIGHTED_COLGEN_START: &str = "mdav+descent";

/// The weighted column generation bound (proofs/P43) within `time_limit` seconds (default
/// [`COLGEN_DEFAULT_SECONDS`], the start pipeline included), with its certificate.
pub(crate) fn weighted_colgen(
    inst: &Instance,
    k: usize,
    time_limit: Option<f64>,
    extra_start: Option<&[usize]>,
    interrupt: &AtomicBool,
) -> WeightedComputed {
    let w = super::registry::weights_for(inst, k, "colgen")?;
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
        &inst.z,
        inst.n,
        inst.d,
        k,
        &w.values,
        &starts,
        &opts,
        &mut microagg_solvers::bounds::colgen::Quiet,
    )
    .map_err(|e| Error::algorithm("bound colgen (weighted)", e))?;
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
    let details = json!({
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
    });
    let producer = if b.lower_bound <= b.nn {
        "nn"
    } else {
        "colgen"
    };
    let beside = "the weighted certificate is returned beside the outcome";
    let mut outcome = weighted_outcome(
        inst,
        w,
        ("colgen", producer),
        b.lower_bound,
        started,
        details,
        beside,
    );
    outcome.interrupted = interrupt.load(Ordering::SeqCst);
    Ok((outcome, certificate))
}
