//! # Experiment runner
//!
//! Runs the runs of a [`Plan`] (or of one shard of it) in parallel across runs on `jobs`
//! worker threads; each run is single-threaded, so its result depends only on its seed and
//! never on the number of workers or on scheduling. Lower bounds are computed once per
//! (instance, k) of the shard before the runs. Each finished run is appended to the output
//! file at once (so `--resume` can pick up after a crash or Ctrl-C), and the file is
//! rewritten sorted by run index at the end, so the finished output is byte-stable apart
//! from timing fields. A run that was cut short by an interrupt is not recorded. The
//! records file is locked for the duration (`OutLock`): a second study writing the same
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
//!
//! The steps of [`run_plan`] are here; the worker pool is in `parallel.rs`, one run and its
//! record in `execute.rs`, the progress display in `reporter.rs`.

mod execute;
mod parallel;
mod reporter;

use super::expand::{Plan, Run, Shard};
use super::lock::OutLock;
use super::record::{self, BoundResult, Record};
use crate::error::{Error, Result};
use crate::library::Reference;
use execute::execute;
use parallel::parallel_map;
use reporter::Reporter;
use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
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
pub(crate) fn records_path(out: &Path, shard: Option<Shard>) -> PathBuf {
    match shard {
        None => out.join("records.jsonl"),
        Some(s) => out.join(format!("records-shard-{}-of-{}.jsonl", s.index, s.count)),
    }
}

/// The bounds of each case, in the plan's order of bounds.
type CaseBounds = BTreeMap<(usize, usize), Vec<BoundResult>>;

/// Run a plan (or a shard of it).
pub fn run_plan(plan: &Plan, opts: &RunOptions, interrupt: &AtomicBool) -> Result<RunSummary> {
    let runs = plan.shard(opts.shard);
    let file = opts.out.as_ref().map(|d| records_path(d, opts.shard));
    let (mut done, _lock) = resumed_records(plan, opts, &runs, file.as_deref())?;
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
    let case_bounds = compute_bounds(plan, opts, &cases, &progress)?;
    let references = case_references(plan, &cases)?;
    let (results, first_error) = run_all(
        plan,
        opts,
        &todo,
        (&case_bounds, &references),
        file.as_deref(),
        &progress,
        interrupt,
    );
    progress.done();
    let ran_records: Vec<Record> = results.into_iter().flatten().flatten().collect();
    let ran = ran_records.len();
    done.extend(ran_records);
    if let Some(path) = &file {
        record::write_sorted(path, &mut done)?;
    } else {
        record::sort(&mut done);
    }
    if let Some(e) = first_error {
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

/// With an output file: the file locked for the study, and the records it already holds
/// (`--resume`), each checked to be a run of this plan with the same seed; the file is
/// rewritten sorted, without a line cut short by a crash.
fn resumed_records(
    plan: &Plan,
    opts: &RunOptions,
    runs: &[&Run],
    file: Option<&Path>,
) -> Result<(Vec<Record>, Option<OutLock>)> {
    let mut done: Vec<Record> = Vec::new();
    let (Some(dir), Some(path)) = (&opts.out, file) else {
        return Ok((done, None));
    };
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let lock = OutLock::acquire(path)?;
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
    Ok((done, Some(lock)))
}

/// The plan's bounds of every case, on `jobs` workers (each case's bounds in turn).
fn compute_bounds(
    plan: &Plan,
    opts: &RunOptions,
    cases: &[(usize, usize)],
    progress: &Reporter,
) -> Result<CaseBounds> {
    let names: Vec<String> = plan.bounds.iter().map(|b| b.name.clone()).collect();
    progress.bounds_start(&names);
    let never = AtomicBool::new(false);
    // The bounds' own progress lines (colgen's ticker): never under `--quiet`.
    let bound_show = match opts.progress {
        Progress::Quiet => crate::progress::Show::Never,
        Progress::Auto | Progress::Plain => crate::progress::Show::Auto,
    };
    let bound_results = parallel_map(cases, opts.jobs, &never, |&(ii, k)| {
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
    let mut case_bounds: CaseBounds = BTreeMap::new();
    for (case, r) in cases.iter().zip(bound_results) {
        case_bounds.insert(*case, r.expect("every case computed")?);
    }
    Ok(case_bounds)
}

/// The benchmark library's reference of each case that has one (none without a library).
fn case_references(
    plan: &Plan,
    cases: &[(usize, usize)],
) -> Result<BTreeMap<(usize, usize), Reference>> {
    let library = plan.suite.library()?;
    Ok(cases
        .iter()
        .filter_map(|&(ii, k)| {
            let r = library.as_ref()?.reference(&plan.instances[ii].inst, k)?;
            Some(((ii, k), r))
        })
        .collect())
}

/// The runs `todo` on `jobs` workers, each finished record appended to `file` at once; the
/// records (None for a run not started, failed or interrupted) and the first error, after
/// which no run starts.
#[allow(clippy::type_complexity)]
fn run_all(
    plan: &Plan,
    opts: &RunOptions,
    todo: &[&Run],
    (case_bounds, references): (&CaseBounds, &BTreeMap<(usize, usize), Reference>),
    file: Option<&Path>,
    progress: &Reporter,
    interrupt: &AtomicBool,
) -> (Vec<Option<Option<Record>>>, Option<Error>) {
    let stop = AtomicBool::new(false);
    let first_error: Mutex<Option<Error>> = Mutex::new(None);
    let file_lock = Mutex::new(());
    let fail = |e: Error| {
        first_error
            .lock()
            .expect("no worker panicked")
            .get_or_insert(e);
        stop.store(true, Ordering::SeqCst);
    };
    let results = parallel_map(todo, opts.jobs, &stop, |run| {
        if interrupt.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
            return None;
        }
        let case = (run.instance, run.k);
        let (bounds, reference) = (&case_bounds[&case], references.get(&case));
        let outcome = run_guarded(plan, run, || {
            execute(plan, run, bounds, reference, interrupt)
        });
        // A run cut short by Ctrl-C is not reproducible: leave it to --resume.
        if interrupt.load(Ordering::SeqCst) {
            stop.store(true, Ordering::SeqCst);
            return None;
        }
        match outcome {
            Ok(rec) => {
                if let Some(path) = file {
                    let _guard = file_lock.lock().expect("no worker panicked");
                    if let Err(e) = record::append(path, &rec) {
                        fail(e);
                        return None;
                    }
                }
                progress.finished(run, &rec);
                Some(rec)
            }
            Err(e) => {
                fail(Error::usage(format!("run {}: {e}", run.run_id)));
                None
            }
        }
    });
    (
        results,
        first_error.into_inner().expect("no worker panicked"),
    )
}

/// `work` (the [`execute`] of `run`) with a panic inside an algorithm turned into this
/// run's error instead of taking the study (and the records lock) down with it.
fn run_guarded(plan: &Plan, run: &Run, work: impl FnOnce() -> Result<Record>) -> Result<Record> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(work)).unwrap_or_else(|panic| {
        let what = panic
            .downcast_ref::<&str>()
            .map(|s| s.to_string())
            .or_else(|| panic.downcast_ref::<String>().cloned())
            .unwrap_or_else(|| "unknown panic".into());
        Err(Error::Algorithm {
            method: plan.pipelines[run.pipeline].label.clone(),
            message: format!("panicked: {what} (a bug; please report it)"),
        })
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
