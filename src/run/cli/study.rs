//! # Studies: `experiment`, `report`, `demo` and `bench`
//!
//! `experiment` runs a suite file (a run matrix) with the experiment runner and writes one
//! record per run; `report` summarises a results folder (table on stdout, figures beside the
//! records); `demo` runs the embedded default study; `bench` times methods on fixed cases.
//!
//! ## Complexity
//! That of the runs.
//!
//! ## References
//! None.

use super::values::ReportFormat;
use crate::error::Result;
use crate::interrupt;
use crate::output::{self, note};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct BenchArgs {
    /// Methods to time, comma-separated (default: mdav).
    #[arg(long, default_value = "mdav")]
    pub methods: String,
    /// Cases, comma-separated: eia-k3, eia-k10, gauss-10k, gauss-100k (the default), and
    /// gauss-200k, gauss-1m (minutes of CPU; only when named).
    #[arg(long, default_value = "eia-k3,eia-k10,gauss-10k,gauss-100k")]
    pub cases: String,
    /// Repetitions per measurement (the minimum time is reported; at least 1).
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..))]
    pub reps: u64,
    /// Instead of the cases: the scaling curve over these n (comma-separated, e.g.
    /// 10000,100000,1000000) of the first method on gauss:n=N,d=D,clusters=5,seed=1, with
    /// the exponents of CPU time, wall time and peak memory.
    #[arg(long, value_delimiter = ',', value_name = "N1,N2,...")]
    pub scale: Vec<usize>,
    /// --scale: cut every n into blocks of about SIZE records (`run --blocks SIZE`, the
    /// default border repair).
    #[arg(long, value_name = "SIZE", requires = "scale")]
    pub blocks: Option<usize>,
    /// --scale --blocks: the cut rule and the border repair's tuning (as for `run`).
    #[command(flatten)]
    pub block: crate::parts::BlockTuningArgs,
    /// --scale: group size.
    #[arg(long, default_value_t = 5)]
    pub k: usize,
    /// --scale: number of attributes.
    #[arg(long, default_value_t = 10)]
    pub d: usize,
    /// Time the cases side by side with sdcMicro's C++ MDAV: BIN is a driver built from
    /// sdcMicro's `src/Mdav.cpp`, called as `BIN data.csv K REPS LABELS`.
    /// Prints our call and process CPU, the peer's call, the ratios and whether the
    /// partitions agree.
    #[arg(long, value_name = "BIN", conflicts_with = "scale")]
    pub peer_sdcmicro: Option<PathBuf>,
    /// --peer-sdcmicro: interleaved rounds (peer, then ours), least time kept.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u64).range(1..), requires = "peer_sdcmicro")]
    pub rounds: u64,
}

#[derive(clap::Args)]
pub(crate) struct DemoArgs {
    /// Worker threads (default: available cores).
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Keep the records and figures in this directory (default: in memory only).
    #[arg(long)]
    pub out: Option<PathBuf>,
}

#[derive(clap::Args)]
pub(crate) struct ExperimentArgs {
    /// The suite file (see instances/smoke.toml).
    pub suite: PathBuf,
    /// Output directory (default: results/<suite name>).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Runs executed in parallel (default: available cores); each run is single-threaded.
    #[arg(long)]
    pub jobs: Option<usize>,
    /// Run only slice I of N (1-based), e.g. 2/8 for a job array; shards merge by
    /// concatenation. Default: SLURM_ARRAY_TASK_ID/COUNT when set; `all` runs everything.
    #[arg(long)]
    pub shard: Option<String>,
    /// Skip runs whose records are already in the output directory.
    #[arg(long)]
    pub resume: bool,
    /// Print the expanded run matrix and exit.
    #[arg(long)]
    pub dry_run: bool,
    #[command(flatten)]
    pub progress: super::values::ProgressArgs,
}

#[derive(clap::Args)]
pub(crate) struct ReportArgs {
    /// Directory holding *.jsonl run records.
    pub dir: PathBuf,
    /// Table format.
    #[arg(long, value_enum, default_value = "md")]
    pub format: ReportFormat,
    /// With --format csv: one row per run record instead of one per case and pipeline.
    #[arg(long)]
    pub per_run: bool,
    /// Only these table columns, in this order, comma-separated (e.g.
    /// instance,k,pipeline,best_il,gap); a wrong name lists the available ones.
    #[arg(long, value_delimiter = ',', value_name = "A,B,...")]
    pub columns: Option<Vec<String>>,
    /// Figure size: one column (3.5 in), two columns (7.16 in) or a slide (10 in, 16 pt
    /// text).
    #[arg(long, value_enum, default_value_t, help_heading = "Figures")]
    pub style: crate::report::style::Size,
    /// Text size of the figures in points (default: 9, on a slide 16).
    #[arg(long, value_name = "PT", help_heading = "Figures")]
    pub font_size: Option<f64>,
    /// Draw a title over each figure (by default none: the caption is the paper's).
    #[arg(long, help_heading = "Figures")]
    pub title: bool,
}

/// `microagg bench`.
pub fn bench(args: BenchArgs) -> Result<ExitCode> {
    if !args.scale.is_empty() {
        let run = crate::bench::ScaleRun {
            method: args
                .methods
                .split(',')
                .next()
                .unwrap_or("mdav")
                .trim()
                .to_string(),
            params: Vec::new(),
            k: args.k,
            d: args.d,
            blocks: args.blocks,
            repair: Default::default(),
            cut: args.block.block_cut,
            tuning: args.block.repair_tuning(),
        };
        run.tuning.check()?;
        crate::bench::scale_curve(&run, &args.scale)?;
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(peer) = &args.peer_sdcmicro {
        crate::bench::side_by_side(
            peer,
            &args.methods,
            &args.cases,
            args.reps as usize,
            args.rounds as usize,
        )?;
        return Ok(ExitCode::SUCCESS);
    }
    crate::bench::run(&args.methods, &args.cases, args.reps as usize)?;
    Ok(ExitCode::SUCCESS)
}

/// `microagg demo`.
pub(crate) fn demo(args: DemoArgs) -> Result<ExitCode> {
    let finished = crate::bench::demo(args.jobs, args.out.as_deref(), interrupt::flag())?;
    Ok(if finished {
        ExitCode::SUCCESS
    } else {
        note("interrupted before every run finished; the table holds the finished runs");
        super::interrupted_status()
    })
}

/// `microagg report`.
pub fn report(args: ReportArgs) -> Result<ExitCode> {
    let opts = crate::report::ReportOptions {
        format: args.format.into(),
        per_run: args.per_run,
        columns: args.columns,
        style: crate::report::style::FigureStyle::of(args.style, args.font_size, args.title),
    };
    let (table, figures, notes) = crate::report::report_with(&args.dir, &opts)?;
    output::print(&table)?;
    notes.iter().for_each(|n| note(n));
    // Figures are a by-product: a folder that takes no files still gets its table.
    match figures {
        Ok(files) => files
            .iter()
            .for_each(|f| note(&format!("figure: {}", f.display()))),
        Err(e) => note(&format!("warning: figures not written: {e}")),
    }
    Ok(ExitCode::SUCCESS)
}

/// `microagg experiment`.
pub fn experiment(args: ExperimentArgs) -> Result<ExitCode> {
    use crate::experiment::{self as exp, Plan, Shard, Suite};
    let shard = crate::parts::Part::from_arg(args.shard.as_deref(), "--shard")?.map(Shard::from);
    let suite = Suite::load(&args.suite)?;
    let out = args
        .out
        .unwrap_or_else(|| PathBuf::from("results").join(&suite.name));
    let plan = Plan::new(suite)?;
    if args.dry_run {
        output::print(&plan.describe(shard))?;
        return Ok(ExitCode::SUCCESS);
    }
    for note_text in &plan.notes {
        note(&format!("note: {note_text}"));
    }
    let opts = exp::RunOptions {
        out: Some(out.clone()),
        jobs: args.jobs.unwrap_or_else(crate::bench::default_jobs).max(1),
        shard,
        resume: args.resume,
        progress: exp::Progress::from_show(args.progress.show()),
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
        return Ok(super::interrupted_status());
    }
    note(&format!(
        "summarise with: microagg report {}",
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}
