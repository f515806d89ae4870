//! # Parameters of the colgen bounds
//!
//! The registry entries of the parameters `colgen` and `colgen-cuts` share (time limit,
//! start partition, progress), their defaults, and the k = 10 options.
//!
//! At k = 10 the column generation master does not converge within minutes; these options
//! (registry parameters of `colgen` and `colgen-cuts`, `microagg bound` flags) choose the
//! dual points where the exact per-anchor pricing certifies a bound (proofs/P20): a line
//! search from the nn duals (`nn_ascent`), a box-step ascent on the anchored bound
//! (`subgradient`), a line search toward the master's duals at the end (`lp_segment`) and
//! push-and-project steps after it (`push_project`), the anchor threshold of those searches
//! (`anchor_threshold`), interior point re-solves of the master (`ipm`), the share of the
//! time left to the final evaluations (`final_fraction`) and the certified Wentges smoothing
//! of the master loop (`certified_smoothing`, `smoothing`, `auto_smoothing`, `stop_early`)
//! and the re-certification of the best point at smaller thresholds (`tighten_fraction`),
//! push-and-project restarted along the start partition's slacks (`slack_push`), the
//! least-lowering projection of their candidates (`lp_projection`), and
//! the dual box of the master (`box_width`, the box step every stored k = 10 bound used),
//! and, after the bound, the run's columns as a restricted master without box or cuts
//! (`master_upper`: where the LP relaxation lies, an estimate, proofs/P09 Part D).
//! Each maps one-to-one onto a field of `ColgenOptions` (documented there).
//!
//! ## Complexity
//! O(1) per parameter.

use super::param::BoundParam;
use crate::error::{Error, Result};
use microagg_solvers::bounds::ColgenOptions;

/// Cut rounds of the `colgen-cuts` bound when the caller sets none: more than the 5-7 rounds
/// the CASC cases used before no violated triple remained or the time ran out
/// (studies/study-colgen.txt section 6); the time limit ends it earlier.
pub const COLGEN_CUTS_ROUNDS: usize = 50;

/// True for the bounds computed by column generation (`colgen`, `colgen-cuts`): those take
/// a start partition and write certificates.
pub fn is_colgen(name: &str) -> bool {
    name == "colgen" || name == "colgen-cuts"
}

/// Pipeline whose partition gives the colgen master its first columns.
pub const COLGEN_START: &str = "mdav+decompose-shrink";

/// Time limit of `colgen` in seconds when the caller gives none.
pub const COLGEN_DEFAULT_SECONDS: f64 = 60.0;

pub const COLGEN_TIME_LIMIT: BoundParam = BoundParam {
    key: "time_limit",
    default: "60",
    doc: "wall-clock seconds, the start pipeline included (run --bound: the run's limit)",
};
pub const COLGEN_START_PARAM: BoundParam = BoundParam {
    key: "start",
    default: "none",
    doc: "a labels file whose groups seed the master next to the mdav+decompose-shrink partition",
};
pub const COLGEN_PROGRESS: BoundParam = BoundParam {
    key: "progress",
    default: "false",
    doc: "one progress line per iteration on stderr",
};

pub const NN_ASCENT: BoundParam = BoundParam {
    key: "nn_ascent",
    default: "0",
    doc: "fraction of the time for a line search from the nn duals along the best start partition's slacks (anchored bound, proofs/P20; 0: none)",
};
pub const SUBGRADIENT: BoundParam = BoundParam {
    key: "subgradient",
    default: "0",
    doc: "fraction of the time for a box-step ascent on the anchored bound after the line search (0: none)",
};
pub const LP_SEGMENT: BoundParam = BoundParam {
    key: "lp_segment",
    default: "false",
    doc: "at the end, a line search from the best bound's duals toward the master's last duals (anchored bound)",
};
pub const PUSH_PROJECT: BoundParam = BoundParam {
    key: "push_project",
    default: "false",
    doc: "with lp_segment: push-and-project steps from the line search's best point, each certified (half of the final phase)",
};
pub const ANCHOR_THRESHOLD: BoundParam = BoundParam {
    key: "anchor_threshold",
    default: "0.005",
    doc: "anchor threshold tau of those searches as a fraction of best SSE / floor(n/k) (0: exact per-anchor minima; proofs/P20)",
};
pub const IPM: BoundParam = BoundParam {
    key: "ipm",
    default: "false",
    doc: "re-solve the master by interior point (no crossover): central duals",
};
pub const FINAL_FRACTION: BoundParam = BoundParam {
    key: "final_fraction",
    default: "0.25",
    doc: "fraction of the time kept for the final evaluations (lp_segment included)",
};

pub const CERTIFIED_SMOOTHING: BoundParam = BoundParam {
    key: "certified_smoothing",
    default: "false",
    doc: "after nn_ascent: certify every smoothed point alpha y_centre + (1 - alpha) y_LP by per-anchor pricing, add its negative groups, move the centre on improvement (proofs/P20)",
};
pub const SMOOTHING: BoundParam = BoundParam {
    key: "smoothing",
    default: "0.5",
    doc: "Wentges smoothing weight alpha of the stability centre, in [0, 1)",
};
pub const AUTO_SMOOTHING: BoundParam = BoundParam {
    key: "auto_smoothing",
    default: "false",
    doc: "with certified_smoothing: adapt alpha by the subgradient rule of Pessoa et al. (2018)",
};

pub const STOP_EARLY: BoundParam = BoundParam {
    key: "stop_early",
    default: "false",
    doc: "with certified_smoothing or push_project: stop a check once it provably cannot beat the best certified value (effort only; proofs/P20)",
};

pub const TIGHTEN_FRACTION: BoundParam = BoundParam {
    key: "tighten_fraction",
    default: "0",
    doc: "with lp_segment: fraction of the time limit, taken off push-and-project's end, that re-certifies the best point at smaller anchor thresholds (proofs/P20; 0: none)",
};

pub const SLACK_PUSH: BoundParam = BoundParam {
    key: "slack_push",
    default: "0",
    doc: "with lp_segment: fraction of the time limit, taken off push-and-project's end before the tightening's share, for push-and-project rounds from the best point along the best start partition's slacks, recomputed each round; with tighten_fraction below final_fraction (0: none)",
};

pub const POOL_MASTER: BoundParam = BoundParam {
    key: "pool_master",
    default: "0",
    doc: "with lp_segment: fraction of the time limit, taken off the final phase's end after the slack rounds and before the tightening's share, for an unboxed restricted master grown from the best point's negative groups whose midpoints with that point are certified (colgen::pool_master); with slack_push and tighten_fraction below final_fraction (0: none)",
};

pub const POOL_MASTER_MOVING_CENTRE: BoundParam = BoundParam {
    key: "pool_master_moving_centre",
    default: "false",
    doc: "with pool_master: each midpoint is taken with the last midpoint that raised the bound (a certified point) instead of with the phase's start point, so the midpoints close in on the master's duals",
};

pub const LP_PROJECTION: BoundParam = BoundParam {
    key: "lp_projection",
    default: "false",
    doc: "with push_project or slack_push: bring each candidate onto the pool's groups by the least total lowering (a covering LP, HiGHS) instead of cyclic projections; the checks certify whatever point results (proofs/P20)",
};

pub const BOX_WIDTH: BoundParam = BoundParam {
    key: "box_width",
    default: "0",
    doc: "dual box half-width around the stability centre, relative to its mean |y| (box step; 0: no box; with a box, smoothing is off)",
};

pub const MASTER_UPPER: BoundParam = BoundParam {
    key: "master_upper",
    default: "0",
    doc: "after the bound, seconds to solve the run's columns as a restricted master without box or cuts: its value lies above the LP relaxation (an estimate with HiGHS' tolerance, not a bound; proofs/P09 Part D; 0: not done)",
};

pub const MAX_ITERATIONS: BoundParam = BoundParam {
    key: "max_iterations",
    default: "10000",
    doc: "most master solves: the master phase ends there even with time left, and the final evaluations (line search, push-and-project, tightening) run (an integer >= 1)",
};

/// Values of the parameters above (None: the `ColgenOptions` default).
#[derive(Debug, Clone, Default)]
pub struct K10Options {
    pub nn_ascent: Option<f64>,
    pub subgradient: Option<f64>,
    pub lp_segment: bool,
    pub push_project: bool,
    pub anchor_threshold: Option<f64>,
    pub ipm: bool,
    pub final_fraction: Option<f64>,
    pub certified_smoothing: bool,
    pub smoothing: Option<f64>,
    pub auto_smoothing: bool,
    pub stop_early: bool,
    pub tighten_fraction: Option<f64>,
    pub slack_push: Option<f64>,
    pub pool_master: Option<f64>,
    pub pool_master_moving_centre: bool,
    pub lp_projection: bool,
    pub box_width: Option<f64>,
    pub master_upper: Option<f64>,
    pub max_iterations: Option<usize>,
}

impl K10Options {
    /// Set `key` from text; false when `key` is not one of these parameters. Ranges are
    /// checked by `ColgenOptions` when the bound runs.
    pub fn set(&mut self, name: &str, key: &str, value: &str) -> Result<bool> {
        let bad =
            |what: &str| Error::usage(format!("bound {name}: {key}={value}: expected {what}"));
        let fraction = || -> Result<Option<f64>> {
            let v: f64 = value.parse().map_err(|_| bad("a number in [0, 1)"))?;
            if !(0.0..1.0).contains(&v) {
                return Err(bad("a number in [0, 1)"));
            }
            Ok(Some(v))
        };
        let flag = || -> Result<bool> { value.parse().map_err(|_| bad("true or false")) };
        let finite_nonnegative = || -> Result<f64> {
            let v: f64 = value.parse().map_err(|_| bad("a finite number >= 0"))?;
            if !v.is_finite() || v < 0.0 {
                return Err(bad("a finite number >= 0"));
            }
            Ok(v)
        };
        match key {
            "nn_ascent" => self.nn_ascent = fraction()?,
            "subgradient" => self.subgradient = fraction()?,
            "anchor_threshold" => self.anchor_threshold = fraction()?,
            "final_fraction" => self.final_fraction = fraction()?,
            "lp_segment" => self.lp_segment = flag()?,
            "push_project" => self.push_project = flag()?,
            "ipm" => self.ipm = flag()?,
            "certified_smoothing" => self.certified_smoothing = flag()?,
            "auto_smoothing" => self.auto_smoothing = flag()?,
            "stop_early" => self.stop_early = flag()?,
            "smoothing" => self.smoothing = fraction()?,
            "tighten_fraction" => self.tighten_fraction = fraction()?,
            "slack_push" => self.slack_push = fraction()?,
            "pool_master" => self.pool_master = fraction()?,
            "pool_master_moving_centre" => self.pool_master_moving_centre = flag()?,
            "lp_projection" => self.lp_projection = flag()?,
            "box_width" => self.box_width = Some(finite_nonnegative()?),
            "master_upper" => self.master_upper = Some(finite_nonnegative()?),
            "max_iterations" => {
                let v: usize = value.parse().map_err(|_| bad("an integer >= 1"))?;
                if v == 0 {
                    return Err(bad("an integer >= 1"));
                }
                self.max_iterations = Some(v);
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Copy the values set into `opts`.
    pub fn apply(&self, opts: &mut ColgenOptions) {
        if let Some(v) = self.nn_ascent {
            opts.nn_ascent = v;
        }
        if let Some(v) = self.subgradient {
            opts.subgradient = v;
        }
        if let Some(v) = self.anchor_threshold {
            opts.anchor_threshold = v;
        }
        if let Some(v) = self.final_fraction {
            opts.final_fraction = v;
        }
        opts.lp_segment |= self.lp_segment;
        opts.push_project |= self.push_project;
        opts.ipm |= self.ipm;
        opts.certified_smoothing |= self.certified_smoothing;
        opts.auto_smoothing |= self.auto_smoothing;
        opts.stop_early |= self.stop_early;
        opts.lp_projection |= self.lp_projection;
        opts.pool_master_moving_centre |= self.pool_master_moving_centre;
        if let Some(v) = self.smoothing {
            opts.smoothing = v;
        }
        if let Some(v) = self.tighten_fraction {
            opts.tighten_fraction = v;
        }
        if let Some(v) = self.slack_push {
            opts.slack_push = v;
        }
        if let Some(v) = self.pool_master {
            opts.pool_master = v;
        }
        if let Some(v) = self.box_width {
            opts.box_width = v;
        }
        if let Some(v) = self.master_upper {
            opts.master_upper_seconds = v;
        }
        if let Some(v) = self.max_iterations {
            opts.max_iterations = v;
        }
    }
}
