//! # `microagg solve-exact`
//!
//! The exact optimum of a small instance from [`microagg::exact::solve_from_mdav`], with
//! its proof status (`proofs/P12`), as text or JSON; optionally its labels.
//!
//! ## Complexity
//! That of the exact method (exponential in n).
//!
//! ## References
//! None.

use super::data::DataArgs;
use super::run::RunOutputs;
use super::values::{self, ExactChoice};
use microagg::error::Result;
use microagg::interrupt;
use microagg::labels;
use microagg::output;
use microagg::render::exact::{exact_json, exact_text, ExactRun};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct SolveExactArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Method: auto (DP for n <= 16, else MIP), subset-dp (n <= 20), set-partitioning,
    /// branch-and-price (any n up to 8000; default time limit 60 s, then the incumbent,
    /// certified bound and gap; proofs/P17).
    #[arg(long, value_enum, default_value = "auto")]
    pub method: ExactChoice,
    /// Wall-clock limit in seconds (set-partitioning; on expiry the best partition found,
    /// never worse than MDAV, is reported with proven_optimal = false, a certified lower
    /// bound and a note).
    #[arg(long, value_parser = values::time_limit)]
    pub time_limit: Option<f64>,
    /// Write one group label per input row, in input order.
    #[arg(long)]
    pub labels_out: Option<PathBuf>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Refuse a `--labels-out` that would overwrite the input or cannot be written, before the
/// solve (also for `solve-exact --weights`, [`super::weighted_exact`]).
pub fn check_outputs(args: &SolveExactArgs) -> Result<()> {
    RunOutputs {
        labels: args.labels_out.clone(),
        masked: None,
        trace: None,
    }
    .check(&args.data)
}

/// `microagg solve-exact`. With `--weights` only a method with a weighted version runs
/// ([`ExactChoice::has_weighted_version`]: the subset DP), in [`super::weighted_exact`].
pub fn solve_exact(args: SolveExactArgs) -> Result<ExitCode> {
    if args.data.weights.is_some() {
        return super::weighted_exact::solve(&args);
    }
    let data = &args.data;
    check_outputs(&args)?;
    let inst = data.load()?;
    let Some(method) = args.method.small_method() else {
        microagg::bnp::command(
            &inst,
            data.k,
            "solve-exact",
            args.time_limit,
            None,
            args.labels_out.as_deref(),
            args.json,
            interrupt::flag(),
        )?;
        return Ok(super::finished_status());
    };
    let (s, seconds) = microagg::exact::solve_from_mdav(
        &inst,
        data.k,
        method,
        args.time_limit,
        interrupt::flag(),
    )?;
    if let Some(path) = &args.labels_out {
        labels::write_labels(path, &s.labels)?;
    }
    let run = ExactRun {
        inst: &inst,
        k: data.k,
        seconds,
        time_limit: args.time_limit,
        interrupted: interrupt::requested(),
    };
    if args.json {
        output::println(&exact_json(&s, &run))?;
    } else {
        output::println(&exact_text(&s, &run))?;
    }
    // Interrupted: the best partition and bound are out; say so in the exit status.
    Ok(super::finished_status())
}
