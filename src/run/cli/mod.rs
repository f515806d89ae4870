//! # The command line
//!
//! One module per command or group of commands; each holds the command's arguments (a
//! `clap::Args` struct) and a function that validates them, calls the library and writes
//! what [`crate::render`] makes of the result. `main.rs` only parses and dispatches.
//!
//! - `run` holds `run` (a pipeline, optionally split, with an optional bound);
//! - `bound` holds `bound` and `verify-bound`;
//! - `exact` holds `solve-exact`;
//! - `labels` holds `check` and `combine`;
//! - `study` holds `experiment`, `report`, `demo` and `bench`;
//! - `list` holds `list` (methods and bounds);
//! - `docs` holds the hidden `docs` (the site's generated reference pages);
//! - `data` holds the data options every data command shares;
//! - `values` holds the value parsers and value enums of closed choices, among them the one
//!   `--time-limit` parser.
//!
//! ## Complexity
//! That of the command run.
//!
//! ## References
//! None.

pub(crate) mod bound;
pub(crate) mod data;
pub(crate) mod docs;
pub(crate) mod exact;
pub(crate) mod labels;
pub(crate) mod library;
pub(crate) mod list;
pub(crate) mod run;
pub(crate) mod study;
pub(crate) mod values;

use crate::error::Error;
use crate::interrupt;
use crate::output::note;
use crate::registry::Registry;
use clap::{CommandFactory, Parser, Subcommand};
use std::process::ExitCode;

/// The version and the git commit the program was built from ("unknown" outside a git
/// checkout, e.g. from a source tarball), for `--version` and bug reports.
const VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (commit ",
    env!("MICROAGG_GIT_COMMIT"),
    ")"
);

#[derive(Parser)]
#[command(
    name = "microagg",
    version = VERSION,
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

// Parsed once per process: the size of the largest variant does not matter.
#[allow(clippy::large_enum_variant)]
#[derive(Subcommand)]
enum Command {
    /// Run a pipeline (initializer[+refiner...]) and report SSE and IL.
    Run(run::RunArgs),
    /// Compute a lower bound on the optimal SSE of (data, k), with its IL and certification.
    Bound(bound::BoundArgs),
    /// Re-check a bound certificate (written by `bound --certificate`) without HiGHS: the
    /// bound is recomputed from the certificate's duals with proven pricing and outward
    /// rounding; exit 0 when the claimed bound holds, 1 when it does not.
    VerifyBound(bound::VerifyBoundArgs),
    /// Exact optimum for small instances (subset DP up to n = 16, column generation and a
    /// certified branch and bound up to n = 64, practical to about n = 40 with k = 3..5), with
    /// its proof status (proofs/P12: "proven" means a certified bound within 1e-9 relative).
    SolveExact(exact::SolveExactArgs),
    /// Utility and disclosure risk of a released file against the original (IL, IL1s,
    /// changes of means/variances/correlations, record linkage, interval disclosure, dRisk).
    Measure(crate::measure::MeasureArgs),
    /// Verify a labels file independently: feasibility and recomputed SSE/IL (exit 1 if infeasible).
    Check(labels::CheckArgs),
    /// Join the part files of a split run (`run --part I/N --labels-out FILE`) into one
    /// labels file, numbered as the unsplit run numbers its labels.
    Combine(labels::CombineArgs),
    /// List every registered method and bound with its parameters and defaults.
    List(list::ListArgs),
    /// The benchmark library: best-known partitions and certified bounds per instance and k
    /// (list, show, verify, submit).
    Library(library::LibraryArgs),
    /// Speed benchmark: time and IL per method and case.
    Bench(study::BenchArgs),
    /// The main job: the default study (instances/demo.toml, embedded) on synthetic
    /// instances and the CASC files when present; prints the result table.
    Demo(study::DemoArgs),
    /// Run a study described by a suite file (TOML) and write one JSON record per run.
    Experiment(study::ExperimentArgs),
    /// Summarise a results directory: table (md, csv or latex) on stdout, figures (SVG, PNG, PDF) in DIR/figures.
    Report(study::ReportArgs),
    /// Write the generated reference pages of the documentation site.
    #[command(hide = true)]
    Docs(docs::DocsArgs),
}

/// Every command, option and help text of the command line, as clap describes them (the
/// docs generator prints it; `tests/run/library.rs` parses the library's provenance commands
/// with it, so that no recorded command names a removed flag).
pub fn command() -> clap::Command {
    Cli::command()
}

/// The `microagg` command line over `registry` (installed first, so that every command
/// finds its methods and parts by name).
pub fn main_with(registry: Registry) -> ExitCode {
    registry.install();
    main()
}

/// The `microagg` command line with the built-in registry.
pub fn main() -> ExitCode {
    let cli = Cli::parse();
    crate::parallel::set_threads(cli.threads);
    interrupt::install();
    let outcome = match cli.command {
        Command::Run(a) => run::run(a),
        Command::Bound(a) => bound::bound(a),
        Command::VerifyBound(a) => bound::verify_bound(a),
        Command::SolveExact(a) => exact::solve_exact(a),
        Command::Measure(a) => crate::measure::run_cli(&a).map(|_| ExitCode::SUCCESS),
        Command::Check(a) => labels::check(a),
        Command::Combine(a) => labels::combine(a),
        Command::List(a) => list::list(a),
        Command::Library(a) => library::library(a),
        Command::Bench(a) => study::bench(a),
        Command::Demo(a) => study::demo(a),
        Command::Experiment(a) => study::experiment(a),
        Command::Report(a) => study::report(a),
        Command::Docs(a) => docs::docs(a, Cli::command()),
    };
    match outcome {
        Ok(code) => code,
        // The reader of our output went away (`microagg list | head -1`): end quietly.
        Err(Error::BrokenPipe) => ExitCode::SUCCESS,
        Err(e) => {
            note(&format!("error: {e}"));
            ExitCode::from(2)
        }
    }
}

/// The status of a command that a signal stopped after it wrote its results.
pub(crate) fn interrupted_status() -> ExitCode {
    ExitCode::from(interrupt::exit_status())
}

/// Success, or the interrupted status when a signal arrived during the command.
pub(crate) fn finished_status() -> ExitCode {
    if interrupt::requested() {
        interrupted_status()
    } else {
        ExitCode::SUCCESS
    }
}
