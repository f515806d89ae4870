//! The `microagg` command line. See `microagg --help` and the README.

use clap::{Parser, Subcommand};
use microagg::data::{self, ColumnSelection};
use microagg::error::{Error, Result};
use microagg::interrupt;
use microagg::labels;
use microagg::method::MethodKind;
use microagg::output::{self, note};
use microagg::pipeline::{Pipeline, StageRecord, StageSpec};
use microagg::registry;
use microagg::search::observe::Observer;
use microagg::search::trace::{Trace, TracePoint};
use serde::Serialize;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(Parser)]
#[command(
    name = "microagg",
    version,
    about = "Microaggregation workbench: heuristics, local search, exact solvers and lower bounds"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
    /// Threads for the distance passes of the MDAV-family methods (default: the available
    /// cores); results do not depend on it.
    #[arg(long, global = true)]
    threads: Option<usize>,
}

#[derive(clap::Args, Clone)]
struct DataArgs {
    /// Data: a CSV file path, an instance id (tarragona, census, eia), or a generator spec
    /// (uniform:n=1000,d=5,seed=1; gauss:n=..,d=..,clusters=5; sim1; sim2:seed=3; sim3).
    #[arg(long)]
    data: String,
    /// Columns to use, by name or 1-based position, comma-separated (default: all).
    #[arg(long, default_value = "", conflicts_with = "column")]
    columns: String,
    /// One column, by name or 1-based position (for one-attribute methods such as univariate).
    #[arg(long)]
    column: Option<String>,
    /// Minimum group size (k >= 2).
    #[arg(long)]
    k: usize,
    /// Field delimiter of CSV files: one character, e.g. ';' or '\t' (default ',').
    #[arg(long, default_value = ",")]
    delimiter: String,
}

impl DataArgs {
    fn delimiter(&self) -> Result<u8> {
        match self.delimiter.as_str() {
            "\\t" | "\t" | "tab" => Ok(b'\t'),
            d if d.len() == 1 && d.is_ascii() && d != "\"" && d != "\n" => Ok(d.as_bytes()[0]),
            d => Err(Error::usage(format!(
                "--delimiter '{d}': expected one ASCII character such as ',' ';' or '\\t'"
            ))),
        }
    }

    fn load(&self) -> Result<data::Instance> {
        data::load_with(&self.data, &self.selection(), self.delimiter()?)
    }

    /// The input file, when `--data` names one (for refusing to overwrite it).
    fn input_file(&self) -> Option<PathBuf> {
        let p = Path::new(&self.data);
        p.is_file().then(|| output::canonical(p)).flatten()
    }

    fn selection(&self) -> ColumnSelection {
        match &self.column {
            Some(c) => ColumnSelection::List(vec![c.trim().to_string()]),
            None => ColumnSelection::parse(&self.columns),
        }
    }
}

#[derive(Subcommand)]
enum Command {
    /// Run a pipeline (initializer[+refiner...]) and report SSE and IL.
    Run {
        #[command(flatten)]
        data: DataArgs,
        /// Pipeline: an initializer name, optionally followed by refiners joined with '+'.
        #[arg(long)]
        method: String,
        /// Base seed; every stage gets a seed derived from it and the run's identity.
        #[arg(long, default_value_t = 0)]
        seed: u64,
        /// Wall-clock limit in seconds for the whole pipeline (refiners stop at it). The result
        /// then depends on the machine's speed; use --max-steps for a repeatable budget.
        #[arg(long)]
        time_limit: Option<f64>,
        /// Step budget of every refiner stage (stop reason step_limit): unlike a time limit,
        /// runs with the same seed and budget give identical labels on any machine.
        #[arg(long, value_parser = clap::value_parser!(u64).range(1..))]
        max_steps: Option<u64>,
        /// Algorithm parameter, METHOD.KEY=VALUE (repeatable), e.g. vmdav.gamma=1.1.
        #[arg(long = "param")]
        params: Vec<String>,
        /// Write one group label per input row, in input order.
        #[arg(long)]
        labels_out: Option<PathBuf>,
        /// Write the microaggregated data (original units, input header) as CSV.
        #[arg(long)]
        masked_out: Option<PathBuf>,
        /// Print one JSON object on stdout instead of text.
        #[arg(long)]
        json: bool,
        /// Write a search trace (seconds, stage, step, current IL, best IL): CSV, or JSON
        /// lines when FILE ends in .jsonl or .json.
        #[arg(long)]
        trace: Option<PathBuf>,
        /// Also compute a lower bound (nn, colgen or colgen-cuts) after the run and report lower_bound,
        /// il_lower_bound, bound_certified and gap_percent = 100 (SSE - LB) / LB.
        #[arg(long)]
        bound: Option<String>,
        #[command(flatten)]
        split: microagg::parts::SplitArgs,
    },
    /// Compute a lower bound on the optimal SSE of (data, k), with its IL and certification.
    Bound {
        #[command(flatten)]
        data: DataArgs,
        /// Bound: nn (nearest-neighbour bound, O(n^2 d), always certified), colgen
        /// (column generation Lagrangian bound, HiGHS, certified; default time limit 60 s) or
        /// colgen-cuts (colgen with 50 rounds of subset-row cuts unless --cuts says otherwise;
        /// proofs/P14).
        #[arg(long, default_value = "nn")]
        method: String,
        /// Wall-clock limit in seconds (for iterative bounds such as colgen; nn ignores it).
        #[arg(long)]
        time_limit: Option<f64>,
        /// colgen: a labels file (one group label per input row, every group of at least k
        /// records, e.g. proofs/certificates/tarragona-k10.labels) whose groups seed the master.
        #[arg(long)]
        start: Option<PathBuf>,
        /// colgen: one progress line per iteration on stderr.
        #[arg(long)]
        progress: bool,
        /// colgen: write a certificate of the Lagrangian bound (its duals, JSON) that
        /// `verify-bound` re-checks without HiGHS (proofs/P13).
        #[arg(long)]
        certificate: Option<PathBuf>,
        /// colgen: rounds of subset-row cuts on record triples once the master LP is reached
        /// (0: none for colgen, 50 for colgen-cuts). Each round adds the most violated cuts (at most 800) and resumes column
        /// generation; the bound is the best over all rounds (proofs/P14). Costs time, raises
        /// the bound where the LP relaxation is weak (proofs/certificates/study-colgen.txt).
        #[arg(long, default_value_t = 0)]
        cuts: usize,
        /// Print one JSON object on stdout instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Re-check a bound certificate (written by `bound --certificate`) without HiGHS: the
    /// bound is recomputed from the certificate's duals with proven pricing and outward
    /// rounding; exit 0 when the claimed bound holds, 1 when it does not.
    VerifyBound {
        #[command(flatten)]
        data: DataArgs,
        /// The certificate file (JSON).
        #[arg(long)]
        certificate: PathBuf,
        /// Wall-clock limit in seconds for the pricing search (default: none; a cut search
        /// gives a weaker bound that may not support the claim).
        #[arg(long)]
        time_limit: Option<f64>,
        /// Print one JSON object on stdout instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Exact optimum for small instances (subset DP up to n = 16, column generation and a
    /// certified branch and bound up to n = 64, practical to about n = 40 with k = 3..5), with
    /// its proof status (proofs/P12: "proven" means a certified bound within 1e-9 relative).
    SolveExact {
        #[command(flatten)]
        data: DataArgs,
        /// Method: auto (DP for n <= 16, else MIP), subset-dp (n <= 20), set-partitioning.
        #[arg(long, default_value = "auto")]
        method: String,
        /// Wall-clock limit in seconds (set-partitioning; on expiry the best partition found,
        /// never worse than MDAV, is reported with proven_optimal = false, a certified lower
        /// bound and a note).
        #[arg(long)]
        time_limit: Option<f64>,
        /// Write one group label per input row, in input order.
        #[arg(long)]
        labels_out: Option<PathBuf>,
        /// Print one JSON object on stdout instead of text.
        #[arg(long)]
        json: bool,
    },
    /// Verify a labels file independently: feasibility and recomputed SSE/IL (exit 1 if infeasible).
    Check {
        #[command(flatten)]
        data: DataArgs,
        /// Labels file: one integer group label per input row.
        #[arg(long)]
        labels: PathBuf,
        #[arg(long)]
        json: bool,
    },
    /// Join the part files of a split run (`run --part I/N --labels-out FILE`) into one
    /// labels file, numbered as the unsplit run numbers its labels.
    Combine {
        /// The part files, one per part (any order).
        parts: Vec<PathBuf>,
        /// The labels file to write.
        #[arg(long)]
        out: PathBuf,
    },
    /// List every registered method with its parameters and defaults.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Speed benchmark: time and IL per method and case.
    Bench {
        /// Methods to time, comma-separated (default: mdav).
        #[arg(long, default_value = "mdav")]
        methods: String,
        /// Cases, comma-separated: eia-k3, eia-k10, gauss-10k, gauss-100k (default: all).
        #[arg(long, default_value = "eia-k3,eia-k10,gauss-10k,gauss-100k")]
        cases: String,
        /// Repetitions per measurement (the minimum time is reported; at least 1).
        #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
        reps: u64,
    },
    /// The main job: the default study (instances/demo.toml, embedded) on synthetic
    /// instances and the CASC files when present; prints the result table.
    Demo {
        /// Worker threads (default: available cores).
        #[arg(long)]
        jobs: Option<usize>,
        /// Keep the records and figures in this directory (default: in memory only).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Run a study described by a suite file (TOML) and write one JSON record per run.
    Experiment {
        /// The suite file (see instances/smoke.toml).
        suite: PathBuf,
        /// Output directory (default: results/<suite name>).
        #[arg(long)]
        out: Option<PathBuf>,
        /// Runs executed in parallel (default: available cores); each run is single-threaded.
        #[arg(long)]
        jobs: Option<usize>,
        /// Run only slice I of N (1-based), e.g. 2/8 for a job array; shards merge by
        /// concatenation. Default: SLURM_ARRAY_TASK_ID/COUNT when set; `all` runs everything.
        #[arg(long)]
        shard: Option<String>,
        /// Skip runs whose records are already in the output directory.
        #[arg(long)]
        resume: bool,
        /// Print the expanded run matrix and exit.
        #[arg(long)]
        dry_run: bool,
    },
    /// Summarise a results directory: table (md, csv or latex) on stdout, figures (SVG, PNG, PDF) in DIR/figures.
    Report {
        /// Directory holding *.jsonl run records.
        dir: PathBuf,
        #[arg(long, default_value = "md")]
        format: String,
        /// With --format csv: one row per run record instead of one per case and pipeline.
        #[arg(long)]
        per_run: bool,
    },
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    microagg::init::pool::set_threads(cli.threads);
    interrupt::install();
    match dispatch(cli.command) {
        Ok(code) => code,
        // The reader of our output went away (`microagg list | head -1`): end quietly.
        Err(Error::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            note(&format!("error: {e}"));
            ExitCode::from(2)
        }
    }
}

/// Validate a `--time-limit` value.
fn check_time_limit(t: Option<f64>) -> Result<()> {
    match t {
        Some(t) => microagg::search::check_time_limit(t)
            .map_err(|e| Error::usage(format!("--time-limit {e}"))),
        None => Ok(()),
    }
}

/// The status of a command that a signal stopped after it wrote its results.
fn interrupted_status() -> ExitCode {
    ExitCode::from(interrupt::exit_status())
}

fn dispatch(cmd: Command) -> Result<ExitCode> {
    match cmd {
        Command::Run {
            data,
            method,
            seed,
            time_limit,
            max_steps,
            params,
            labels_out,
            masked_out,
            json,
            trace,
            bound,
            split,
        } => {
            let outputs = RunOutputs {
                labels: labels_out,
                masked: masked_out,
                trace,
            };
            outputs.check(&data)?;
            let budget = Budget {
                time_limit,
                max_steps,
            };
            let result = run(
                &data,
                &method,
                seed,
                budget,
                &params,
                &outputs,
                json,
                bound.as_deref(),
                &split,
            );
            result
        }
        Command::Check { data, labels, json } => check(&data, &labels, json),
        Command::Bound {
            data,
            method,
            time_limit,
            start,
            progress,
            certificate,
            cuts,
            json,
        } => bound(
            &data,
            &method,
            time_limit,
            start.as_deref(),
            progress,
            certificate.as_deref(),
            cuts,
            json,
        ),
        Command::VerifyBound {
            data,
            certificate,
            time_limit,
            json,
        } => verify_bound(&data, &certificate, time_limit, json),
        Command::SolveExact {
            data,
            method,
            time_limit,
            labels_out,
            json,
        } => solve_exact(&data, &method, time_limit, labels_out, json),
        Command::Combine { parts, out } => {
            let s = microagg::parts::combine(&parts, &out)?;
            note(&format!(
                "{} parts ({}) joined: {} rows in {} groups (smallest {}) written to {}",
                s.parts,
                s.split,
                s.n,
                s.groups,
                s.min_group_size,
                out.display()
            ));
            Ok(ExitCode::SUCCESS)
        }
        Command::List { json } => list(json),
        Command::Bench {
            methods,
            cases,
            reps,
        } => microagg::bench::run(&methods, &cases, reps as usize).map(|_| ExitCode::SUCCESS),
        Command::Demo { jobs, out } => {
            let finished = microagg::bench::demo(jobs, out.as_deref(), interrupt::flag())?;
            Ok(if finished {
                ExitCode::SUCCESS
            } else {
                note("interrupted before every run finished; the table holds the finished runs");
                interrupted_status()
            })
        }
        Command::Experiment {
            suite,
            out,
            jobs,
            shard,
            resume,
            dry_run,
        } => experiment(&suite, out, jobs, shard.as_deref(), resume, dry_run),
        Command::Report {
            dir,
            format,
            per_run,
        } => {
            let format = microagg::report::Format::parse(&format)?;
            let (table, figures) = microagg::report::report_table(&dir, format, per_run)?;
            output::print(&table)?;
            // Figures are a by-product: a folder that takes no files still gets its table.
            match figures {
                Ok(files) => files
                    .iter()
                    .for_each(|f| note(&format!("figure: {}", f.display()))),
                Err(e) => note(&format!("warning: figures not written: {e}")),
            }
            Ok(ExitCode::SUCCESS)
        }
    }
}

fn experiment(
    suite_path: &std::path::Path,
    out: Option<PathBuf>,
    jobs: Option<usize>,
    shard: Option<&str>,
    resume: bool,
    dry_run: bool,
) -> Result<ExitCode> {
    use microagg::experiment::{self as exp, Plan, Shard, Suite};
    let shard = microagg::parts::Part::from_arg(shard, "--shard")?.map(|p| Shard {
        index: p.index,
        count: p.count,
    });
    let suite = Suite::load(suite_path)?;
    let out = out.unwrap_or_else(|| PathBuf::from("results").join(&suite.name));
    let plan = Plan::new(suite)?;
    if dry_run {
        output::print(&plan.describe(shard))?;
        return Ok(ExitCode::SUCCESS);
    }
    for note_text in &plan.notes {
        note(&format!("note: {note_text}"));
    }
    let opts = exp::RunOptions {
        out: Some(out.clone()),
        jobs: jobs.unwrap_or_else(microagg::bench::default_jobs).max(1),
        shard,
        resume,
        progress: exp::Progress::Auto,
    };
    let summary = exp::run_plan(&plan, &opts, interrupt::flag())?;
    note(&format!(
        "{} runs done now, {} resumed, {} records in {}",
        summary.ran,
        summary.resumed,
        summary.records.len(),
        summary
            .file
            .as_ref()
            .map_or(String::new(), |f| f.display().to_string())
    ));
    if summary.interrupted {
        note(&format!(
            "interrupted ({}): rerun with --resume to finish",
            interrupt::signal_name()
        ));
        return Ok(interrupted_status());
    }
    note(&format!(
        "summarise with: microagg report {}",
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// The budget of `microagg run`.
#[derive(Clone, Copy)]
struct Budget {
    time_limit: Option<f64>,
    max_steps: Option<u64>,
}

/// The files `microagg run` writes.
struct RunOutputs {
    labels: Option<PathBuf>,
    masked: Option<PathBuf>,
    trace: Option<PathBuf>,
}

impl RunOutputs {
    /// Before anything runs: every destination can be written, none is the input file, and
    /// no two are the same file (a typo must not throw a long run away).
    fn check(&self, data: &DataArgs) -> Result<()> {
        let named = [
            ("--labels-out", &self.labels),
            ("--masked-out", &self.masked),
            ("--trace", &self.trace),
        ];
        let input = data.input_file();
        let mut seen: Vec<(&str, PathBuf)> = Vec::new();
        for (option, path) in named {
            let Some(path) = path else { continue };
            output::check_destination(option, path)?;
            let Some(canon) = output::canonical(path) else {
                continue;
            };
            if input.as_ref() == Some(&canon) {
                return Err(Error::usage(format!(
                    "{option} {}: that is the input file (--data); writing it would destroy the data",
                    path.display()
                )));
            }
            if let Some((other, _)) = seen.iter().find(|(_, p)| *p == canon) {
                return Err(Error::usage(format!(
                    "{option} {} and {other} name the same file",
                    path.display()
                )));
            }
            seen.push((option, canon));
        }
        Ok(())
    }
}

/// The JSON record of `microagg run`.
#[derive(Serialize)]
struct RunRecord<'a> {
    method: &'a str,
    instance: &'a str,
    source: &'a str,
    instance_sha256: &'a str,
    n: usize,
    d: usize,
    k: usize,
    seed: u64,
    sse: f64,
    sst: f64,
    il: f64,
    groups: usize,
    min_group_size: usize,
    max_group_size: usize,
    seconds: f64,
    time_limit: Option<f64>,
    /// Step budget of every refiner stage (`--max-steps`); with it and no time limit the
    /// run repeats bit for bit.
    max_steps: Option<u64>,
    /// True when a signal (Ctrl-C, SIGTERM, SIGHUP) stopped the run: the partition is the
    /// best found until then.
    interrupted: bool,
    params: &'a [StageSpec],
    stages: &'a [StageRecord],
    /// Present with `--bound`: the bound, its IL, whether it is certified, and the gap
    /// 100 (SSE - LB) / LB in percent.
    #[serde(skip_serializing_if = "Option::is_none")]
    bound_method: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    il_lower_bound: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    bound_certified: Option<bool>,
    #[serde(skip_serializing_if = "Option::is_none")]
    gap_percent: Option<f64>,
    /// Why a requested bound was not computed (the run was interrupted).
    #[serde(skip_serializing_if = "Option::is_none")]
    bound_skipped: Option<&'a str>,
    /// With `--trace FILE`: the trace's lines, as in experiment records.
    #[serde(skip_serializing_if = "Option::is_none")]
    trace: Option<Vec<TracePoint>>,
    version: &'a str,
    git_commit: &'a str,
}

#[allow(clippy::too_many_arguments)]
fn run(
    data: &DataArgs,
    spec: &str,
    seed: u64,
    budget: Budget,
    params: &[String],
    outputs: &RunOutputs,
    json: bool,
    bound_name: Option<&str>,
    split: &microagg::parts::SplitArgs,
) -> Result<ExitCode> {
    check_time_limit(budget.time_limit)?;
    // Validate the pipeline and its parameters before loading data or running anything.
    let pipeline = Pipeline::parse(spec, params)?;
    if let Some(b) = bound_name {
        microagg::bound::check_name(b)?;
    }
    if split.is_active() {
        let run = microagg::parts::SplitRun {
            data: &data.data,
            columns: &data.selection(),
            delimiter: data.delimiter()?,
            k: data.k,
            pipeline: &pipeline,
            seed,
            time_limit: budget.time_limit,
            max_steps: budget.max_steps,
            labels_out: outputs.labels.as_deref(),
            masked_out: outputs.masked.as_deref(),
            json,
            interrupt: interrupt::flag(),
        };
        if bound_name.is_some() {
            return Err(Error::usage("--bound applies to unsplit runs"));
        }
        let finished = microagg::parts::run_cli(split, &run)?;
        return Ok(if finished {
            ExitCode::SUCCESS
        } else {
            interrupted_status()
        });
    }
    let inst = data.load()?;
    inst.check_k(data.k)?;
    // --trace FILE: a trace observer writing the file; with --json the same lines also go
    // into the record (a second, in-memory observer).
    let mut file_trace = match &outputs.trace {
        Some(path) => Some(
            Trace::to_file(path, 0.1)
                .map_err(|e| Error::usage(format!("--trace {}: {e}", path.display())))?,
        ),
        None => None,
    };
    let mut json_trace = (json && file_trace.is_some()).then(|| Trace::in_memory(0.1));
    let mut observers: Vec<&mut dyn Observer> = Vec::new();
    observers.extend(file_trace.as_mut().map(|t| t as &mut dyn Observer));
    observers.extend(json_trace.as_mut().map(|t| t as &mut dyn Observer));
    let out = pipeline.run_observed(
        &inst,
        data.k,
        seed,
        budget.time_limit,
        budget.max_steps,
        interrupt::flag(),
        &mut observers,
    );
    drop(observers);
    if let Some(t) = file_trace {
        t.finish();
    }
    let out = out?;
    let trace = json_trace.map(Trace::finish);
    let p = &out.partition;
    // Write what the run found before anything else, so that a second signal during the
    // bound cannot lose it.
    if let Some(path) = &outputs.labels {
        labels::write_labels(path, p.labels())?;
    }
    if let Some(path) = &outputs.masked {
        labels::write_masked(path, &inst, p.labels())?;
    }
    // The bound is computed after the run, so it does not eat into the run's time limit;
    // after a signal it is skipped (it can take as long as the run).
    let mut bound_skipped = None;
    let lb = match bound_name {
        Some(_) if interrupt::requested() => {
            bound_skipped = Some("interrupted before the bound was computed");
            None
        }
        Some(b) => Some(microagg::bound::compute_with(
            b,
            &inst,
            data.k,
            budget.time_limit,
            &microagg::bound::BoundOptions::default(),
            interrupt::flag(),
        )?),
        None => None,
    };
    let interrupted = interrupt::requested();
    let (min_size, max_size) = p.size_range();
    let record = RunRecord {
        method: spec,
        instance: &inst.name,
        source: &inst.source,
        instance_sha256: &inst.sha256,
        n: inst.n,
        d: inst.d,
        k: data.k,
        seed,
        sse: p.sse(),
        sst: inst.sst,
        il: inst.il(p.sse()),
        groups: p.num_groups(),
        min_group_size: min_size,
        max_group_size: max_size,
        seconds: out.seconds,
        time_limit: budget.time_limit,
        max_steps: budget.max_steps,
        interrupted,
        params: &pipeline.stages,
        stages: &out.stages,
        bound_method: lb.as_ref().map(|b| b.method.as_str()),
        lower_bound: lb.as_ref().map(|b| b.lower_bound),
        il_lower_bound: lb.as_ref().map(|b| b.il_lower_bound),
        bound_certified: lb.as_ref().map(|b| b.certified),
        gap_percent: lb
            .as_ref()
            .and_then(|b| microagg::bound::gap_percent(p.sse(), b.lower_bound)),
        bound_skipped,
        trace,
        version: env!("CARGO_PKG_VERSION"),
        git_commit: option_env!("MICROAGG_GIT_COMMIT").unwrap_or("unknown"),
    };
    if json {
        output::println(&serde_json::to_string(&record).expect("record serialises"))?;
    } else {
        let mut text = format!(
            "{} on {} (n={}, d={}), k={}: SSE {:.6} IL {:.6} % in {} groups of {}..{} records, {:.3} s{}\n",
            spec,
            inst.name,
            inst.n,
            inst.d,
            data.k,
            record.sse,
            record.il,
            record.groups,
            min_size,
            max_size,
            out.seconds,
            if interrupted {
                format!(" (interrupted by {}: best partition so far)", interrupt::signal_name())
            } else {
                String::new()
            }
        );
        for s in &out.stages {
            text += &format!(
                "  stage {:<20} IL {:.6} %  {:.3} s\n",
                s.name, s.il, s.seconds
            );
        }
        if let Some(b) = &lb {
            text += &format!(
                "  bound {:<20} IL >= {:.6} %  ({}certified), gap {} %\n",
                b.method,
                b.il_lower_bound,
                if b.certified { "" } else { "not " },
                record
                    .gap_percent
                    .map_or("n/a".to_string(), |g| format!("{g:.4}"))
            );
        }
        if let Some(why) = bound_skipped {
            text += &format!("  bound skipped: {why}\n");
        }
        output::print(&text)?;
    }
    Ok(if interrupted {
        interrupted_status()
    } else {
        ExitCode::SUCCESS
    })
}

#[allow(clippy::too_many_arguments)]
fn bound(
    data: &DataArgs,
    method: &str,
    time_limit: Option<f64>,
    start: Option<&std::path::Path>,
    progress: bool,
    certificate: Option<&std::path::Path>,
    cuts: usize,
    json: bool,
) -> Result<ExitCode> {
    check_time_limit(time_limit)?;
    microagg::bound::check_name(method)?;
    if let Some(path) = certificate {
        if !microagg::bound::is_colgen(method) {
            return Err(Error::usage(format!(
                "--certificate: only the colgen bounds write certificates, not {method}"
            )));
        }
        // Refuse a destination that cannot be written before spending the time limit.
        let dir = path
            .parent()
            .filter(|p| !p.as_os_str().is_empty())
            .unwrap_or(std::path::Path::new("."));
        if !dir.is_dir() {
            return Err(Error::usage(format!(
                "--certificate {}: folder {} does not exist",
                path.display(),
                dir.display()
            )));
        }
    }
    let inst = data.load()?;
    let options = microagg::bound::BoundOptions {
        start: start.map(labels::read_labels).transpose()?,
        start_source: start.map_or(String::new(), |p| p.display().to_string()),
        progress,
        cut_rounds: cuts,
    };
    let b = microagg::bound::compute_with(
        method,
        &inst,
        data.k,
        time_limit,
        &options,
        interrupt::flag(),
    )?;
    if let Some(path) = certificate {
        let cert = b.certificate.as_ref().ok_or_else(|| {
            Error::usage(
                "--certificate: no Lagrangian bound was computed within the time limit".to_string(),
            )
        })?;
        cert.write(path)?;
        eprintln!(
            "certificate of the Lagrangian bound {:.12e} written to {}",
            cert.lower_bound,
            path.display()
        );
    }
    if json {
        let mut v = serde_json::to_value(&b).expect("bound serialises");
        let o = v.as_object_mut().expect("an object");
        o.insert("instance".into(), inst.name.clone().into());
        o.insert("instance_sha256".into(), inst.sha256.clone().into());
        o.insert("n".into(), inst.n.into());
        o.insert("d".into(), inst.d.into());
        o.insert("k".into(), data.k.into());
        o.insert("sst".into(), inst.sst.into());
        output::println(&serde_json::to_string(&v).expect("bound serialises"))?;
    } else {
        output::println(&format!(
            "{} bound on {} (n={}, d={}), k={}: SSE >= {:.6}, IL >= {:.6} % ({}certified), {:.3} s",
            b.method,
            inst.name,
            inst.n,
            inst.d,
            data.k,
            b.lower_bound,
            b.il_lower_bound,
            if b.certified { "" } else { "not " },
            b.seconds
        ))?;
    }
    Ok(if interrupt::requested() {
        interrupted_status()
    } else {
        ExitCode::SUCCESS
    })
}

fn solve_exact(
    data: &DataArgs,
    method: &str,
    time_limit: Option<f64>,
    labels_out: Option<PathBuf>,
    json: bool,
) -> Result<ExitCode> {
    use microagg_solvers::exact::{ExactMethod, ExactOptions};
    check_time_limit(time_limit)?;
    let exact_method = ExactMethod::parse(method).ok_or_else(|| {
        Error::usage(format!(
            "--method {method}: expected auto, subset-dp or set-partitioning"
        ))
    })?;
    RunOutputs {
        labels: labels_out.clone(),
        masked: None,
        trace: None,
    }
    .check(data)?;
    let inst = data.load()?;
    inst.check_k(data.k)?;
    let start = std::time::Instant::now();
    // MDAV's partition starts the set-partitioning search, so a time-limited answer is never
    // worse than MDAV (the DP ignores it).
    let never = std::sync::atomic::AtomicBool::new(false);
    let mdav = microagg::pipeline::Pipeline::parse("mdav", &[])?
        .run(&inst, data.k, 0, None, &never)?
        .partition
        .labels()
        .to_vec();
    let opts = ExactOptions {
        method: exact_method,
        time_limit,
        hint: Some(mdav),
        interrupt: Some(interrupt::flag()),
        ..ExactOptions::default()
    };
    let s = microagg_solvers::exact::solve_exact_with(&inst.z, inst.n, inst.d, data.k, &opts)
        .map_err(|e| Error::algorithm("solve-exact", e))?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &labels_out {
        labels::write_labels(path, &s.labels)?;
    }
    let groups = s.labels.iter().max().map_or(0, |m| m + 1);
    if json {
        let v = serde_json::json!({
            "instance": inst.name,
            "instance_sha256": inst.sha256,
            "n": inst.n,
            "d": inst.d,
            "k": data.k,
            "sse": s.sse,
            "sst": inst.sst,
            "il": inst.il(s.sse),
            "groups": groups,
            "proven_optimal": s.proven_optimal,
            "lower_bound": s.lower_bound,
            "il_lower_bound": microagg::bound::il_lower_bound(&inst, s.lower_bound),
            "method": s.method.name(),
            "seconds": seconds,
            "time_limit": time_limit,
            "nodes": s.nodes,
            "columns": s.columns,
            "cg_iterations": s.cg_iterations,
            "lp_bound": s.lp_bound,
            "mip_nodes": s.mip_nodes,
            "branch_nodes": s.branch_nodes,
            "proof_rel_gap": microagg_solvers::exact::PROOF_REL_GAP,
            "note": s.note,
            "interrupted": interrupt::requested(),
            "phase_seconds": {"pricing": s.phase_seconds[0], "lp": s.phase_seconds[1], "mip": s.phase_seconds[2]},
            "version": env!("CARGO_PKG_VERSION"),
        });
        output::println(&serde_json::to_string(&v).expect("record serialises"))?;
    } else {
        output::println(&format!(
            "solve-exact ({}) on {} (n={}, d={}), k={}: SSE {:.6} IL {:.6} % in {} groups, {}, {:.3} s",
            s.method.name(),
            inst.name,
            inst.n,
            inst.d,
            data.k,
            s.sse,
            inst.il(s.sse),
            groups,
            if s.proven_optimal {
                format!(
                    "proven optimal (certified lower bound within relative {:e})",
                    microagg_solvers::exact::PROOF_REL_GAP
                )
            } else {
                format!(
                    "NOT proven (certified lower bound SSE {:.6e}{})",
                    s.lower_bound,
                    s.note.as_deref().map_or(String::new(), |w| format!("; {w}"))
                )
            },
            seconds
        ))?;
    }
    // Interrupted: the best partition and bound are out; say so in the exit status.
    Ok(if interrupt::requested() {
        interrupted_status()
    } else {
        ExitCode::SUCCESS
    })
}

fn verify_bound(
    data: &DataArgs,
    path: &std::path::Path,
    time_limit: Option<f64>,
    json: bool,
) -> Result<ExitCode> {
    if let Some(t) = time_limit {
        if !(t > 0.0 && t <= 1e9) {
            return Err(Error::usage(format!(
                "--time-limit {t}: must be a number of seconds in (0, 1e9]"
            )));
        }
    }
    let cert = microagg::certificate::BoundCertificate::read(path)?;
    let inst = data::load(&data.data, &data.selection())?;
    inst.check_k(data.k)?;
    let start = std::time::Instant::now();
    let v = microagg::certificate::verify(&cert, &inst, data.k, time_limit)?;
    let seconds = start.elapsed().as_secs_f64();
    if json {
        let mut rec = serde_json::to_value(&v).expect("verdict serialises");
        rec["certificate"] = path.display().to_string().into();
        rec["instance"] = inst.name.clone().into();
        rec["k"] = data.k.into();
        rec["seconds"] = seconds.into();
        println!("{rec}");
    } else if v.valid {
        println!(
            "valid: the duals of {} prove SSE >= {:.12e} (claimed {:.12e}) on {} k={}, {:.2} s",
            path.display(),
            v.recomputed,
            v.claimed,
            inst.name,
            data.k,
            seconds
        );
    } else {
        println!(
            "INVALID: {} ({} k={})",
            v.reason.as_deref().unwrap_or("claim not supported"),
            inst.name,
            data.k
        );
    }
    Ok(if v.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn check(data: &DataArgs, labels_path: &std::path::Path, json: bool) -> Result<ExitCode> {
    let inst = data.load()?;
    inst.check_k(data.k)?;
    let labels = labels::read_labels(labels_path)?;
    let report = labels::check_labels(&inst, data.k, &labels)?;
    if json {
        output::println(&serde_json::to_string(&report).expect("report serialises"))?;
    } else {
        let mut text = format!(
            "{}: {} for k = {}: {} groups of {}..{} records, SSE {:.6}, IL {:.6} %\n",
            labels_path.display(),
            if report.feasible {
                "feasible"
            } else {
                "INFEASIBLE"
            },
            data.k,
            report.groups,
            report.min_group_size,
            report.max_group_size,
            report.sse,
            report.il
        );
        for (l, s) in &report.undersized {
            text += &format!("  group {l} has {s} < k = {} records\n", data.k);
        }
        let unlisted = report.undersized_groups - report.undersized.len();
        if unlisted > 0 {
            text += &format!(
                "  ... and {unlisted} more undersized groups ({} in all; --json lists the first {})\n",
                report.undersized_groups,
                report.undersized.len()
            );
        }
        output::print(&text)?;
    }
    Ok(if report.feasible {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

fn list(json: bool) -> Result<ExitCode> {
    let all = registry::registry();
    if json {
        let v: Vec<_> = all
            .iter()
            .map(|m| {
                serde_json::json!({
                    "name": m.name,
                    "kind": match m.kind() { MethodKind::Initializer => "initializer", MethodKind::Refiner => "refiner" },
                    "summary": m.summary,
                    "reference": m.reference,
                    "params": m.defaults,
                    "params_doc": m.params_doc.iter().map(|(k, d)| (k.to_string(), d.to_string())).collect::<std::collections::BTreeMap<_, _>>(),
                })
            })
            .collect();
        output::println(&serde_json::to_string_pretty(&v).expect("list serialises"))?;
        return Ok(ExitCode::SUCCESS);
    }
    for kind in [MethodKind::Initializer, MethodKind::Refiner] {
        let of_kind: Vec<_> = all.iter().filter(|m| m.kind() == kind).collect();
        if of_kind.is_empty() {
            continue;
        }
        let mut text = format!(
            "{}:\n",
            if kind == MethodKind::Initializer {
                "initializers"
            } else {
                "refiners"
            }
        );
        for m in of_kind {
            text += &format!("  {:<16} {}\n", m.name, m.summary);
            text += &format!("  {:<16} reference: {}\n", "", m.reference);
            let defaults = m.defaults.as_object().cloned().unwrap_or_default();
            if defaults.is_empty() {
                text += &format!("  {:<16} parameters: none\n", "");
            }
            for (key, value) in &defaults {
                let doc = m
                    .params_doc
                    .iter()
                    .find(|(k, _)| k == key)
                    .map_or("", |(_, d)| *d);
                text += &format!("  {:<16}   {}.{} = {}  {}\n", "", m.name, key, value, doc);
            }
        }
        output::print(&text)?;
    }
    Ok(ExitCode::SUCCESS)
}
