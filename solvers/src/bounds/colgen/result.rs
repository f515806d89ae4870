//! # Result, errors and progress reports of the column generation bound
//!
//! [`ColgenBound`] (the certified bound and how it was obtained), [`ColgenError`] (why it
//! could not be computed) and [`ColgenProgress`] (what an observer receives while it runs).
//!
//! ## Complexity
//! O(1) per report; a result holds the certificate's duals (O(n + cuts)).
//!
//! ## References
//! proofs/P09 (the Lagrangian bound), proofs/P13 (certificates), proofs/P14 (cuts), proofs/P20
//! (anchor threshold).

use super::{aggregation, master_upper};
use crate::SolverError;
use std::time::Instant;

/// Why the bound could not be computed.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum ColgenError {
    /// Bad data.
    #[error(transparent)]
    Input(#[from] SolverError),
    /// Labels of the wrong length, or a group below k records.
    #[error("initial partition: {0}")]
    BadLabels(String),
    /// Bad option value.
    #[error("colgen parameters: {0}")]
    Params(String),
    /// More records than the distance matrix allows.
    #[error("colgen keeps the n x n distance matrix: at most {max} records, got {n}")]
    TooLarge { n: usize, max: usize },
    /// HiGHS failed.
    #[error("HiGHS: {0}")]
    Lp(String),
}

/// The column generation bound and how it was obtained.
#[derive(Debug, Clone, PartialEq)]
pub struct ColgenBound {
    /// Certified lower bound on the optimal SSE: max of the rounded Lagrangian bounds and the
    /// nn bound.
    pub lower_bound: f64,
    /// Best rounded Lagrangian bound alone.
    pub lagrangian: f64,
    /// The duals that prove `lagrangian` (empty when no Lagrangian bound was computed): what
    /// a bound certificate records (`proofs/P13-bound-certificates.md`).
    pub duals: Vec<f64>,
    /// The subset-row cuts of the duals that prove `lagrangian` (triples of records) and their
    /// duals `sigma <= 0` (empty without cuts; proofs/P14).
    pub cut_triples: Vec<[u32; 3]>,
    pub cut_duals: Vec<f64>,
    /// Anchor threshold `tau <= 0` of the anchored bound that proves `lagrangian` (proofs/P20;
    /// 0: exact per-anchor minima or the plain bound); a certificate records it.
    pub anchor_threshold: f64,
    /// Master LP value when column generation first converged, before any cut (NaN if it
    /// never converged).
    pub root_lp: f64,
    /// Master LP value when column generation last converged (with the cuts of the rounds
    /// before; NaN if it never converged).
    pub converged_lp: f64,
    /// Cut rounds done and cuts added.
    pub cut_rounds: usize,
    pub cuts: usize,
    /// The nn bound (rounded).
    pub nn: f64,
    /// Last restricted master LP value, its dual box's artificial columns included (not a
    /// bound: it may lie below the LP, even below the certified bound, while the box
    /// binds; the master LP optimum when `converged`).
    pub lp_value: f64,
    /// Master solves.
    pub iterations: usize,
    /// Columns in the master at the end.
    pub columns: usize,
    /// Columns dropped by column management (`drop_after`).
    pub dropped_columns: usize,
    /// Times the dual box was widened (`box_width`).
    pub box_widenings: usize,
    /// `floor(n/k) * min(0, RC_lb)` of the best Lagrangian bound (<= 0): how much the proven
    /// pricing bound costs.
    pub last_pricing_gap: f64,
    /// Whether the exact pricing of the best Lagrangian bound ran to completion.
    pub pricing_exact: bool,
    /// Whether column generation converged (exact pricing found no negative column at the
    /// LP duals) and, with `cut_rounds > 0`, no further cut round was due (no violated cut
    /// or the rounds used up). A run stopped by the time limit during a cut round reports
    /// false; `converged_lp` then holds the last LP value that pricing proved.
    pub converged: bool,
    /// Exact pricing calls and their total nodes.
    pub exact_calls: usize,
    pub exact_nodes: u64,
    /// Simplex iterations over all master solves.
    pub simplex_iterations: i64,
    /// Wall-clock seconds: total, in master solves, heuristic pricing, exact pricing.
    pub seconds: f64,
    pub lp_seconds: f64,
    pub heuristic_seconds: f64,
    pub exact_seconds: f64,
    /// The run's columns as an unboxed, cut-free restricted master
    /// (`master_upper_seconds`; None when not asked or not solved in time).
    pub master_upper: Option<master_upper::MasterUpper>,
    /// Why a master solve gave no solution (HiGHS without an optimum after its retries, or
    /// a failed check): the column generation stopped there and the bound is the best one
    /// certified before (at least the nn bound); `None` when every solve succeeded.
    pub lp_error: Option<String>,
    /// What the aggregation phase did (`aggregate`; None when it did not run).
    pub aggregation: Option<aggregation::AggregationReport>,
}

impl ColgenBound {
    /// A run's result before its first Lagrangian bound: the nn bound `nn` alone.
    pub(super) fn empty(nn: f64) -> Self {
        ColgenBound {
            lower_bound: nn,
            lagrangian: f64::NEG_INFINITY,
            duals: Vec::new(),
            cut_triples: Vec::new(),
            cut_duals: Vec::new(),
            anchor_threshold: 0.0,
            root_lp: f64::NAN,
            converged_lp: f64::NAN,
            cut_rounds: 0,
            cuts: 0,
            nn,
            lp_value: f64::NAN,
            iterations: 0,
            columns: 0,
            dropped_columns: 0,
            box_widenings: 0,
            last_pricing_gap: f64::NEG_INFINITY,
            pricing_exact: false,
            converged: false,
            exact_calls: 0,
            exact_nodes: 0,
            simplex_iterations: 0,
            seconds: 0.0,
            lp_seconds: 0.0,
            heuristic_seconds: 0.0,
            exact_seconds: 0.0,
            master_upper: None,
            lp_error: None,
            aggregation: None,
        }
    }
}

/// A report while the bound runs (module doc, "Stopping"): sent after every master
/// iteration and every phase.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ColgenProgress {
    /// Seconds since the kernel started.
    pub seconds: f64,
    /// The best certified bound so far: the larger of the best Lagrangian bound and nn.
    pub lower_bound: f64,
    /// The best Lagrangian bound so far (None before the first one).
    pub lagrangian: Option<f64>,
    /// Master solves so far and the last master value (NaN before the first).
    pub iterations: usize,
    pub lp_value: f64,
}

impl ColgenProgress {
    pub(super) fn of(out: &ColgenBound, start: Instant) -> Self {
        ColgenProgress {
            seconds: start.elapsed().as_secs_f64(),
            lower_bound: out.lagrangian.max(out.nn),
            lagrangian: out.lagrangian.is_finite().then_some(out.lagrangian),
            iterations: out.iterations,
            lp_value: out.lp_value,
        }
    }
}
