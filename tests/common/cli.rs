//! Running the `microagg` binary: its output as text or JSON, its exit status, and the
//! argument lists the CLI tests share.

use std::process::{Command, Output};

/// Run the `microagg` binary with `args`.
pub fn cli(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_microagg"))
        .args(args)
        .output()
        .expect("binary runs")
}

/// Run the `microagg` binary and require a zero exit (the failure message shows stderr).
pub fn cli_ok(args: &[&str]) -> Output {
    let out = cli(args);
    assert!(
        out.status.success(),
        "microagg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out
}

/// A command's standard error as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A command's standard output as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// The one JSON object a command printed on standard output.
pub fn stdout_json(o: &Output) -> serde_json::Value {
    serde_json::from_slice(&o.stdout).expect("one JSON object")
}

/// Run the `microagg` binary, require a zero exit and return its JSON record.
pub fn cli_json(args: &[&str]) -> serde_json::Value {
    stdout_json(&cli_ok(args))
}

/// Run the `microagg` binary, require a failure (non-zero exit) and return its stderr.
pub fn cli_err(args: &[&str]) -> String {
    let o = cli(args);
    assert!(!o.status.success(), "{args:?} succeeded");
    stderr(&o)
}

/// The arguments `COMMAND --data DATA --k K --method METHOD` (`run`, `bound`), then `extra`.
pub fn method_args<'a>(
    command: &'a str,
    data: &'a str,
    k: &'a str,
    method: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    [
        &[command, "--data", data, "--k", k, "--method", method],
        extra,
    ]
    .concat()
}

/// The arguments `run --data DATA --k K --method METHOD`, then `extra`.
pub fn run_args<'a>(data: &'a str, k: &'a str, method: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    method_args("run", data, k, method, extra)
}

/// Run MDAV on `data` with `k` (requiring success) and write its labels to `path`
/// (`--labels-out`).
pub fn write_mdav_labels(data: &str, k: &str, path: &str) {
    cli_ok(&run_args(data, k, "mdav", &["--labels-out", path]));
}

/// `head`, then the words of `fixed` (split at white space), then `tail`: the options that
/// take no computed value fit on one line.
pub fn argv<'a>(head: &[&'a str], fixed: &'a str, tail: &[&'a str]) -> Vec<&'a str> {
    let mut args = head.to_vec();
    args.extend(fixed.split_whitespace());
    args.extend_from_slice(tail);
    args
}

/// The arguments `COMMAND --data DATA --weights w --k K` (weights in the column named `w`),
/// then `extra`.
pub fn weighted_args<'a>(
    command: &'a str,
    data: &'a str,
    k: &'a str,
    extra: &[&'a str],
) -> Vec<&'a str> {
    [
        &[command, "--data", data, "--weights", "w", "--k", k],
        extra,
    ]
    .concat()
}

/// Require the exit status `code` and `needle` in the standard error.
pub fn assert_exit(o: &Output, code: i32, needle: &str) {
    assert_eq!(o.status.code(), Some(code));
    assert!(stderr(o).contains(needle), "{}", stderr(o));
}
