//! # The column generation lower bound
//!
//! Set-partitioning master over groups of `k..2k-1` records (P03: some optimal partition
//! uses only such groups), `min sum_S SSE(S) x_S` s.t. every record is covered exactly once,
//! `x >= 0`, solved by column generation (Aloise, Hansen, Rocha and Santi 2014):
//!
//! 1. The master ([`master`]) starts from the groups of one or more feasible partitions
//!    (labels given by the caller, every group of at least `k` records; [`colgen_bound_from`]
//!    takes several, e.g. the best known partition next to a quick heuristic's), so it is
//!    feasible from the start; it is kept in HiGHS (warm basis) and grows by `Highs_addCols`.
//! 2. Each iteration reads the row duals `y_LP` and prices at the smoothed point
//!    `y_sep = alpha y_centre + (1 - alpha) y_LP` (Wentges smoothing). The stability centre
//!    `y_centre` is the dual vector of the best Lagrangian bound found so far (before the
//!    first bound: the previous separation point). Heuristic pricing ([`pricing::heuristic`])
//!    from every record adds the groups whose reduced cost w.r.t. `y_LP` is negative (at
//!    most `max_columns_per_iteration`, most negative first). On a mispricing (no such group)
//!    it prices at `y_LP` itself and halves `alpha` (Wentges' rule, so the separation point
//!    cannot stall away from the LP duals).
//! 3. The **Lagrangian bound** `LB(y) = sum_i y_i + floor(n/k) min(0, RC_lb(y))` is valid for
//!    every `y` as soon as `RC_lb(y)` is a proven lower bound on the minimum reduced cost
//!    (proofs/P09). `RC_lb` is the larger of the weak nearest-neighbour pricing bound and the
//!    branch-and-bound pricing bound ([`pricing::exact_rc_bound`], with the medoid star bound
//!    of P09 B3), which is proven even when its budget cuts it short (`pricing_exact` says
//!    whether it was not cut). It is evaluated every `exact_every` iterations at `y_sep`
//!    (default: never), whenever heuristic pricing finds nothing (then it stops after
//!    `exact_stop_after` negative columns: their bound is valid but weaker), and once at the
//!    end with the remaining time. If exact pricing proves no negative column at `y_LP`, the
//!    master LP value is reached (converged).
//! 4. **Subset-row cuts** (optional, `cut_rounds > 0`; [`cuts`], proofs/P14): once pricing
//!    proves the master converged, the triples `C` whose cut
//!    `sum_S floor(|S ∩ C| / 2) x_S <= 1` the master solution violates are added as rows
//!    ([`cuts::separate`], at most `cuts_per_round`) and column generation resumes; pricing
//!    charges each group the penalty `-sigma_C` of the cuts it holds two records of. The
//!    Lagrangian bound becomes `sum y + sum sigma + floor(n/k) min(0, RC_lb(y, sigma))` with
//!    `sigma <= 0` (P14), so every bound evaluated before, during or after the cut rounds is
//!    valid and the best is kept. Rounds stop when none is violated, after `cut_rounds`, or
//!    at the time limit.
//! 5. **k = 10 helpers** (optional): `anchor_bound` evaluates the medoid-anchored bound
//!    ([`anchors`], proofs/P20: per-anchor exact pricing, the `floor(n/k)` most negative anchor
//!    minima instead of `floor(n/k)` times the global one); `nn_ascent` first runs a line
//!    search from the nn duals along the best start partition's slacks ([`ascent`]), whose
//!    best point starts the stability centre; `subgradient` then runs a box-step ascent on
//!    the anchored bound ([`subgrad`]); `lp_segment` ends with a line search from the best
//!    point toward the master's last duals (clipped to `[0, 4 max]`). These searches price
//!    with the anchor threshold `tau = -anchor_threshold UB / floor(n/k)` (P20), recorded in
//!    [`ColgenBound::anchor_threshold`] for the certificate.
//!    `certified_smoothing` replaces the heuristic loop after the line search by Wentges
//!    smoothing with every smoothed point certified ([`smoothing`]). The per-anchor searches
//!    skip the sizes above `k` when nothing is below `tau` at size `k`
//!    ([`pricing::completion`], P20 "Size completion").
//! 6. The bound is rounded outward with a rigorous margin (P09 section "Floating point",
//!    P10). [`ColgenBound::lower_bound`] is the best of the rounded Lagrangian bounds and the
//!    `nn` bound (both certified).
//!
//! The time limit holds: the master gets the remaining time as its HiGHS time limit (a
//! master stopped on it ends the loop with the bound found so far), heuristic and exact
//! pricing check the deadline.
//!
//! **Stopping.** Every phase's end is derived from one [`Deadline`] for the whole bound
//! (`time_limit` from the start; a phase's share never reaches past it), which also carries
//! the caller's stop flag ([`colgen_bound_stoppable`]): the master loop, the phases and the
//! heuristic pricing poll it, and an exact pricing search polls it at every node and anchor.
//! Once the flag is set or the bound's end has passed, a search gives up even its sweep of
//! root bounds over the anchors left and returns `-inf` (the weak bound stands), so the
//! bound returns within one master solve or one anchor of the search, with the best
//! certified bound it holds. An observer receives a [`ColgenProgress`] after every master
//! iteration and phase (the workbench prints it; the kernel does not).
//!
//! This file is over the project's ~500 lines: the loop above shares its state (master,
//! centre, box, column management, cut rounds, the k = 10 searches) through one function;
//! splitting it needs that state in a struct first (not done yet; the k = 10 searches
//! themselves live in [`ascent`], [`anchors`] and [`subgrad`]).
//!
//! ## Complexity
//! O(n^2) memory for the distance matrix (refused beyond [`pricing::MAX_RECORDS`]); per
//! iteration one simplex re-solve and O(n L k^2) heuristic pricing; exact pricing as in
//! [`pricing`]. The loop stops at `time_limit` seconds (the final exact pricing takes the
//! reserved fraction `final_fraction`). Measured figures: studies/study-colgen.txt.
//!
//! ## References
//! - Aloise, D., Hansen, P., Rocha, C. and Santi, E. (2014). Column generation bounds for
//!   numerical microaggregation. Journal of Global Optimization 60, 165-182.
//! - Wentges, P. (1997). Weighted Dantzig-Wolfe decomposition for linear mixed-integer
//!   programming. International Transactions in Operational Research 4(2), 151-162.
//! - Neame, P. J. (1999). Nonsmooth dual methods in integer programming. PhD thesis,
//!   University of Melbourne.
//! - Pessoa, A., Sadykov, R., Uchoa, E. and Vanderbeck, F. (2018). Automation and combination
//!   of linear-programming based stabilization techniques in column generation. INFORMS
//!   Journal on Computing 30(2), 339-360 (smoothing around the best-bound centre,
//!   mispricing).
//! - Jepsen, M., Petersen, B., Spoorendonk, S. and Pisinger, D. (2008). Subset-row
//!   inequalities applied to the vehicle-routing problem with time windows. Operations
//!   Research 56(2), 497-511.

pub mod anchors;
pub mod ascent;
pub mod count_row;
pub mod cuts;
pub mod master;
pub mod master_upper;
pub mod pairs;
pub mod pool_master;
pub mod pricing;
pub mod record_share;
pub mod signed_anchors;
pub mod smoothing;
pub mod subgrad;
pub mod verify;

use super::nn_bound;
use super::UNIT_ROUNDOFF;
use crate::deadline::Deadline;
use crate::SolverError;
use cuts::CutDuals;
use master::{Master, MasterSolution};
use pricing::{
    exact_rc_bound_anchor_complete, exact_rc_bound_cuts, heuristic_cuts, weak_rc_bound,
    ExactBudget, Geometry,
};
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// Parameters of the column generation bound (see [`ColgenOptions::DOC`]).
#[derive(Debug, Clone, PartialEq)]
pub struct ColgenOptions {
    /// Wall-clock limit in seconds for the whole computation.
    pub time_limit: f64,
    /// Most iterations (master solves).
    pub max_iterations: usize,
    /// Smoothing weight alpha in [0, 1) of the previous separation point.
    pub smoothing: f64,
    /// Most columns added per iteration (0: n).
    pub max_columns_per_iteration: usize,
    /// Neighbours of each seed record considered by the heuristic pricing.
    pub pool: usize,
    /// Exact pricing every this many iterations (0: only when heuristic pricing fails and at
    /// the end).
    pub exact_every: usize,
    /// Branch-and-bound nodes per exact pricing call.
    pub exact_nodes: u64,
    /// On heuristic failure, exact pricing stops after finding this many negative columns
    /// (its bound is then valid but weaker; the final and periodic calls never stop early).
    pub exact_stop_after: usize,
    /// Fraction of the time limit kept for the final exact pricing.
    pub final_fraction: f64,
    /// Reduced costs above `-tol` count as nonnegative for column generation.
    pub tol: f64,
    /// Box stabilisation (du Merle et al. 1999, boxstep form): half-width of the dual box
    /// around the stability centre, relative to the mean |centre| (0: no box, Wentges
    /// smoothing only). The box doubles whenever pricing proves no negative column while
    /// the box is binding.
    pub box_width: f64,
    /// Re-solve the master with the interior point method (no crossover) instead of primal
    /// simplex from the kept basis: central duals, faster on large degenerate masters.
    pub ipm: bool,
    /// Drop a generated column once its reduced cost was positive at this many consecutive
    /// master solves (0: never); the start partitions' columns are kept.
    pub drop_after: usize,
    /// Rounds of subset-row cut separation after the master converged (0: no cuts).
    pub cut_rounds: usize,
    /// Most cuts added per round.
    pub cuts_per_round: usize,
    /// Least violation `lhs - 1` of a cut to be added.
    pub cut_violation: f64,
    /// One progress line per iteration on stderr.
    pub progress: bool,
    /// Evaluate the medoid-anchored Lagrangian bound ([`anchors`], proofs/P20): exact pricing
    /// with the incumbent reset at every anchor (slower per call), bound from the
    /// `floor(n/k)` most negative per-anchor minima; without cuts the search runs at the
    /// anchor threshold `tau` of `anchor_threshold` (then it never ends the column
    /// generation: a finished search proves only `rc >= tau`). With `box_width` and
    /// `nn_ascent`, the box starts around the line search's best point (box step).
    pub anchor_bound: bool,
    /// Fraction of the time limit for a line search from the nn duals along the slack
    /// direction of the best start partition ([`ascent`], before the column generation; 0:
    /// none). Its best point becomes the first stability centre.
    pub nn_ascent: f64,
    /// Fraction of the time limit for a subgradient ascent on the anchored bound after the
    /// line search ([`subgrad`]; 0: none), certified by exact per-anchor pricing.
    pub subgradient: f64,
    /// Anchor threshold of the ascent's exact pricing, as a fraction of `UB / floor(n/k)`
    /// ([`subgrad::SubgradOptions::threshold`]).
    pub anchor_threshold: f64,
    /// At the end, a line search from the best bound's duals toward the master's last duals
    /// (anchored bound with `anchor_threshold`), before the final evaluation.
    pub lp_segment: bool,
    /// After that line search, push-and-project steps from its best point along the same
    /// direction ([`subgrad::push_project`]: candidates projected onto the master's columns
    /// and the negative groups met, each certified); takes half of the time left for the
    /// final phase from the line search.
    pub push_project: bool,
    /// Certified Wentges smoothing ([`smoothing`]) instead of the heuristic loop when a
    /// certified centre exists (after `nn_ascent`): every smoothed point `alpha y_centre +
    /// (1 - alpha) y_LP` is certified by per-anchor exact pricing at the anchor threshold,
    /// its negative groups enter the master, a better value moves the centre.
    pub certified_smoothing: bool,
    /// With `certified_smoothing`: adapt `alpha` by the subgradient rule of Pessoa et al.
    /// (2018) instead of keeping `smoothing`.
    pub auto_smoothing: bool,
    /// With `certified_smoothing` or `push_project`: stop a check's search once its value
    /// provably cannot beat the best certified value ([`pricing::StopBelow`]; effort only,
    /// every value stays valid).
    pub stop_early: bool,
    /// End the main loop once the master's value has not moved (relative 1e-7) for this
    /// many iterations, giving its remaining time to the final phase (0: never).
    pub stall_iterations: usize,
    /// With `lp_segment`: this fraction of the time limit (taken off push-and-project's end)
    /// re-certifies the best point at smaller anchor thresholds (0: none).
    pub tighten_fraction: f64,
    /// With `lp_segment`: this fraction of the time limit (taken off push-and-project's end,
    /// before the tightening's share) restarts push-and-project from the best point along the
    /// slack direction of the best start partition, recomputed after each round
    /// ([`subgrad::slack_push`]; 0: none). The line search then takes at most half of the
    /// time before this share. With `tighten_fraction`, below `final_fraction`.
    pub slack_push: f64,
    /// With `lp_segment`: this fraction of the time limit (taken off the final phase's end,
    /// after the slack rounds and before the tightening's share) grows an unboxed restricted
    /// master from the best point's negative groups and certifies midpoints between that
    /// point and the master's duals ([`pool_master::pool_master_push`]; 0: none). With
    /// `slack_push` and `tighten_fraction`, below `final_fraction`.
    pub pool_master: f64,
    /// The pool master's midpoints are taken with the last point that raised the bound
    /// instead of with its start ([`pool_master::PoolMasterSettings::moving_centre`]).
    pub pool_master_moving_centre: bool,
    /// Push-and-project and the slack rounds bring each candidate onto the pool's groups by
    /// the least total lowering (a covering LP, [`subgrad::GroupPool::project_lp`]) instead of
    /// cyclic projections: the candidates keep more of `sum y` (study-colgen.txt 18-lp).
    pub lp_projection: bool,
    /// After the bound, solve the run's columns as a restricted master without box and
    /// cuts within this many further seconds ([`master_upper`]: a value above the LP
    /// relaxation's optimum, an estimate; 0: not done).
    pub master_upper_seconds: f64,
}

impl Default for ColgenOptions {
    fn default() -> Self {
        ColgenOptions {
            time_limit: 60.0,
            max_iterations: 10_000,
            smoothing: 0.5,
            max_columns_per_iteration: 0,
            pool: 0,
            exact_every: 0,
            exact_nodes: 2_000_000,
            exact_stop_after: 200,
            final_fraction: 0.25,
            tol: 1e-7,
            box_width: 0.0,
            ipm: false,
            drop_after: 20,
            cut_rounds: 0,
            cuts_per_round: 800,
            cut_violation: 1e-3,
            progress: false,
            anchor_bound: false,
            nn_ascent: 0.0,
            subgradient: 0.0,
            anchor_threshold: 0.005,
            lp_segment: false,
            push_project: false,
            certified_smoothing: false,
            auto_smoothing: false,
            stop_early: false,
            stall_iterations: 0,
            tighten_fraction: 0.0,
            slack_push: 0.0,
            pool_master: 0.0,
            pool_master_moving_centre: false,
            lp_projection: false,
            master_upper_seconds: 0.0,
        }
    }
}

impl ColgenOptions {
    /// One line per parameter: name, default, meaning.
    pub const DOC: &'static [(&'static str, &'static str, &'static str)] = &[
        ("time_limit", "60", "wall-clock seconds for the whole bound"),
        ("max_iterations", "10000", "most master solves"),
        ("smoothing", "0.5", "dual smoothing weight alpha of the previous separation point, in [0, 1)"),
        ("max_columns_per_iteration", "0", "most columns added per iteration (0: n)"),
        ("pool", "0", "nearest neighbours per seed in heuristic pricing (0: max(3k, 12))"),
        ("exact_every", "0", "exact (branch-and-bound) pricing every this many iterations (0: only on heuristic failure and at the end)"),
        ("exact_nodes", "2000000", "branch-and-bound node budget per exact pricing call"),
        ("exact_stop_after", "200", "on heuristic failure, exact pricing stops after this many negative columns"),
        ("final_fraction", "0.25", "fraction of the time limit reserved for the final exact pricing"),
        ("tol", "1e-7", "reduced costs above -tol count as nonnegative"),
        ("box_width", "0", "dual box half-width around the stability centre, relative to mean |centre| (0: no box; with a box, smoothing is off)"),
        ("ipm", "false", "re-solve the master by interior point (no crossover) instead of warm primal simplex"),
        ("drop_after", "20", "drop a generated column after this many consecutive solves with positive reduced cost (0: never)"),
        ("cut_rounds", "0", "rounds of subset-row cuts on record triples after the master converged (0: none; proofs/P14)"),
        ("cuts_per_round", "800", "most subset-row cuts added per round (most violated first, a record in at most 3)"),
        ("cut_violation", "0.001", "least violation (left side - 1) of a subset-row cut to be added"),
        ("progress", "false", "one progress line per iteration on stderr"),
        ("nn_ascent", "0", "fraction of the time limit for a line search from the nn duals along the best start partition's slacks, anchored bound (0: none; study-colgen.txt section 8)"),
        ("subgradient", "0", "fraction of the time limit for a subgradient ascent on the anchored bound after the line search, certified by exact per-anchor pricing (0: none; proofs/P20)"),
        ("anchor_threshold", "0.005", "anchor threshold tau of the ascent's exact pricing, as a fraction of best SSE / floor(n/k) (0: exact per-anchor minima; proofs/P20)"),
        ("lp_segment", "false", "at the end, a line search from the best bound's duals toward the master's last duals (anchored bound)"),
        ("push_project", "false", "with lp_segment: push-and-project steps from the line search's best point, each certified by per-anchor pricing (half of the final phase)"),
        ("certified_smoothing", "false", "after nn_ascent: certify every smoothed point alpha y_centre + (1 - alpha) y_LP by per-anchor pricing, add its negative groups, move the centre on improvement (proofs/P20)"),
        ("auto_smoothing", "false", "with certified_smoothing: adapt alpha by the subgradient rule of Pessoa et al. (2018)"),
        ("tighten_fraction", "0", "with lp_segment: fraction of the time limit for re-certifying the best point at smaller anchor thresholds"),
        ("slack_push", "0", "with lp_segment: fraction of the time limit for push-and-project rounds from the best point along the best start partition's slacks, recomputed each round; with tighten_fraction below final_fraction (0: none)"),
        ("pool_master", "0", "with lp_segment: fraction of the time limit, after the slack rounds, for an unboxed restricted master grown from the best point's negative groups, whose midpoints with that point are certified; with slack_push and tighten_fraction below final_fraction (0: none)"),
        ("pool_master_moving_centre", "false", "with pool_master: each midpoint is taken with the last midpoint that raised the bound instead of with the phase's start point"),
        ("lp_projection", "false", "with push_project or slack_push: bring each candidate onto the pool's groups by the least total lowering (a covering LP) instead of cyclic projections"),
        ("stall_iterations", "0", "end the main loop once the master value has not moved for this many iterations (0: never)"),
        ("stop_early", "false", "with certified_smoothing or push_project: stop a check once it provably cannot beat the best certified value (effort only)"),
        ("master_upper_seconds", "0", "after the bound, seconds for the run's columns as an unboxed, cut-free restricted master: its value lies above the LP relaxation (an estimate with HiGHS' tolerance; 0: not done)"),
        ("anchor_bound", "false", "medoid-anchored Lagrangian bound: exact pricing per anchor, the floor(n/k) most negative anchor minima, at the anchor threshold when there are no cuts (proofs/P20)"),
    ];

    /// The ranges and combinations every run checks first (`Err(Params)` names the option);
    /// public so that a driver of several runs can refuse bad options before the first.
    pub fn check(&self) -> Result<(), ColgenError> {
        let bad = |m: &str| Err(ColgenError::Params(m.to_string()));
        if self.time_limit.is_nan() || self.time_limit <= 0.0 {
            return bad("time_limit must be positive");
        }
        if !(0.0..1.0).contains(&self.smoothing) {
            return bad("smoothing must be in [0, 1)");
        }
        if !(0.0..1.0).contains(&self.final_fraction) {
            return bad("final_fraction must be in [0, 1)");
        }
        if !(0.0..1.0).contains(&self.tighten_fraction) {
            return bad("tighten_fraction must be in [0, 1)");
        }
        if !(0.0..1.0).contains(&self.slack_push) {
            return bad("slack_push must be in [0, 1)");
        }
        // Both shares come out of the final phase, whose start the line search needs too
        // (with slack_push >= final_fraction it would get no time and nothing would run).
        if self.slack_push > 0.0 && self.slack_push + self.tighten_fraction >= self.final_fraction {
            return bad("slack_push + tighten_fraction must be below final_fraction (their shares come out of the final phase)");
        }
        if !(0.0..1.0).contains(&self.pool_master) {
            return bad("pool_master must be in [0, 1)");
        }
        if self.pool_master > 0.0
            && self.slack_push + self.pool_master + self.tighten_fraction >= self.final_fraction
        {
            return bad("slack_push + pool_master + tighten_fraction must be below final_fraction (their shares come out of the final phase)");
        }
        if self.pool_master_moving_centre && self.pool_master == 0.0 {
            return bad("pool_master_moving_centre needs pool_master above 0 (it moves that phase's centre)");
        }
        if self.master_upper_seconds.is_nan() || self.master_upper_seconds < 0.0 {
            return bad("master_upper_seconds must be nonnegative");
        }
        if self.box_width.is_nan() || self.box_width < 0.0 {
            return bad("box_width must be nonnegative");
        }
        if self.tol.is_nan() || self.tol < 0.0 {
            return bad("tol must be nonnegative");
        }
        if !(0.0..1.0).contains(&self.nn_ascent) {
            return bad("nn_ascent must be in [0, 1)");
        }
        if !(0.0..1.0).contains(&self.subgradient) || self.nn_ascent + self.subgradient >= 1.0 {
            return bad("subgradient must be in [0, 1) and nn_ascent + subgradient below 1");
        }
        if !(0.0..1.0).contains(&self.anchor_threshold) {
            return bad("anchor_threshold must be in [0, 1)");
        }
        if self.cut_violation.is_nan() || self.cut_violation <= 0.0 {
            return bad("cut_violation must be positive");
        }
        Ok(())
    }
}

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
    /// Last restricted master LP value (not a bound; equals the master LP optimum when
    /// `converged`).
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
}

/// Rounded Lagrangian bound `sum y + floor(n/k) min(0, rc_lb)` for computed `rc_lb`, with the
/// margins of proofs/P09: `eps_rc` absolute on the pricing bound, `2 n u sum|y|` on the sum.
pub(crate) fn lagrangian_rounded(y: &[f64], groups_max: usize, rc_lb: f64, eps_rc: f64) -> f64 {
    let n = y.len() as f64;
    let sum: f64 = y.iter().sum();
    let abs: f64 = y.iter().map(|v| v.abs()).sum();
    let sum_low = sum - 2.0 * (n + 1.0) * UNIT_ROUNDOFF * abs;
    let rc = rc_lb.min(0.0) - eps_rc;
    let prod = groups_max as f64 * rc; // <= 0
    let prod_low = prod - 2.0 * UNIT_ROUNDOFF * prod.abs();
    let total = sum_low + prod_low;
    (total - 2.0 * UNIT_ROUNDOFF * total.abs()).next_down()
}

/// The claim a producer writes for a Lagrangian value `value` it computed at record duals `y`
/// and cuts `cuts` (proofs/P13 "The claim a producer writes"): `value` lowered by
/// `4 g M + 32 (n + g + 4) u (Y + |value| + 4 g M)` and one step more (`g = floor(n/k)`, `M`
/// = [`least_rc_margin`], the rounding of one computed reduced cost at most 0, `Y` the dual
/// magnitude `sum |y| + sum w_C b_C`). The verifier recomputes the bound with its own
/// searches, whose per-anchor values differ from the producer's (a search cut by the
/// producer's deadline, another summation) by rounding, so an unlowered claim can exceed
/// the recomputation in its last bits and be rejected. Never above `value` (so as valid as
/// `value`); a value that is not finite is returned as it is.
pub fn verifiable_claim(geo: &Geometry, y: &[f64], d: usize, cuts: &CutDuals, value: f64) -> f64 {
    if !value.is_finite() {
        return value;
    }
    let g = (geo.n / geo.k) as f64;
    let duals: f64 = y.iter().map(|v| v.abs()).sum::<f64>() + cuts.total_weight();
    let shift = 4.0 * g * least_rc_margin(geo, y, d, cuts);
    let rounding = 32.0 * (geo.n as f64 + g + 4.0) * UNIT_ROUNDOFF * (duals + value.abs() + shift);
    (value - (shift + rounding)).next_down()
}

/// The sum of the `m` largest `|y_i|` (largest first), the dual magnitude both rounding
/// margins charge.
fn sum_largest_abs(y: &[f64], m: usize) -> f64 {
    let mut abs_y: Vec<f64> = y.iter().map(|v| v.abs()).collect();
    abs_y.sort_unstable_by(|a, b| b.total_cmp(a));
    abs_y.iter().take(m).sum()
}

/// Absolute rounding margin for computed reduced-cost bounds (proofs/P09): every computed
/// quantity is a sum of at most `ops` roundings over terms of total magnitude at most
/// `scale`, so its error is below `ops u scale`; a factor 4 covers the comparison chain.
/// With cuts, a group's penalty adds at most `b_C` weights per cut (`b_C` its right side; 1
/// for the cuts of P14), of total magnitude at most `sum_C w_C b_C` (proofs/P14, P21).
pub fn rc_margin(geo: &Geometry, y: &[f64], d: usize, cuts: &CutDuals) -> f64 {
    let k = geo.k;
    let top = sum_largest_abs(y, 2 * k);
    let scale = (2 * k * 2 * k) as f64 * geo.max_dist + top + cuts.total_weight();
    let ops = (3 * d + 8 * k * k + 2 * geo.n + 16 + cuts.penalty_terms()) as f64;
    4.0 * ops * UNIT_ROUNDOFF * scale
}

/// Absolute rounding margin on the least reduced cost proven by one search with a shared
/// incumbent ([`exact_rc_bound_cuts`], [`pricing::exact_rc_bound_pairs`]) and by the weak
/// bound ([`weak_rc_bound`]): `4 ops u Y` with `Y` the sum of the `2k` largest `|y_i|` and
/// `ops = 3d + 8k^2 + 8k + 16` plus the penalty operations of one group
/// ([`CutDuals::path_terms`]). Proof: proofs/P09, "The least reduced cost of one search": a
/// decision taken on a computed value can be wrong only for a group whose exact value is
/// below the incumbent (<= 0), and then the terms of that value add up to at most `3Y`, so
/// neither the largest distance nor `n` enters (unlike [`rc_margin`], which also covers the
/// sums over anchors of proofs/P20 and stays the margin there).
pub fn least_rc_margin(geo: &Geometry, y: &[f64], d: usize, cuts: &CutDuals) -> f64 {
    let k = geo.k;
    let top = sum_largest_abs(y, 2 * k);
    let ops = (3 * d + 8 * k * k + 8 * k + 16 + cuts.path_terms(2 * k)) as f64;
    4.0 * ops * UNIT_ROUNDOFF * top
}

/// [`lagrangian_with_cuts`] for a pricing bound `rc_lb` proven by one search with a shared
/// incumbent and the weak bound, with the margin [`least_rc_margin`].
pub(crate) fn least_rc_lagrangian(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    groups_max: usize,
    rc_lb: f64,
) -> f64 {
    let eps = least_rc_margin(geo, y, d, cuts);
    rounded_with_cuts(y, cuts, groups_max, rc_lb, eps)
}

/// The Lagrangian bound proven by record duals `y` and cuts `cuts` (whose weights are the
/// negated cut duals) for a proven pricing bound `rc_lb` (<= 0): P14's
/// `sum y + sum sigma b + floor(n/k) rc_lb` (`b` the cuts' right sides, P21), rounded outward. The dual sum is taken over the
/// concatenation of `y` and `sigma`, so P09's rounding margin covers both.
pub(crate) fn lagrangian_with_cuts(
    geo: &Geometry,
    y: &[f64],
    d: usize,
    cuts: &CutDuals,
    groups_max: usize,
    rc_lb: f64,
) -> f64 {
    let eps = rc_margin(geo, y, d, cuts);
    rounded_with_cuts(y, cuts, groups_max, rc_lb, eps)
}

/// [`lagrangian_rounded`] over the record duals `y` followed by the cut duals `sigma`, each
/// repeated right-side times ([`CutDuals::rhs_terms`]; one dual sum, so P09's rounding
/// margin covers both); `y` alone when there are no cuts.
pub(crate) fn rounded_with_cuts(
    y: &[f64],
    cuts: &CutDuals,
    groups_max: usize,
    rc_lb: f64,
    eps_rc: f64,
) -> f64 {
    if cuts.is_empty() {
        return lagrangian_rounded(y, groups_max, rc_lb, eps_rc);
    }
    let mut all = y.to_vec();
    all.extend(cuts.rhs_terms());
    lagrangian_rounded(&all, groups_max, rc_lb, eps_rc)
}

/// Column generation lower bound for the `n` records of `x` (row-major, `d` columns) and
/// minimum group size `k`, starting from the feasible partition `labels` (any label values;
/// every group must have at least `k` records).
pub fn colgen_bound(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    labels: &[usize],
    opts: &ColgenOptions,
) -> Result<ColgenBound, ColgenError> {
    colgen_bound_from(x, n, d, k, &[labels], opts)
}

/// The groups of a labels vector (members ascending, groups in order of first appearance),
/// checked: `n` labels, every group at least `k` records.
pub fn start_groups(labels: &[usize], n: usize, k: usize) -> Result<Vec<Vec<u32>>, String> {
    if labels.len() != n {
        return Err(format!("{} labels for {n} records", labels.len()));
    }
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut slot: std::collections::BTreeMap<usize, usize> = Default::default();
    for (i, &l) in labels.iter().enumerate() {
        let g = *slot.entry(l).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[g].push(i as u32);
    }
    if let Some(g) = groups.iter().find(|g| g.len() < k) {
        return Err(format!(
            "group of record {} (label {}) has {} records, fewer than k = {k}",
            g[0],
            labels[g[0] as usize],
            g.len()
        ));
    }
    Ok(groups)
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
    fn of(out: &ColgenBound, start: Instant) -> Self {
        ColgenProgress {
            seconds: start.elapsed().as_secs_f64(),
            lower_bound: out.lagrangian.max(out.nn),
            lagrangian: out.lagrangian.is_finite().then_some(out.lagrangian),
            iterations: out.iterations,
            lp_value: out.lp_value,
        }
    }
}

/// The solution of a master solve, or `None` after its time limit or a failure (the
/// bound never rests on the LP, proofs/P09: the caller keeps what it certified so far);
/// a failure's cause goes to `error`.
fn solved_or_noted(
    master: &Master,
    solved: Result<Option<MasterSolution>, String>,
    error: &mut Option<String>,
) -> Option<MasterSolution> {
    match solved {
        Ok(Some(sol)) => Some(sol),
        Ok(None) => {
            if let Some(why) = master.failure() {
                *error = Some(why.to_string());
            }
            None
        }
        Err(e) => {
            *error = Some(e);
            None
        }
    }
}

/// A Lagrangian value for a progress line: "none yet" before the first one.
fn shown(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.6}")
    } else {
        "none yet".to_string()
    }
}

/// Count a certified ascent's checks, print its result (`what`, seconds since `start`) and
/// take its best point as the bound and the centre when it beats the best so far (its
/// values were certified at its threshold `asc.tau`).
fn take_ascent(
    out: &mut ColgenBound,
    centre: &mut Option<Vec<f64>>,
    asc: subgrad::Ascent,
    what: &str,
    start: Instant,
    progress: bool,
) {
    out.exact_calls += asc.checks.len();
    if progress {
        // The box-step ascent also reports its model steps.
        let counts = if what == "subgradient" {
            format!(
                "{} steps, {} exact checks",
                asc.iterations,
                asc.checks.len()
            )
        } else {
            format!("{} checks", asc.checks.len())
        };
        eprintln!(
            "colgen: {:7.1} s  {what}: bound {:.6} ({counts})",
            start.elapsed().as_secs_f64(),
            asc.lower_bound,
        );
    }
    if asc.lower_bound > out.lagrangian {
        out.lagrangian = asc.lower_bound;
        out.anchor_threshold = asc.tau;
        out.last_pricing_gap = asc.lower_bound - asc.duals.iter().sum::<f64>();
        out.pricing_exact = false;
        *centre = Some(asc.duals);
    }
}

/// `alpha a + (1 - alpha) b`, componentwise.
fn mix(a: &[f64], b: &[f64], alpha: f64) -> Vec<f64> {
    a.iter()
        .zip(b)
        .map(|(u, v)| alpha * u + (1.0 - alpha) * v)
        .collect()
}

/// [`colgen_bound`] with the master seeded by the groups of several feasible partitions
/// (`starts`, each a labels vector as in [`colgen_bound`]; groups met twice enter once). More
/// good partitions give the master better columns from the start; the bound's validity does
/// not depend on them (proofs/P09 part A holds for any duals).
pub fn colgen_bound_from(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
) -> Result<ColgenBound, ColgenError> {
    colgen_bound_stoppable(x, n, d, k, starts, opts, None, &mut |_| {})
}

/// [`colgen_bound_from`] that stops once `interrupt` is set (every phase, master iteration
/// and pricing search polls it; module doc, "Stopping") and sends a [`ColgenProgress`] to
/// `observer` after every master iteration and phase. A stopped run returns the best
/// certified bound it holds, as at the time limit.
#[allow(clippy::too_many_arguments)]
pub fn colgen_bound_stoppable(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
    interrupt: Option<&AtomicBool>,
    observer: &mut dyn FnMut(&ColgenProgress),
) -> Result<ColgenBound, ColgenError> {
    let start = Instant::now();
    opts.check()?;
    let nn = nn_bound(x, n, d, k)?; // validates x, n, d, k
    if n > pricing::MAX_RECORDS {
        return Err(ColgenError::TooLarge {
            n,
            max: pricing::MAX_RECORDS,
        });
    }
    if starts.is_empty() {
        return Err(ColgenError::BadLabels("no start partition".into()));
    }
    let cost = |g: &[u32]| {
        let members: Vec<usize> = g.iter().map(|&i| i as usize).collect();
        crate::sse::group_sse(x, d, &members)
    };
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut known: HashSet<Vec<u32>> = HashSet::new();
    for (s, labels) in starts.iter().enumerate() {
        let gs = start_groups(labels, n, k).map_err(|m| {
            ColgenError::BadLabels(if starts.len() > 1 {
                format!("start partition {}: {m}", s + 1)
            } else {
                m
            })
        })?;
        for g in gs {
            if known.insert(g.clone()) {
                groups.push(g);
            }
        }
    }
    // One deadline for every phase: each phase's end is derived from it (and never later).
    let deadline = Deadline::command(start + Duration::from_secs_f64(opts.time_limit), interrupt);
    let main_deadline = deadline
        .until(start + Duration::from_secs_f64(opts.time_limit * (1.0 - opts.final_fraction)));
    let pool = if opts.pool == 0 {
        (3 * k).max(12)
    } else {
        opts.pool
    };
    let mut out = ColgenBound {
        lower_bound: nn.lower_bound,
        lagrangian: f64::NEG_INFINITY,
        duals: Vec::new(),
        cut_triples: Vec::new(),
        cut_duals: Vec::new(),
        anchor_threshold: 0.0,
        root_lp: f64::NAN,
        converged_lp: f64::NAN,
        cut_rounds: 0,
        cuts: 0,
        nn: nn.lower_bound,
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
    };
    // The distance matrix and neighbour lists take seconds at n = 8000: stopped there, the
    // bound is nn.
    let Some(geo) = Geometry::new_until(x, n, d, k, pool, &|| deadline.stopped()) else {
        out.seconds = start.elapsed().as_secs_f64();
        return Ok(out);
    };
    let costs: Vec<f64> = groups.iter().map(|g| cost(g)).collect();
    // The start columns (kept: they make the master feasible).
    let fixed = groups.len();
    let boxed = opts.box_width > 0.0;
    // First box centre: the nn duals y_i = NN_{k-1}(i) / (2k), dual feasible for every group
    // of at least k records (P09 part C), so LB(y_nn) = sum y_nn = the nn bound.
    let mut box_centre: Vec<f64> = (0..n).map(|i| geo.nn(i, k - 1) / (2 * k) as f64).collect();
    let mean_abs = box_centre.iter().map(|v| v.abs()).sum::<f64>() / n as f64;
    let mut delta = vec![opts.box_width * mean_abs.max(f64::MIN_POSITIVE); n];
    let mut master = Master::new(
        n,
        groups,
        costs,
        boxed.then_some((&box_centre[..], &delta[..])),
    )
    .map_err(ColgenError::Lp)?;
    master.ipm = opts.ipm;
    // Consecutive solves each generated column spent with a positive reduced cost.
    let mut idle: Vec<usize> = vec![0; fixed];
    let groups_max = n / k;
    let cap = if opts.max_columns_per_iteration == 0 {
        n
    } else {
        opts.max_columns_per_iteration
    };

    // The stability centre: the duals of the best Lagrangian bound so far (record duals, then
    // the duals of the first cuts, as many as there were then).
    let mut centre: Option<Vec<f64>> = None;
    let best_start = starts
        .iter()
        .map(|l| start_groups(l, n, k).expect("checked above"))
        .min_by(|a, b| {
            let sse = |gs: &Vec<Vec<u32>>| gs.iter().map(|g| cost(g)).sum::<f64>();
            sse(a).total_cmp(&sse(b))
        })
        .expect("at least one start");
    let ub: f64 = best_start.iter().map(|g| cost(g)).sum();
    // Anchor threshold of the anchored searches (P20 "The threshold"; 0 when no threshold).
    let tau = -(opts.anchor_threshold * ub.abs() / groups_max.max(1) as f64);
    // Evaluate the Lagrangian bound at the duals `yc` (record duals, then cut duals of the
    // first cuts of `triples`) with a deadline (moving the centre to them when they improve
    // the best bound); returns (columns, exact, improved).
    let evaluate = |yc: &[f64],
                    triples: &[cuts::Cut],
                    until: Deadline,
                    stop_after: usize,
                    out: &mut ColgenBound,
                    centre: &mut Option<Vec<f64>>| {
        let t = Instant::now();
        let (y, sigma) = yc.split_at(n);
        let cd = CutDuals::new(n, &triples[..sigma.len()], sigma);
        let weak = weak_rc_bound(&geo, y);
        let budget = ExactBudget {
            nodes: opts.exact_nodes,
            deadline: until,
            max_columns: cap,
            stop_after_columns: stop_after,
        };
        let mut per_size = Vec::new();
        // The anchored search takes the threshold tau (P20) while there are no cuts; then a
        // finished search proves only `rc >= tau`, so it cannot end the column generation.
        let at_tau = if opts.anchor_bound && sigma.is_empty() {
            tau
        } else {
            0.0
        };
        let ex = if opts.anchor_bound {
            // Sizes above k completed from size k when nothing is below tau there (P20).
            let margin = rc_margin(&geo, y, d, &cd);
            exact_rc_bound_anchor_complete(&geo, y, &cd, budget, at_tau, margin, &mut per_size)
        } else {
            exact_rc_bound_cuts(&geo, y, &cd, budget)
        };
        out.exact_calls += 1;
        out.exact_nodes += ex.nodes;
        let rc_lb = weak.max(ex.rc_lower_bound).min(0.0);
        let mut lb = lagrangian_with_cuts(&geo, y, d, &cd, groups_max, rc_lb);
        if opts.anchor_bound {
            let anchored = anchors::anchored_best(&geo, y, d, &cd, &per_size, weak);
            if opts.progress {
                eprintln!("colgen: anchored bound {anchored:.6} (plain {lb:.6})");
            }
            lb = lb.max(anchored);
        }
        let improved = lb > out.lagrangian;
        if improved {
            out.lagrangian = lb;
            out.anchor_threshold = at_tau;
            out.last_pricing_gap = groups_max as f64 * rc_lb;
            out.pricing_exact = ex.exact;
            // Cut duals as used (positive ones taken as 0).
            let mut kept = y.to_vec();
            kept.extend(cd.sigma());
            *centre = Some(kept);
        }
        out.exact_seconds += t.elapsed().as_secs_f64();
        (ex.columns, ex.exact && at_tau == 0.0, improved)
    };
    let progress = |out: &ColgenBound, added: usize, alpha: f64| {
        if opts.progress {
            eprintln!(
                "colgen: {:7.1} s  it {:5}  lp {:.6}  lagrangian {}  +{added} cols  \
                 alpha {alpha:.3}  (lp {:.1} s, heuristic {:.1} s, exact {:.1} s, {} calls)",
                start.elapsed().as_secs_f64(),
                out.iterations,
                out.lp_value,
                shown(out.lagrangian),
                out.lp_seconds,
                out.heuristic_seconds,
                out.exact_seconds,
                out.exact_calls,
            );
        }
    };

    if boxed {
        // The first centre's bound, certified by the weak pricing bound alone.
        let rc_lb = weak_rc_bound(&geo, &box_centre).min(0.0);
        out.lagrangian =
            lagrangian_with_cuts(&geo, &box_centre, d, &CutDuals::none(), groups_max, rc_lb);
        out.last_pricing_gap = groups_max as f64 * rc_lb;
        centre = Some(box_centre.clone());
    }
    if opts.nn_ascent > 0.0 {
        // Line search from the nn duals along the best start partition's slacks (ascent.rs).
        let t = Instant::now();
        let y0 = ascent::nn_duals(&geo);
        let h = ascent::slack_direction(x, d, &best_start, &y0);
        let until =
            deadline.until(start + Duration::from_secs_f64(opts.time_limit * opts.nn_ascent));
        if let Some(ls) = ascent::line_search(&geo, d, &y0, &h, 0.05, 1.3, 4, 40, until, 0.0) {
            out.exact_calls += ls.trace.len();
            if opts.progress {
                eprintln!(
                    "colgen: {:7.1} s  nn line search: bound {:.6} at t = {:.4} ({} points)",
                    start.elapsed().as_secs_f64(),
                    ls.lower_bound,
                    ls.step,
                    ls.trace.len()
                );
            }
            if ls.lower_bound > out.lagrangian {
                out.lagrangian = ls.lower_bound;
                out.anchor_threshold = 0.0;
                out.last_pricing_gap = ls.lower_bound - ls.duals.iter().sum::<f64>();
                out.pricing_exact = false;
                if boxed {
                    // The box (box step) around the certified point, not the nn duals.
                    box_centre.clear();
                    box_centre.extend_from_slice(&ls.duals);
                    master
                        .set_box(&box_centre, &delta)
                        .map_err(ColgenError::Lp)?;
                }
                centre = Some(ls.duals);
            }
        }
        out.exact_seconds += t.elapsed().as_secs_f64();
    }
    if opts.subgradient > 0.0 {
        // Subgradient ascent on the anchored bound from the best point so far (subgrad.rs).
        let t = Instant::now();
        let y_start = centre
            .as_ref()
            .map_or_else(|| ascent::nn_duals(&geo), |c| c[..n].to_vec());
        let sg_opts = subgrad::SubgradOptions {
            threshold: opts.anchor_threshold,
            ..Default::default()
        };
        let until = deadline.until(t + Duration::from_secs_f64(opts.time_limit * opts.subgradient));
        let asc = subgrad::ascend(
            &geo,
            d,
            &y_start,
            ub,
            &best_start,
            &sg_opts,
            until,
            opts.progress,
        );
        take_ascent(
            &mut out,
            &mut centre,
            asc,
            "subgradient",
            start,
            opts.progress,
        );
        out.exact_seconds += t.elapsed().as_secs_f64();
    }
    // Smoothing weight: halved on every mispricing (Wentges' rule, so that the separation
    // point cannot stall away from the LP duals).
    let mut alpha = if boxed { 0.0 } else { opts.smoothing };
    let mut y_sep_prev: Option<Vec<f64>> = None;
    let mut last_y: Vec<f64> = Vec::new();
    if let Some(c) = centre
        .clone()
        .filter(|c| opts.certified_smoothing && c.len() == n)
    {
        // Certified Wentges smoothing instead of the heuristic loop (smoothing.rs).
        let params = smoothing::SmoothingParams {
            alpha: opts.smoothing,
            auto: opts.auto_smoothing,
            tau,
            tol: opts.tol,
            max_columns: cap,
            box_delta: boxed.then(|| delta.clone()),
            progress: opts.progress,
            stop_early: opts.stop_early,
        };
        let t = Instant::now();
        let sm = smoothing::certified_smoothing(
            &geo,
            d,
            &mut master,
            &mut known,
            &|g: &[u32]| cost(g),
            &c,
            out.lagrangian,
            &params,
            main_deadline,
        )
        .map_err(ColgenError::Lp)?;
        out.iterations += sm.trace.len();
        out.exact_calls += sm.trace.len();
        out.lp_seconds += sm.lp_seconds;
        out.exact_seconds += t.elapsed().as_secs_f64() - sm.lp_seconds;
        if let Some(&(_, lp, _, _, _)) = sm.trace.last() {
            out.lp_value = lp;
        }
        if opts.progress {
            eprintln!(
                "colgen: {:7.1} s  certified smoothing: bound {:.6} ({} iterations, {} columns)",
                start.elapsed().as_secs_f64(),
                sm.lower_bound,
                sm.trace.len(),
                sm.columns_added
            );
        }
        if sm.lower_bound > out.lagrangian {
            out.lagrangian = sm.lower_bound;
            out.anchor_threshold = tau;
            out.last_pricing_gap = sm.lower_bound - sm.duals.iter().sum::<f64>();
            out.pricing_exact = false;
            if boxed {
                box_centre.clone_from(&sm.duals);
            }
            centre = Some(sm.duals.clone());
        }
        last_y = sm.duals;
    }
    // The certified smoothing, when it ran, replaces the heuristic loop.
    let smoothed = !last_y.is_empty();
    // (iteration, master value) since which the value has not moved (`stall_iterations`).
    let mut stall = (0usize, f64::NAN);
    while !smoothed && out.iterations < opts.max_iterations && !main_deadline.passed() {
        observer(&ColgenProgress::of(&out, start));
        let t = Instant::now();
        let sol = master.solve_stoppable(main_deadline.seconds_left(), interrupt);
        out.lp_seconds += t.elapsed().as_secs_f64();
        let Some(mut sol) = solved_or_noted(&master, sol, &mut out.lp_error) else {
            break; // the time limit or an unsolved master: keep the bound found so far
        };
        out.iterations += 1;
        out.lp_value = sol.value;
        if opts.stall_iterations > 0 {
            // The master's value unchanged (relative 1e-7: the solver's noise is ~5e-9) for
            // `stall_iterations` solves: the remaining main time goes to the final phase.
            let moved = (sol.value - stall.1).abs() > 1e-7 * stall.1.abs().max(1.0);
            if moved || stall.1.is_nan() {
                stall = (out.iterations, sol.value);
            } else if out.iterations - stall.0 >= opts.stall_iterations {
                if opts.progress {
                    eprintln!(
                        "colgen: {:7.1} s  master value {:.6} unchanged for {} iterations: final phase",
                        start.elapsed().as_secs_f64(),
                        sol.value,
                        opts.stall_iterations
                    );
                }
                last_y = sol.duals.clone();
                last_y.extend_from_slice(&sol.cut_duals);
                break;
            }
        }
        if opts.drop_after > 0 {
            // Column management: a clearly positive reduced cost means nonbasic at zero.
            let scale = 1.0 + sol.duals.iter().fold(0.0f64, |m, v| m.max(v.abs()));
            for (c, rc) in sol.reduced_costs.iter().enumerate().skip(fixed) {
                idle[c] = if *rc > 1e-6 * scale { idle[c] + 1 } else { 0 };
            }
            let drop: Vec<bool> = idle.iter().map(|&i| i >= opts.drop_after).collect();
            for g in master.delete_columns(&drop).map_err(ColgenError::Lp)? {
                known.remove(&g);
                out.dropped_columns += 1;
            }
            // Keep the primal values aligned with the remaining columns (cut separation).
            let mut keep = drop.iter().map(|&d| !d);
            sol.primal
                .retain(|_| keep.next().expect("one flag per column"));
            idle.retain(|&i| i < opts.drop_after);
        }
        // Record duals, then cut duals.
        let mut y_lp = sol.duals.clone();
        y_lp.extend_from_slice(&sol.cut_duals);
        let cd_lp = CutDuals::new(n, &master.cuts, &sol.cut_duals);
        // Separation point: smoothed towards the stability centre (or, before any bound was
        // evaluated, towards the previous separation point); a centre from before the last
        // cuts has no duals for them (0).
        let anchor = centre.as_ref().or(y_sep_prev.as_ref());
        let y_sep: Vec<f64> = match anchor {
            Some(c) if alpha > 0.0 => mix(&padded(c, y_lp.len()), &y_lp, alpha),
            _ => y_lp.clone(),
        };
        let t = Instant::now();
        let mut new_cols = price_all(
            &geo,
            &y_sep[..n],
            &y_lp[..n],
            &cd_lp,
            opts.tol,
            &known,
            main_deadline,
        );
        let mut sep = y_sep;
        if new_cols.is_empty() && sep != y_lp {
            // Mispricing: nothing priced at the smoothed point is negative at the LP duals.
            alpha = if alpha < 0.05 { 0.0 } else { alpha / 2.0 };
            new_cols = price_all(
                &geo,
                &y_lp[..n],
                &y_lp[..n],
                &cd_lp,
                opts.tol,
                &known,
                main_deadline,
            );
            sep = y_lp.clone();
        }
        out.heuristic_seconds += t.elapsed().as_secs_f64();
        let periodic = opts.exact_every > 0 && out.iterations.is_multiple_of(opts.exact_every);
        if new_cols.is_empty() || periodic {
            let at = if new_cols.is_empty() { &y_lp } else { &sep };
            // When columns are all we need (heuristic failure), stop at the first batch.
            let stop_after = if new_cols.is_empty() {
                opts.exact_stop_after.max(1)
            } else {
                usize::MAX
            };
            let (mut cols, mut exact, mut improved) = evaluate(
                at,
                &master.cuts,
                main_deadline,
                stop_after,
                &mut out,
                &mut centre,
            );
            let is_new = |g: &Vec<u32>| !known.contains(g);
            if new_cols.is_empty()
                && !exact
                && stop_after != usize::MAX
                && !cols.iter().any(|(rc, g)| *rc < -opts.tol && is_new(g))
                && !main_deadline.passed()
            {
                // Stopped early on columns that are all known or within the tolerance of 0
                // (degenerate duals, frequent with cuts): price again without stopping.
                let (c, e, i) = evaluate(
                    at,
                    &master.cuts,
                    main_deadline,
                    usize::MAX,
                    &mut out,
                    &mut centre,
                );
                (cols, exact, improved) = (c, e, improved || i);
            }
            if boxed && improved {
                // Serious step: the box (over the record rows) follows the best bound's duals.
                box_centre.clear();
                box_centre.extend_from_slice(&centre.as_ref().expect("set on improvement")[..n]);
                master
                    .set_box(&box_centre, &delta)
                    .map_err(ColgenError::Lp)?;
            }
            let negative: Vec<(f64, Vec<u32>)> = cols
                .into_iter()
                .filter(|(_, g)| !known.contains(g))
                .map(|(_, g)| (geo.reduced_cost_cuts(&g, &y_lp[..n], &cd_lp), g))
                .filter(|(rc, _)| *rc < -opts.tol)
                .collect();
            if new_cols.is_empty() && negative.is_empty() && exact && boxed {
                let scale = 1e-9 * n as f64;
                if sol.artificial > scale {
                    // Priced out inside a binding box: widen it and re-solve.
                    delta.iter_mut().for_each(|v| *v *= 2.0);
                    master
                        .set_box(&box_centre, &delta)
                        .map_err(ColgenError::Lp)?;
                    out.box_widenings += 1;
                    progress(&out, 0, alpha);
                    last_y = y_lp;
                    continue;
                }
            }
            if new_cols.is_empty() && negative.is_empty() && exact {
                // The master LP (with the cuts so far) is reached.
                if out.root_lp.is_nan() {
                    out.root_lp = sol.value;
                }
                out.converged_lp = sol.value;
                if out.cut_rounds < opts.cut_rounds && !main_deadline.passed() {
                    let existing: HashSet<[u32; 3]> = master
                        .cuts
                        .iter()
                        .filter_map(cuts::Cut::as_triple)
                        .collect();
                    let found = cuts::separate(
                        n,
                        &master.columns,
                        &sol.primal,
                        &existing,
                        opts.cuts_per_round,
                        CUTS_PER_RECORD,
                        opts.cut_violation,
                    );
                    if !found.is_empty() {
                        let triples: Vec<[u32; 3]> = found.iter().map(|(t, _)| *t).collect();
                        master.add_cuts(&triples).map_err(ColgenError::Lp)?;
                        out.cut_rounds += 1;
                        out.cuts += triples.len();
                        if opts.progress {
                            eprintln!(
                                "colgen: {:7.1} s  cut round {}: LP {:.6}, {} violated cuts \
                                 added (max left side {:.4}), {} cuts in all",
                                start.elapsed().as_secs_f64(),
                                out.cut_rounds,
                                sol.value,
                                triples.len(),
                                found[0].1,
                                master.cuts.len()
                            );
                        }
                        last_y = y_lp;
                        continue;
                    }
                }
                out.converged = true;
                last_y = y_lp;
                progress(&out, 0, alpha);
                break;
            }
            new_cols.extend(negative);
        }
        new_cols.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        new_cols.dedup_by(|a, b| a.1 == b.1);
        new_cols.truncate(cap);
        progress(&out, new_cols.len(), alpha);
        if new_cols.is_empty() {
            // Nothing to add (exact pricing cut short and heuristics exhausted).
            last_y = y_lp;
            break;
        }
        let (g, c): (Vec<Vec<u32>>, Vec<f64>) = new_cols
            .into_iter()
            .map(|(_, g)| (g.clone(), cost(&g)))
            .unzip();
        known.extend(g.iter().cloned());
        idle.resize(idle.len() + g.len(), 0);
        master.add_columns(g, c).map_err(ColgenError::Lp)?;
        y_sep_prev = Some(sep);
        last_y = y_lp;
    }
    // Final evaluation with the remaining time: at the last duals, then at the centre (or the
    // last separation point).
    observer(&ColgenProgress::of(&out, start));
    if !last_y.is_empty() && !out.converged && !deadline.passed() {
        let t = Instant::now();
        let sol = master.solve_stoppable(deadline.seconds_left(), interrupt);
        out.lp_seconds += t.elapsed().as_secs_f64();
        let y_final = match solved_or_noted(&master, sol, &mut out.lp_error) {
            Some(sol) => {
                out.lp_value = sol.value;
                let mut y = sol.duals;
                y.extend(sol.cut_duals);
                y
            }
            None => last_y,
        };
        let from = centre
            .clone()
            .filter(|c| c.len() == n && y_final.len() == n);
        if let (true, Some(from)) = (opts.lp_segment, from) {
            let projection = if opts.lp_projection {
                subgrad::Projection::LeastLowering
            } else {
                subgrad::Projection::Cyclic
            };
            // Line search from the best bound's duals toward the master's (ascent.rs).
            // The master's duals clipped to [0, 4 max(from)]: a few extreme components of a
            // degenerate master would otherwise dominate the direction (study-colgen.txt 9).
            let cap = 4.0 * from.iter().copied().fold(0.0, f64::max);
            let h: Vec<f64> = y_final
                .iter()
                .zip(&from)
                .map(|(a, b)| a.clamp(0.0, cap) - b)
                .collect();
            // The slack rounds' and the tightening's shares come off the end of the phase.
            let before_end = |share: f64| {
                let end = deadline.instant();
                deadline.until(
                    end.checked_sub(Duration::from_secs_f64(opts.time_limit * share))
                        .unwrap_or(end),
                )
            };
            // Half of the time up to the slack rounds' share is the line search's.
            let now = Instant::now();
            let before_slack = before_end(opts.slack_push + opts.pool_master);
            let ls_until = if opts.push_project {
                before_slack.until(now + before_slack.left() / 2)
            } else {
                before_slack
            };
            if let Some(ls) =
                ascent::line_search(&geo, d, &from, &h, 0.02, 2.0, 3, 12, ls_until, tau)
            {
                out.exact_calls += ls.trace.len();
                if opts.progress {
                    eprintln!(
                        "colgen: {:7.1} s  line search toward the master duals: bound {:.6} at \
                         {:.4} ({:?})",
                        start.elapsed().as_secs_f64(),
                        ls.lower_bound,
                        ls.step,
                        ls.trace
                    );
                }
                if ls.lower_bound > out.lagrangian {
                    out.lagrangian = ls.lower_bound;
                    out.anchor_threshold = tau;
                    out.last_pricing_gap = ls.lower_bound - ls.duals.iter().sum::<f64>();
                    out.pricing_exact = false;
                    centre = Some(ls.duals.clone());
                }
                if opts.push_project && !deadline.passed() {
                    // From the best certified point (the line search's when it improved, else
                    // its start) along the same direction, a quarter of the line search's
                    // step first (subgrad.rs).
                    let best_y = if ls.lower_bound >= out.lagrangian {
                        &ls.duals
                    } else {
                        &from
                    };
                    let pp_deadline =
                        before_end(opts.tighten_fraction + opts.slack_push + opts.pool_master);
                    let asc = subgrad::push_project(
                        &geo,
                        d,
                        best_y,
                        &h,
                        ls.step / 4.0,
                        tau,
                        &master.columns,
                        projection,
                        0.5,
                        opts.stop_early,
                        pp_deadline,
                        opts.progress,
                    );
                    take_ascent(
                        &mut out,
                        &mut centre,
                        asc,
                        "push-project",
                        start,
                        opts.progress,
                    );
                }
                // The master's columns (the start partitions' never dropped) seed the pool, as
                // for push-and-project; the slack rounds' negative groups stay in it for the
                // pool's master.
                let mut pool = (opts.slack_push > 0.0 || opts.pool_master > 0.0)
                    .then(|| subgrad::GroupPool::seeded(&geo, &master.columns));
                // Push-and-project restarted along the start partition's slacks (cut-free
                // points only).
                let best = centre.clone().filter(|y| y.len() == n);
                if let (true, Some(y), Some(pool)) = (opts.slack_push > 0.0, best, pool.as_mut()) {
                    let until = before_end(opts.tighten_fraction + opts.pool_master);
                    let asc = subgrad::slack_push(
                        &geo,
                        x,
                        d,
                        (&y, out.lagrangian),
                        &best_start,
                        pool,
                        projection,
                        tau,
                        opts.stop_early,
                        until,
                        opts.progress,
                    );
                    take_ascent(
                        &mut out,
                        &mut centre,
                        asc,
                        "slack push",
                        start,
                        opts.progress,
                    );
                }
                // An unboxed master over the pool, midpoints toward its duals (cut-free points).
                let best = centre.clone().filter(|y| y.len() == n);
                if let (true, Some(y), Some(pool)) = (opts.pool_master > 0.0, best, pool.as_mut()) {
                    let until = before_end(opts.tighten_fraction);
                    match pool_master::pool_master_push(
                        &geo,
                        x,
                        d,
                        (&y, out.lagrangian),
                        &best_start,
                        pool,
                        pool_master::PoolMasterSettings {
                            tau,
                            max_rounds: usize::MAX,
                            deadline: until,
                            moving_centre: opts.pool_master_moving_centre,
                            ipm: false,
                            progress: opts.progress,
                        },
                    ) {
                        Ok(run) => take_ascent(
                            &mut out,
                            &mut centre,
                            run.ascent,
                            "pool master",
                            start,
                            opts.progress,
                        ),
                        // HiGHS failing here leaves the bound as it stands; said, as the
                        // restricted master's failure below.
                        Err(e) => eprintln!("colgen: pool master failed, bound kept: {e}"),
                    }
                }
                // The best point re-certified at smaller thresholds (cut-free points only).
                let best = centre.clone().filter(|y| y.len() == n);
                if let (true, Some(y)) = (opts.tighten_fraction > 0.0, best) {
                    let tight = subgrad::tighten(
                        &geo,
                        d,
                        &y,
                        out.anchor_threshold,
                        deadline,
                        opts.progress,
                    );
                    out.exact_calls += tight.checks;
                    if tight.value > out.lagrangian {
                        out.lagrangian = tight.value;
                        out.anchor_threshold = tight.tau;
                        out.last_pricing_gap = tight.value - y.iter().sum::<f64>();
                    }
                }
            }
        }
        let _ = evaluate(
            &y_final,
            &master.cuts,
            deadline,
            usize::MAX,
            &mut out,
            &mut centre,
        );
        if let Some(p) = y_sep_prev.as_ref() {
            if !deadline.passed() {
                let _ = evaluate(p, &master.cuts, deadline, usize::MAX, &mut out, &mut centre);
            }
        }
        progress(&out, 0, alpha);
    }
    let mut duals = centre.unwrap_or_default();
    if duals.len() > n {
        out.cut_duals = duals.split_off(n);
        out.cut_triples = (master.cuts[..out.cut_duals.len()].iter())
            .map(|c| c.as_triple().expect("colgen adds triples only"))
            .collect();
    }
    out.duals = duals;
    if !out.duals.is_empty() {
        // The value the certificate claims, lowered so that verify-bound confirms it (P13).
        let cuts = CutDuals::new(n, &out.cut_triples, &out.cut_duals);
        out.lagrangian = verifiable_claim(&geo, &out.duals, d, &cuts, out.lagrangian);
    }
    out.lower_bound = out.lagrangian.max(out.nn);
    out.columns = master.columns.len();
    out.simplex_iterations = master.simplex_iterations;
    out.seconds = start.elapsed().as_secs_f64();
    observer(&ColgenProgress::of(&out, start));
    if opts.master_upper_seconds > 0.0 && !deadline.interrupted() {
        // After the time limit, on purpose: it measures the run, it does not take its time.
        // A diagnostic: its failure is said, and the bound stands.
        let seconds = opts.master_upper_seconds;
        let solved =
            master_upper::restricted_master_value(n, &master.columns, &master.costs, seconds)
                .and_then(|u| u.ok_or(format!("not solved within {seconds} s")));
        match &solved {
            Ok(u) if opts.progress => {
                eprintln!("colgen: restricted master without box or cuts: {u}")
            }
            Ok(_) => {}
            Err(e) => eprintln!("colgen: restricted master without box or cuts: {e}"),
        }
        out.master_upper = solved.ok();
    }
    Ok(out)
}

/// `v` followed by zeros up to length `len` (duals of cuts added after `v` was taken).
fn padded(v: &[f64], len: usize) -> Vec<f64> {
    let mut p = v.to_vec();
    p.resize(len.max(v.len()), 0.0);
    p
}

/// A record takes part in at most this many new cuts per round (spreads the cuts).
const CUTS_PER_RECORD: usize = 3;

/// Heuristic pricing from every record at `y_price` (until `deadline`); keeps the new groups
/// whose reduced cost w.r.t. the LP duals `y_lp` and cuts `cuts` is below `-tol`, with that
/// reduced cost.
fn price_all(
    geo: &Geometry,
    y_price: &[f64],
    y_lp: &[f64],
    cuts: &CutDuals,
    tol: f64,
    known: &HashSet<Vec<u32>>,
    deadline: Deadline,
) -> Vec<(f64, Vec<u32>)> {
    let mut found: Vec<(f64, Vec<u32>)> = Vec::new();
    let mut seen: HashSet<Vec<u32>> = HashSet::new();
    for seed in 0..geo.n {
        if seed % 64 == 63 && deadline.passed() {
            break;
        }
        if let Some((_, g)) = heuristic_cuts(geo, y_price, cuts, seed) {
            if known.contains(&g) || seen.contains(&g) {
                continue;
            }
            let rc = geo.reduced_cost_cuts(&g, y_lp, cuts);
            if rc < -tol {
                seen.insert(g.clone());
                found.push((rc, g));
            }
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_clusters_converge_to_the_optimum() {
        // Two tight triples far apart, k = 3: the optimum is the two triples, SSE 2 * 2/3 *
        // 0.01... built so that the LP is integral.
        let x = [0.0, 0.1, 0.2, 10.0, 10.1, 10.3];
        let labels = [0, 1, 0, 1, 0, 1]; // a bad but feasible start
        let b = colgen_bound(&x, 6, 1, 3, &labels, &ColgenOptions::default()).unwrap();
        let opt = crate::sse::partition_sse(&x, 1, &[0, 0, 0, 1, 1, 1]);
        assert!(b.converged, "{b:?}");
        assert!(b.lower_bound <= opt, "{} > {opt}", b.lower_bound);
        assert!(b.lower_bound >= opt - 1e-9, "{} << {opt}", b.lower_bound);
    }

    /// The full master LP over every group of k..2k-1 records, solved in one shot: an
    /// independent value for the converged column generation.
    fn full_master_lp(x: &[f64], n: usize, d: usize, k: usize) -> f64 {
        use highs::{ColProblem, Sense};
        let mut pb = ColProblem::default();
        let rows: Vec<_> = (0..n).map(|_| pb.add_row(1.0..=1.0)).collect();
        for mask in 1u32..(1 << n) {
            let m = mask.count_ones() as usize;
            if m >= k && m < 2 * k {
                let members: Vec<usize> = (0..n).filter(|&i| mask >> i & 1 == 1).collect();
                let c = crate::sse::group_sse(x, d, &members);
                pb.add_column(c, 0.0.., members.iter().map(|&i| (rows[i], 1.0)));
            }
        }
        let mut model = highs::Model::new(pb);
        model.make_quiet();
        model.set_sense(Sense::Minimise);
        let solved = model.solve();
        assert_eq!(solved.status(), highs::HighsModelStatus::Optimal);
        // SAFETY: valid solved HiGHS instance.
        unsafe { highs_sys::Highs_getObjectiveValue(solved.as_ptr()) }
    }

    #[test]
    fn converged_bound_equals_the_full_master_lp() {
        let mut state = 0x2014_u64;
        let mut next = || {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        };
        for case in 0..12 {
            let (n, d, k) = (7 + case % 4, 1 + case % 3, 2 + case % 2);
            let x: Vec<f64> = (0..n * d).map(|_| 4.0 * next()).collect();
            let labels: Vec<usize> = (0..n).map(|i| (i / k).min(n / k - 1)).collect();
            let b = colgen_bound(&x, n, d, k, &labels, &ColgenOptions::default()).unwrap();
            let lp = full_master_lp(&x, n, d, k);
            assert!(b.converged, "case {case}");
            assert!(
                b.lagrangian <= lp,
                "case {case}: {} > LP {lp}",
                b.lagrangian
            );
            assert!(
                lp - b.lagrangian <= 1e-7 * (1.0 + lp),
                "case {case}: {} << LP {lp}",
                b.lagrangian
            );
        }
    }

    #[test]
    fn k_one_gives_zero_and_does_not_panic() {
        let x = [0.0, 1.0, 5.0];
        let b = colgen_bound(&x, 3, 1, 1, &[0, 1, 2], &ColgenOptions::default()).unwrap();
        assert!(b.lower_bound <= 0.0 && b.lower_bound > -1e-12, "{b:?}");
    }

    #[test]
    fn bad_input_is_rejected() {
        let x = [0.0, 1.0, 2.0, 3.0];
        let o = ColgenOptions::default();
        assert!(matches!(
            colgen_bound(&x, 4, 1, 2, &[0, 0, 0], &o),
            Err(ColgenError::BadLabels(_))
        ));
        assert!(matches!(
            colgen_bound(&x, 4, 1, 2, &[0, 0, 0, 1], &o),
            Err(ColgenError::BadLabels(_))
        ));
        assert!(matches!(
            colgen_bound(&x, 4, 1, 0, &[0, 0, 0, 0], &o),
            Err(ColgenError::Input(SolverError::ZeroGroupSize))
        ));
        let bad = ColgenOptions {
            smoothing: 1.0,
            ..ColgenOptions::default()
        };
        assert!(matches!(
            colgen_bound(&x, 4, 1, 2, &[0, 0, 1, 1], &bad),
            Err(ColgenError::Params(_))
        ));
    }
}
