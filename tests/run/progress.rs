//! Progress on stderr through the binary (stderr is a pipe here, not a terminal): a line
//! with `--progress`, nothing without it, nothing with `--quiet`; for `run`, `solve-exact`
//! and `experiment` (whose lines cover the bound phase and carry an ETA from the budgets).

use crate::common;

use common::cli;

fn stderr_of(args: &[&str]) -> String {
    let out = cli(args);
    assert!(
        out.status.success(),
        "microagg {args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).unwrap()
}

const RUN: [&str; 9] = [
    "run",
    "--data",
    "gauss:n=300,d=3,clusters=5,seed=1",
    "--k",
    "3",
    "--method",
    "mdav+ils",
    "--max-steps",
    "200",
];

fn with<'a>(base: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
    base.iter().chain(extra).copied().collect()
}

/// The command `args` succeeds with nothing on stderr, by default and with `--quiet`.
fn assert_silent_unless_asked(args: &[&str]) {
    assert_eq!(stderr_of(args), "");
    assert_eq!(stderr_of(&with(args, &["--quiet"])), "");
}

/// The command `args` refuses `--quiet` with `--progress`.
fn assert_quiet_progress_refused(args: &[&str]) {
    let both = cli(&with(args, &["--quiet", "--progress"]));
    assert!(!both.status.success());
}

#[test]
fn run_shows_progress_only_when_asked_off_a_terminal() {
    let shown = stderr_of(&with(&RUN, &["--progress"]));
    assert!(
        shown.contains("run mdav+ils: ") && shown.contains("best IL ") && shown.contains(" steps"),
        "{shown}"
    );
    assert_silent_unless_asked(&RUN);
    assert_quiet_progress_refused(&RUN);
}

#[test]
fn solve_exact_shows_its_bound_and_gap_when_asked() {
    let args = [
        "solve-exact",
        "--data",
        "gauss:n=20,d=2,clusters=3,seed=1",
        "--k",
        "3",
    ];
    let shown = stderr_of(&with(&args, &["--progress"]));
    assert!(
        shown.contains("solve-exact: ") && shown.contains("bound IL ") && shown.contains("gap "),
        "{shown}"
    );
    assert_silent_unless_asked(&args);
}

#[test]
fn experiment_shows_the_bound_phase_and_an_eta_from_budgets_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let suite = common::write_file(
        dir.path(),
        "s.toml",
        r#"name = "p"
instances = ["gauss:n=60,d=2,clusters=3,seed=1"]
k = [3]
seeds = { base = 1, replicates = 2 }
time_limit = 0.2
bounds = ["nn"]
[[pipeline]]
method = "mdav"
[[pipeline]]
method = "mdav+ils"
"#,
    );
    let run = |out: &str, extra: &[&str]| {
        let out = dir.path().join(out);
        let mut args = vec![
            "experiment",
            suite.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
            "--jobs",
            "1",
        ];
        args.extend_from_slice(extra);
        stderr_of(&args)
    };
    let shown = run("a", &["--progress"]);
    assert!(shown.contains("bounds nn for 1 cases: started"), "{shown}");
    assert!(shown.contains("bounds [1/1] gauss"), "{shown}");
    // Two ILS runs of at most 0.2 s are left after the bounds and the one mdav run (mdav is
    // deterministic: one run for both seeds); the nn bound has no time limit, so the first
    // estimate is not a budget.
    assert!(shown.contains("[3/3] "), "{shown}");
    assert!(shown.contains("ETA <= 0s (budgets)"), "{shown}");
    let plain = run("b", &[]);
    assert!(
        !plain.contains("ETA") && !plain.contains("bounds"),
        "{plain}"
    );
    let quiet = run("c", &["--quiet"]);
    assert!(
        !quiet.contains("ETA") && !quiet.contains("bounds"),
        "{quiet}"
    );
}

#[test]
fn bound_shows_colgen_progress_only_when_asked_and_never_with_quiet() {
    let args = [
        "bound",
        "--data",
        "gauss:n=60,d=2,clusters=3,seed=1",
        "--k",
        "3",
        "--method",
        "colgen",
    ];
    let shown = stderr_of(&with(&args, &["--progress"]));
    assert!(shown.contains("colgen: "), "{shown}");
    assert_silent_unless_asked(&args);
    assert_quiet_progress_refused(&args);
}

/// On a terminal (a pseudo-terminal from util-linux's `script`), an experiment's colgen
/// bound prints its ticker, and `--quiet` silences it with the rest of the experiment.
#[test]
fn experiment_quiet_silences_its_bounds_on_a_terminal() {
    let dir = tempfile::tempdir().unwrap();
    let suite = common::write_file(
        dir.path(),
        "suite.toml",
        "name = \"q\"\ninstances = [\"gauss:n=300,d=3,clusters=5,seed=1\"]\nk = [3]\n\
         seeds = { base = 1, replicates = 1 }\n\
         bounds = [{ name = \"colgen\", time_limit = 5 }]\n[[pipeline]]\nmethod = \"mdav\"\n",
    );
    let on_a_terminal = |out: &str, extra: &str| {
        let command = format!(
            "{} experiment {} --out {} {extra}",
            env!("CARGO_BIN_EXE_microagg"),
            suite.display(),
            dir.path().join(out).display()
        );
        let o = std::process::Command::new("script")
            .args(["-qc", &command, "/dev/null"])
            .output()
            .expect("util-linux script (a pseudo-terminal) runs");
        assert!(o.status.success(), "{command}");
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    assert!(on_a_terminal("shown", "").contains("colgen"));
    let quiet = on_a_terminal("quiet", "--quiet");
    assert!(!quiet.contains("colgen"), "{quiet}");
}
