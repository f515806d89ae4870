//! # `microagg run`
//!
//! Runs a pipeline (`initializer[+refiner...]`) on one instance, or split into strata,
//! blocks or parts ([`crate::parts`]); writes labels, masked data and a trace; then
//! computes the optional bound and reports the run record ([`crate::record::Record`]) as text or JSON.
//!
//! Every option is checked before the data are loaded: the time limit, the pipeline and its
//! parameters, the bound name and the output files (writable, not the input, not twice the
//! same), so that a typo never throws a long run away.
//!
//! ## Complexity
//! That of the pipeline and the bound.
//!
//! ## References
//! None.

use super::data::{DataArgs, OneColumnArg};
use super::values;
use crate::data::LoadOptions;
use crate::error::{Error, Result};
use crate::interrupt;
use crate::labels;
use crate::output;
use crate::pipeline::Pipeline;
use crate::progress::Meter;
use crate::record::{Record, SingleRun};
use crate::render::run as render;
use crate::search::observe::Observer;
use crate::search::trace::{Trace, TracePoint};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct RunArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub column: OneColumnArg,
    /// Pipeline: an initializer name, optionally followed by refiners joined with '+'.
    #[arg(long, help_heading = "Method and budget")]
    pub method: String,
    /// Base seed; every stage gets a seed derived from it and the run's identity, and the
    /// released file's shuffled row order one derived from it and the input file's bytes.
    #[arg(long, default_value_t = 0, help_heading = "Method and budget")]
    pub seed: u64,
    /// Wall-clock limit in seconds for the whole pipeline. A refiner stops at it and keeps
    /// its best partition so far; an initializer that checks it between its groups (mdav,
    /// cbfs, mdav-nc and the other MDAV-style ones) stops there too, and the run then ends
    /// with an "interrupted" error, as an initializer has no partial partition. The result
    /// depends on the machine's speed; use --max-steps for a repeatable budget.
    #[arg(long, value_parser = values::time_limit, help_heading = "Method and budget")]
    pub time_limit: Option<f64>,
    /// Step budget of every refiner stage (stop reason step_limit): unlike a time limit,
    /// runs with the same seed and budget give identical labels on any machine.
    #[arg(long, value_parser = clap::value_parser!(u64).range(1..), help_heading = "Method and budget")]
    pub max_steps: Option<u64>,
    /// Algorithm parameter, METHOD.KEY=VALUE (repeatable), e.g. vmdav.gamma=1.1.
    #[arg(long = "param", help_heading = "Method and budget")]
    pub params: Vec<String>,
    /// Write one group label per input row, in input order.
    #[arg(long, help_heading = "Output")]
    pub labels_out: Option<PathBuf>,
    /// Write the released file: the input CSV with the run's columns microaggregated
    /// (original units), the --identifiers columns dropped and the rows shuffled by
    /// default (the input's order and ids can re-identify records; see --row-order,
    /// --identifier-release).
    #[arg(long, help_heading = "Output")]
    pub masked_out: Option<PathBuf>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long, help_heading = "Output")]
    pub json: bool,
    /// Write a search trace (seconds, stage, step, current IL, best IL): CSV, or JSON
    /// lines when FILE ends in .jsonl or .json.
    #[arg(long, help_heading = "Output")]
    pub trace: Option<PathBuf>,
    /// Also compute a lower bound (see `microagg list`) after the run and report
    /// lower_bound, il_lower_bound, bound_certified and gap_percent = 100 (SSE - LB) / LB.
    #[arg(long, value_parser = values::bound_name(), help_heading = "Lower bound")]
    pub bound: Option<String>,
    /// Parameter of the --bound, KEY=VALUE (repeatable), e.g. cuts=5 or time_limit=30
    /// (default time limit: the run's); `microagg list` shows each bound's parameters.
    #[arg(long = "bound-param", requires = "bound", help_heading = "Lower bound")]
    pub bound_params: Vec<String>,
    /// Missing values (empty or NA cells) in the chosen columns: refuse (stop, naming file,
    /// row and column) or ignore (left out of distances, centroids and SSE; `mdav` only;
    /// docs/missing-values.md).
    #[arg(long, value_enum, default_value_t = crate::missing::MissingPolicy::Refuse, help_heading = "Missing values")]
    pub missing: crate::missing::MissingPolicy,
    /// With --missing ignore and --masked-out: keep a missing input cell missing in the
    /// released file (its bytes copied) or fill it with its group's released value.
    #[arg(long, value_enum, default_value_t = crate::missing::MissingRelease::Keep, help_heading = "Missing values")]
    pub missing_release: crate::missing::MissingRelease,
    #[command(flatten)]
    pub split: crate::parts::SplitArgs,
    #[command(flatten)]
    pub release: crate::release::ReleaseArgs,
    #[command(flatten)]
    pub progress: values::ProgressArgs,
}

/// The files `microagg run` (and `solve-exact`) writes.
pub(crate) struct RunOutputs {
    pub labels: Option<PathBuf>,
    pub masked: Option<PathBuf>,
    pub trace: Option<PathBuf>,
}

impl RunOutputs {
    /// Before anything runs: every destination can be written, none is the input file, and
    /// no two are the same file (a typo must not throw a long run away).
    pub fn check(&self, data: &DataArgs) -> Result<()> {
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

/// `microagg run`.
pub fn run(args: RunArgs) -> Result<ExitCode> {
    let outputs = check_outputs(&args)?;
    // Validate the pipeline, the bound and their parameters before loading data or running
    // anything.
    let pipeline = Pipeline::parse(&args.method, &args.params)?;
    let bound = bound_request(&args)?;
    let bound_time_limit = bound.as_ref().and_then(|b| b.param("time_limit").as_f64());
    check_weights_options(&args)?;
    if args.split.is_active() {
        return run_split(&args, &pipeline, &outputs);
    }
    let data = &args.data;
    let inst = load_checked(&args, &pipeline, &outputs)?;
    let (out, trace) = run_traced(&args, &pipeline, &inst, &outputs)?;
    let p = &out.partition;
    // Write what the run found before anything else, so that a second signal during the
    // bound cannot lose it.
    if let Some(path) = &outputs.labels {
        labels::write_labels(path, p.labels())?;
    }
    let release = match &outputs.masked {
        Some(path) => Some(crate::release::release(
            path,
            &inst,
            data.delimiter()?,
            p.labels(),
            &args.release,
            args.missing_release,
            args.seed,
        )?),
        None => None,
    };
    let (lb, bound_skipped) = crate::bound::after_run(
        bound.as_ref(),
        &inst,
        data.k,
        args.progress.show(),
        interrupt::flag(),
    )?;
    let interrupted = interrupt::requested();
    // One record type for `run --json` and experiment records (crate::record).
    let mut record = Record::single_run(SingleRun {
        inst: &inst,
        method: &args.method,
        k: data.k,
        seed: args.seed,
        time_limit: args.time_limit,
        max_steps: args.max_steps,
        params: &pipeline.stages,
        outcome: &out,
        bound_requested: args.bound.as_deref(),
        bound_params: bound_params(&args),
        bound: lb.as_ref(),
        bound_skipped,
        interrupted,
        trace,
        release,
    });
    record.missing = inst.missing_record(outputs.masked.as_ref().map(|_| args.missing_release));
    // --bound nn|colgen --weights: the weighted bound on the weighted SSE next to the
    // unweighted bound of the unweighted SSE (proofs/P41, P43; colgen's master also starts
    // from this run's partition), skipped like it once interrupted.
    if let (Some(w), Some(b), None) = (record.weights.as_mut(), &lb, bound_skipped) {
        let wb = crate::bound::compute_weighted(
            &b.method,
            &inst,
            data.k,
            bound_time_limit,
            Some(out.partition.labels()),
            interrupt::flag(),
        )?;
        w.bound = Some(crate::weighted::WeightedBound::of(&wb, w.sse));
    }
    if args.json {
        output::println(&render::run_json(&record))?;
    } else {
        output::print(&render::run_text(
            &record,
            lb.as_ref(),
            interrupt::signal_name(),
        ))?;
    }
    Ok(if interrupted {
        super::interrupted_status()
    } else {
        ExitCode::SUCCESS
    })
}

/// The output files and the options about them, checked before anything runs.
fn check_outputs(args: &RunArgs) -> Result<RunOutputs> {
    let outputs = RunOutputs {
        labels: args.labels_out.clone(),
        masked: args.masked_out.clone(),
        trace: args.trace.clone(),
    };
    outputs.check(&args.data)?;
    output::check_json_report(args.json)?;
    args.release.check(args.masked_out.is_some())?;
    if let (Some(input), Some(_)) = (args.data.input_file(), &args.masked_out) {
        args.release.check_input(&input, args.data.delimiter()?)?;
    }
    if args.missing_release == crate::missing::MissingRelease::Fill
        && (args.masked_out.is_none() || args.missing == crate::missing::MissingPolicy::Refuse)
    {
        return Err(Error::usage(
            "--missing-release fill applies to the released file of a --missing ignore run: give --missing ignore and --masked-out FILE",
        ));
    }
    Ok(outputs)
}

/// The data of an unsplit run, checked against k and the bound (none covers missing cells).
fn load_checked(
    args: &RunArgs,
    pipeline: &Pipeline,
    outputs: &RunOutputs,
) -> Result<crate::data::Instance> {
    let data = &args.data;
    // Nothing after the load reads the original values unless a file is released, weights
    // or missing cells are in play or a stage reads them: then they are standardised in
    // place and never held twice (the run's peak memory; labels and record are the same).
    let z_only = pipeline.reads_only_z(outputs.masked.is_some(), data.weights.is_some());
    let mut inst = if let Some(w) = &data.weights {
        // With --missing ignore: the weighted figures over observed cells
        // (crate::missing::figures).
        crate::data::load_weighted_split(
            &data.data,
            &args.column.selection(data),
            data.delimiter()?,
            &[],
            args.missing,
            w,
        )?
        .0
    } else {
        let options = LoadOptions::for_run(args.missing, z_only);
        let selection = args.column.selection(data);
        crate::data::load_missing(&data.data, &selection, data.delimiter()?, &[], options)?.0
    };
    inst.check_k(data.k)?;
    let has_missing = inst.has_missing();
    // --missing ignore on data without holes: the copy was kept for the check.
    if z_only && !has_missing {
        inst.drop_raw();
    }
    if has_missing && args.bound.is_some() {
        return Err(Error::usage(
            "--bound: the data have missing cells (--missing ignore) and no bound covers the SSE over observed cells",
        ));
    }
    Ok(inst)
}

/// The pipeline's run, observed by the `--trace` file, the in-memory trace of `--json`
/// (returned, for the record) and the progress meter.
fn run_traced(
    args: &RunArgs,
    pipeline: &Pipeline,
    inst: &crate::data::Instance,
    outputs: &RunOutputs,
) -> Result<(crate::pipeline::PipelineOutcome, Option<Vec<TracePoint>>)> {
    // --trace FILE: a trace observer writing the file; with --json the same lines also go
    // into the record (a second, in-memory observer).
    let mut file_trace = match &outputs.trace {
        Some(path) => Some(Trace::to_file(path, 0.1)?),
        None => None,
    };
    let mut json_trace = (args.json && file_trace.is_some()).then(|| Trace::in_memory(0.1));
    let meter = Meter::start(
        &format!("run {}", args.method),
        inst.sst,
        args.progress.show(),
    );
    let mut shown = meter.shown().then(|| meter.observer());
    let mut observers: Vec<&mut dyn Observer> = Vec::new();
    observers.extend(file_trace.as_mut().map(|t| t as &mut dyn Observer));
    observers.extend(json_trace.as_mut().map(|t| t as &mut dyn Observer));
    observers.extend(shown.as_mut().map(|t| t as &mut dyn Observer));
    let out = pipeline.run_observed(
        inst,
        args.data.k,
        args.seed,
        args.time_limit,
        args.max_steps,
        interrupt::flag(),
        &mut observers,
    );
    drop(observers);
    if let Some(t) = file_trace {
        t.finish();
    }
    let out = out?;
    meter.finish();
    Ok((out, json_trace.map(Trace::finish)))
}

/// `--weights` with options that have no weighted version: refused before anything runs
/// (`docs/weights.md`), never ignored.
fn check_weights_options(args: &RunArgs) -> Result<()> {
    if args.data.weights.is_none() {
        return Ok(());
    }
    if args.split.blocks.is_some() {
        // The border repair (crate::blocks) keeps a repaired pool only when its unweighted
        // SSE is lower: a weighted descent of the pool could be undone, or a pool with a
        // higher weighted SSE kept. Strata and parts have no repair and take weights.
        return Err(Error::usage(
            "--weights with --blocks: the border repair keeps a repaired pool of groups only \
             when its unweighted SSE is lower, so it cannot honour the weighted SSE; split \
             with --strata (and --part) instead, or leave out --weights (docs/weights.md)",
        ));
    }
    if let Some(b) = &args.bound {
        // Only nn and colgen have a weighted version (proofs/P41, P43); the others are
        // refused here.
        crate::bound::weighted_version(b)?;
    }
    if let Some(a) = &args.release.aggregate {
        let agg = crate::release::Aggregation::parse(a)?;
        use crate::release::Aggregation;
        if !matches!(agg, Aggregation::Mean | Aggregation::Median) {
            return Err(Error::usage(format!(
                "--aggregate {a} with --weights: only the mean and the median have a weighted \
                 version (sdcMicro's weighted mean and median); use --aggregate mean or median, \
                 or leave out --weights"
            )));
        }
    }
    Ok(())
}

/// The `--bound` with its `--bound-param`s, parsed and checked through the bound registry
/// (its time limit is the run's unless one is given).
fn bound_request(args: &RunArgs) -> Result<Option<crate::bound::PreparedBound>> {
    let Some(name) = args.bound.as_deref() else {
        return Ok(None);
    };
    let given = crate::params::key_values("--bound-param", &args.bound_params)?;
    crate::bound::prepare(name, &given, args.time_limit).map(Some)
}

/// The `--bound-param KEY=VALUE`s as given (checked by [`bound_request`]), for the record.
fn bound_params(args: &RunArgs) -> std::collections::BTreeMap<String, String> {
    let kv = args.bound_params.iter().filter_map(|kv| kv.split_once('='));
    kv.map(|(k, v)| (k.trim().to_string(), v.trim().to_string()))
        .collect()
}

/// `run --strata/--blocks/--part`: the split run of [`crate::parts`].
fn run_split(args: &RunArgs, pipeline: &Pipeline, outputs: &RunOutputs) -> Result<ExitCode> {
    let data = &args.data;
    let run = crate::parts::SplitRun {
        data: &data.data,
        columns: &args.column.selection(data),
        delimiter: data.delimiter()?,
        k: data.k,
        pipeline,
        seed: args.seed,
        time_limit: args.time_limit,
        max_steps: args.max_steps,
        labels_out: outputs.labels.as_deref(),
        masked_out: outputs.masked.as_deref(),
        release: &args.release,
        missing: args.missing,
        missing_release: args.missing_release,
        weights: data.weights.as_deref(),
        json: args.json,
        interrupt: interrupt::flag(),
    };
    if args.bound.is_some() {
        return Err(Error::usage("--bound applies to unsplit runs"));
    }
    let finished = crate::parts::run_cli(&args.split, &run)?;
    Ok(if finished {
        ExitCode::SUCCESS
    } else {
        super::interrupted_status()
    })
}
