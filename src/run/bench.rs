//! # Benchmarks and the demo study
//!
//! `microagg bench` times initializers on fixed cases and prints time next to IL (speed
//! targets are checked here, never by timed tests). It reports the minimum over repetitions
//! of both wall-clock time and the process's CPU time (all its threads: the distance passes
//! of the MDAV family run on `--threads` threads), since on a shared machine only the latter
//! is stable, and the peak resident memory (VmHWM, reset per case where Linux allows it). On
//! the small cases (below 50 000 records) a second row, "METHOD (process)", times whole runs
//! of `microagg run` in a child process (start-up, loading, method, report; CPU from the
//! kernel's accounting of the child). With `--peer-sdcmicro BIN` the cases run side by side
//! with sdcMicro's C++ MDAV instead, the ratios printed ([`peer`]). `microagg demo` is
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

mod peer;
pub(crate) use peer::side_by_side;
pub use peer::{compare_partitions, Agreement};

/// CPU time consumed by the calling thread, in seconds. Under load from other processes
/// this stays close to what the run would take alone, where wall time does not.
pub fn thread_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        cpu_clock_seconds(libc::CLOCK_THREAD_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        f64::NAN
    }
}

/// CPU time consumed by the whole process (every thread), in seconds.
pub fn process_cpu_seconds() -> f64 {
    #[cfg(unix)]
    {
        cpu_clock_seconds(libc::CLOCK_PROCESS_CPUTIME_ID)
    }
    #[cfg(not(unix))]
    {
        f64::NAN
    }
}

/// The CPU-time clock `clock` in seconds (NaN when it cannot be read).
#[cfg(unix)]
fn cpu_clock_seconds(clock: libc::clockid_t) -> f64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime writes into the timespec we own.
    let rc = unsafe { libc::clock_gettime(clock, &mut ts) };
    if rc == 0 {
        ts.tv_sec as f64 + ts.tv_nsec as f64 * 1e-9
    } else {
        f64::NAN
    }
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
pub(crate) fn reset_peak_rss() -> bool {
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
        "{:<12} {:<22} {:>7} {:>3} {:>4} {:>10} {:>10} {:>12} {:>12}",
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
            // Large cases are timed once: they take seconds and vary little.
            let reps = if inst.n >= LARGE { 1 } else { reps.max(1) };
            let (best, best_cpu, out) = least_call(p, &inst, k, reps, &never)?;
            let il = inst.il(out.partition.sse());
            output::println(&format!(
                "{:<12} {:<22} {:>7} {:>3} {:>4} {:>10.4} {:>10.4} {:>12.6} {:>12.1}",
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
            // Small cases: also the whole process of `microagg run` (start-up, loading,
            // the method, the report), what a user waits for and what a side-by-side
            // comparison with another program's process measures.
            if inst.n < LARGE {
                let (wall, cpu, rss) = whole_process(spec, k, &p.spec, reps)?;
                output::println(&format!(
                    "{:<12} {:<22} {:>7} {:>3} {:>4} {:>10.4} {:>10.4} {:>12.6} {:>12.1}",
                    name,
                    format!("{} (process)", p.spec),
                    inst.n,
                    inst.d,
                    k,
                    wall,
                    cpu,
                    il,
                    rss
                ))?;
            }
        }
    }
    Ok(())
}

/// Cases from this many records are timed once and without the whole process.
const LARGE: usize = 50_000;

/// The least wall and CPU seconds of `reps` runs of `p` (at least one), and the last run.
fn least_call(
    p: &Pipeline,
    inst: &data::Instance,
    k: usize,
    reps: usize,
    never: &AtomicBool,
) -> Result<(f64, f64, crate::pipeline::PipelineOutcome)> {
    let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
    let mut last = None;
    for _ in 0..reps.max(1) {
        let (t, c) = (Instant::now(), process_cpu_seconds());
        let out = p.run(inst, k, 0, None, never)?;
        wall = wall.min(t.elapsed().as_secs_f64());
        cpu = cpu.min(process_cpu_seconds() - c);
        last = Some(out);
    }
    Ok((wall, cpu, last.expect("at least one run")))
}

/// CPU seconds (user + system) of this process's finished children, and their largest
/// peak resident set in MB.
fn children_usage() -> (f64, f64) {
    #[cfg(unix)]
    {
        // SAFETY: getrusage writes into the zeroed struct we own.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        if unsafe { libc::getrusage(libc::RUSAGE_CHILDREN, &mut ru) } == 0 {
            let secs = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            return (
                secs(ru.ru_utime) + secs(ru.ru_stime),
                ru.ru_maxrss as f64 / 1024.0,
            );
        }
    }
    (f64::NAN, f64::NAN)
}

/// The least wall and CPU seconds over `reps` whole runs of this executable's
/// `run --data SPEC --k K --method METHOD` (with the bench's thread count), and the
/// children's peak RSS in MB. CPU comes from the kernel's accounting of the finished
/// child (getrusage), so it includes start-up and exit.
fn whole_process(spec: &str, k: usize, method: &str, reps: usize) -> Result<(f64, f64, f64)> {
    let exe = std::env::current_exe().map_err(|e| Error::io("the microagg executable", e))?;
    let threads = crate::parallel::threads().to_string();
    let k = k.to_string();
    let (mut wall, mut cpu) = (f64::INFINITY, f64::INFINITY);
    for _ in 0..reps {
        let (t, (c, _)) = (Instant::now(), children_usage());
        let status = std::process::Command::new(&exe)
            .args(["run", "--data", spec, "--k", &k, "--method", method])
            .args(["--threads", &threads])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .status()
            .map_err(|e| Error::io(exe.clone(), e))?;
        wall = wall.min(t.elapsed().as_secs_f64());
        cpu = cpu.min(children_usage().0 - c);
        if !status.success() {
            return Err(Error::usage(format!(
                "bench: `{} run --data {spec} --k {k} --method {method}` failed ({status})",
                exe.display()
            )));
        }
    }
    Ok((wall, cpu, children_usage().1))
}

/// The default study of `microagg demo` (embedded, so no file is needed).
pub const DEMO_SUITE: &str = include_str!("../../instances/demo.toml");

/// Worker threads when none are asked for: the available cores.
pub(crate) fn default_jobs() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// The main job: run the demo suite (synthetic instances, plus the CASC files when found)
/// and print the result table; with `out`, keep the records and figures there. Returns
/// false when an interrupt stopped it before every run finished (the table then holds the
/// finished runs).
pub(crate) fn demo(
    jobs: Option<usize>,
    out: Option<&Path>,
    interrupt: &AtomicBool,
) -> Result<bool> {
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
        match report::plots::write_figures(
            &summary.records,
            &dir.join("figures"),
            &report::style::FigureStyle::default(),
        ) {
            Ok(files) => files
                .iter()
                .for_each(|f| output::note(&format!("figure: {}", f.display()))),
            Err(e) => output::note(&format!("warning: figures not written: {e}")),
        }
    }
    Ok(!summary.interrupted)
}

/// What the scaling curve runs at every n: `method` (with `params`) on
/// `gauss:n=N,d=D,clusters=5,seed=1` generated in process (no file), with `--blocks SIZE`
/// and its repair when `blocks` is set.
#[derive(Debug, Clone)]
pub struct ScaleRun {
    pub method: String,
    pub params: Vec<String>,
    pub k: usize,
    pub d: usize,
    pub blocks: Option<usize>,
    pub repair: crate::blocks::RepairMode,
    pub cut: crate::blocks::CutRule,
    /// `--block-slab`, `--block-approx` of the repair.
    pub tuning: crate::blocks::RepairTuning,
}

/// One point of the scaling curve.
#[derive(Debug, Clone, Copy)]
pub struct ScalePoint {
    pub n: usize,
    /// Generating and z-scoring the data.
    pub generate_seconds: f64,
    pub wall_seconds: f64,
    /// CPU time of the whole process during the solve (every thread).
    pub cpu_seconds: f64,
    pub il: f64,
    /// Peak resident memory of the point (data included) when Linux lets the peak be
    /// reset, else of the process so far.
    pub peak_mb: f64,
}

/// Run `run` at `n` records.
pub(crate) fn scale_point(run: &ScaleRun, n: usize) -> Result<ScalePoint> {
    let never = AtomicBool::new(false);
    let pipeline = Pipeline::parse(&run.method, &run.params)?;
    reset_peak_rss();
    let t = Instant::now();
    let spec = format!("gauss:n={n},d={},clusters=5,seed=1", run.d);
    let inst = data::load(&spec, &ColumnSelection::All)?;
    let generate_seconds = t.elapsed().as_secs_f64();
    let (t, c) = (Instant::now(), process_cpu_seconds());
    let sse = match run.blocks {
        Some(size) => {
            let solver = crate::parts::UnitSolver {
                repair: run.repair,
                cut: run.cut,
                tuning: run.tuning,
                ..crate::parts::UnitSolver::new(&inst, &pipeline, run.k, 0, &never)
            };
            let out = crate::parts::solve_split(&solver, None, Some(size), None)?;
            out.groups
                .iter()
                .map(|m| microagg_solvers::sse::group_sse(&inst.z, inst.d, m))
                .sum()
        }
        None => pipeline.run(&inst, run.k, 0, None, &never)?.partition.sse(),
    };
    Ok(ScalePoint {
        n,
        generate_seconds,
        wall_seconds: t.elapsed().as_secs_f64(),
        cpu_seconds: process_cpu_seconds() - c,
        il: inst.il(sse),
        peak_mb: peak_rss_mb(),
    })
}

/// The exponent b of y ~ n^b between two points (n, y).
pub(crate) fn exponent_between(a: (f64, f64), b: (f64, f64)) -> f64 {
    (b.1 / a.1).ln() / (b.0 / a.0).ln()
}

/// The exponent b of y ~ n^b fitted by least squares on (ln n, ln y) over `points` (NaN
/// with fewer than two distinct n).
pub(crate) fn fitted_exponent(points: &[(f64, f64)]) -> f64 {
    let m = points.len() as f64;
    let (mx, my) = points
        .iter()
        .fold((0.0, 0.0), |(a, b), p| (a + p.0.ln() / m, b + p.1.ln() / m));
    let (sxy, sxx) = points.iter().fold((0.0, 0.0), |(a, b), p| {
        let dx = p.0.ln() - mx;
        (a + dx * (p.1.ln() - my), b + dx * dx)
    });
    if sxx > 0.0 {
        sxy / sxx
    } else {
        f64::NAN
    }
}

/// `microagg bench --scale N1,N2,...`: one line per n (printed as soon as it is measured),
/// then the exponents of CPU time, wall time and peak memory between consecutive n and
/// fitted over all of them.
pub fn scale_curve(run: &ScaleRun, sizes: &[usize]) -> Result<Vec<ScalePoint>> {
    if sizes.is_empty() {
        return Err(Error::usage("--scale: at least one size is needed"));
    }
    output::println(&format!(
        "scaling curve: {} k={} d={} {}, {} threads",
        run.method,
        run.k,
        run.d,
        run.blocks.map_or("unblocked".to_string(), |b| format!(
            "--blocks {b} ({:?} cut, {:?} repair, strip {} radii{})",
            run.cut,
            run.repair,
            run.tuning.slab_for(run.repair),
            run.tuning
                .approx
                .map_or(String::new(), |e| format!(", approx {e}"))
        )),
        crate::parallel::threads()
    ))?;
    output::println(&format!(
        "{:>10} {:>8} {:>10} {:>10} {:>10} {:>9}",
        "n", "gen s", "wall s", "cpu s", "IL %", "peak MB"
    ))?;
    let mut points = Vec::new();
    for &n in sizes {
        let p = scale_point(run, n)?;
        output::println(&format!(
            "{:>10} {:>8.2} {:>10.2} {:>10.2} {:>10.5} {:>9.0}",
            p.n, p.generate_seconds, p.wall_seconds, p.cpu_seconds, p.il, p.peak_mb
        ))?;
        points.push(p);
    }
    type Of = fn(&ScalePoint) -> f64;
    let columns: [(&str, Of); 3] = [
        ("cpu", |p| p.cpu_seconds),
        ("wall", |p| p.wall_seconds),
        ("peak memory", |p| p.peak_mb),
    ];
    for w in points.windows(2) {
        let line: Vec<String> = columns
            .iter()
            .map(|(name, of)| {
                let e = exponent_between((w[0].n as f64, of(&w[0])), (w[1].n as f64, of(&w[1])));
                format!("{name} {e:.2}")
            })
            .collect();
        output::println(&format!(
            "exponent {} -> {}: {}",
            w[0].n,
            w[1].n,
            line.join(", ")
        ))?;
    }
    if points.len() > 2 {
        let line: Vec<String> = columns
            .iter()
            .map(|(name, of)| {
                let xy: Vec<(f64, f64)> = points.iter().map(|p| (p.n as f64, of(p))).collect();
                format!("{name} {:.2}", fitted_exponent(&xy))
            })
            .collect();
        output::println(&format!(
            "least-squares exponent over all n: {}",
            line.join(", ")
        ))?;
    }
    Ok(points)
}

#[cfg(test)]
mod scale_tests {
    use super::*;

    #[test]
    fn exponents_recover_a_power_law() {
        let pts: Vec<(f64, f64)> = [1e4, 1e5, 3e5, 1e6]
            .iter()
            .map(|&n: &f64| (n, 3.0 * n.powf(1.37)))
            .collect();
        assert!((exponent_between(pts[0], pts[3]) - 1.37).abs() < 1e-9);
        assert!((fitted_exponent(&pts) - 1.37).abs() < 1e-9);
        // Noise around a line n^1: the fit lies between the pairwise slopes.
        let noisy = [(1e4, 1.0), (1e5, 12.0), (1e6, 90.0)];
        let e = fitted_exponent(&noisy);
        assert!(
            e > exponent_between(noisy[1], noisy[2]) && e < exponent_between(noisy[0], noisy[1])
        );
        assert!(fitted_exponent(&[(1e4, 1.0), (1e4, 2.0)]).is_nan());
    }

    #[test]
    fn a_blocked_point_is_feasible_and_no_worse_than_its_blocks_unrepaired() {
        let mut run = ScaleRun {
            method: "mdav".into(),
            params: Vec::new(),
            k: 5,
            d: 4,
            blocks: Some(500),
            repair: crate::blocks::RepairMode::None,
            cut: crate::blocks::CutRule::Kd,
            tuning: Default::default(),
        };
        let none = scale_point(&run, 3000).unwrap();
        run.repair = crate::blocks::RepairMode::Descent;
        let repaired = scale_point(&run, 3000).unwrap();
        assert_eq!(repaired.n, 3000);
        assert!(
            repaired.il <= none.il && repaired.il > 0.0,
            "{repaired:?} vs {none:?}"
        );
        assert!(repaired.cpu_seconds >= 0.0 && repaired.peak_mb > 0.0);
    }
}
