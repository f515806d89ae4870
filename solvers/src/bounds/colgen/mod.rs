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
//!    branch-and-bound pricing bound (`ExactSearch`, with the medoid star bound
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
//! **Engine.** [`colgen_bound_scheduled`] builds the run's state ([`state::ColgenState`]:
//! master, geometry, centre, box, pools, best certified value, time accounting), runs a
//! [`Schedule`] of phases (one file each under [`phases`]; the options' schedule from
//! [`Schedule::from_options`], whose [`TimeShares`] turn the options' fractions into phase
//! ends) and rounds the best value outward; every report goes to a [`ColgenObserver`]. This
//! file keeps the options, the result and the rounding shared by the bounds (over the
//! project's ~500 lines with its unit tests).
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

pub mod aggregation;
pub mod anchors;
pub mod ascent;
pub mod count_row;
pub mod cuts;
pub mod incumbent_box;
pub mod master;
pub mod master_upper;
pub mod observer;
pub mod pairs;
pub mod phases;
pub mod pool_master;
pub mod pricing;
pub mod record_share;
pub mod schedule;
pub mod signed_anchors;
pub mod smoothing;
pub mod state;
pub mod subgrad;
pub mod verify;

use super::nn_bound;
use super::UNIT_ROUNDOFF;
use crate::deadline::Deadline;
use crate::SolverError;
use cuts::CutDuals;
use master::Master;
use observer::Gated;
pub use observer::{ColgenObserver, Quiet};
use pricing::Geometry;
pub use schedule::{Phase, PhaseBudget, Schedule, Share, Step, TimeShares};
use state::{group_cost, ColgenSetup, ColgenState};
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
    /// One progress line per iteration (and per step of the ascents), sent to the observer
    /// of [`colgen_bound_stoppable`] (the workbench prints it on stderr).
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
    /// Before the column generation, column generation on an aggregated master whose rows
    /// are super-points (identical records, and records the start partitions keep
    /// together), split where negative columns cut them ([`phases::aggregate`],
    /// proofs/P24); its columns then seed the full master.
    pub aggregate: bool,
    /// The du Merle box around each record's dual estimated from the best start partition
    /// ([`incumbent_box`]: the cost of removing it from its group and of adding it to the
    /// nearest other group) instead of the uniform box around the nn duals, in the full
    /// master and (with `aggregate`) the aggregated one. Needs `box_width > 0`.
    pub incumbent_box: bool,
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
            aggregate: false,
            incumbent_box: false,
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
        ("aggregate", "false", "before the column generation, column generation on an aggregated master whose rows are super-points (identical records, and records the start partitions keep together), split where negative columns cut them; its columns seed the full master (proofs/P24)"),
        ("incumbent_box", "false", "the dual box of each record placed between the cost of removing it from its group in the best start partition and of adding it to the nearest other group, instead of the uniform box around the nn duals (needs box_width > 0; with aggregate, also in the aggregated master)"),
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
        if !(0.0..1.0).contains(&self.pool_master) {
            return bad("pool_master must be in [0, 1)");
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
        if self.incumbent_box && self.box_width == 0.0 {
            return bad("incumbent_box needs box_width above 0 (the boxed master it places)");
        }
        if self.tol.is_nan() || self.tol < 0.0 {
            return bad("tol must be nonnegative");
        }
        if !(0.0..1.0).contains(&self.nn_ascent) {
            return bad("nn_ascent must be in [0, 1)");
        }
        if !(0.0..1.0).contains(&self.anchor_threshold) {
            return bad("anchor_threshold must be in [0, 1)");
        }
        if self.cut_violation.is_nan() || self.cut_violation <= 0.0 {
            return bad("cut_violation must be positive");
        }
        // How the phases share the time: checked where the shares are turned into ends.
        TimeShares::of(self).check().map_err(ColgenError::Params)
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
    /// What the aggregation phase did (`aggregate`; None when it did not run).
    pub aggregation: Option<aggregation::AggregationReport>,
}

impl ColgenBound {
    /// A run's result before its first Lagrangian bound: the nn bound `nn` alone.
    fn empty(nn: f64) -> Self {
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
/// incumbent (`ExactSearch::new(cuts)`, `ExactSearch::pairs`) and by the weak
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
    colgen_bound_stoppable(x, n, d, k, starts, opts, None, &mut Quiet)
}

/// [`colgen_bound_from`] that stops once `interrupt` is set (every phase, master iteration
/// and pricing search polls it; module doc, "Stopping") and reports to `observer` (a
/// [`ColgenProgress`] after every master iteration and phase, new certified values, and with
/// `progress` the detail lines; a closure `FnMut(&ColgenProgress)` takes the progress
/// reports only). A stopped run returns the best certified bound it holds, as at the time
/// limit. Runs the schedule [`Schedule::from_options`].
#[allow(clippy::too_many_arguments)]
pub fn colgen_bound_stoppable(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
    interrupt: Option<&AtomicBool>,
    observer: &mut dyn ColgenObserver,
) -> Result<ColgenBound, ColgenError> {
    opts.check()?;
    let schedule = Schedule::from_options(opts)?;
    colgen_bound_scheduled(x, n, d, k, starts, opts, &schedule, interrupt, observer)
}

/// [`colgen_bound_stoppable`] running `schedule` instead of the one of the options (which
/// still give every phase's parameters and the time limit): the engine that every route
/// of the column generation bound runs. The state is built (nn bound, start groups, master,
/// geometry), the schedule runs, and the best certified value is lowered to the claim a
/// certificate can verify (proofs/P13).
#[allow(clippy::too_many_arguments)]
pub fn colgen_bound_scheduled(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
    opts: &ColgenOptions,
    schedule: &Schedule,
    interrupt: Option<&AtomicBool>,
    observer: &mut dyn ColgenObserver,
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
    let (groups, known, best_start) = seed_groups(x, n, d, k, starts)?;
    // One deadline for every phase: each phase's end is derived from it (and never later).
    let deadline = Deadline::command(start + Duration::from_secs_f64(opts.time_limit), interrupt);
    let pool = if opts.pool == 0 {
        (3 * k).max(12)
    } else {
        opts.pool
    };
    let mut out = ColgenBound::empty(nn.lower_bound);
    // The distance matrix and neighbour lists take seconds at n = 8000: stopped there, the
    // bound is nn.
    let Some(geo) = Geometry::new_until(x, n, d, k, pool, &|| deadline.stopped()) else {
        out.seconds = start.elapsed().as_secs_f64();
        return Ok(out);
    };
    let setup = ColgenSetup {
        x,
        n,
        d,
        k,
        opts,
        interrupt,
        start,
        groups,
        known,
        best_start,
    };
    let mut obs = Gated {
        inner: observer,
        details: opts.progress,
    };
    let mut state = ColgenState::new(setup, geo, out, deadline)?;
    schedule.run(&mut state, &mut obs)?;
    let (mut out, master) = finish(state);
    obs.progress(&ColgenProgress::of(&out, start));
    if opts.master_upper_seconds > 0.0 && !deadline.interrupted() {
        out.master_upper = master_upper_after(n, &master, opts.master_upper_seconds, &mut obs);
    }
    Ok(out)
}

/// The start partitions' distinct groups (in order of first appearance), the set of them,
/// and the partition of least SSE; every partition checked ([`start_groups`]).
#[allow(clippy::type_complexity)]
fn seed_groups(
    x: &[f64],
    n: usize,
    d: usize,
    k: usize,
    starts: &[&[usize]],
) -> Result<(Vec<Vec<u32>>, HashSet<Vec<u32>>, Vec<Vec<u32>>), ColgenError> {
    if starts.is_empty() {
        return Err(ColgenError::BadLabels("no start partition".into()));
    }
    let mut groups: Vec<Vec<u32>> = Vec::new();
    let mut known: HashSet<Vec<u32>> = HashSet::new();
    let mut partitions = Vec::with_capacity(starts.len());
    for (s, labels) in starts.iter().enumerate() {
        let gs = start_groups(labels, n, k).map_err(|m| {
            ColgenError::BadLabels(if starts.len() > 1 {
                format!("start partition {}: {m}", s + 1)
            } else {
                m
            })
        })?;
        for g in &gs {
            if known.insert(g.clone()) {
                groups.push(g.clone());
            }
        }
        partitions.push(gs);
    }
    let sse = |gs: &Vec<Vec<u32>>| gs.iter().map(|g| group_cost(x, d, g)).sum::<f64>();
    let best_start = partitions
        .into_iter()
        .min_by(|a, b| sse(a).total_cmp(&sse(b)))
        .expect("at least one start");
    Ok((groups, known, best_start))
}

/// The result of a finished run: the centre's duals split into record and cut duals, the
/// best value lowered to the claim a certificate verifies (P13), the counters.
fn finish(state: ColgenState) -> (ColgenBound, Master) {
    let ColgenState {
        mut out,
        centre,
        master,
        geo,
        n,
        d,
        start,
        ..
    } = state;
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
    (out, master)
}

/// After the time limit, on purpose (it measures the run, it does not take its time): the
/// run's columns as an unboxed, cut-free restricted master. A diagnostic: its failure is
/// reported as a warning, and the bound stands.
fn master_upper_after(
    n: usize,
    master: &Master,
    seconds: f64,
    obs: &mut dyn ColgenObserver,
) -> Option<master_upper::MasterUpper> {
    let solved = master_upper::restricted_master_value(n, &master.columns, &master.costs, seconds)
        .and_then(|u| u.ok_or(format!("not solved within {seconds} s")));
    match &solved {
        Ok(u) => obs.detail(format_args!(
            "colgen: restricted master without box or cuts: {u}"
        )),
        Err(e) => obs.warning(format_args!(
            "colgen: restricted master without box or cuts: {e}"
        )),
    }
    solved.ok()
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
