//! # Progress on stderr
//!
//! What a person waiting for `run`, `solve-exact`, `experiment` (and the Python functions
//! that call them) sees: a line with the best IL so far, the lower bound and the gap when one
//! is known, the time spent and the steps per second of the running stage. On a terminal the
//! line is redrawn in place every `Meter::EVERY_TERMINAL` seconds; asked for with
//! `--progress` elsewhere (a log, a pipe) it is a plain line every `Meter::EVERY_LOG`
//! seconds; nothing without a terminal unless asked, and nothing with `--quiet`
//! ([`Show`]). A last line is printed when the work ends, so a short run asked for progress
//! still shows one.
//!
//! The work reports through a [`Status`] (atomics, so the search never waits for the
//! printer); a thread of the [`Meter`] reads it and prints, so that a long initializer that
//! sends no events still shows its elapsed time. [`MeterObserver`] feeds a [`Status`] from
//! the executor's events ([`crate::search::observe`]).
//!
//! The same module gives an experiment its estimate of the time left
//! (`budget_eta`): from the suite's budgets (bound time limits per case, the run time
//! limit per run, over the workers), not from the pace of the first runs.
//!
//! ## Complexity
//! O(1) per event and per printed line.
//!
//! ## References
//! None.

use crate::data::Instance;
use crate::search::observe::{Event, Observer};
use std::io::{IsTerminal, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError, Sender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// When progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Show {
    /// On a terminal (stderr) only.
    #[default]
    Auto,
    /// Always (`--progress`): plain lines when stderr is not a terminal.
    Always,
    /// Never (`--quiet`).
    Never,
}

impl Show {
    /// From a command's `--progress` and `--quiet` flags (clap refuses both at once).
    pub fn from_flags(progress: bool, quiet: bool) -> Show {
        match (progress, quiet) {
            (_, true) => Show::Never,
            (true, false) => Show::Always,
            (false, false) => Show::Auto,
        }
    }

    /// Whether anything is printed.
    pub(crate) fn enabled(self) -> bool {
        match self {
            Show::Auto => stderr_is_terminal(),
            Show::Always => true,
            Show::Never => false,
        }
    }
}

/// Whether stderr is a terminal (lines are then redrawn in place).
pub(crate) fn stderr_is_terminal() -> bool {
    std::io::stderr().is_terminal()
}

const NONE: u64 = u64::MAX;

/// What the work has reached so far; written by the work, read by the printer.
pub struct Status {
    /// Best SSE so far (f64 bits; [`NONE`] before the first partition).
    best_sse: AtomicU64,
    /// Lower bound on the SSE (f64 bits; [`NONE`] when none is known).
    bound_sse: AtomicU64,
    /// Steps of the running stage, and when it started (ms after the meter's start).
    steps: AtomicU64,
    stage_start_ms: AtomicU64,
    stage: Mutex<String>,
}

impl Status {
    fn new() -> Status {
        Status {
            best_sse: AtomicU64::new(NONE),
            bound_sse: AtomicU64::new(NONE),
            steps: AtomicU64::new(0),
            stage_start_ms: AtomicU64::new(0),
            stage: Mutex::new(String::new()),
        }
    }

    fn read(a: &AtomicU64) -> Option<f64> {
        let bits = a.load(Ordering::Relaxed);
        (bits != NONE).then(|| f64::from_bits(bits))
    }

    /// A partition of SSE `sse` exists (kept when it is the best so far).
    pub fn best(&self, sse: f64) {
        let better = Status::read(&self.best_sse).is_none_or(|b| sse < b);
        if better && sse.is_finite() {
            self.best_sse.store(sse.to_bits(), Ordering::Relaxed);
        }
    }

    /// The running stage or phase, named in the line.
    pub fn stage(&self, name: &str) {
        if let Ok(mut g) = self.stage.lock() {
            *g = name.to_string();
        }
    }

    /// A certified lower bound on the SSE (kept when it is the highest so far).
    pub fn bound(&self, sse: f64) {
        let higher = Status::read(&self.bound_sse).is_none_or(|b| sse > b);
        if higher && sse.is_finite() {
            self.bound_sse.store(sse.to_bits(), Ordering::Relaxed);
        }
    }
}

/// Prints a [`Status`] (module doc) until [`Meter::finish`].
pub struct Meter {
    status: Arc<Status>,
    started: Instant,
    /// `None` when nothing is shown.
    printer: Option<(Sender<()>, JoinHandle<()>)>,
    what: String,
    sst: f64,
    terminal: bool,
}

impl Meter {
    /// Seconds between two redraws on a terminal.
    pub(crate) const EVERY_TERMINAL: f64 = 0.5;
    /// Seconds between two plain lines (stderr not a terminal, `--progress`).
    pub(crate) const EVERY_LOG: f64 = 2.0;

    /// Start showing the progress of `what` (e.g. "run mdav+ils") on an instance of total
    /// sum of squares `sst` (for the IL), as `show` says.
    pub fn start(what: &str, sst: f64, show: Show) -> Meter {
        let status = Arc::new(Status::new());
        let started = Instant::now();
        let terminal = stderr_is_terminal();
        let printer = show.enabled().then(|| {
            let (stop, wait) = mpsc::channel::<()>();
            let (s, w) = (status.clone(), what.to_string());
            let every = if terminal {
                Self::EVERY_TERMINAL
            } else {
                Self::EVERY_LOG
            };
            let thread = std::thread::spawn(move || {
                // A line every `every` seconds until the meter says stop (or is dropped).
                while let Err(RecvTimeoutError::Timeout) =
                    wait.recv_timeout(Duration::from_secs_f64(every))
                {
                    emit(&line(&w, &s, started, sst), terminal, false)
                }
            });
            (stop, thread)
        });
        Meter {
            status,
            started,
            printer,
            what: what.to_string(),
            sst,
            terminal,
        }
    }

    /// The status the work writes to.
    pub fn status(&self) -> &Status {
        &self.status
    }

    /// An observer of the executor's events that writes to this meter's status.
    pub fn observer(&self) -> MeterObserver {
        MeterObserver {
            status: self.status.clone(),
            started: self.started,
        }
    }

    /// Whether lines are printed.
    pub fn shown(&self) -> bool {
        self.printer.is_some()
    }

    /// Stop the printer and print the last line (when shown).
    pub fn finish(mut self) {
        self.stop_printer(true);
    }

    fn stop_printer(&mut self, last_line: bool) {
        if let Some((stop, thread)) = self.printer.take() {
            let _ = stop.send(());
            let _ = thread.join();
            if last_line {
                let l = line(&self.what, &self.status, self.started, self.sst);
                emit(&l, self.terminal, true);
            }
        }
    }
}

impl Drop for Meter {
    /// A meter dropped on an error path stops its thread without a last line.
    fn drop(&mut self) {
        let shown = self.printer.is_some();
        self.stop_printer(false);
        if shown && self.terminal {
            eprintln!();
        }
    }
}

/// Write a line: redrawn in place on a terminal (a newline only after the last one).
fn emit(line: &str, terminal: bool, last: bool) {
    let mut err = std::io::stderr().lock();
    let _ = if terminal {
        write!(err, "\r\x1b[2K{line}{}", if last { "\n" } else { "" })
    } else {
        writeln!(err, "{line}")
    };
    let _ = err.flush();
}

/// The progress line of a status now.
fn line(what: &str, s: &Status, started: Instant, sst: f64) -> String {
    let now_ms = started.elapsed().as_millis() as u64;
    let stage_s = now_ms.saturating_sub(s.stage_start_ms.load(Ordering::Relaxed)) as f64 / 1e3;
    let stage = s.stage.lock().map(|g| g.clone()).unwrap_or_default();
    format_line(&Snapshot {
        what,
        elapsed: now_ms as f64 / 1e3,
        stage: &stage,
        steps: s.steps.load(Ordering::Relaxed),
        stage_seconds: stage_s,
        best_sse: Status::read(&s.best_sse),
        bound_sse: Status::read(&s.bound_sse),
        sst,
    })
}

/// What one line shows.
pub(crate) struct Snapshot<'a> {
    pub what: &'a str,
    pub elapsed: f64,
    pub stage: &'a str,
    pub steps: u64,
    pub stage_seconds: f64,
    pub best_sse: Option<f64>,
    pub bound_sse: Option<f64>,
    pub sst: f64,
}

/// `what: 12.3 s, stage ils 45000 steps (3650/s), best IL 5.1234 %, bound IL 4.9876 %,
/// gap 2.72 %`; parts that are not known yet say so or are left out.
pub(crate) fn format_line(s: &Snapshot) -> String {
    let mut parts = vec![format!("{}: {:.1} s", s.what, s.elapsed)];
    if !s.stage.is_empty() {
        let rate = if s.steps > 0 && s.stage_seconds > 0.0 {
            format!(" ({:.0}/s)", s.steps as f64 / s.stage_seconds)
        } else {
            String::new()
        };
        parts.push(if s.steps > 0 {
            format!("{} {} steps{rate}", s.stage, s.steps)
        } else {
            s.stage.to_string()
        });
    }
    let il = |sse: f64| 100.0 * sse / s.sst;
    parts.push(match s.best_sse {
        Some(b) => format!("best IL {:.4} %", il(b)),
        None => "no partition yet".to_string(),
    });
    if let Some(lb) = s.bound_sse {
        parts.push(format!("bound IL {:.4} %", il(lb)));
        if let Some(g) = s.best_sse.and_then(|b| crate::bound::gap_percent(b, lb)) {
            parts.push(format!("gap {g:.3} %"));
        }
    }
    parts.join(", ")
}

/// Feeds a [`Status`] from the executor's events.
pub struct MeterObserver {
    status: Arc<Status>,
    started: Instant,
}

impl Observer for MeterObserver {
    fn observe(&mut self, _inst: &Instance, event: &Event) {
        let s = &self.status;
        match *event {
            Event::StageStart { stage, sse } => {
                if let Ok(mut g) = s.stage.lock() {
                    *g = stage.to_string();
                }
                s.steps.store(0, Ordering::Relaxed);
                let ms = self.started.elapsed().as_millis() as u64;
                s.stage_start_ms.store(ms, Ordering::Relaxed);
                if sse > 0.0 {
                    s.best(sse);
                }
            }
            Event::Step { step, best_sse, .. } => {
                s.steps.store(step, Ordering::Relaxed);
                s.best(best_sse);
            }
            Event::NewBest { sse, .. } => s.best(sse),
            Event::StageEnd { sse, .. } => s.best(sse),
            Event::Restart { .. } => {}
        }
    }
}

/// One part of the work left: `count` items of at most `budget` seconds each (None: no
/// limit), `measured` the mean seconds of the part's finished items (None: none yet).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Part {
    pub count: usize,
    pub budget: Option<f64>,
    pub measured: Option<f64>,
}

/// An experiment's remaining time on `jobs` workers: the budget of each part; a part without
/// one is estimated by its measured mean (or left out when nothing of it has finished).
/// Returns (seconds, whether every part left is a budget: then the estimate is an upper
/// bound, up to the time to load data and write records).
pub(crate) fn budget_eta(parts: &[Part], jobs: usize) -> (f64, bool) {
    let mut total = 0.0;
    let mut upper = true;
    for p in parts.iter().filter(|p| p.count > 0) {
        match (p.budget, p.measured) {
            (Some(b), _) => total += p.count as f64 * b,
            (None, m) => {
                total += p.count as f64 * m.unwrap_or(0.0);
                upper = false;
            }
        }
    }
    (total / jobs.max(1) as f64, upper)
}

/// `1h02m03s`, `4m05s`, `12s`.
pub(crate) fn clock(seconds: f64) -> String {
    let s = seconds.max(0.0).round() as u64;
    match (s / 3600, (s % 3600) / 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, m, sec) => format!("{m}m{sec:02}s"),
        (h, m, sec) => format!("{h}h{m:02}m{sec:02}s"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_names_best_il_bound_gap_and_rate() {
        let l = format_line(&Snapshot {
            what: "run mdav+ils",
            elapsed: 12.34,
            stage: "ils",
            steps: 4000,
            stage_seconds: 2.0,
            best_sse: Some(51.0),
            bound_sse: Some(50.0),
            sst: 1000.0,
        });
        assert_eq!(
            l,
            "run mdav+ils: 12.3 s, ils 4000 steps (2000/s), best IL 5.1000 %, bound IL 5.0000 %, gap 2.000 %"
        );
        let first = format_line(&Snapshot {
            what: "run mdav",
            elapsed: 0.5,
            stage: "mdav",
            steps: 0,
            stage_seconds: 0.5,
            best_sse: None,
            bound_sse: None,
            sst: 1000.0,
        });
        assert_eq!(first, "run mdav: 0.5 s, mdav, no partition yet");
    }

    #[test]
    fn the_status_keeps_the_best_and_the_highest_bound() {
        let s = Status::new();
        s.best(10.0);
        s.best(12.0);
        s.bound(3.0);
        s.bound(2.0);
        assert_eq!(Status::read(&s.best_sse), Some(10.0));
        assert_eq!(Status::read(&s.bound_sse), Some(3.0));
    }

    #[test]
    fn the_eta_adds_the_budgets_over_the_workers() {
        let part = |count, budget, measured| Part {
            count,
            budget,
            measured,
        };
        // 2 cases of bounds with a 30 s limit, 10 runs of 6 s, 2 workers: (60 + 60) / 2.
        let parts = [part(2, Some(30.0), None), part(10, Some(6.0), Some(0.1))];
        assert_eq!(budget_eta(&parts, 2), (60.0, true));
        // No limit: the mean of the finished items, and the estimate says so; a finished
        // part counts nothing.
        let parts = [part(0, None, None), part(4, None, Some(2.5))];
        assert_eq!(budget_eta(&parts, 1), (10.0, false));
        assert_eq!(clock(3723.0), "1h02m03s");
        assert_eq!(clock(65.0), "1m05s");
        assert_eq!(clock(9.4), "9s");
    }
}
