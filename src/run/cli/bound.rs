//! # `microagg bound` and `microagg verify-bound`
//!
//! `bound` computes a registered lower bound ([`crate::bound::BOUNDS`], `bnp` included) on
//! the optimal SSE of (data, k) through [`crate::bound::compute_prepared`] and can write
//! what the registry says the bound returns: its certificate (colgen, bnp) and its
//! incumbent's labels (bnp); `verify-bound` re-checks such a certificate without HiGHS
//! (`proofs/P13`, `proofs/P18`). The bound's parameters are `--param KEY=VALUE` (the
//! registry's keys, `microagg list`), a `--preset NAME` ([`crate::bound::presets`]) sets
//! the bound and several at once; `--param`, `--time-limit` and `--start` override a
//! preset's values, and giving one value twice (`--time-limit` and `--param time_limit`) is
//! an error. With `--weights` the weighted version of the entry (nn: P41, colgen: P43)
//! on the weighted SSE; an option without a weighted meaning is refused, never ignored.
//!
//! ## Complexity
//! That of the bound (see [`crate::bound`]) or of the certificate's pricing search.
//!
//! ## References
//! None.

use super::data::DataArgs;
use super::values;
use crate::bound::registry::names_where;
use crate::bound::{presets, BoundInfo, BoundOutcome};
use crate::error::{Error, Result};
use crate::interrupt;
use crate::labels;
use crate::output::{self, check_destination};
use crate::params::key_values;
use crate::render::bound as render;
use serde_json::{Map, Value};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct BoundArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Bound: nn (nearest-neighbour bound, always certified), nn-raised (nn with each
    /// record's dual raised by the slack of its groups, certified, seconds at any size;
    /// proofs/P25), colgen (column generation Lagrangian bound, HiGHS, certified; default
    /// time limit 60 s), colgen-cuts (colgen with rounds of subset-row cuts; proofs/P14), bnp
    /// (branch-and-price: bound, incumbent and gap; proofs/P17) or auto (the best certified
    /// bound in --time-limit, never below nn-raised: it chooses bnp, colgen or, beyond 8000
    /// records, block duals priced locally (proofs/P23), and finds an incumbent unless
    /// --start gives one). Default: the preset's bound, else nn. `microagg
    /// list` shows every bound with its parameters.
    #[arg(long, value_parser = values::bound_name())]
    pub method: Option<String>,
    /// Wall-clock limit in seconds (the bound's `time_limit` parameter; nn ignores it).
    #[arg(long, value_parser = values::time_limit)]
    pub time_limit: Option<f64>,
    /// colgen and bnp: a labels file (one group label per input row, every group of at least k
    /// records, e.g. instances/library/tarragona-k10.labels) whose groups seed the master
    /// (the bound's `start` parameter).
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Progress on stderr even when it is not a terminal (on a terminal it is shown anyway):
    /// colgen's best certified bound, its gap to the start partition and the time every few
    /// seconds, plus one line per master iteration; bnp's improvements of bound and
    /// incumbent, and a "working" line with the node master's LP value after 10 s without
    /// one.
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,
    /// No progress on stderr, even on a terminal.
    #[arg(long)]
    pub quiet: bool,
    /// colgen: write a certificate of the Lagrangian bound (its duals, JSON) that
    /// `verify-bound` re-checks without HiGHS (proofs/P13); bnp: the branch-and-price
    /// certificate (every leaf's decisions and duals, proofs/P18). When the reported value
    /// is nn's or nn-raised's (which write none), the file holds the lower value it
    /// certifies, and stderr says so. JSON, gzip-compressed when FILE ends in `.gz`.
    #[arg(long)]
    pub certificate: Option<PathBuf>,
    /// bnp: write the incumbent's labels (one group label per input row) at the end.
    #[arg(long)]
    pub labels_out: Option<PathBuf>,
    /// A parameter of the bound, KEY=VALUE (repeatable), e.g. cuts=5, max_nodes=25 or
    /// nn_ascent=0.2; `microagg list` shows each bound's parameters with their defaults.
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// A named parameter set (the recipe of a stored library bound, e.g. eia-k10); it sets
    /// the bound and its parameters, --param and --time-limit override them. `microagg list`
    /// shows the presets.
    #[arg(long)]
    pub preset: Option<String>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub(crate) struct VerifyBoundArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// The certificate file: one JSON document, or one gzip member holding it (.json.gz),
    /// at most 64 MiB of text; anything else in the file is refused.
    #[arg(long)]
    pub certificate: PathBuf,
    /// Wall-clock limit in seconds for the whole command (default: none). A search cut by it
    /// gives a weaker bound, still valid: a claim it supports is accepted, one it does not is
    /// refused as not verified within the time limit (exit 1).
    #[arg(long, value_parser = values::time_limit)]
    pub time_limit: Option<f64>,
    /// A labels file (one group label per input row, every group of at least k records),
    /// checked before the verification:
    /// also say whether the recomputed bound proves these labels optimal (proofs/P12: the
    /// bound is at least (1 - 1e-9) times a certified upper bound on the labels' exact SSE).
    /// Unweighted certificates only.
    #[arg(long)]
    pub labels: Option<PathBuf>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Refuse an output the bound does not produce, or a destination that cannot be written,
/// before spending the time limit.
fn check_outputs(args: &BoundArgs, info: &BoundInfo) -> Result<()> {
    if args.labels_out.is_some() && !info.incumbent {
        return Err(Error::usage(format!(
            "--labels-out: only bounds with an incumbent ({}) have labels to write, not {}",
            names_where(|b| b.incumbent).join(", "),
            info.name
        )));
    }
    if let Some(path) = &args.certificate {
        if !info.certificate {
            return Err(Error::usage(format!(
                "--certificate: only the {} bounds write certificates, not {}",
                names_where(|b| b.certificate).join(", "),
                info.name
            )));
        }
        check_destination("--certificate", path)?;
    }
    if let Some(path) = &args.labels_out {
        check_destination("--labels-out", path)?;
    }
    output::check_json_report(args.json)
}

/// The bound and its parameters from `--preset`, `--method`, `--time-limit`, `--start` and
/// `--param` (module doc: later ones override the preset; one value may not be given twice).
fn bound_request(args: &BoundArgs) -> Result<(&'static BoundInfo, Map<String, Value>)> {
    let (method, preset) = (args.method.as_deref(), args.preset.as_deref());
    let takes_limit = presets::resolve(method, preset, Map::new())?
        .0
        .takes("time_limit");
    let mut params = key_values("--param", &args.params)?;
    let mut set = |key: &str, flag: &str, value: Value| {
        if params.contains_key(key) {
            return Err(Error::usage(format!(
                "{flag} and --param {key}=...: give one"
            )));
        }
        params.insert(key.to_string(), value);
        Ok(())
    };
    if let Some(t) = args.time_limit.filter(|_| takes_limit) {
        set("time_limit", "--time-limit", t.into())?;
    }
    if let Some(path) = &args.start {
        set("start", "--start", path.display().to_string().into())?;
    }
    presets::resolve(method, preset, params)
}

/// `microagg bound`. With `--weights` the bound's registry entry must have a weighted
/// version ([`BoundInfo::weighted`]: nn and colgen), which [`bound_weighted`] computes and
/// reports on the weighted SSE.
pub fn bound(args: BoundArgs) -> Result<ExitCode> {
    let (info, given) = bound_request(&args)?;
    if args.data.weights.is_some() {
        return bound_weighted(&args, info, &given);
    }
    let prepared = info.prepare(&given)?;
    check_outputs(&args, info)?;
    let data = &args.data;
    let inst = data.load()?;
    let b = crate::bound::compute_prepared(
        &prepared,
        &inst,
        data.k,
        crate::progress::Show::from_flags(args.progress, args.quiet),
        interrupt::flag(),
    )?;
    if let (Some(path), Some(inc)) = (&args.labels_out, &b.incumbent) {
        labels::write_labels(path, &inc.labels)?;
    }
    if let Some(path) = &args.certificate {
        match &b.certificate {
            Ok(cert) => {
                cert.write(path)?;
                eprintln!("{}", cert.written(path));
                if cert.lower_bound() < b.lower_bound {
                    eprintln!("{}", below_reported(cert.lower_bound(), &b));
                }
            }
            // Stopped before its first certifiable bound: the bound so far is still said.
            Err(why) if b.interrupted => {
                eprintln!("--certificate: none written, interrupted: {why}")
            }
            Err(why) => return Err(Error::usage(format!("--certificate: {why}"))),
        }
    }
    if args.json {
        output::println(&render::bound_json(&b, &inst, data.k))?;
    } else {
        output::println(&render::bound_text(&b, &inst, data.k))?;
    }
    Ok(super::finished_status())
}

/// The line said when the certificate holds less than the reported value: the value came
/// from a bound that writes none (`nn`, `nn-raised`, the weighted nn), so the file certifies
/// the route's own.
fn below_reported(certified: f64, b: &BoundOutcome) -> String {
    format!(
        "--certificate: the file certifies {certified:.12e}, below the reported {:.12e} of {}, which writes no certificate",
        b.lower_bound, b.produced_by
    )
}

/// `microagg verify-bound`: exit 0 when the claimed bound holds, 1 when it does not or the
/// time limit ended the verification first. `--time-limit` is one deadline for the whole
/// command, set before the certificate is read.
pub(crate) fn verify_bound(args: VerifyBoundArgs) -> Result<ExitCode> {
    // The search below does not poll the interrupt flag and a verdict cut short means
    // nothing, so a signal stops it at once instead of waiting for a second one.
    interrupt::exit_on_first_signal();
    let deadline = crate::certificate::deadline_in(args.time_limit);
    let path = &args.certificate;
    let file = path.display().to_string();
    // A Lagrangian, branch-and-price or weighted certificate (by its format tag); any of
    // them may be gzip-compressed.
    let text = crate::certificate::read_text(path)?;
    let format = crate::certificate::format_of(&text, &file)?;
    if format == crate::certificate::weighted::FORMAT {
        return verify_weighted(&args, &text, deadline);
    }
    let bnp_cert = (format == crate::bnp_certificate::FORMAT)
        .then(|| crate::bnp_certificate::BnpCertificate::parse(&text, &file))
        .transpose()?;
    let cert = bnp_cert
        .is_none()
        .then(|| crate::certificate::BoundCertificate::parse(&text, &file))
        .transpose()?;
    drop(text);
    let data = &args.data;
    let inst = data.load()?;
    inst.check_k(data.k)?;
    // The labels are checked before the long search, so a bad file costs no wait.
    let labels = match &args.labels {
        Some(p) => Some(crate::certificate::labels_upper(
            &inst,
            data.k,
            &labels::read_labels(p)?,
            p,
        )?),
        None => None,
    };
    let start = std::time::Instant::now();
    let v = match (&cert, &bnp_cert) {
        (_, Some(c)) => crate::bnp_certificate::verify(c, &inst, data.k, deadline)?,
        (Some(c), _) => crate::certificate::verify(c, &inst, data.k, deadline)?,
        _ => unreachable!("one certificate was read"),
    };
    let seconds = start.elapsed().as_secs_f64();
    let optimality = labels
        .as_ref()
        .map(|u| crate::certificate::optimality_of(&v, u));
    if args.json {
        output::println(&render::verdict_json(
            &v,
            path,
            &inst,
            data.k,
            seconds,
            optimality.as_ref(),
        ))?;
    } else {
        output::println(&render::verdict_text(&v, path, &inst, data.k, seconds))?;
        if let Some(o) = &optimality {
            output::println(&render::optimality_text(o))?;
        }
    }
    Ok(if v.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `verify-bound` of a weighted certificate (`bound --method colgen --weights W
/// --certificate FILE`); the data must be loaded with the same `--weights`.
fn verify_weighted(
    args: &VerifyBoundArgs,
    text: &str,
    deadline: Option<std::time::Instant>,
) -> Result<ExitCode> {
    use crate::certificate::weighted as wc;
    let path = &args.certificate;
    let cert = wc::WeightedCertificate::parse(text, &path.display().to_string())?;
    let data = &args.data;
    if args.labels.is_some() {
        return Err(Error::usage(format!(
            "--labels: {} is a certificate of a weighted bound; the optimality check covers \
             unweighted certificates only",
            path.display()
        )));
    }
    if data.weights.is_none() {
        return Err(Error::usage(format!(
            "{} is a certificate of a weighted bound (weights column '{}'): give --weights {}",
            path.display(),
            cert.weights,
            cert.weights
        )));
    }
    let inst = data.load_weighted()?;
    inst.check_k(data.k)?;
    let start = std::time::Instant::now();
    let v = wc::verify(&cert, &inst, data.k, deadline)?;
    let seconds = start.elapsed().as_secs_f64();
    if args.json {
        output::println(&render::verdict_json(
            &v, path, &inst, data.k, seconds, None,
        ))?;
    } else {
        output::println(&format!(
            "{} (weighted SSE, --weights {})",
            render::verdict_text(&v, path, &inst, data.k, seconds),
            cert.weights
        ))?;
    }
    Ok(if v.valid {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// `microagg bound --weights W` (nn, P41; colgen, P43, with `--start` and `--certificate`)
/// on the weighted SSE ([`crate::bound::weighted_version`]). colgen-cuts and bnp have no weighted
/// version; the options without a weighted meaning (cuts, the k = 10 helpers, labels out,
/// and --start / --certificate for nn) are refused with `--weights`, never ignored.
fn bound_weighted(
    args: &BoundArgs,
    info: &BoundInfo,
    given: &Map<String, Value>,
) -> Result<ExitCode> {
    let version = crate::bound::weighted_version(info.name)?;
    // Only the parameters the weighted version reads have a weighted meaning.
    let unused = [
        (
            "--certificate",
            args.certificate.is_some() && !version.certificate,
        ),
        ("--progress", args.progress),
        ("--labels-out", args.labels_out.is_some()),
    ];
    let refused = unused
        .iter()
        .find(|(_, set)| *set)
        .map(|(option, _)| option.to_string())
        .or_else(|| {
            given
                .keys()
                .find(|key| !version.params.contains(&key.as_str()))
                .map(|key| format!("parameter {key}"))
        });
    if let Some(option) = refused {
        return Err(Error::usage(format!(
            "{option} does not apply to the weighted {} bound (bound --weights): it has no \
             weighted version",
            info.name
        )));
    }
    let time_limit = match given.get("time_limit") {
        Some(v) => Some(v.as_f64().ok_or_else(|| {
            Error::usage(format!("time_limit = {v}: expected a number of seconds"))
        })?),
        None => None,
    };
    let start = match given.get("start") {
        Some(Value::String(path)) => Some(crate::labels::read_labels(Path::new(path))?),
        Some(other) => return Err(Error::usage(format!("start = {other}: expected a file"))),
        None => None,
    };
    if let Some(path) = &args.certificate {
        check_destination("--certificate", path)?;
    }
    output::check_json_report(args.json)?;
    let inst = args.data.load_weighted()?;
    let k = args.data.k;
    let (b, cert) = (version.compute)(&inst, k, time_limit, start.as_deref(), interrupt::flag())?;
    if let Some(path) = &args.certificate {
        let cert = cert.map_err(|why| Error::usage(format!("--certificate: {why}")))?;
        cert.write(path)?;
        eprintln!(
            "certificate of the weighted Lagrangian bound {:.12e} written to {}",
            cert.lower_bound,
            path.display()
        );
        if cert.lower_bound < b.lower_bound {
            eprintln!("{}", below_reported(cert.lower_bound, &b));
        }
    }
    let sst = b.details["sst_weighted"].as_f64().unwrap_or(f64::NAN);
    if args.json {
        let mut v: serde_json::Value =
            serde_json::from_str(&render::bound_json(&b, &inst, k)).expect("bound JSON");
        // The record's sst is the unweighted one; the bound's IL is on the weighted SST.
        v["sst_weighted"] = sst.into();
        output::println(&v.to_string())?;
    } else {
        let w = inst.weights.as_ref().expect("loaded with weights");
        output::println(&format!(
            "{} (weighted SSE, --weights {}, total {}; weighted SST {})",
            render::bound_text(&b, &inst, k),
            w.column,
            crate::render::round_trip(w.total),
            crate::render::decimal(sst, 6)
        ))?;
    }
    Ok(super::finished_status())
}
