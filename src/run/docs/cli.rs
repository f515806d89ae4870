//! # Command reference
//!
//! One section per command and subcommand, in the order of `microagg --help`, each holding
//! the command's long help as clap prints it (options grouped under their headings).
//! Hidden commands are left out.
//!
//! ## Complexity
//! Linear in the number of commands and arguments.
//!
//! ## References
//! clap's `Command` (the help text is clap's own rendering).

use std::fmt::Write;

/// Help lines are not wrapped to a terminal: the page is the same on every machine.
const WIDTH: usize = 100;

/// The command reference page.
pub(crate) fn page(command: clap::Command) -> String {
    let mut command = command.term_width(WIDTH).max_term_width(WIDTH);
    command.build();
    let mut text = String::from(
        "# Command reference\n\nEvery command of `microagg` with its options, as \
         `microagg COMMAND --help` prints them.\n",
    );
    section(&mut command, "microagg", &mut text);
    text
}

/// The section of one command, then those of its visible subcommands.
fn section(command: &mut clap::Command, path: &str, text: &mut String) {
    let help = command.render_long_help().to_string();
    let _ = write!(text, "\n## {path}\n\n```text\n{}\n```\n", help.trim_end());
    for sub in command.get_subcommands_mut() {
        if sub.is_hide_set() || sub.get_name() == "help" {
            continue;
        }
        let name = format!("{path} {}", sub.get_name());
        section(sub, &name, text);
    }
}
