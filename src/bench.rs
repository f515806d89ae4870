//! # Benchmarks and the demo study
//!
//! `microagg bench` times initializers on fixed cases and prints time next to IL (speed
//! targets are checked here, never by timed tests). It reports the minimum over repetitions
//! of both wall-clock time and the process's CPU time (all its threads: the distance passes
//! of the MDAV family run on `--threads` threads), since on a shared machine only the latter
//! is stable, and the peak resident memory (VmHWM, reset per case where Linux allows it). `microagg demo` is
//! the main job: the study of `instances/demo.toml` (embedded synthetic instances, plus the
//! CASC files when they are found) run by the experiment runner, printed as the result table.

use crate::data::{self, ColumnSelection};
use crate::error::{Error, Result};
use crate::experiment::{run_plan, Plan, Progress, RunOptions, Suite};
use crate::output;
use crate::pipeline::Pipeline;
use crate::report;
use std::path::Path;
use std::sync::atomic::AtomicBool;
use std::time::Instant;

/// CPU time consumed by the calling thread, in seconds. Under load from other processes
/// this stays close to what the run would take alone, where wall time does not.
pub fn thread_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec we own.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    f64::NAN
}

/// CPU time consumed by the whole process (every thread), in seconds.
pub fn process_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        let mut ts = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes into the timespec we own.
        let rc = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut ts) };
        if rc == 0 {
            return ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9;
        }
    }
    f64::NAN
}

/// Peak resident set size of this process in MB (VmHWM of /proc/self/status; NaN where
/// there is none).
pub fn peak_rss_mb() -> f64 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        })
        .map_or(f64::NAN, |kb| kb / 1024.0)
}

/// Start a new peak: Linux resets VmHWM to the current RSS when "5" is written to
/// /proc/self/clear_refs (false where that is not possible; the peak is then the process's).
pub fn reset_peak_rss() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// A benchmark case: an instance spec and k.
fn case(name: &str) -> Result<(&'static str, usize)> {
    Ok(match name {
        "eia-k3" => ("eia", 3),
        "eia-k10" => ("eia", 10),
        "gauss-10k" => ("gauss:n=10000,d=10,clusters=5,seed=1", 5),
        "gauss-100k" => ("gauss:n=100000,d=10,clusters=5,seed=1", 5),
        // Not in the default list: minutes of CPU.
        "gauss-200k" => ("gauss:n=200000,d=10,clusters=5,seed=1", 5),
        "gauss-1m" => ("gauss:n=1000000,d=10,clusters=5,seed=1", 5),
        other => {
            return Err(Error::usage(format!(
                "unknown bench case '{other}'; known: eia-k3, eia-k10, gauss-10k, gauss-100k, gauss-200k, gauss-1m"
            )))
        }
    })
}

/// Time every method on every case; prints one line per (case, method).
pub fn run(methods: &str, cases: &str, reps: usize) -> Result<()> {
    if reps == 0 {
        return Err(Error::usage("--reps 0: at least one repetition is needed"));
    }
    let methods: Vec<&str> = methods
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect();
    let pipelines = methods
        .iter()
        .map(|m| Pipeline::parse(m, &[]))
        .collect::<Result<Vec<_>>>()?;
    let never = AtomicBool::new(false);
    output::println(&format!(
        "{:<12} {:<16} {:>7} {:>3} {:>4} {:>10} {:>10} {:>12} {:>12}",
        "case", "method", "n", "d", "k", "wall s", "cpu s", "IL %", "peak RSS MB"
    ))?;
    // Each case's peak includes loading its data; without the reset it is the process's.
    let resets = reset_peak_rss();
    for name in cases.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        let (spec, k) = case(name)?;
        if resets {
            reset_peak_rss();
        }
        let inst = match data::load(spec, &ColumnSelection::All) {
            Ok(i) => i,
            Err(e) => {
                output::println(&format!("{name:<12} skipped: {e}"))?;
                continue;
            }
        };
        for p in &pipelines {
            let (mut best, mut best_cpu) = (f64::INFINITY, f64::INFINITY);
            let mut il = f64::NAN;
            // Large cases are timed once: they take seconds and vary little.
            let reps = if inst.n >= 50_000 { 1 } else { reps.max(1) };
            for _ in 0..reps {
                let (t, c) = (Instant::now(), process_cpu_seconds());
                let out = p.run(&inst, k, 0, None, &never)?;
                best = best.min(t.elapsed().as_secs_f64());
                best_cpu = best_cpu.min(process_cpu_seconds() - c);
                il = inst.il(out.partition.sse());
            }
            output::println(&format!(
                "{:<12} {:<16} {:>7} {:>3} {:>4} {:>10.4} {:>10.4} {:>12.6} {:>12.1}",
                name,
                p.spec,
                inst.n,
                inst.d,
                k,
                best,
                best_cpu,
                il,
                peak_rss_mb()
            ))?;
        }
    }
    Ok(())
}

/// The default study of `microagg demo` (embedded, so no file is needed).
pub const DEMO_SUITE: &str = include_str!("../instances/demo.toml");

/// Worker threads when none are asked for: the available cores.
pub fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The main job: run the demo suite (synthetic instances, plus the CASC files when found)
/// and print the result table; with `out`, keep the records and figures there. Returns
/// false when an interrupt stopped it before every run finished (the table then holds the
/// finished runs).
pub fn demo(jobs: Option<usize>, out: Option<&Path>, interrupt: &AtomicBool) -> Result<bool> {
    let suite = Suite::parse(DEMO_SUITE, Path::new("instances/demo.toml"))?;
    let plan = Plan::new(suite)?;
    for note in &plan.notes {
        output::note(&format!("note: {note}"));
    }
    let t = Instant::now();
    let opts = RunOptions {
        out: out.map(Path::to_path_buf),
        jobs: jobs.unwrap_or_else(default_jobs).max(1),
        shard: None,
        resume: false,
        progress: Progress::Auto,
    };
    let summary = run_plan(&plan, &opts, interrupt)?;
    let rows = report::summarize(&summary.records)?;
    // The short table (best pipeline per case) first, then the full one.
    let mut text = report::best_per_case(&rows) + "\n";
    text += &report::render(&rows, report::Format::Markdown);
    if plan.suite.bounds.is_empty() {
        text += "No lower bounds in this build yet: the gap columns stay empty.\n";
    }
    text += &format!(
        "{} runs on {} instances in {:.1} s.\n",
        summary.records.len(),
        plan.instances.len(),
        t.elapsed().as_secs_f64()
    );
    output::print(&text)?;
    if let Some(dir) = out {
        match report::plots::write_figures(&summary.records, &dir.join("figures")) {
            Ok(files) => files
                .iter()
                .for_each(|f| output::note(&format!("figure: {}", f.display()))),
            Err(e) => output::note(&format!("warning: figures not written: {e}")),
        }
    }
    Ok(!summary.interrupted)
}
