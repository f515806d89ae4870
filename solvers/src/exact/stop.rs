//! # When an exact search stops early
//!
//! A deadline and an optional flag set from outside (the workbench's Ctrl-C / SIGTERM flag):
//! the searches poll [`Stop::expired`] between LP solves and every few thousand enumeration
//! nodes, and HiGHS gets [`Stop::time_left`] as its own limit, so both hold within one LP
//! solve. A stopped search still returns its best partition and a certified bound.
//!
//! ## Complexity
//! O(1) per poll.
//!
//! ## References
//! None.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A deadline and/or an interrupt flag.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Stop<'a> {
    deadline: Option<Instant>,
    flag: Option<&'a AtomicBool>,
}

impl<'a> Stop<'a> {
    pub(crate) fn new(deadline: Option<Instant>, flag: Option<&'a AtomicBool>) -> Self {
        Stop { deadline, flag }
    }

    /// Interrupted, or past the deadline.
    pub(crate) fn expired(&self) -> bool {
        self.interrupted() || self.deadline.is_some_and(|t| Instant::now() >= t)
    }

    fn interrupted(&self) -> bool {
        self.flag.is_some_and(|f| f.load(Ordering::SeqCst))
    }

    /// Seconds to the deadline (None without one).
    pub(crate) fn time_left(&self) -> Option<f64> {
        self.deadline
            .map(|t| t.saturating_duration_since(Instant::now()).as_secs_f64())
    }

    /// Why the search stopped, for notes: "interrupted" or "time limit reached".
    pub(crate) fn reason(&self) -> &'static str {
        if self.interrupted() {
            "interrupted"
        } else {
            "time limit reached"
        }
    }
}
