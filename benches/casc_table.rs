//! # The CASC table: each library case's recipe within one time limit
//!
//! For each CASC case (`tarragona`, `census`, `eia` with k = 3, 4, 5, 10) runs the recipe of
//! its stored bound, `microagg bound --preset DATA-kK` (`--method auto` where the case has no
//! preset: Tarragona and Census k = 10) from its stored best partition
//! (`instances/library/DATA-kK.labels`), with one time limit for all (default 1800 s) and one
//! thread, and prints one tab-separated row per case:
//!
//! - `root_lp`: the root's LP value before cuts;
//! - `root_cuts`: the root's LP with its cuts (bnp), or for the column-generation recipes of
//!   k = 10 (no cuts) the master's LP value when column generation converged, else `-`: an
//!   unconverged master's last value includes its dual box's artificial columns, so it may lie
//!   below the LP and even below the certified bound (Census k = 10: 1342 against a bound of
//!   1555);
//! - `converged`: whether the root's column generation converged (colgen only; bnp's two
//!   root values are `-` when its root did not converge);
//! - `nodes`, `open`: nodes processed and left open (bnp);
//! - `bound`: the certified bound of the run; `sse`: the lower of the stored partition's SSE
//!   and the run's incumbent's (colgen holds none);
//! - `gap%`: `100 (sse - bound) / bound`; `proven`: the incumbent proven optimal (P12);
//! - `seconds` and the command that reproduces the row.
//!
//! The run goes through the built binary (`CARGO_BIN_EXE_microagg`), so the printed command is
//! exactly the one that ran. Nothing is stored in the library: with `--out DIR` each run also
//! writes its certificate (`DIR/DATA-kK.cert.json.gz`) and, but for colgen, its incumbent's labels
//! (`DIR/DATA-kK.labels`), which `microagg library submit` stores where they are better
//! (instances/library/README.md).
//!
//! ```text
//! cargo build --release --bench casc_table
//! MICROAGG_DATA=... target/release/deps/casc_table-* [--time-limit 1800] [--core N] [--bin PATH]
//!     [--out DIR] [DATA:k ...]
//! ```
//!
//! `--core N` pins each run to core N (`taskset`), for one-core figures beside other work;
//! `--bin PATH` runs that `microagg` binary instead of the one built with the bench (a copy
//! stays the same while the tree is rebuilt).
//!
//! ## Complexity
//! One recipe run per case, each at most its time limit.
//!
//! ## References
//! None.

use microagg::data::{self, ColumnSelection};
use microagg::labels;
use microagg::partition::Partition;
use serde_json::Value;
use std::path::Path;
use std::process::Command;

/// The twelve cases, nearest to a proof first within each k.
const DEFAULT_CASES: &[&str] = &[
    "eia:3",
    "census:3",
    "tarragona:3",
    "eia:4",
    "census:4",
    "tarragona:4",
    "tarragona:5",
    "eia:5",
    "census:5",
    "tarragona:10",
    "census:10",
    "eia:10",
];

fn main() {
    let mut seconds = 1800.0;
    let mut core: Option<usize> = None;
    let mut bin = env!("CARGO_BIN_EXE_microagg").to_string();
    let mut out: Option<String> = None;
    let mut cases: Vec<String> = Vec::new();
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |what: &str| it.next().and_then(|v| v.parse().ok()).expect(what);
        match a.as_str() {
            "--time-limit" => seconds = value("--time-limit SECONDS"),
            "--core" => core = Some(value("--core N") as usize),
            "--bin" => bin = it.next().expect("--bin PATH").clone(),
            "--out" => out = Some(it.next().expect("--out DIR").clone()),
            "--bench" => {} // passed by `cargo bench`
            _ => cases.push(a.clone()),
        }
    }
    if cases.is_empty() {
        cases = DEFAULT_CASES.iter().map(|c| c.to_string()).collect();
    }
    if let Some(dir) = &out {
        std::fs::create_dir_all(dir).expect("--out DIR: cannot create it");
    }
    println!("case\tT\troot_lp\troot_cuts\tconverged\tnodes\topen\tbound\tsse\tgap%\tproven\tseconds\tcommand");
    for case in &cases {
        match run(case, seconds, core, &bin, out.as_deref()) {
            Ok(row) => println!("{row}"),
            Err(e) => println!("{case}\terror: {e}"),
        }
    }
}

/// A case's recipe: the `microagg bound` arguments (its preset, or `auto` where the case has
/// none: Tarragona and Census k = 10, whose stored bounds come from study recipes) and
/// whether the route holds an incumbent (all but a colgen preset, eia-k10).
fn recipe(data: &str, k: usize, seconds: f64) -> (Vec<String>, bool) {
    let name = format!("{data}-k{k}");
    let preset = microagg::bound::presets::find(&name).ok();
    let route = match preset {
        Some(_) => ["--preset", name.as_str()],
        None => ["--method", "auto"],
    };
    let args = [
        "bound",
        "--data",
        data,
        "--k",
        &k.to_string(),
        route[0],
        route[1],
        "--start",
        &stored_labels(data, k),
        "--time-limit",
        &seconds.to_string(),
        "--threads",
        "1",
        "--quiet",
        "--json",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    (args, preset.is_none_or(|p| p.bound != "colgen"))
}

/// The case's stored best partition, relative to the repository (where the runs start).
fn stored_labels(data: &str, k: usize) -> String {
    format!("instances/library/{data}-k{k}.labels")
}

/// The SSE of the case's stored best partition.
fn stored_sse(data: &str, k: usize) -> Result<f64, String> {
    let inst = data::load(data, &ColumnSelection::All).map_err(|e| e.to_string())?;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(stored_labels(data, k));
    let labels = labels::read_labels(&path).map_err(|e| e.to_string())?;
    let p = Partition::from_labels(&inst, labels).map_err(|e| e.to_string())?;
    Ok(p.sse())
}

/// One row of the table for `DATA:k`.
fn run(
    case: &str,
    seconds: f64,
    core: Option<usize>,
    bin: &str,
    out: Option<&str>,
) -> Result<String, String> {
    let (data, k) = case.rsplit_once(':').ok_or("expected DATA:k")?;
    let k: usize = k.parse().map_err(|_| format!("bad k in {case}"))?;
    let (args, incumbent) = recipe(data, k, seconds);
    let mut kept = Vec::new();
    if let Some(dir) = out {
        let name = format!("{dir}/{data}-k{k}");
        kept.extend(["--certificate".to_string(), format!("{name}.cert.json.gz")]);
        if incumbent {
            kept.extend(["--labels-out".to_string(), format!("{name}.labels")]);
        }
    }
    let mut cmd = match core {
        Some(c) => {
            let mut t = Command::new("taskset");
            t.args(["-c", &c.to_string(), bin]);
            t
        }
        None => Command::new(bin),
    };
    let output = cmd
        .args(&args)
        .args(&kept)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .map_err(|e| format!("running {bin}: {e}"))?;
    if !output.status.success() {
        return Err(String::from_utf8_lossy(&output.stderr).trim().to_string());
    }
    let v: Value = serde_json::from_slice(&output.stdout).map_err(|e| e.to_string())?;
    // `auto` nests its route's details under `inner` and reports its incumbent beside them.
    let outer = &v["details"];
    let d = if outer["inner"].is_object() {
        &outer["inner"]
    } else {
        outer
    };
    let num = |x: &Value| x.as_f64().map_or("-".to_string(), |f| format!("{f:.6}"));
    let text = |x: &Value| match x {
        Value::Null => "-".to_string(),
        Value::String(s) => s.clone(),
        other => other.to_string(),
    };
    let bound = v["lower_bound"].as_f64().ok_or("no lower_bound")?;
    // The run's incumbent (bnp's, auto's) starts from the stored partition; colgen keeps none.
    let stored = stored_sse(data, k)?;
    let sse = [&outer["incumbent_sse"], &d["sse"]]
        .iter()
        .find_map(|x| x.as_f64())
        .map_or(stored, |s| s.min(stored));
    let bnp = d["nodes"].is_number();
    let converged = d["converged"].as_bool() == Some(true);
    let root_cuts = match (bnp, converged) {
        (true, _) => &d["root_lp_cuts"],
        (false, true) => &d["lp_value"],
        (false, false) => &Value::Null,
    };
    Ok(format!(
        "{case}\t{seconds}\t{}\t{}\t{}\t{}\t{}\t{bound:.6}\t{sse:.6}\t{:.4}\t{}\t{:.1}\tmicroagg {}",
        num(&d["root_lp"]),
        num(root_cuts),
        if bnp { "-".into() } else { text(&d["converged"]) },
        text(&d["nodes"]),
        text(&d["open_nodes"]),
        100.0 * (sse - bound) / bound,
        d["proven_optimal"].as_bool().unwrap_or(false),
        v["seconds"].as_f64().unwrap_or(f64::NAN),
        args.join(" ")
    ))
}
