//! # `microagg check` and `microagg combine`
//!
//! `check` verifies a labels file independently of the run that wrote it (feasibility,
//! recomputed SSE and IL; exit 1 when infeasible); `combine` joins the part files of a
//! split run into one labels file.
//!
//! ## Complexity
//! Linear in the records (check: O(n d)).
//!
//! ## References
//! None.

use super::data::{DataArgs, OneColumnArg};
use crate::error::Result;
use crate::labels;
use crate::output::{self, note};
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct CheckArgs {
    #[command(flatten)]
    pub data: DataArgs,
    #[command(flatten)]
    pub column: OneColumnArg,
    /// Labels file: one integer group label per input row.
    #[arg(long)]
    pub labels: PathBuf,
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub(crate) struct CombineArgs {
    /// The part files, one per part (any order).
    pub parts: Vec<PathBuf>,
    /// The labels file to write.
    #[arg(long)]
    pub out: PathBuf,
}

/// `microagg check`.
pub fn check(args: CheckArgs) -> Result<ExitCode> {
    let data = &args.data;
    let inst = data.load_weighted_columns(&args.column.selection(data))?;
    inst.check_k(data.k)?;
    let labels = labels::read_labels(&args.labels)?;
    let report = labels::check_labels(&inst, data.k, &labels)?;
    if args.json {
        output::println(&serde_json::to_string(&report).expect("report serialises"))?;
    } else {
        output::print(&crate::render::check::check_text(
            &report,
            &args.labels,
            data.k,
        ))?;
    }
    Ok(if report.feasible {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `microagg combine`.
pub(crate) fn combine(args: CombineArgs) -> Result<ExitCode> {
    let s = crate::parts::combine(&args.parts, &args.out)?;
    note(&format!(
        "{} parts ({}) joined: {} rows in {} groups (smallest {}) written to {}",
        s.parts,
        s.split,
        s.n,
        s.groups,
        s.min_group_size,
        args.out.display()
    ));
    Ok(ExitCode::SUCCESS)
}
