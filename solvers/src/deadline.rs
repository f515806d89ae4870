//! # One deadline for a whole bound, with the caller's stop flag
//!
//! A bound's phases and searches each stop at their own time (a share of the limit, a
//! third of what is left, ...), but all of them lie inside one limit: the command's. A
//! [`Deadline`] carries the three things a loop asks about: its own soft end (`at`), the
//! command's hard end, and the caller's stop flag (the workbench's Ctrl-C / SIGTERM flag).
//! A loop polls [`Deadline::passed`] (its own end, the hard end, or the flag); a search that
//! has spent its budget but would still sweep cheap bounds over what it did not search
//! polls [`Deadline::stopped`] (only the hard end or the flag), which tells it to give up the
//! sweep and return the weaker valid value it holds. Derived deadlines ([`Deadline::part`],
//! [`Deadline::until`]) keep the hard end and the flag, so a limit is never summed from
//! phase shares.
//!
//! ## Complexity
//! O(1) per poll: an atomic load and at most one clock read.
//!
//! ## References
//! None.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// A soft end, an optional hard end and an optional stop flag (module doc).
#[derive(Clone, Copy, Debug)]
pub struct Deadline<'a> {
    at: Instant,
    hard: Option<Instant>,
    flag: Option<&'a AtomicBool>,
}

impl From<Instant> for Deadline<'static> {
    /// A soft end alone: no hard end, no flag (what a plain `Instant` deadline was).
    fn from(at: Instant) -> Self {
        Deadline {
            at,
            hard: None,
            flag: None,
        }
    }
}

impl<'a> Deadline<'a> {
    /// The deadline of a whole computation: `at` is both its soft and its hard end, and
    /// `flag` (once set) stops it as if `at` had passed.
    pub fn command(at: Instant, flag: Option<&'a AtomicBool>) -> Self {
        Deadline {
            at,
            hard: Some(at),
            flag,
        }
    }

    /// This deadline `seconds` from now (the hard end and the flag kept; never later than
    /// the hard end).
    pub fn after(&self, seconds: f64) -> Self {
        self.until(Instant::now() + Duration::from_secs_f64(seconds.clamp(0.0, 1e9)))
    }

    /// This deadline ending at `t` instead (never later than the hard end).
    pub fn until(&self, t: Instant) -> Self {
        Deadline {
            at: self.hard.map_or(t, |h| t.min(h)),
            ..*self
        }
    }

    /// This deadline ending at the earlier of its end and `t`.
    pub fn earlier(&self, t: Instant) -> Self {
        self.until(t.min(self.at))
    }

    /// This deadline ending after `fraction` of the time left to it.
    pub fn part(&self, fraction: f64) -> Self {
        let now = Instant::now();
        self.until(now + self.at.saturating_duration_since(now).mul_f64(fraction))
    }

    /// The stop flag, for solvers that poll it themselves (HiGHS' interrupt callback).
    pub fn flag(&self) -> Option<&'a AtomicBool> {
        self.flag
    }

    /// The soft end.
    pub fn instant(&self) -> Instant {
        self.at
    }

    /// The flag was set.
    pub fn interrupted(&self) -> bool {
        self.flag.is_some_and(|f| f.load(Ordering::Relaxed))
    }

    /// The flag was set or the hard end passed: everything stops.
    pub fn stopped(&self) -> bool {
        self.interrupted() || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// The soft end passed, or [`Deadline::stopped`].
    pub fn passed(&self) -> bool {
        self.interrupted() || Instant::now() >= self.at
    }

    /// Time left to the soft end (zero once the flag is set).
    pub fn left(&self) -> Duration {
        if self.interrupted() {
            Duration::ZERO
        } else {
            self.at.saturating_duration_since(Instant::now())
        }
    }

    /// [`Deadline::left`] in seconds.
    pub fn seconds_left(&self) -> f64 {
        self.left().as_secs_f64()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_deadlines_keep_the_hard_end_and_the_flag() {
        let flag = AtomicBool::new(false);
        let now = Instant::now();
        let d = Deadline::command(now + Duration::from_secs(100), Some(&flag));
        let later = d.until(now + Duration::from_secs(1000));
        assert_eq!(later.instant(), d.instant(), "never past the hard end");
        let half = d.part(0.5);
        assert!(half.instant() < d.instant() && !half.passed());
        flag.store(true, Ordering::SeqCst);
        assert!(half.passed() && half.stopped() && later.stopped());
        assert_eq!(half.left(), Duration::ZERO);
        // A plain instant: soft only, never stopped.
        let soft: Deadline = (now - Duration::from_millis(1)).into();
        assert!(soft.passed() && !soft.stopped());
    }
}
