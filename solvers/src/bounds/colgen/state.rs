//! # The state a column-generation run shares between its phases
//!
//! [`ColgenState`] holds what the phases of [`super::schedule`] read and change: the data and
//! its [`Geometry`], the options, the restricted master with its known groups and column
//! ages, the dual box, the stability centre (the duals of the best certified bound), the
//! best start partition, the points the final phases pass on to each other, and the
//! [`ColgenBound`] being filled (best certified value, counters, time accounting). Every
//! change of the best certified value goes through [`ColgenState::take`], which reports it
//! to the observer.
//!
//! ## Complexity
//! Building the state: O(n + columns) besides the master (one HiGHS model).
//!
//! ## References
//! proofs/P09 (every certified value is a valid bound whatever the duals).

use super::cuts::{self, CutDuals};
use super::master::Master;
use super::observer::ColgenObserver;
use super::pricing::{weak_rc_bound, Anchors, ExactBudget, ExactSearch, Geometry};
use super::subgrad::{Ascent, GroupPool};
use super::ColgenProgress;
use super::{anchors, lagrangian_with_cuts, rc_margin, ColgenBound, ColgenError, ColgenOptions};
use crate::deadline::Deadline;
use std::collections::HashSet;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// What the line search toward the master's duals leaves to the phases after it.
#[derive(Debug, Clone)]
pub struct Segment {
    /// The line search's start (the best point before it).
    pub from: Vec<f64>,
    /// Its direction: the master's duals clipped to `[0, 4 max(from)]`, minus `from`.
    pub h: Vec<f64>,
    /// The step and point of its best value, and that value.
    pub step: f64,
    pub duals: Vec<f64>,
    pub lower_bound: f64,
}

/// The checked inputs of a run: the data, the options, the start partitions' distinct
/// groups (`known` holds them) and the one of least SSE.
pub(super) struct ColgenSetup<'a> {
    pub x: &'a [f64],
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub opts: &'a ColgenOptions,
    pub interrupt: Option<&'a AtomicBool>,
    pub start: Instant,
    pub groups: Vec<Vec<u32>>,
    pub known: HashSet<Vec<u32>>,
    pub best_start: Vec<Vec<u32>>,
}

/// The state of one run (module doc).
pub struct ColgenState<'a> {
    pub x: &'a [f64],
    pub n: usize,
    pub d: usize,
    pub k: usize,
    pub opts: &'a ColgenOptions,
    pub interrupt: Option<&'a AtomicBool>,
    /// When the run started, and its end (with the caller's stop flag).
    pub start: Instant,
    pub deadline: Deadline<'a>,
    pub geo: Geometry,
    /// The result being filled: best certified value, counters, seconds.
    pub out: ColgenBound,
    pub master: Master,
    /// Groups in the master (or dropped from it and not generated again).
    pub known: HashSet<Vec<u32>>,
    /// Consecutive solves each column spent with a positive reduced cost; the first
    /// `fixed` columns (the start partitions') are never dropped.
    pub idle: Vec<usize>,
    pub fixed: usize,
    /// Dual box around `box_centre` with half-widths `delta` (`boxed`: `box_width > 0`).
    pub boxed: bool,
    pub box_centre: Vec<f64>,
    pub delta: Vec<f64>,
    /// The stability centre: the duals of the best certified bound (record duals, then the
    /// duals of the first cuts, as many as there were then).
    pub centre: Option<Vec<f64>>,
    /// The start partition of least SSE and that SSE.
    pub best_start: Vec<Vec<u32>>,
    pub ub: f64,
    /// Anchor threshold of the anchored searches (P20 "The threshold"; 0: none).
    pub tau: f64,
    /// `floor(n/k)` and the most columns added per iteration.
    pub groups_max: usize,
    pub cap: usize,
    /// Smoothing weight (halved on every mispricing) and the last separation point.
    pub alpha: f64,
    pub y_sep_prev: Option<Vec<f64>>,
    /// The master's last duals (record duals, then cut duals).
    pub last_y: Vec<f64>,
    /// Whether certified smoothing ran (it replaces the heuristic loop).
    pub smoothed: bool,
    /// The master's duals the final phases start from (None: no final phases).
    pub y_final: Option<Vec<f64>>,
    /// The line search toward the master's duals, once it ran and found a point.
    pub segment: Option<Segment>,
    /// Groups met by the final ascents (seeded with the master's columns).
    pub pool: Option<GroupPool>,
}

impl<'a> ColgenState<'a> {
    /// The state at the start of a run: the master over the start groups (in a box around
    /// the nn duals when `box_width > 0`, whose bound is then the first certified value).
    pub(super) fn new(
        setup: ColgenSetup<'a>,
        geo: Geometry,
        out: ColgenBound,
        deadline: Deadline<'a>,
    ) -> Result<Self, ColgenError> {
        let ColgenSetup {
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
        } = setup;
        let costs: Vec<f64> = groups.iter().map(|g| group_cost(x, d, g)).collect();
        let fixed = groups.len();
        let boxed = opts.box_width > 0.0;
        // First box centre: the nn duals y_i = NN_{k-1}(i) / (2k), dual feasible for every
        // group of at least k records (P09 part C), so LB(y_nn) = sum y_nn = the nn bound.
        let box_centre: Vec<f64> = (0..n).map(|i| geo.nn(i, k - 1) / (2 * k) as f64).collect();
        let mean_abs = box_centre.iter().map(|v| v.abs()).sum::<f64>() / n as f64;
        let delta = vec![opts.box_width * mean_abs.max(f64::MIN_POSITIVE); n];
        let boxing = boxed.then_some((&box_centre[..], &delta[..]));
        let mut master = Master::new(n, groups, costs, boxing).map_err(ColgenError::Lp)?;
        master.ipm = opts.ipm;
        let groups_max = n / k;
        let ub: f64 = best_start.iter().map(|g| group_cost(x, d, g)).sum();
        let mut state = ColgenState {
            x,
            n,
            d,
            k,
            opts,
            interrupt,
            start,
            deadline,
            geo,
            out,
            master,
            known,
            idle: vec![0; fixed],
            fixed,
            boxed,
            box_centre,
            delta,
            centre: None,
            best_start,
            ub,
            tau: -(opts.anchor_threshold * ub.abs() / groups_max.max(1) as f64),
            groups_max,
            cap: match opts.max_columns_per_iteration {
                0 => n,
                c => c,
            },
            alpha: if boxed { 0.0 } else { opts.smoothing },
            y_sep_prev: None,
            last_y: Vec::new(),
            smoothed: false,
            y_final: None,
            segment: None,
            pool: None,
        };
        if boxed {
            state.certify_box_centre();
        }
        Ok(state)
    }

    /// The first box centre's bound, certified by the weak pricing bound alone.
    fn certify_box_centre(&mut self) {
        let y = &self.box_centre;
        let rc_lb = weak_rc_bound(&self.geo, y).min(0.0);
        let none = CutDuals::none();
        self.out.lagrangian =
            lagrangian_with_cuts(&self.geo, y, self.d, &none, self.groups_max, rc_lb);
        self.out.last_pricing_gap = self.groups_max as f64 * rc_lb;
        self.centre = Some(self.box_centre.clone());
    }

    /// The SSE of group `g`.
    pub fn cost(&self, g: &[u32]) -> f64 {
        group_cost(self.x, self.d, g)
    }

    /// The report sent to the observer now.
    pub fn report(&self) -> ColgenProgress {
        ColgenProgress::of(&self.out, self.start)
    }

    /// Take `value`, certified at cut-free duals `duals` with anchor threshold `tau`, as the
    /// best bound and the centre when it beats the best so far (told to `obs` as found by
    /// `phase`); returns whether it did.
    pub fn take(
        &mut self,
        value: f64,
        duals: Vec<f64>,
        tau: f64,
        phase: &str,
        obs: &mut dyn ColgenObserver,
    ) -> bool {
        if value <= self.out.lagrangian {
            return false;
        }
        self.out.lagrangian = value;
        self.out.anchor_threshold = tau;
        self.out.last_pricing_gap = value - duals.iter().sum::<f64>();
        self.out.pricing_exact = false;
        self.centre = Some(duals);
        obs.certified(value, phase);
        true
    }

    /// Count a certified ascent's checks, report its result (`what`) and take its best point
    /// (certified at its threshold `asc.tau`).
    pub fn take_ascent(&mut self, asc: Ascent, what: &str, obs: &mut dyn ColgenObserver) {
        self.out.exact_calls += asc.checks.len();
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
        obs.detail(format_args!(
            "colgen: {:7.1} s  {what}: bound {:.6} ({counts})",
            self.start.elapsed().as_secs_f64(),
            asc.lower_bound,
        ));
        self.take(asc.lower_bound, asc.duals, asc.tau, what, obs);
    }

    /// Evaluate the Lagrangian bound at the duals `yc` (record duals, then the duals of the
    /// first cuts of the master) within `until`, the exact search stopping after
    /// `stop_after` negative columns; the centre moves there when the bound improves.
    /// Returns (columns found, whether the search proved the pricing minimum, improved).
    pub fn evaluate(
        &mut self,
        yc: &[f64],
        until: Deadline,
        stop_after: usize,
        obs: &mut dyn ColgenObserver,
    ) -> (Vec<(f64, Vec<u32>)>, bool, bool) {
        let t = Instant::now();
        let (n, d, opts) = (self.n, self.d, self.opts);
        let (y, sigma) = yc.split_at(n);
        let triples: &[cuts::Cut] = &self.master.cuts;
        let cd = CutDuals::new(n, &triples[..sigma.len()], sigma);
        let geo = &self.geo;
        let weak = weak_rc_bound(geo, y);
        let budget = ExactBudget {
            nodes: opts.exact_nodes,
            deadline: until,
            max_columns: self.cap,
            stop_after_columns: stop_after,
        };
        let mut per_size = Vec::new();
        // The anchored search takes the threshold tau (P20) while there are no cuts; then a
        // finished search proves only `rc >= tau`, so it cannot end the column generation.
        let at_tau = if opts.anchor_bound && sigma.is_empty() {
            self.tau
        } else {
            0.0
        };
        let anchors = if opts.anchor_bound {
            // Sizes above k completed from size k when nothing is below tau there (P20).
            let margin = rc_margin(geo, y, d, &cd);
            Anchors::Complete {
                threshold: at_tau,
                margin,
            }
        } else {
            Anchors::Shared
        };
        let ex = ExactSearch::new(&cd)
            .anchors(anchors)
            .run(geo, y, budget, &mut per_size);
        self.out.exact_calls += 1;
        self.out.exact_nodes += ex.nodes;
        let rc_lb = weak.max(ex.rc_lower_bound).min(0.0);
        let mut lb = lagrangian_with_cuts(geo, y, d, &cd, self.groups_max, rc_lb);
        if opts.anchor_bound {
            let anchored = anchors::anchored_best(geo, y, d, &cd, &per_size, weak);
            obs.detail(format_args!(
                "colgen: anchored bound {anchored:.6} (plain {lb:.6})"
            ));
            lb = lb.max(anchored);
        }
        let improved = lb > self.out.lagrangian;
        if improved {
            self.out.lagrangian = lb;
            self.out.anchor_threshold = at_tau;
            self.out.last_pricing_gap = self.groups_max as f64 * rc_lb;
            self.out.pricing_exact = ex.exact;
            // Cut duals as used (positive ones taken as 0).
            let mut kept = y.to_vec();
            kept.extend(cd.sigma());
            self.centre = Some(kept);
            obs.certified(lb, "exact pricing");
        }
        self.out.exact_seconds += t.elapsed().as_secs_f64();
        (ex.columns, ex.exact && at_tau == 0.0, improved)
    }

    /// The per-iteration detail line (`added` columns, smoothing weight `alpha`).
    pub fn detail_line(&self, added: usize, obs: &mut dyn ColgenObserver) {
        let out = &self.out;
        obs.detail(format_args!(
            "colgen: {:7.1} s  it {:5}  lp {:.6}  lagrangian {}  +{added} cols  \
             alpha {:.3}  (lp {:.1} s, heuristic {:.1} s, exact {:.1} s, {} calls)",
            self.start.elapsed().as_secs_f64(),
            out.iterations,
            out.lp_value,
            shown(out.lagrangian),
            self.alpha,
            out.lp_seconds,
            out.heuristic_seconds,
            out.exact_seconds,
            out.exact_calls,
        ));
    }

    /// The best point so far when it has no cut duals (the final ascents take only those).
    pub fn cut_free_centre(&self) -> Option<Vec<f64>> {
        self.centre.clone().filter(|y| y.len() == self.n)
    }

    /// For the phases that restart from the line search's best point: None without a line
    /// search; otherwise the group pool is seeded with the master's columns (if no phase
    /// did it before), and when the best point has no cut duals, what those phases start
    /// from ([`PooledStart`]).
    pub fn pooled_start(&mut self) -> Option<PooledStart<'_>> {
        self.segment.as_ref()?;
        let centre = self.cut_free_centre();
        let (geo, columns) = (&self.geo, &self.master.columns);
        let pool = self
            .pool
            .get_or_insert_with(|| GroupPool::seeded(geo, columns));
        Some(PooledStart {
            y: centre?,
            value: self.out.lagrangian,
            geo,
            x: self.x,
            d: self.d,
            groups: &self.best_start,
            pool,
        })
    }
}

/// What the phases restarting from the line search's best point start from
/// ([`ColgenState::pooled_start`]).
pub struct PooledStart<'s> {
    /// The best certified point (no cut duals) and its value.
    pub y: Vec<f64>,
    pub value: f64,
    pub geo: &'s Geometry,
    pub x: &'s [f64],
    pub d: usize,
    /// The groups of the best start partition.
    pub groups: &'s [Vec<u32>],
    /// The run's group pool, seeded with the master's columns.
    pub pool: &'s mut GroupPool,
}

/// The SSE of group `g` of the records of `x` (`d` columns): a column's cost.
pub(super) use crate::sse::ids_sse as group_cost;

/// A Lagrangian value for a progress line: "none yet" before the first one.
fn shown(v: f64) -> String {
    if v.is_finite() {
        format!("{v:.6}")
    } else {
        "none yet".to_string()
    }
}
