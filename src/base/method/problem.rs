//! # What an initializer is given
//!
//! [`Problem`]: an instance with a k checked for it once (2 <= k <= n), so no initializer
//! checks k again. [`BuildCtx`]: the stage's random stream and its [`StopRule`] (the
//! run's Ctrl-C flag and deadline), which an initializer reads between its groups and
//! answers with [`Error::Interrupted`](crate::error::Error::Interrupted), never a partial
//! partition.
//!
//! ## Complexity
//! O(1); [`StopRule::requested`] reads one atomic flag and, under a deadline, the clock.
//!
//! ## References
//! - linfa (Rust machine-learning toolkit): `Params -> check() -> ValidParams`, here an
//!   (instance, k) pair checked once.

use crate::data::Instance;
use crate::error::Result;
use crate::rng::Rng;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// An instance and a group size k with 2 <= k <= n ([`Instance::check_k`]).
#[derive(Clone, Copy, Debug)]
pub struct Problem<'a> {
    inst: &'a Instance,
    k: usize,
}

impl<'a> Problem<'a> {
    /// The problem of grouping `inst` into groups of at least `k` records; a usage error
    /// naming the instance when k is below 2 or above n.
    pub fn new(inst: &'a Instance, k: usize) -> Result<Self> {
        inst.check_k(k)?;
        Ok(Problem { inst, k })
    }

    pub fn inst(&self) -> &'a Instance {
        self.inst
    }

    /// The minimum group size, 2 <= k <= n.
    pub fn k(&self) -> usize {
        self.k
    }
}

/// When a construction must stop: the run's Ctrl-C flag and/or its deadline.
#[derive(Clone, Copy, Debug, Default)]
pub struct StopRule<'a> {
    interrupt: Option<&'a AtomicBool>,
    deadline: Option<Instant>,
}

impl<'a> StopRule<'a> {
    /// Never stops (a step inside a larger method, a reading study, a test).
    pub const NEVER: StopRule<'static> = StopRule {
        interrupt: None,
        deadline: None,
    };

    /// Stops once `interrupt` is set or `deadline` has passed.
    pub fn new(interrupt: &'a AtomicBool, deadline: Option<Instant>) -> Self {
        StopRule {
            interrupt: Some(interrupt),
            deadline,
        }
    }

    /// True once the flag is set or the deadline has passed.
    pub fn requested(&self) -> bool {
        self.interrupt.is_some_and(|f| f.load(Ordering::Relaxed))
            || self.deadline.is_some_and(|d| Instant::now() >= d)
    }
}

/// An initializer's context: the stage's random stream and when to stop.
pub struct BuildCtx<'a> {
    pub rng: &'a mut Rng,
    stop: StopRule<'a>,
}

impl<'a> BuildCtx<'a> {
    /// A context that never stops.
    pub fn new(rng: &'a mut Rng) -> Self {
        BuildCtx {
            rng,
            stop: StopRule::NEVER,
        }
    }

    /// A context that stops by `stop`.
    pub(crate) fn with_stop(rng: &'a mut Rng, stop: StopRule<'a>) -> Self {
        BuildCtx { rng, stop }
    }

    /// The stop rule, for the engine to check between groups.
    pub fn stop(&self) -> StopRule<'a> {
        self.stop
    }
}
