//! The `microagg` command line: parses the arguments and dispatches to one module of
//! [`cli`] per command. See `microagg --help` and the README.

mod cli;

use clap::{CommandFactory, Parser, Subcommand};
use microagg::error::Error;
use microagg::interrupt;
use microagg::output::note;
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

#[derive(Subcommand)]
enum Command {
    /// Run a pipeline (initializer[+refiner...]) and report SSE and IL.
    Run(cli::run::RunArgs),
    /// Compute a lower bound on the optimal SSE of (data, k), with its IL and certification.
    Bound(cli::bound::BoundArgs),
    /// Re-check a bound certificate (written by `bound --certificate`) without HiGHS: the
    /// bound is recomputed from the certificate's duals with proven pricing and outward
    /// rounding; exit 0 when the claimed bound holds, 1 when it does not.
    VerifyBound(cli::bound::VerifyBoundArgs),
    /// Exact optimum for small instances (subset DP up to n = 16, column generation and a
    /// certified branch and bound up to n = 64, practical to about n = 40 with k = 3..5), with
    /// its proof status (proofs/P12: "proven" means a certified bound within 1e-9 relative).
    SolveExact(cli::exact::SolveExactArgs),
    /// Utility and disclosure risk of a released file against the original (IL, IL1s,
    /// changes of means/variances/correlations, record linkage, interval disclosure, dRisk).
    Measure(microagg::measure::MeasureArgs),
    /// Verify a labels file independently: feasibility and recomputed SSE/IL (exit 1 if infeasible).
    Check(cli::labels::CheckArgs),
    /// Join the part files of a split run (`run --part I/N --labels-out FILE`) into one
    /// labels file, numbered as the unsplit run numbers its labels.
    Combine(cli::labels::CombineArgs),
    /// List every registered method and bound with its parameters and defaults.
    List(cli::list::ListArgs),
    /// The benchmark library: best-known partitions and certified bounds per instance and k
    /// (list, show, verify, submit).
    Library(cli::library::LibraryArgs),
    /// Speed benchmark: time and IL per method and case.
    Bench(cli::study::BenchArgs),
    /// The main job: the default study (instances/demo.toml, embedded) on synthetic
    /// instances and the CASC files when present; prints the result table.
    Demo(cli::study::DemoArgs),
    /// Run a study described by a suite file (TOML) and write one JSON record per run.
    Experiment(cli::study::ExperimentArgs),
    /// Summarise a results directory: table (md, csv or latex) on stdout, figures (SVG, PNG, PDF) in DIR/figures.
    Report(cli::study::ReportArgs),
    /// Write the generated reference pages of the documentation site.
    #[command(hide = true)]
    Docs(cli::docs::DocsArgs),
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    microagg::init::pool::set_threads(cli.threads);
    interrupt::install();
    let outcome = match cli.command {
        Command::Run(a) => cli::run::run(a),
        Command::Bound(a) => cli::bound::bound(a),
        Command::VerifyBound(a) => cli::bound::verify_bound(a),
        Command::SolveExact(a) => cli::exact::solve_exact(a),
        Command::Measure(a) => microagg::measure::run_cli(&a).map(|_| ExitCode::SUCCESS),
        Command::Check(a) => cli::labels::check(a),
        Command::Combine(a) => cli::labels::combine(a),
        Command::List(a) => cli::list::list(a),
        Command::Library(a) => cli::library::library(a),
        Command::Bench(a) => cli::study::bench(a),
        Command::Demo(a) => cli::study::demo(a),
        Command::Experiment(a) => cli::study::experiment(a),
        Command::Report(a) => cli::study::report(a),
        Command::Docs(a) => cli::docs::docs(a, Cli::command()),
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
