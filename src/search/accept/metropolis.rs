//! # Metropolis acceptance
//!
//! `Metropolis`: keep a change of `delta` when it does not raise the SSE beyond a
//! tolerance, else with probability exp(-delta / T) (one uniform draw, only when T > 0).
//! `Annealing` adds the schedule ILS uses: T starts at `temperature` x (SSE / groups);
//! under a budget (time or steps) it falls geometrically with the share of the budget
//! used, T = T0 x `end_ratio`^progress, so the whole budget is one annealing run (by steps
//! it repeats bit for bit); without a budget the run starts at the cold end,
//! T0 x `end_ratio`, and T is multiplied by `cooling` after every iteration.
//!
//! ## Complexity
//! O(1) per decision (one `exp` and one draw for a worsening change).
//!
//! ## References
//! - Metropolis, N., Rosenbluth, A. W., Rosenbluth, M. N., Teller, A. H. and Teller, E.
//!   (1953). Equation of state calculations by fast computing machines. Journal of Chemical
//!   Physics 21(6), 1087-1092.
//! - Kirkpatrick, S., Gelatt, C. D. and Vecchi, M. P. (1983). Optimization by simulated
//!   annealing. Science 220(4598), 671-680.

use super::{tolerance, Accept};
use crate::rng::Rng;
use rand::Rng as _;
use serde::{Deserialize, Serialize};

/// The Metropolis rule at temperature `temperature`.
#[derive(Debug, Clone)]
pub(crate) struct Metropolis {
    pub temperature: f64,
    /// ILS's form: allow the rounding [`tolerance`] for non-worsening changes and draw
    /// nothing at T = 0 (a plain descent). SA's form (false): no tolerance, and a draw for
    /// every worsening change (SA's T stays positive).
    pub tolerant: bool,
}

impl Metropolis {
    /// Keep the change from `before` to `before + delta`?
    #[inline]
    pub fn accept(&self, before: f64, delta: f64, rng: &mut Rng) -> bool {
        let t = self.temperature;
        if self.tolerant {
            delta <= tolerance(before) || (t > 0.0 && rng.random::<f64>() < (-delta / t).exp())
        } else {
            delta <= 0.0 || rng.random::<f64>() < (-delta / t).exp()
        }
    }
}

/// Parameters of `annealing` (ILS's flat keys of the same names set them too).
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub(crate) struct AnnealingParams {
    pub temperature: f64,
    pub cooling: f64,
    pub end_ratio: f64,
}

impl Default for AnnealingParams {
    fn default() -> Self {
        AnnealingParams {
            temperature: 0.1,
            cooling: 0.99999,
            end_ratio: 0.01,
        }
    }
}

impl crate::params::Params for AnnealingParams {
    const DOC: &'static [(&'static str, &'static str)] = &[
        ("temperature", "temperature at the start, as a fraction of the mean group SSE; 0 = accept only non-worsening (default 0.1; without a budget the run starts at temperature x end_ratio)"),
        ("cooling", "without a budget: factor applied to the temperature every iteration (default 0.99999)"),
        ("end_ratio", "under a budget the temperature falls geometrically to this fraction of its start at the budget's end; without one the run starts at this fraction (default 0.01)"),
    ];
    fn check(&self) -> Result<(), String> {
        check_schedule(self.temperature, self.end_ratio, self.cooling)
    }
}

/// The checks of an annealing schedule: a finite temperature of at least 0, `end_ratio` and
/// `cooling` in (0, 1] (ILS checks its own schedule keys with it).
pub(crate) fn check_schedule(temperature: f64, end_ratio: f64, cooling: f64) -> Result<(), String> {
    if !(temperature >= 0.0 && temperature.is_finite()) {
        return Err("temperature must be finite and >= 0".into());
    }
    if !(end_ratio > 0.0 && end_ratio <= 1.0) {
        return Err("end_ratio must be in (0, 1]".into());
    }
    if !(cooling > 0.0 && cooling <= 1.0) {
        return Err("cooling must be in (0, 1]".into());
    }
    Ok(())
}

/// Metropolis acceptance with a budget-driven geometric schedule (ILS).
#[derive(Debug, Clone)]
pub(crate) struct Annealing {
    /// Start temperature as a fraction of the mean group SSE.
    pub temperature: f64,
    /// Without a budget: factor applied to T after every iteration.
    pub cooling: f64,
    /// Under a budget: T at its end as a fraction of T0; without one: T at the start.
    pub end_ratio: f64,
    t0: f64,
    rule: Metropolis,
}

impl Annealing {
    pub fn new(temperature: f64, cooling: f64, end_ratio: f64) -> Self {
        Annealing {
            temperature,
            cooling,
            end_ratio,
            t0: 0.0,
            rule: Metropolis {
                temperature: 0.0,
                tolerant: true,
            },
        }
    }
}

impl Accept for Annealing {
    fn name(&self) -> &'static str {
        "annealing"
    }
    fn start(&mut self, sse: f64, groups: usize, progress: Option<f64>) {
        // Without a budget there is no schedule to run down: start at its cold end.
        let scale = if progress.is_some() {
            1.0
        } else {
            self.end_ratio
        };
        self.t0 = scale * self.temperature * sse / groups.max(1) as f64;
        self.rule.temperature = self.t0;
    }
    fn accept(&mut self, before: f64, delta: f64, rng: &mut Rng) -> bool {
        self.rule.accept(before, delta, rng)
    }
    fn after(&mut self, _current: f64, progress: Option<f64>) {
        self.rule.temperature = match progress {
            Some(f) => self.t0 * self.end_ratio.powf(f),
            None => self.rule.temperature * self.cooling,
        };
    }
}
