//! # `microagg list`
//!
//! Every registered method (and bound) with its parameters, defaults and docs, rendered by
//! [`crate::render::list`].
//!
//! ## Complexity
//! Linear in the registry.
//!
//! ## References
//! None.

use crate::error::Result;
use crate::output;
use crate::render::list;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct ListArgs {
    #[arg(long)]
    pub json: bool,
}

/// `microagg list`.
pub fn list(args: ListArgs) -> Result<ExitCode> {
    if args.json {
        output::println(&list::list_json())?;
    } else {
        output::print(&list::list_text())?;
    }
    Ok(ExitCode::SUCCESS)
}
