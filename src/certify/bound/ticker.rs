//! # Progress of a running bound
//!
//! What `microagg bound` and an experiment's bound phase show while a bound runs: the best
//! certified bound so far (never `-inf`: before the first Lagrangian bound it is the nn
//! bound, said so), its gap to the start partition when there is one, and the time spent.
//! A line at most every `Ticker::EVERY` seconds, and only where someone reads it: on a
//! terminal, or when asked (`--progress`); quiet otherwise or with `--quiet`, so logs and pipes
//! stay clean ([`crate::progress::Show`]).
//! As the kernel's observer it also prints the kernel's detail lines (sent only when
//! `--progress` asked for them) and its warnings.
//!
//! ## Complexity
//! O(1) per report.
//!
//! ## References
//! None.

use microagg_solvers::bounds::colgen::{ColgenObserver, ColgenProgress};
use std::fmt::Arguments;
use std::time::Instant;

/// Prints a colgen kernel's reports (module doc).
pub(crate) struct Ticker {
    on: bool,
    started: Instant,
    last: Option<Instant>,
    /// SSE of the start partition, for the gap.
    start_sse: Option<f64>,
}

impl Ticker {
    /// Seconds between two lines.
    pub const EVERY: f64 = 2.0;

    /// A ticker that prints as `show` says (a terminal, `--progress`, `--quiet`).
    pub fn new(show: crate::progress::Show, start_sse: Option<f64>) -> Self {
        Ticker {
            on: show.enabled(),
            started: Instant::now(),
            last: None,
            start_sse,
        }
    }

    /// Take one report; print it when the last line is old enough.
    pub(crate) fn tell(&mut self, p: &ColgenProgress) {
        if !self.on
            || self
                .last
                .is_some_and(|t| t.elapsed().as_secs_f64() < Self::EVERY)
        {
            return;
        }
        self.last = Some(Instant::now());
        eprintln!("{}", self.line(p));
    }

    /// The line for one report.
    pub fn line(&self, p: &ColgenProgress) -> String {
        let what = match p.lagrangian {
            Some(l) if l >= p.lower_bound => "Lagrangian",
            _ => "nn, no better Lagrangian bound yet",
        };
        let gap = match self
            .start_sse
            .and_then(|sse| super::gap_percent(sse, p.lower_bound))
        {
            Some(g) => format!(", gap to the start partition {g:.3} %"),
            None => String::new(),
        };
        format!(
            "colgen: {:7.1} s  bound SSE >= {:.6} ({what}){gap}, {} master iterations",
            self.started.elapsed().as_secs_f64(),
            p.lower_bound,
            p.iterations
        )
    }
}

impl ColgenObserver for Ticker {
    fn progress(&mut self, report: &ColgenProgress) {
        self.tell(report);
    }
    fn detail(&mut self, line: Arguments<'_>) {
        eprintln!("{line}");
    }
    fn warning(&mut self, line: Arguments<'_>) {
        eprintln!("{line}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_never_shows_minus_infinity() {
        let t = Ticker::new(crate::progress::Show::Never, Some(400.0));
        let before = ColgenProgress {
            seconds: 1.0,
            lower_bound: 212.5,
            lagrangian: None,
            iterations: 3,
            lp_value: f64::NAN,
        };
        let line = t.line(&before);
        assert!(!line.contains("inf"), "{line}");
        assert!(
            line.contains("212.5") && line.contains("nn, no better"),
            "{line}"
        );
        assert!(
            line.contains("gap to the start partition 88.235 %"),
            "{line}"
        );
        let after = ColgenProgress {
            lower_bound: 310.0,
            lagrangian: Some(310.0),
            ..before
        };
        assert!(
            t.line(&after).contains("(Lagrangian)"),
            "{}",
            t.line(&after)
        );
    }
}
