//! # Progress display of the experiment runner
//!
//! The bound phase and the runs on stderr: a bar with counts on a terminal, plain lines when
//! asked, nothing otherwise, with an estimate of the time left from the suite's budgets
//! (module doc of [`super`]).
//!
//! ## Complexity
//! O(1) per report.
//!
//! ## References
//! None.

use super::super::expand::{Plan, Run};
use super::super::record::Record;
use super::Progress;
use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::Instant;

/// Progress on stderr: a bar on a terminal, plain lines when asked (module doc). The
/// estimate of the time left is [`crate::progress::budget_eta`] over three parts: the
/// cases' bounds (budget: the sum of their time limits), the runs of refining pipelines
/// (budget: the run time limit, unless a step budget ends them first) and the runs of
/// constructive ones (no budget: a
/// constructive method is not stopped by the clock and takes its own, usually short, time).
pub(super) struct Reporter {
    bar: Option<indicatif::ProgressBar>,
    plain: bool,
    jobs: usize,
    /// Per part (bounds, refining runs, constructive runs): items in all, budget, and the
    /// finished count and seconds.
    parts: Mutex<[PartCount; 3]>,
    /// Which pipelines refine (part 1) or construct only (part 2).
    refining: Vec<bool>,
    cases: usize,
    runs: usize,
    start: Instant,
}

#[derive(Clone, Copy)]
struct PartCount {
    total: usize,
    budget: Option<f64>,
    done: usize,
    seconds: f64,
}

impl PartCount {
    fn left(&self) -> crate::progress::Part {
        crate::progress::Part {
            count: self.total - self.done,
            budget: self.budget,
            measured: (self.done > 0).then(|| self.seconds / self.done as f64),
        }
    }
}

impl Progress {
    /// From a command's `--progress`/`--quiet` ([`crate::progress::Show`]): forced progress
    /// is the bar on a terminal and plain lines elsewhere.
    pub fn from_show(show: crate::progress::Show) -> Progress {
        use crate::progress::Show;
        match show {
            Show::Never => Progress::Quiet,
            Show::Always if !crate::progress::stderr_is_terminal() => Progress::Plain,
            Show::Always | Show::Auto => Progress::Auto,
        }
    }
}

impl Reporter {
    pub(super) fn new(
        mode: Progress,
        plan: &Plan,
        cases: usize,
        todo: &[&Run],
        jobs: usize,
    ) -> Reporter {
        let terminal = std::io::stderr().is_terminal();
        // No bounds: no bound phase to count.
        let cases = if plan.bounds.is_empty() { 0 } else { cases };
        let bar = (mode == Progress::Auto && terminal).then(|| {
            let bar = indicatif::ProgressBar::new((cases + todo.len()) as u64);
            bar.set_style(
                indicatif::ProgressStyle::with_template(
                    "{bar:30} {pos}/{len} [{elapsed_precise}] {msg}",
                )
                .expect("valid template"),
            );
            bar.enable_steady_tick(std::time::Duration::from_millis(500));
            bar
        });
        let refining: Vec<bool> = plan
            .pipelines
            .iter()
            .map(|p| p.pipeline.stages.len() > 1)
            .collect();
        let refine_runs = todo.iter().filter(|r| refining[r.pipeline]).count();
        let part = |total, budget| PartCount {
            total,
            budget,
            done: 0,
            seconds: 0.0,
        };
        // A case's bounds have a budget when every bound has a time limit.
        let bound_budget = plan
            .bounds
            .iter()
            .map(|b| b.bound.param("time_limit").as_f64())
            .sum::<Option<f64>>();
        Reporter {
            plain: mode == Progress::Plain,
            bar,
            jobs,
            parts: Mutex::new([
                part(cases, bound_budget),
                // A step budget ends a run before the clock: then no time budget.
                part(
                    refine_runs,
                    plan.suite
                        .time_limit
                        .filter(|_| plan.suite.max_steps.is_none()),
                ),
                part(todo.len() - refine_runs, None),
            ]),
            refining,
            cases,
            runs: todo.len(),
            start: Instant::now(),
        }
    }

    /// "ETA <= 2m10s (budgets)" or "ETA ~40s (estimated)".
    fn eta(parts: &[PartCount; 3], jobs: usize) -> String {
        let left = parts.map(|p| p.left());
        let (secs, upper) = crate::progress::budget_eta(&left, jobs);
        let t = crate::progress::clock(secs);
        if upper {
            format!("ETA <= {t} (budgets)")
        } else {
            format!("ETA ~{t} (estimated)")
        }
    }

    fn say(&self, line: String, parts: &[PartCount; 3]) {
        let eta = Self::eta(parts, self.jobs);
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{line}, {eta}"));
            bar.inc(1);
        } else if self.plain {
            let elapsed = crate::progress::clock(self.start.elapsed().as_secs_f64());
            crate::output::note(&format!("{line} (elapsed {elapsed}, {eta})"));
        }
    }

    /// The bound phase starts.
    pub(super) fn bounds_start(&self, names: &[String]) {
        if self.cases == 0 || names.is_empty() {
            return;
        }
        let parts = self.parts.lock().expect("no worker panicked");
        let line = format!(
            "bounds {} for {} cases: started",
            names.join(", "),
            self.cases
        );
        let eta = Self::eta(&parts, self.jobs);
        if let Some(bar) = &self.bar {
            bar.set_message(format!("{line}, {eta}"));
        } else if self.plain {
            crate::output::note(&format!("{line} ({eta})"));
        }
    }

    pub(super) fn bound_finished(&self, case: &str, seconds: f64) {
        let mut parts = self.parts.lock().expect("no worker panicked");
        parts[0].done += 1;
        parts[0].seconds += seconds;
        let line = format!(
            "bounds [{}/{}] {case} in {seconds:.1} s",
            parts[0].done, self.cases
        );
        self.say(line, &parts);
    }

    pub(super) fn finished(&self, run: &Run, r: &Record) {
        let mut parts = self.parts.lock().expect("no worker panicked");
        let p = if self.refining[run.pipeline] { 1 } else { 2 };
        parts[p].done += 1;
        parts[p].seconds += r.seconds;
        let done = parts[1].done + parts[2].done;
        let gap = r.gap.map_or(String::new(), |g| format!(", gap {g:.3} %"));
        let line = format!(
            "[{done}/{}] {}: IL {:.4} %{gap} in {:.2} s",
            self.runs, r.run_id, r.il, r.seconds
        );
        self.say(line, &parts);
    }

    pub(super) fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
