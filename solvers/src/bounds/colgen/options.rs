//! # Options of the column generation bound
//!
//! [`ColgenOptions`]: every parameter of the bound with its default (`Default`, documented
//! field by field) and the checks of ranges and combinations each run makes first
//! ([`ColgenOptions::check`]; the phases' time shares are checked by [`TimeShares`]). What a
//! user sets, with its documentation, is the registry's (`colgen` and `colgen-cuts` in the
//! main crate's `certify/bound/colgen_entry.rs`).
//!
//! ## Complexity
//! O(1): a fixed set of fields.
//!
//! ## References
//! See the module doc of [`super`] (Aloise et al. 2014; Wentges 1997; du Merle et al. 1999;
//! Pessoa et al. 2018).

use super::{ColgenError, TimeShares};

/// Parameters of the column generation bound.
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
    /// One progress line per iteration (and per step of the ascents), sent to the observer of
    /// [`colgen_bound_stoppable`](super::colgen_bound_stoppable) (the workbench prints it on
    /// stderr).
    pub progress: bool,
    /// Evaluate the medoid-anchored Lagrangian bound ([`anchors`](super::anchors), proofs/P20):
    /// exact pricing with the incumbent reset at every anchor (slower per call), bound from the
    /// `floor(n/k)` most negative per-anchor minima; without cuts the search runs at the anchor
    /// threshold `tau` of `anchor_threshold` (then it never ends the column generation: a
    /// finished search proves only `rc >= tau`). With `box_width` and `nn_ascent`, the box
    /// starts around the line search's best point (box step).
    pub anchor_bound: bool,
    /// Fraction of the time limit for a line search from the nn duals along the slack direction
    /// of the best start partition ([`ascent`](super::ascent), before the column generation; 0:
    /// none). Its best point becomes the first stability centre.
    pub nn_ascent: f64,
    /// Fraction of the time limit for a subgradient ascent on the anchored bound after the
    /// line search ([`subgrad`](super::subgrad); 0: none), certified by exact per-anchor pricing.
    pub subgradient: f64,
    /// Anchor threshold of the ascent's exact pricing, as a fraction of `UB / floor(n/k)`
    /// ([`subgrad::SubgradOptions::threshold`](super::subgrad::SubgradOptions::threshold)).
    pub anchor_threshold: f64,
    /// At the end, a line search from the best bound's duals toward the master's last duals
    /// (anchored bound with `anchor_threshold`), before the final evaluation.
    pub lp_segment: bool,
    /// After that line search, push-and-project steps from its best point along the same
    /// direction ([`subgrad::push_project`](super::subgrad::push_project): candidates projected
    /// onto the master's columns and the negative groups met, each certified); takes half of
    /// the time left for the final phase from the line search.
    pub push_project: bool,
    /// Certified Wentges smoothing ([`smoothing`](super::smoothing)) instead of the heuristic
    /// loop when a certified centre exists (after `nn_ascent`): every smoothed point `alpha
    /// y_centre + (1 - alpha) y_LP` is certified by per-anchor exact pricing at the anchor
    /// threshold, its negative groups enter the master, a better value moves the centre.
    pub certified_smoothing: bool,
    /// With `certified_smoothing`: adapt `alpha` by the subgradient rule of Pessoa et al.
    /// (2018) instead of keeping `smoothing`.
    pub auto_smoothing: bool,
    /// With `certified_smoothing` or `push_project`: stop a check's search once its value
    /// provably cannot beat the best certified value
    /// ([`pricing::StopBelow`](super::pricing::StopBelow); effort only, every value stays
    /// valid).
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
    /// ([`subgrad::slack_push`](super::subgrad::slack_push); 0: none). The line search then
    /// takes at most half of the time before this share. With `tighten_fraction`, below
    /// `final_fraction`.
    pub slack_push: f64,
    /// With `lp_segment`: this fraction of the time limit (taken off the final phase's end,
    /// after the slack rounds and before the tightening's share) grows an unboxed restricted
    /// master from the best point's negative groups and certifies midpoints between that point
    /// and the master's duals
    /// ([`pool_master::pool_master_push`](super::pool_master::pool_master_push); 0: none). With
    /// `slack_push` and `tighten_fraction`, below `final_fraction`.
    pub pool_master: f64,
    /// The pool master's midpoints are taken with the last point that raised the bound instead
    /// of with its start
    /// ([`pool_master::PoolMasterSettings::moving_centre`](super::pool_master::PoolMasterSettings::moving_centre)).
    pub pool_master_moving_centre: bool,
    /// Push-and-project and the slack rounds bring each candidate onto the pool's groups by the
    /// least total lowering (a covering LP,
    /// [`subgrad::GroupPool::project_lp`](super::subgrad::GroupPool::project_lp)) instead of
    /// cyclic projections: the candidates keep more of `sum y` (study-colgen.txt 18-lp).
    pub lp_projection: bool,
    /// After the bound, solve the run's columns as a restricted master without box and cuts
    /// within this many further seconds ([`master_upper`](super::master_upper): a value above
    /// the LP relaxation's optimum, an estimate; 0: not done).
    pub master_upper_seconds: f64,
    /// Before the column generation, column generation on an aggregated master whose rows are
    /// super-points (identical records, and records the start partitions keep together), split
    /// where negative columns cut them ([`phases::aggregate`](super::phases::aggregate),
    /// proofs/P24); its columns then seed the full master.
    pub aggregate: bool,
    /// The du Merle box around each record's dual estimated from the best start partition
    /// ([`incumbent_box`](super::incumbent_box): the cost of removing it from its group and of
    /// adding it to the nearest other group) instead of the uniform box around the nn duals, in
    /// the full master and (with `aggregate`) the aggregated one. Needs `box_width > 0`.
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
