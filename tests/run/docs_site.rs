//! The command line's own documentation: `--version` names the commit, `run --help` groups
//! its options under headings, no help text tells the project's history, and the hidden
//! `docs` command writes the reference pages of the site (docs/reference/) with every
//! command, every registered method and bound, and every suite and record field.

use std::path::Path;
use std::process::Command;

fn microagg(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_microagg"))
        .args(args)
        .output()
        .unwrap();
    assert!(out.status.success(), "microagg {args:?}: {out:?}");
    String::from_utf8(out.stdout).unwrap()
}

/// Every visible command path (`["run"]`, `["library", "list"]`, ...), from `--help`.
fn commands() -> Vec<Vec<String>> {
    fn listed(help: &str) -> Vec<String> {
        let start = help.find("Commands:\n").map(|i| i + 10);
        let Some(start) = start else { return vec![] };
        help[start..]
            .lines()
            .take_while(|l| l.starts_with("  "))
            .filter_map(|l| l.split_whitespace().next().map(str::to_string))
            .filter(|c| c != "help")
            .collect()
    }
    let mut all = Vec::new();
    for c in listed(&microagg(&["--help"])) {
        for sub in listed(&microagg(&[&c, "--help"])) {
            all.push(vec![c.clone(), sub]);
        }
        all.push(vec![c]);
    }
    all
}

#[test]
fn version_names_the_commit() {
    let version = microagg(&["--version"]);
    let commit = Command::new("git")
        .args(["rev-parse", "HEAD"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8(o.stdout).unwrap().trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    let want = format!("microagg {} (commit {commit})\n", env!("CARGO_PKG_VERSION"));
    assert_eq!(version, want);
}

#[test]
fn run_help_groups_its_options_under_headings() {
    let help = microagg(&["run", "--help"]);
    let headings = [
        "Data:",
        "Method and budget:",
        "Output:",
        "Lower bound:",
        "Missing values:",
        "Large files: strata, blocks, parts:",
        "Released file:",
    ];
    let at = |h: &str| {
        help.find(&format!("\n{h}\n"))
            .unwrap_or_else(|| panic!("run --help has no heading {h}:\n{help}"))
    };
    for pair in headings.windows(2) {
        assert!(at(pair[0]) < at(pair[1]), "{} before {}", pair[0], pair[1]);
    }
    // A group's options: the indented lines after its heading, up to the next heading.
    let group = |h: &str| -> String {
        help[at(h) + h.len() + 2..]
            .lines()
            .take_while(|l| l.is_empty() || l.starts_with(' '))
            .collect::<Vec<_>>()
            .join("\n")
    };
    assert!(group("Method and budget:").contains("--max-steps"));
    assert!(group("Lower bound:").contains("--bound-param"));
    assert!(group("Output:").contains("--labels-out"));
    assert!(group("Large files: strata, blocks, parts:").contains("--strata"));
    assert!(!group("Data:").contains("--method"));
}

#[test]
fn no_help_text_tells_the_project_history() {
    let words = [
        "studies/",
        "study-",
        "of the study",
        "was the default",
        "the default before",
        "section ",
        "old commands",
        "the earlier",
    ];
    let mut texts: Vec<(String, String)> = commands()
        .into_iter()
        .map(|command| {
            let mut args: Vec<&str> = command.iter().map(String::as_str).collect();
            args.push("--help");
            (format!("{args:?}"), microagg(&args))
        })
        .collect();
    // The parameters' docs of every method and bound.
    texts.push(("list".into(), microagg(&["list"])));
    for (what, text) in texts {
        for w in words {
            assert!(!text.contains(w), "microagg {what} says {w:?}:\n{text}");
        }
    }
}

#[test]
fn docs_writes_the_reference_pages() {
    let dir = tempfile::tempdir().unwrap();
    microagg(&["docs", "--out", dir.path().to_str().unwrap()]);
    let page = |name: &str| std::fs::read_to_string(dir.path().join(name)).unwrap();
    let cli = page("cli.md");
    for command in commands() {
        let heading = format!("\n## microagg {}\n", command.join(" "));
        assert!(cli.contains(&heading), "cli.md lacks {heading:?}");
    }
    assert!(
        !cli.contains("## microagg docs"),
        "the hidden command stays hidden"
    );
    let methods = page("methods.md");
    let listed: serde_json::Value = serde_json::from_str(&microagg(&["list", "--json"])).unwrap();
    for m in listed.as_array().unwrap() {
        let name = m["name"].as_str().unwrap();
        assert!(
            methods.contains(&format!("\n### {name}\n")),
            "methods.md lacks {name}"
        );
        for key in m["params"].as_object().unwrap().keys() {
            assert!(methods.contains(&format!("| `{key}` |")), "{name}: {key}");
        }
    }
    let suite = page("suite.md");
    for field in [
        "k",
        "pipeline",
        "seeds",
        "max_steps",
        "bounds",
        "trace",
        "reference",
    ] {
        assert!(
            suite.contains(&format!("| `{field}` |")),
            "suite.md lacks {field}"
        );
    }
    let record = page("run-record.md");
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR")).join("schema/run-record.json"),
        )
        .unwrap(),
    )
    .unwrap();
    for (name, def) in schema["$defs"].as_object().unwrap() {
        assert!(
            record.contains(&format!("\n## {name}\n")),
            "run-record.md lacks {name}"
        );
        for field in def["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|p| p.0)
        {
            assert!(record.contains(&format!("| `{field}` |")), "{name}.{field}");
        }
    }
}
