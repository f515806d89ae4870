//! # What a running bound reports
//!
//! The kernel prints nothing: a column-generation bound (and its phases, the ascents, the
//! weighted bound) sends what a user may want to see to a [`ColgenObserver`], and the
//! caller decides where it goes (the workbench prints it on stderr). Three kinds of report:
//! a [`ColgenProgress`] after every master iteration and phase, the start of each phase, a
//! new best certified value with the phase that found it, and text lines (details of a run with `progress` set, and
//! warnings that never end the bound). A closure `FnMut(&ColgenProgress)` is an observer of
//! the progress reports only; [`Quiet`] observes nothing.
//!
//! ## Complexity
//! O(1) per report besides what the observer does.
//!
//! ## References
//! None.

use super::schedule::Phase;
use super::ColgenProgress;
use std::fmt::Arguments;

/// Receives a bound's reports (module doc). Every method does nothing by default.
pub trait ColgenObserver {
    /// After every master iteration and every phase.
    fn progress(&mut self, _report: &ColgenProgress) {}
    /// A phase of the schedule starts.
    fn phase(&mut self, _phase: Phase) {}
    /// A new best certified Lagrangian value (before the final outward lowering of the
    /// claim), found by `phase`.
    fn certified(&mut self, _value: f64, _phase: &str) {}
    /// One line of detail (a master iteration, an ascent's check); sent only when the run
    /// asked for progress lines.
    fn detail(&mut self, _line: Arguments<'_>) {}
    /// Something failed that leaves the bound as it stands (e.g. HiGHS on an optional
    /// phase); always sent.
    fn warning(&mut self, _line: Arguments<'_>) {}
}

/// An observer that ignores every report.
#[derive(Debug, Clone, Copy, Default)]
pub struct Quiet;

impl ColgenObserver for Quiet {}

impl<F: FnMut(&ColgenProgress)> ColgenObserver for F {
    fn progress(&mut self, report: &ColgenProgress) {
        self(report)
    }
}

/// Passes every report to `inner` except the detail lines when `details` is false: what a
/// run without `progress` sends to its caller's observer.
pub(crate) struct Gated<'a> {
    pub inner: &'a mut dyn ColgenObserver,
    pub details: bool,
}

impl ColgenObserver for Gated<'_> {
    fn progress(&mut self, report: &ColgenProgress) {
        self.inner.progress(report)
    }
    fn phase(&mut self, phase: Phase) {
        self.inner.phase(phase)
    }
    fn certified(&mut self, value: f64, phase: &str) {
        self.inner.certified(value, phase)
    }
    fn detail(&mut self, line: Arguments<'_>) {
        if self.details {
            self.inner.detail(line)
        }
    }
    fn warning(&mut self, line: Arguments<'_>) {
        self.inner.warning(line)
    }
}

/// Keeps every line it receives (tests, and callers that want the lines as text).
#[derive(Debug, Clone, Default)]
pub struct Lines {
    /// Detail lines, in order.
    pub details: Vec<String>,
    /// Warning lines, in order.
    pub warnings: Vec<String>,
    /// (value, phase) of every new best certified value, in order.
    pub certified: Vec<(f64, String)>,
    /// Progress reports received.
    pub reports: usize,
    /// The phases started, in order.
    pub phases: Vec<Phase>,
}

impl ColgenObserver for Lines {
    fn progress(&mut self, _report: &ColgenProgress) {
        self.reports += 1;
    }
    fn phase(&mut self, phase: Phase) {
        self.phases.push(phase);
    }
    fn certified(&mut self, value: f64, phase: &str) {
        self.certified.push((value, phase.to_string()));
    }
    fn detail(&mut self, line: Arguments<'_>) {
        self.details.push(line.to_string());
    }
    fn warning(&mut self, line: Arguments<'_>) {
        self.warnings.push(line.to_string());
    }
}
