//! # Experiment runner
//!
//! Runs the runs of a [`Plan`] (or of one shard of it) in parallel across runs on `jobs`
//! worker threads; each run is single-threaded, so its result depends only on its seed and
//! never on the number of workers or on scheduling. Lower bounds are computed once per
//! (instance, k) of the shard before the runs. Each finished run is appended to the output
//! file at once (so `--resume` can pick up after a crash or Ctrl-C), and the file is
//! rewritten sorted by run index at the end, so the finished output is byte-stable apart
//! from timing fields. A run that was cut short by an interrupt is not recorded. The
//! records file is locked for the duration ([`OutLock`]): a second study writing the same
//! file is refused instead of silently losing records.
//!
//! A run that fails (an error, or even a panic inside an algorithm) ends the study with an
//! error naming the run; the finished runs stay on disk for `--resume`.
//!
//! Progress goes to stderr, for the bound phase and the runs: a bar with counts on a terminal,
//! plain lines when asked ([`Progress::Plain`], `--progress`), nothing otherwise. The
//! estimate of the time left adds the suite's budgets (each case's bound time limits, the
//! run time limit per run) over the workers, an upper bound; a part without a limit is
//! estimated from its finished items and the estimate says so.
//!
//! ## Complexity
//! The sum of the runs' costs divided over `jobs` workers.
//!
//! ## References
//! None.

use super::expand::{Plan, Run, Shard};
use super::lock::OutLock;
use super::record::{self, BoundResult, Record, RunSeeds, StageParams, StageResult};
use crate::error::{Error, Result};
use crate::library::Reference;
use crate::release::ReleaseRecord;
use crate::search::observe::Observer;
use crate::search::trace::Trace;
use std::collections::{BTreeMap, BTreeSet};
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// How progress is shown.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// A bar when stderr is a terminal, nothing otherwise.
    Auto,
    /// Plain lines on stderr.
    Plain,
    /// Nothing.
    Quiet,
}

/// Options of `microagg experiment`.
#[derive(Debug, Clone)]
pub struct RunOptions {
    /// Output directory; `None` keeps the records in memory only.
    pub out: Option<PathBuf>,
    /// Worker threads (at least 1).
    pub jobs: usize,
    pub shard: Option<Shard>,
    /// Skip runs whose records are already in the output file.
    pub resume: bool,
    pub progress: Progress,
}

/// What a call of [`run_plan`] did.
pub struct RunSummary {
    /// Every record of the shard (resumed ones included), sorted by run index.
    pub records: Vec<Record>,
    /// Runs executed now / taken from an earlier run (`--resume`).
    pub ran: usize,
    pub resumed: usize,
    /// The records file, when an output directory was given.
    pub file: Option<PathBuf>,
    /// True when an interrupt stopped the study before every run finished.
    pub interrupted: bool,
}

/// The records file of a shard in an output directory.
pub fn records_path(out: &Path, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => out.join("records.jsonl"),
        Some(s) => out.join(format!("records-shard-{}-of-{}.jsonl", s.index, s.count)),
    }
}

/// Apply `f` to every item on `jobs` threads; results in item order. Stops handing out items
/// once `stop` is set (unstarted items give `None`).
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    stop: &AtomicBool,
    f: impl Fn(&T) -> R + Sync,
) -> Vec<Option<R>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs.max(1).min(items.len().max(1)) {
            scope.spawn(|| loop {
                if stop.load(Ordering::SeqCst) {
                    break;
                }
                let i = next.fetch_add(1, Ordering::SeqCst);
                if i >= items.len() {
                    break;
                }
                let r = f(&items[i]);
                results.lock().expect("no worker panicked")[i] = Some(r);
            });
        }
    });
    results.into_inner().expect("no worker panicked")
}

/// Run a plan (or a shard of it).
pub fn run_plan(plan: &Plan, opts: &RunOptions, interrupt: &AtomicBool) -> Result<RunSummary> {
    let runs = plan.shard(opts.shard);
    let file = opts.out.as_ref().map(|d| records_path(d, opts.shard));
    let mut done: Vec<Record> = Vec::new();
    let mut _lock = None;
    if let (Some(dir), Some(path)) = (&opts.out, &file) {
        std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
        _lock = Some(OutLock::acquire(path)?);
        let existing = record::read_file(path)?;
        if !existing.is_empty() && !opts.resume {
            return Err(Error::usage(format!(
                "{} already holds {} records; use --resume to continue it, or another --out",
                path.display(),
                existing.len()
            )));
        }
        // Keep only records of this plan's runs with the same seed (the same suite).
        let wanted: BTreeMap<&str, &Run> = runs.iter().map(|r| (r.run_id.as_str(), *r)).collect();
        for r in existing {
            match wanted.get(r.run_id.as_str()) {
                Some(run)
                    if run.seed == r.seeds.run
                        && run.index == r.index
                        && r.max_steps == plan.suite.max_steps =>
                {
                    done.push(r)
                }
                _ => return Err(foreign_record(plan, path, &r)),
            }
        }
        // Drop a line cut short by a crash and restore sorted order before appending.
        record::write_sorted(path, &mut done)?;
    }
    let finished: BTreeSet<String> = done.iter().map(|r| r.run_id.clone()).collect();
    let todo: Vec<&Run> = runs
        .iter()
        .copied()
        .filter(|r| !finished.contains(&r.run_id))
        .collect();
    let resumed = done.len();

    // Bounds, once per (instance, k) that has runs to do.
    let cases: Vec<(usize, usize)> = todo
        .iter()
        .map(|r| (r.instance, r.k))
        .collect::<BTreeSet<_>>()
        .into_iter()
        .collect();
    let progress = Reporter::new(opts.progress, plan, cases.len(), &todo, opts.jobs);
    let names: Vec<String> = plan.bounds.iter().map(|b| b.name.clone()).collect();
    progress.bounds_start(&names);
    let never = AtomicBool::new(false);
    // The bounds' own progress lines (colgen's ticker): never under `--quiet`.
    let bound_show = match opts.progress {
        Progress::Quiet => crate::progress::Show::Never,
        Progress::Auto | Progress::Plain => crate::progress::Show::Auto,
    };
    let bound_results = parallel_map(&cases, opts.jobs, &never, |&(ii, k)| {
        let inst = &plan.instances[ii].inst;
        let started = Instant::now();
        let computed = plan
            .bounds
            .iter()
            .map(|request| {
                let t = Instant::now();
                let b = request.compute(inst, k, bound_show)?;
                // Labelled by the method that produced the value (not the one asked for).
                Ok(BoundResult {
                    params: request.params.clone(),
                    seconds: t.elapsed().as_secs_f64(),
                    ..BoundResult::from(&b)
                })
            })
            .collect::<Result<Vec<_>>>();
        if !plan.bounds.is_empty() {
            let case = format!("{} k={k}", plan.instances[ii].spec);
            progress.bound_finished(&case, started.elapsed().as_secs_f64());
        }
        computed
    });
    let mut case_bounds: BTreeMap<(usize, usize), Vec<BoundResult>> = BTreeMap::new();
    for (case, r) in cases.iter().zip(bound_results) {
        case_bounds.insert(*case, r.expect("every case computed")?);
    }
    let library = plan.suite.library()?;
    let references: BTreeMap<(usize, usize), Reference> = cases
        .iter()
        .filter_map(|&(ii, k)| {
            let r = library.as_ref()?.reference(&plan.instances[ii].inst, k)?;
            Some(((ii, k), r))
        })
        .collect();

    let stop = AtomicBool::new(false);
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    let file_lock = Mutex::new(());
    let results = parallel_map(&todo, opts.jobs, &stop, |run| {
        if interrupt.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
            return None;
        }
        // A panic inside an algorithm becomes this run's error instead of taking the
        // study (and the records lock) down with it.
        let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            let case = (run.instance, run.k);
            execute(
                plan,
                run,
                &case_bounds[&case],
                references.get(&case),
                interrupt,
            )
        }))
        .unwrap_or_else(|panic| {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            Err(Error::Algorithm {
                method: plan.pipelines[run.pipeline].label.clone(),
                message: format!("panicked: {what} (a bug; please report it)"),
            })
        });
        // A run cut short by Ctrl-C is not reproducible: leave it to --resume.
        if interrupt.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
            return None;
        }
        match outcome {
            Ok(rec) => {
                if let Some(path) = &file {
                    let _guard = file_lock.lock().expect("no worker panicked");
                    if let Err(e) = record::append(path, &rec) {
                        first_error
                            .lock()
                            .expect("no worker panicked")
                            .get_or_insert(e);
                        stop.store(true, Ordering::SeqCst);
                        return None;
                    }
                }
                progress.finished(run, &rec);
                Some(rec)
            }
            Err(e) => {
                let e = Error::usage(format!("run {}: {e}", run.run_id));
                first_error
                    .lock()
                    .expect("no worker panicked")
                    .get_or_insert(e);
                stop.store(true, Ordering::SeqCst);
                None
            }
        }
    });
    progress.done();
    let ran_records: Vec<Record> = results.into_iter().flatten().flatten().collect();
    let ran = ran_records.len();
    done.extend(ran_records);
    if let Some(path) = &file {
        record::write_sorted(path, &mut done)?;
    } else {
        record::sort(&mut done);
    }
    if let Some(e) = first_error.into_inner().expect("no worker panicked") {
        return Err(e);
    }
    Ok(RunSummary {
        interrupted: done.len() < runs.len(),
        records: done,
        ran,
        resumed,
        file,
    })
}

/// The error for a record of the output file that is not a run of this plan: a replicate
/// of a pipeline that is now deterministic (written by a build that ran it once per seed) is
/// named as such; anything else is another suite.
fn foreign_record(plan: &Plan, path: &Path, r: &Record) -> Error {
    let deterministic = plan
        .pipelines
        .iter()
        .any(|p| p.label == r.pipeline && p.pipeline.is_deterministic());
    if deterministic && r.seeds.replicate > 0 {
        return Error::usage(format!(
            "{}: record '{}' is replicate {} of '{}', which draws no random number and now runs \
             once per case (the file was written by an older build); use another --out",
            path.display(),
            r.run_id,
            r.seeds.replicate,
            r.pipeline
        ));
    }
    Error::usage(format!(
        "{}: record '{}' does not belong to this suite (changed suite?); use another --out",
        path.display(),
        r.run_id
    ))
}

/// Execute one run and build its record.
fn execute(
    plan: &Plan,
    run: &Run,
    case_bounds: &[BoundResult],
    reference: Option<&Reference>,
    interrupt: &AtomicBool,
) -> Result<Record> {
    let si = &plan.instances[run.instance];
    let inst = &si.inst;
    let rp = &plan.pipelines[run.pipeline];
    // A trace of new bests and stage ends only (no clock interval), so that the trace of
    // a run repeats with the run, whatever the number of workers.
    let mut trace = plan.suite.trace.then(|| Trace::in_memory(f64::INFINITY));
    let mut observers: Vec<&mut dyn Observer> = Vec::new();
    if let Some(t) = trace.as_mut() {
        observers.push(t);
    }
    let out = rp.pipeline.run_observed(
        inst,
        run.k,
        run.seed,
        plan.suite.time_limit,
        plan.suite.max_steps,
        interrupt,
        &mut observers,
    )?;
    drop(observers);
    // Thinned by steps (not time), so it still repeats with the run.
    let trace = trace.map(|t| super::thin::thin(&t.finish()));
    let p = &out.partition;
    if !p.is_feasible(run.k) {
        return Err(Error::Algorithm {
            method: rp.label.clone(),
            message: "returned an infeasible partition".into(),
        });
    }
    let stages: Vec<StageResult> = out.stages.iter().map(StageResult::from).collect();
    if !(out.partition.sse().is_finite() && inst.sst.is_finite() && inst.sst > 0.0) {
        return Err(Error::Algorithm {
            method: rp.label.clone(),
            message: format!(
                "SSE {} against SST {}: not a finite information loss",
                out.partition.sse(),
                inst.sst
            ),
        });
    }
    let (min_size, max_size) = p.size_range();
    let sse = p.sse();
    let mut bounds = case_bounds.to_vec();
    let gaps = record::Gaps::of(sse, &mut bounds, reference, inst);
    let release = if plan.suite.measures {
        Some(implied_release(inst, p.labels())?)
    } else {
        None
    };
    Ok(Record {
        suite: plan.suite.name.clone(),
        index: run.index,
        run_id: run.run_id.clone(),
        instance: si.spec.clone(),
        instance_name: inst.name.clone(),
        instance_sha256: inst.sha256.clone(),
        source: None,
        n: inst.n,
        d: inst.d,
        sst: Some(inst.sst),
        k: run.k,
        pipeline: rp.label.clone(),
        method: rp.pipeline.spec.clone(),
        params: rp
            .stages()
            .iter()
            .map(|s| StageParams {
                name: s.name.clone(),
                params: s.params.clone(),
            })
            .collect(),
        seeds: RunSeeds {
            base: plan.suite.seeds.base,
            run: run.seed,
            replicate: run.replicate,
            stages: stages.iter().map(|s| s.seed).collect(),
        },
        deterministic: run.deterministic,
        time_limit: plan.suite.time_limit,
        max_steps: plan.suite.max_steps,
        bounds_requested: plan.bounds.iter().map(|b| b.name.clone()).collect(),
        stages,
        sse,
        il: inst.il(sse),
        groups: p.num_groups(),
        min_group_size: min_size,
        max_group_size: max_size,
        gap: gaps.gap,
        best_bound: gaps.best_bound,
        best_known_sse: gaps.best_known_sse,
        gap_best_known: gaps.gap_best_known,
        bounds,
        bound_skipped: None,
        seconds: out.seconds,
        interrupted: false,
        trace,
        release,
        missing: None,
        weights: None,
        version: env!("CARGO_PKG_VERSION").to_string(),
        git_commit: env!("MICROAGG_GIT_COMMIT").to_string(),
    })
}

/// `measures = true`: the release a partition implies (group means, no file written) with
/// its measures: `run --masked-out`'s figures without the file.
fn implied_release(inst: &crate::data::Instance, labels: &[usize]) -> Result<ReleaseRecord> {
    let (_, record) = crate::release::release_in_memory(
        inst,
        labels,
        crate::release::Aggregation::Mean,
        crate::missing::MissingRelease::Keep,
        true,
    )?;
    Ok(record)
}

/// Progress on stderr: a bar on a terminal, plain lines when asked (module doc). The
/// estimate of the time left is [`crate::progress::budget_eta`] over three parts: the
/// cases' bounds (budget: the sum of their time limits), the runs of refining pipelines
/// (budget: the run time limit, unless a step budget ends them first) and the runs of
/// constructive ones (no budget: a
/// constructive method is not stopped by the clock and takes its own, usually short, time).
struct Reporter {
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
    fn new(mode: Progress, plan: &Plan, cases: usize, todo: &[&Run], jobs: usize) -> Reporter {
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
    fn bounds_start(&self, names: &[String]) {
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

    fn bound_finished(&self, case: &str, seconds: f64) {
        let mut parts = self.parts.lock().expect("no worker panicked");
        parts[0].done += 1;
        parts[0].seconds += seconds;
        let line = format!(
            "bounds [{}/{}] {case} in {seconds:.1} s",
            parts[0].done, self.cases
        );
        self.say(line, &parts);
    }

    fn finished(&self, run: &Run, r: &Record) {
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

    fn done(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
