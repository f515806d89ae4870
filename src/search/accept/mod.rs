//! # Acceptance rules
//!
//! After a perturbation and descent, a search decides whether to keep the new partition or
//! undo it. An [`Accept`] makes that decision from the SSE before and the change `delta`;
//! it is told the start and, after every iteration, the SSE reached and the share of the
//! budget used, so that schedules (a cooling temperature, a history of costs) live inside
//! the rule and not in the search that uses it. ILS composes a perturbation, a descent and
//! one of these; a new rule is one file here (see the README, "Adding a refinement idea").
//!
//! - [`Improving`]: keep what does not raise the SSE (beyond rounding);
//! - `metropolis::Annealing`: Metropolis acceptance at a temperature cooled over the
//!   budget (ILS's default); `metropolis::Metropolis` the rule alone (SA);
//! - `late_acceptance::LateAcceptance`: late-acceptance hill climbing (`lahc` is ILS
//!   with it).
//!
//! [`builtin`] registers them as parts (`ils.accept = { NAME = {..} }`); a user's crate
//! adds its own to the [`Registry`](crate::registry::Registry).
//!
//! ```
//! use microagg::search::accept::{Accept, Improving};
//! use rand::SeedableRng;
//! let mut rng = microagg::rng::Rng::seed_from_u64(0);
//! let mut rule = Improving::default();
//! rule.start(10.0, 4, None);
//! assert!(rule.accept(10.0, -0.5, &mut rng));
//! assert!(!rule.accept(10.0, 0.5, &mut rng));
//! ```
//!
//! ## Complexity
//! O(1) per decision for every rule here.
//!
//! ## References
//! - Lourenco, H. R., Martin, O. C. and Stutzle, T. (2003). Iterated local search. In
//!   Handbook of Metaheuristics, Kluwer, 321-353 (acceptance criteria of ILS).

pub(crate) mod late_acceptance;
pub(crate) mod metropolis;

use super::kit::AcceptInfo;
use crate::params::NoParams;
use crate::rng::Rng;

/// Decides whether a search keeps a changed partition.
pub trait Accept: Send {
    fn name(&self) -> &'static str;
    /// Called once before the first decision, with the SSE and number of groups of the
    /// start and the share of the budget used (`None` when the stage runs without a time
    /// limit or step budget).
    fn start(&mut self, sse: f64, groups: usize, progress: Option<f64>);
    /// Keep the change from `before` to `before + delta`? May draw from `rng`.
    fn accept(&mut self, before: f64, delta: f64, rng: &mut Rng) -> bool;
    /// Called after every iteration with the SSE then current and the share of the budget
    /// used ([`Ctx::progress`](crate::method::Ctx::progress)).
    fn after(&mut self, _current: f64, _progress: Option<f64>) {}
}

/// The rounding allowance of a non-worsening test: `1e-12` of the SSE (at least of 1).
#[inline]
pub(crate) fn tolerance(before: f64) -> f64 {
    1e-12 * before.abs().max(1.0)
}

/// Keep every change that does not raise the SSE beyond `tolerance`.
#[derive(Debug, Clone, Default)]
pub struct Improving;

impl Accept for Improving {
    fn name(&self) -> &'static str {
        "improving"
    }
    fn start(&mut self, _sse: f64, _groups: usize, _progress: Option<f64>) {}
    fn accept(&mut self, before: f64, delta: f64, _rng: &mut Rng) -> bool {
        delta <= tolerance(before)
    }
}

/// The acceptance rules of this folder, as registry parts.
pub fn builtin() -> Vec<AcceptInfo> {
    vec![
        AcceptInfo::with_params(
            "annealing",
            "Metropolis acceptance at a temperature cooled over the budget (ILS's default)",
            |p: metropolis::AnnealingParams| {
                Box::new(metropolis::Annealing::new(
                    p.temperature,
                    p.cooling,
                    p.end_ratio,
                ))
            },
        ),
        AcceptInfo::with_params(
            "late_acceptance",
            "keep a change when its SSE is at most the current one or the one of L iterations ago",
            |p: late_acceptance::LateAcceptanceParams| {
                Box::new(late_acceptance::LateAcceptance::new(p.length))
            },
        ),
        AcceptInfo::with_params(
            "improving",
            "keep every change that does not raise the SSE",
            |_: NoParams| Box::new(Improving),
        ),
    ]
}
