//! # `microagg docs` (hidden)
//!
//! Writes the generated reference pages of the documentation site
//! ([`crate::docs`]): `microagg docs --out docs/reference`. Hidden from `--help`: it
//! is for the site's build, not for users.
//!
//! ## Complexity
//! That of [`crate::docs::write`].
//!
//! ## References
//! None.

use crate::error::Result;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct DocsArgs {
    /// Folder to write the reference pages into (created when missing).
    #[arg(long)]
    pub out: PathBuf,
}

/// `microagg docs --out DIR`; `command` is the program's whole command tree.
pub(crate) fn docs(args: DocsArgs, command: clap::Command) -> Result<ExitCode> {
    crate::docs::write(command, &args.out)?;
    Ok(ExitCode::SUCCESS)
}
