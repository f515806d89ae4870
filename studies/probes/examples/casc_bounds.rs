//! # CASC bound targets (issue 18)
//!
//! For each CASC case (data, k) computes a registered bound (`colgen-cuts` by default, any of
//! `microagg list`'s, through the bound registry as `microagg bound` does: proofs/P09, P14,
//! P17, P20) with the given parameters and prints one row: root LP (master LP value when
//! column generation first converged, "-" if it never did), LP with cuts (last converged LP
//! after the cut rounds; bnp: the root's), nn bound, final certified bound, nodes (bnp;
//! 0 for colgen), seconds (wall and CPU of the process), best known SSE
//! (instances/library/library.toml) and gap `100 (best - LB) / LB`, then the command that
//! reproduces the row. The master starts from the `mdav+decompose-shrink` partition and
//! (unless `--no-start`) from the best known partition `instances/library/<data>-k<k>.labels`.
//! With `--certificates DIR` (an existing folder) each case writes its certificate:
//! `DIR/<data>-k<k>.bound.json` for colgen when its Lagrangian bound beats nn,
//! `DIR/<data>-k<k>.bnp.json.gz` and the incumbent's labels `DIR/<data>-k<k>.bnp.labels` for
//! bnp (`microagg verify-bound` re-checks them).
//!
//! Usage: `cargo run --release -p microagg-studies --example casc_bounds -- [--cases
//!         tarragona:10,census:3,..] [--method NAME] [--preset NAME] [--param KEY=VALUE]...
//!         [--time-limit SECS] [--no-start] [--certificates DIR] [--progress]`
//!
//! `--method`, `--preset`, `--param` and `--time-limit` mean what they mean for `microagg
//! bound` (the same registry parameters and presets). Defaults: all twelve cases (k = 3, 4,
//! 5, 10 of tarragona, census, eia), `colgen-cuts`, 60 s per case. Cases run one after the
//! other (the protocol: one core, at most 1800 s per case).
//!
//! ## Complexity
//! That of the bound per case, within its time limit.

use microagg::bound::{BoundOutcome, Certificate};
use microagg::data::{load, ColumnSelection};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// The source tree (this crate is studies/probes).
const ROOT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../..");

/// Best known SSE of (data, k) in the benchmark library (instances/library), if listed.
fn best_known(data: &str, k: usize) -> Option<f64> {
    microagg::library::Library::open_default()
        .ok()?
        .reference_by_name(data, k)?
        .best_sse
}

/// `x` with 6 decimals, "-" when not finite.
fn num(x: f64) -> String {
    if x.is_finite() {
        format!("{x:.6}")
    } else {
        "-".into()
    }
}

/// Parse `data:k` pairs.
fn parse_cases(s: &str) -> Result<Vec<(String, usize)>, String> {
    s.split(',')
        .map(|c| {
            let (d, k) = c
                .split_once(':')
                .ok_or(format!("case '{c}': expected data:k, e.g. tarragona:10"))?;
            let k = k
                .parse::<usize>()
                .map_err(|e| format!("case '{c}': k: {e}"))?;
            Ok((d.to_string(), k))
        })
        .collect()
}

/// The command line: cases, the bound and its parameters, outputs.
struct Args {
    cases: Vec<(String, usize)>,
    method: Option<String>,
    preset: Option<String>,
    params: Vec<String>,
    time_limit: Option<f64>,
    use_best: bool,
    cert_dir: Option<PathBuf>,
    progress: bool,
}

fn parse_args() -> Result<Args, Box<dyn std::error::Error>> {
    let mut a = Args {
        cases: ["tarragona", "census", "eia"]
            .iter()
            .flat_map(|d| [3, 4, 5, 10].map(|k| (d.to_string(), k)))
            .collect(),
        method: None,
        preset: None,
        params: Vec::new(),
        time_limit: None,
        use_best: true,
        cert_dir: None,
        progress: false,
    };
    let args: Vec<String> = std::env::args().skip(1).collect();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        let mut value = || it.next().cloned().ok_or(format!("{flag} needs a value"));
        match flag.as_str() {
            "--cases" => a.cases = parse_cases(&value()?)?,
            "--method" => a.method = Some(value()?),
            "--preset" => a.preset = Some(value()?),
            "--param" => a.params.push(value()?),
            "--time-limit" => a.time_limit = Some(value()?.parse()?),
            "--no-start" => a.use_best = false,
            "--progress" => a.progress = true,
            "--certificates" => {
                // Checked now, not after a run of many minutes.
                let dir = PathBuf::from(value()?);
                if !dir.is_dir() {
                    return Err(format!("--certificates {}: not a directory", dir.display()).into());
                }
                a.cert_dir = Some(dir);
            }
            _ => return Err(format!("unknown argument {flag}").into()),
        }
    }
    Ok(a)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let a = parse_args()?;
    let method = a
        .method
        .as_deref()
        .or(a.preset.is_none().then_some("colgen-cuts"));
    let params = microagg::params::key_values("--param", &a.params)?;
    let (info, given) = microagg::bound::presets::resolve(method, a.preset.as_deref(), params)?;
    // Refused parameters are said before the table starts.
    microagg::bound::prepare(info.name, &given, a.time_limit)?;
    let mut shaping = vec![format!("--method {}", info.name)];
    shaping.extend(a.preset.iter().map(|p| format!("--preset {p}")));
    shaping.extend(a.params.iter().map(|p| format!("--param {p}")));
    shaping.extend(a.time_limit.map(|t| format!("--time-limit {t}")));
    if !a.use_best {
        shaping.push("--no-start".into());
    }
    println!(
        "case          root LP         LP with cuts    nn              final LB        nodes  \
         seconds (CPU)     best SSE        gap       converged/proven"
    );
    for (data, k) in &a.cases {
        let mut case = given.clone();
        let best_file = format!("{ROOT}/instances/library/{data}-k{k}.labels");
        if a.use_best && info.takes_start() && Path::new(&best_file).exists() {
            case.insert("start".into(), Value::String(best_file));
        }
        let bound = microagg::bound::prepare(info.name, &case, a.time_limit)?;
        let inst = load(data, &ColumnSelection::All)?;
        let never = std::sync::atomic::AtomicBool::new(false);
        let cpu = microagg::bench::process_cpu_seconds();
        let b = microagg::bound::compute_prepared(
            &bound,
            &inst,
            *k,
            microagg::progress::Show::from_flags(a.progress, false),
            &never,
        )?;
        let cpu = microagg::bench::process_cpu_seconds() - cpu;
        row(data, *k, &b, cpu);
        println!(
            "  # cargo run --release -p microagg-studies --example casc_bounds -- --cases {data}:{k} {}",
            shaping.join(" ")
        );
        if let Some(dir) = &a.cert_dir {
            write_outputs(dir, data, *k, &b)?;
        }
    }
    Ok(())
}

/// The case's row and a line of figures from its details.
fn row(data: &str, k: usize, b: &BoundOutcome, cpu: f64) {
    let d = &b.details;
    let f = |key: &str| d[key].as_f64().unwrap_or(f64::NAN);
    let bnp = b.incumbent.is_some();
    let best = best_known(data, k);
    let gap = best
        .and_then(|s| microagg::bound::gap_percent(s, b.lower_bound))
        .map_or("-".to_string(), |g| format!("{g:.4} %"));
    let with_cuts = match (bnp, d["cut_rounds"].as_u64()) {
        (true, _) => f("root_lp_cuts"),
        (false, Some(r)) if r > 0 => f("converged_lp"),
        _ => f64::NAN,
    };
    let done = if bnp {
        d["proven_optimal"] == true
    } else {
        d["converged"] == true
    };
    println!(
        "{:<13} {:<15} {:<15} {:<15} {:<15} {:>5}  {:>7.1} ({:>6.1})  {:<15} {:<9} {}",
        format!("{data} {k}"),
        num(f("root_lp")),
        num(with_cuts),
        num(f("nn")),
        num(b.lower_bound),
        d["nodes"].as_u64().unwrap_or(0),
        b.seconds,
        cpu,
        best.map_or("-".into(), num),
        gap,
        if done { "yes" } else { "no" },
    );
    println!("  # details {d}");
    if let (Some(inc), Some(s)) = (&b.incumbent, best) {
        // The library records 10 decimals of the SSE: only a clear improvement counts.
        if inc.sse < s - 1e-9 * s.max(1.0) {
            println!(
                "  # incumbent SSE {} better than the best known",
                num(inc.sse)
            );
        }
    }
}

/// `--certificates DIR`: the certificate (colgen: when its Lagrangian bound beats nn) and,
/// for bnp, the incumbent's labels.
fn write_outputs(
    dir: &Path,
    data: &str,
    k: usize,
    b: &BoundOutcome,
) -> Result<(), Box<dyn std::error::Error>> {
    let f = |key: &str| b.details[key].as_f64().unwrap_or(f64::NAN);
    let file = match &b.certificate {
        Ok(Certificate::Lagrangian(_)) if f("lagrangian") > f("nn") => {
            Some(format!("{data}-k{k}.bound.json"))
        }
        Ok(Certificate::BranchAndPrice(_)) => Some(format!("{data}-k{k}.bnp.json.gz")),
        Ok(_) => None,
        Err(why) => {
            println!("  # no certificate: {why}");
            None
        }
    };
    if let (Some(file), Ok(c)) = (file, &b.certificate) {
        let path = dir.join(file);
        c.write(&path)?;
        println!("  # {}", c.written(&path));
    }
    if let Some(inc) = &b.incumbent {
        let path = dir.join(format!("{data}-k{k}.bnp.labels"));
        microagg::labels::write_labels(&path, &inc.labels)?;
        println!("  # incumbent labels {}", path.display());
    }
    Ok(())
}
