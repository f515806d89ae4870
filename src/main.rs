//! The `microagg` command line: [`microagg::cli::main`] parses the arguments and dispatches
//! to one module of `microagg::cli` per command. See `microagg --help` and the README.

fn main() -> std::process::ExitCode {
    microagg::cli::main()
}
