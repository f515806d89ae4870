//! # `microagg bound` and `microagg verify-bound`
//!
//! `bound` computes a registered lower bound ([`microagg::bound::BOUNDS`], `bnp` included) on
//! the optimal SSE of (data, k) through [`microagg::bound::compute_with`] and can write what
//! the registry says the bound returns: its certificate (colgen, bnp) and its incumbent's
//! labels (bnp); `verify-bound` re-checks such a certificate without HiGHS (`proofs/P13`,
//! `proofs/P18`). With `--weights` the weighted version of the entry (nn: P41, colgen: P43)
//! on the weighted SSE; an option without a weighted meaning is refused, never ignored.
//!
//! ## Complexity
//! That of the bound (see [`microagg::bound`]) or of the certificate's pricing search.
//!
//! ## References
//! None.

use super::data::DataArgs;
use super::values;
use microagg::error::{Error, Result};
use microagg::interrupt;
use microagg::labels;
use microagg::output::{self, check_destination};
use microagg::render::bound as render;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub struct BoundArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Bound: nn (nearest-neighbour bound; k-nearest lists from the kd-tree from 4096 records, by scan below; always certified), colgen
    /// (column generation Lagrangian bound, HiGHS, certified; default time limit 60 s) or
    /// colgen-cuts (colgen with 50 rounds of subset-row cuts unless --cuts says otherwise;
    /// proofs/P14), or bnp (branch-and-price: bound, incumbent and gap; proofs/P17).
    /// `microagg list` shows every bound with its parameters.
    #[arg(long, default_value = "nn", value_parser = values::bound_name())]
    pub method: String,
    /// Wall-clock limit in seconds (for iterative bounds such as colgen; nn ignores it).
    #[arg(long, value_parser = values::time_limit)]
    pub time_limit: Option<f64>,
    /// colgen and bnp: a labels file (one group label per input row, every group of at least k
    /// records, e.g. instances/library/tarragona-k10.labels) whose groups seed the master.
    #[arg(long)]
    pub start: Option<PathBuf>,
    /// Progress on stderr even when it is not a terminal (on a terminal it is shown anyway):
    /// colgen's best certified bound, its gap to the start partition and the time every few
    /// seconds, plus one line per master iteration; bnp's improvements of bound and
    /// incumbent.
    #[arg(long, conflicts_with = "quiet")]
    pub progress: bool,
    /// No progress on stderr, even on a terminal.
    #[arg(long)]
    pub quiet: bool,
    /// colgen: write a certificate of the Lagrangian bound (its duals, JSON) that
    /// `verify-bound` re-checks without HiGHS (proofs/P13); bnp: the branch-and-price
    /// certificate (every leaf's decisions and duals, proofs/P18).
    #[arg(long)]
    pub certificate: Option<PathBuf>,
    /// colgen, colgen-cuts, bnp: rounds of subset-row cuts on record triples (proofs/P14).
    /// colgen and colgen-cuts: rounds once the master LP is reached (default 0 for colgen,
    /// 50 for colgen-cuts); each round adds the most violated cuts (at most 800) and
    /// resumes column generation, the bound is the best over all rounds. bnp: rounds at the
    /// root (default 50), and one round at every other node. 0 means no cuts at all (bnp:
    /// neither at the root nor at the nodes). Costs time, raises the bound where the LP
    /// relaxation is weak (studies/study-colgen.txt). nn takes no cuts
    #[arg(long)]
    pub cuts: Option<usize>,
    /// bnp: after the root, try to prove optimality by enumerating every group whose reduced
    /// cost at the root's duals is within the gap and searching the partitions made of them
    /// (proofs/P19; the certificate then carries the duals for verify-bound).
    #[arg(long)]
    pub enumerate: bool,
    /// bnp: most search nodes processed, the root included (default: no limit); the search
    /// then returns its incumbent and bound. Fewer nodes leave fewer leaves, so a smaller
    /// certificate.
    #[arg(long)]
    pub max_nodes: Option<u64>,
    /// bnp: most subset-row cuts in all (default 4000). More cuts can raise the root bound
    /// (EIA k = 5 reached the cap in five rounds), each costs master time and one dual per
    /// leaf in the certificate.
    #[arg(long)]
    pub max_cuts: Option<usize>,
    /// bnp: separate rank-1 cuts on five records (multipliers 1/3) and on four records
    /// (2/3, 1/3, 1/3, 1/3) besides the subset-row triples (proofs/P21); they share the
    /// --max-cuts cap. Off by default.
    #[arg(long)]
    pub rank1_cuts: bool,
    /// bnp: also separate subset-row cuts with multipliers 1/q (q = 2..9) on the records of
    /// the master's fractional blocks (records joined by fractional columns), at most N
    /// records each (2..=32), right side floor(|C| / q) (proofs/P21 Part F); they share the
    /// --max-cuts cap. Off by default (old commands reproduce).
    #[arg(long, value_name = "N")]
    pub big_cuts: Option<usize>,
    /// bnp: the group-count row sum_S x_S <= floor(n/k) in every node's master
    /// (proofs/P22); raises the master LP where k does not divide n. Off by default.
    #[arg(long)]
    pub count_row: bool,
    /// colgen (k = 10 helpers, proofs/P20): fraction of the time for a line search from the
    /// nn duals along the best start partition's slacks (0: none).
    #[arg(long)]
    pub nn_ascent: Option<f64>,
    /// colgen: fraction of the time for a box-step ascent on the anchored bound (0: none).
    #[arg(long)]
    pub subgradient: Option<f64>,
    /// colgen: at the end, a line search from the best bound's duals toward the master's.
    #[arg(long)]
    pub lp_segment: bool,
    /// colgen: after that line search, push-and-project steps (each certified).
    #[arg(long)]
    pub push_project: bool,
    /// colgen: anchor threshold of those searches, a fraction of best SSE / floor(n/k)
    /// (default 0.005; 0: exact per-anchor minima).
    #[arg(long)]
    pub anchor_threshold: Option<f64>,
    /// colgen: re-solve the master by interior point (central duals).
    #[arg(long)]
    pub ipm: bool,
    /// colgen: fraction of the time kept for the final evaluations (default 0.25).
    #[arg(long)]
    pub final_fraction: Option<f64>,
    /// colgen: after the nn line search, certify every smoothed point alpha y_centre +
    /// (1 - alpha) y_LP (Wentges smoothing) and add its negative groups (proofs/P20).
    #[arg(long)]
    pub certified_smoothing: bool,
    /// colgen: the smoothing weight alpha in [0, 1) (default 0.5).
    #[arg(long)]
    pub smoothing: Option<f64>,
    /// colgen: with --certified-smoothing, adapt alpha (Pessoa et al. 2018).
    #[arg(long)]
    pub auto_smoothing: bool,
    /// colgen: with --certified-smoothing or --push-project, stop a certifying check once
    /// it provably cannot beat the best certified value (effort only, proofs/P20).
    #[arg(long)]
    pub stop_early: bool,
    /// colgen: with --lp-segment, the fraction of the time limit, taken off
    /// push-and-project's end, that re-certifies the best point at smaller anchor thresholds
    /// (default 0: none).
    #[arg(long, value_name = "F")]
    pub tighten: Option<f64>,
    /// colgen: with --lp-segment, the fraction of the time limit, taken off
    /// push-and-project's end before --tighten's share, for push-and-project rounds from the
    /// best point along the start partition's slacks; with --tighten, below --final-fraction
    /// (default 0: none).
    #[arg(long, value_name = "F")]
    pub slack_push: Option<f64>,
    /// colgen: with --lp-segment, the fraction of the time limit, taken off the final phase's
    /// end after --slack-push's share and before --tighten's, for an unboxed restricted master
    /// grown from the best point's negative groups, whose midpoints with that point are
    /// certified; with --slack-push and --tighten, below --final-fraction (default 0: none).
    #[arg(long, value_name = "F")]
    pub pool_master: Option<f64>,
    /// colgen: with --pool-master, take each midpoint with the last midpoint that raised the
    /// bound instead of with the phase's start point (default: the start point).
    #[arg(long)]
    pub pool_master_moving_centre: bool,
    /// colgen: with --push-project or --slack-push, bring each candidate onto the groups
    /// met by the least total lowering (a covering LP) instead of cyclic projections.
    #[arg(long)]
    pub lp_projection: bool,
    /// colgen: box step, the dual box half-width around the stability centre relative to
    /// its mean |y| (default 0: no box; the stored k = 10 bounds used 0.3).
    #[arg(long, value_name = "W")]
    pub box_width: Option<f64>,
    /// colgen: after the bound, seconds to solve the run's columns as a restricted master
    /// without box or cuts; its value lies above the LP relaxation, so no plain Lagrangian
    /// bound can pass it (an estimate with HiGHS' tolerance, not a bound; proofs/P09 Part D;
    /// default 0: not done).
    #[arg(long, value_name = "SECS")]
    pub master_upper: Option<f64>,
    /// colgen: most master solves (default 10000); the master phase ends there even with
    /// time left, then the final evaluations run. Census k = 10 reaches 10000 at about
    /// 960 s on a 2-core AMD EPYC VM (study-colgen.txt "18-k10g").
    #[arg(long, value_name = "N")]
    pub max_iterations: Option<usize>,
    /// bnp: write the incumbent's labels (one group label per input row) at the end.
    #[arg(long)]
    pub labels_out: Option<PathBuf>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
}

#[derive(clap::Args)]
pub struct VerifyBoundArgs {
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

/// The names of the registered bounds for which `has` holds, for error messages.
fn bounds_with(has: fn(&microagg::bound::BoundInfo) -> bool) -> String {
    let names: Vec<&str> = microagg::bound::BOUNDS
        .iter()
        .filter(|b| has(b))
        .map(|b| b.name)
        .collect();
    names.join(", ")
}

/// Refuse an output the bound does not produce, or a destination that cannot be written,
/// before spending the time limit.
fn check_outputs(args: &BoundArgs) -> Result<()> {
    let info = microagg::bound::find(&args.method)?;
    if args.labels_out.is_some() && !info.incumbent {
        return Err(Error::usage(format!(
            "--labels-out: only bounds with an incumbent ({}) have labels to write, not {}",
            bounds_with(|b| b.incumbent),
            info.name
        )));
    }
    if let Some(path) = &args.certificate {
        if !info.certificate {
            return Err(Error::usage(format!(
                "--certificate: only the {} bounds write certificates, not {}",
                bounds_with(|b| b.certificate),
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

/// `microagg bound`. With `--weights` the bound's registry entry must have a weighted
/// version ([`microagg::bound::BoundInfo::weighted`]: nn and colgen), which
/// [`bound_weighted`] computes and reports on the weighted SSE.
pub fn bound(args: BoundArgs) -> Result<ExitCode> {
    if args.data.weights.is_some() {
        return bound_weighted(&args);
    }
    if args.enumerate && args.method != microagg::bnp::BOUND_NAME {
        return Err(Error::usage(
            "--enumerate: only bound bnp enumerates".to_string(),
        ));
    }
    if args.max_nodes.is_some() && args.method != microagg::bnp::BOUND_NAME {
        return Err(Error::usage(
            "--max-nodes: only bound bnp searches nodes".to_string(),
        ));
    }
    if args.max_cuts.is_some() && args.method != microagg::bnp::BOUND_NAME {
        return Err(Error::usage(
            "--max-cuts: only bound bnp takes a cut cap (colgen and colgen-cuts: --cuts rounds)"
                .to_string(),
        ));
    }
    if args.rank1_cuts && args.method != microagg::bnp::BOUND_NAME {
        return Err(Error::usage(
            "--rank1-cuts: only bound bnp separates rank-1 cuts on 4-5 records".to_string(),
        ));
    }
    if let Some(m) = args.big_cuts {
        if args.method != microagg::bnp::BOUND_NAME {
            return Err(Error::usage(
                "--big-cuts: only bound bnp separates cuts on fractional blocks".to_string(),
            ));
        }
        if !(2..=32).contains(&m) {
            return Err(Error::usage(format!(
                "--big-cuts {m}: the most records of a cut must be 2..=32"
            )));
        }
    }
    if args.count_row && args.method != microagg::bnp::BOUND_NAME {
        return Err(Error::usage(
            "--count-row: only bound bnp adds the group-count row".to_string(),
        ));
    }
    check_outputs(&args)?;
    let data = &args.data;
    let inst = data.load()?;
    let mut options = microagg::bound::BoundOptions {
        start: args.start.as_deref().map(labels::read_labels).transpose()?,
        start_source: args
            .start
            .as_ref()
            .map_or(String::new(), |p| p.display().to_string()),
        progress: args.progress,
        quiet: args.quiet,
        cut_rounds: args.cuts,
        enumerate: args.enumerate,
        max_nodes: args.max_nodes.unwrap_or(0),
        max_cuts: args.max_cuts.unwrap_or(0),
        rank1_cuts: args.rank1_cuts,
        big_cut_records: args.big_cuts.unwrap_or(0),
        count_row: args.count_row,
        ..Default::default()
    };
    // The k = 10 flags, checked like --bound-param (registry parameters of colgen).
    for (_, key, value) in k10_flags(&args) {
        if let Some(v) = value {
            options.set(&args.method, key, &v)?;
        }
    }
    let b = microagg::bound::compute_with(
        &args.method,
        &inst,
        data.k,
        args.time_limit,
        &options,
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

/// `microagg verify-bound`: exit 0 when the claimed bound holds, 1 when it does not or the
/// time limit ended the verification first. `--time-limit` is one deadline for the whole
/// command, set before the certificate is read.
pub fn verify_bound(args: VerifyBoundArgs) -> Result<ExitCode> {
    // The search below does not poll the interrupt flag and a verdict cut short means
    // nothing, so a signal stops it at once instead of waiting for a second one.
    interrupt::exit_on_first_signal();
    let deadline = microagg::certificate::deadline_in(args.time_limit);
    let path = &args.certificate;
    let file = path.display().to_string();
    // A Lagrangian, branch-and-price or weighted certificate (by its format tag); any of
    // them may be gzip-compressed.
    let text = microagg::certificate::read_text(path)?;
    let format = microagg::certificate::format_of(&text, &file)?;
    if format == microagg::bound::weighted_certificate::FORMAT {
        return verify_weighted(&args, &text, deadline);
    }
    let bnp_cert = (format == microagg::bnp_certificate::FORMAT)
        .then(|| microagg::bnp_certificate::BnpCertificate::parse(&text, &file))
        .transpose()?;
    let cert = bnp_cert
        .is_none()
        .then(|| microagg::certificate::BoundCertificate::parse(&text, &file))
        .transpose()?;
    drop(text);
    let data = &args.data;
    let inst = data.load()?;
    inst.check_k(data.k)?;
    // The labels are checked before the long search, so a bad file costs no wait.
    let labels = match &args.labels {
        Some(p) => Some(microagg::certificate::labels_upper(
            &inst,
            data.k,
            &labels::read_labels(p)?,
            p,
        )?),
        None => None,
    };
    let start = std::time::Instant::now();
    let v = match (&cert, &bnp_cert) {
        (_, Some(c)) => microagg::bnp_certificate::verify(c, &inst, data.k, deadline)?,
        (Some(c), _) => microagg::certificate::verify(c, &inst, data.k, deadline)?,
        _ => unreachable!("one certificate was read"),
    };
    let seconds = start.elapsed().as_secs_f64();
    let optimality = labels
        .as_ref()
        .map(|u| microagg::certificate::optimality_of(&v, u));
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
    use microagg::bound::weighted_certificate as wc;
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

/// The k = 10 flags of `bound`: flag, registry key of colgen, and the value given (None:
/// not given). One table for setting them (`bound`) and refusing them (`--weights`).
fn k10_flags(args: &BoundArgs) -> [(&'static str, &'static str, Option<String>); 19] {
    let number = |v: Option<f64>| v.map(|v| v.to_string());
    let flag = |on: bool| on.then(|| "true".to_string());
    [
        ("--nn-ascent", "nn_ascent", number(args.nn_ascent)),
        ("--subgradient", "subgradient", number(args.subgradient)),
        ("--lp-segment", "lp_segment", flag(args.lp_segment)),
        ("--push-project", "push_project", flag(args.push_project)),
        (
            "--anchor-threshold",
            "anchor_threshold",
            number(args.anchor_threshold),
        ),
        ("--ipm", "ipm", flag(args.ipm)),
        (
            "--final-fraction",
            "final_fraction",
            number(args.final_fraction),
        ),
        (
            "--certified-smoothing",
            "certified_smoothing",
            flag(args.certified_smoothing),
        ),
        ("--smoothing", "smoothing", number(args.smoothing)),
        (
            "--auto-smoothing",
            "auto_smoothing",
            flag(args.auto_smoothing),
        ),
        ("--stop-early", "stop_early", flag(args.stop_early)),
        ("--tighten", "tighten_fraction", number(args.tighten)),
        ("--slack-push", "slack_push", number(args.slack_push)),
        ("--pool-master", "pool_master", number(args.pool_master)),
        (
            "--pool-master-moving-centre",
            "pool_master_moving_centre",
            flag(args.pool_master_moving_centre),
        ),
        ("--lp-projection", "lp_projection", flag(args.lp_projection)),
        ("--box-width", "box_width", number(args.box_width)),
        ("--master-upper", "master_upper", number(args.master_upper)),
        (
            "--max-iterations",
            "max_iterations",
            args.max_iterations.map(|v| v.to_string()),
        ),
    ]
}

/// `microagg bound --weights W` (nn, P41; colgen, P43, with `--start` and `--certificate`)
/// on the weighted SSE ([`microagg::bound::weighted`]). colgen-cuts and bnp have no weighted
/// version; the options without a weighted meaning (cuts, the k = 10 helpers, labels out,
/// and --start / --certificate for nn) are refused with `--weights`, never ignored.
fn bound_weighted(args: &BoundArgs) -> Result<ExitCode> {
    microagg::bound::weighted::check_weighted_name(&args.method)?;
    let colgen = args.method == "colgen";
    let mut unused = vec![
        ("--start", args.start.is_some() && !colgen),
        ("--certificate", args.certificate.is_some() && !colgen),
        ("--cuts", args.cuts.is_some()),
        ("--progress", args.progress),
        ("--max-nodes", args.max_nodes.is_some()),
        ("--max-cuts", args.max_cuts.is_some()),
        ("--rank1-cuts", args.rank1_cuts),
        ("--big-cuts", args.big_cuts.is_some()),
        ("--count-row", args.count_row),
    ];
    unused.extend(k10_flags(args).map(|(flag, _, value)| (flag, value.is_some())));
    unused.push(("--labels-out", args.labels_out.is_some()));
    if let Some((option, _)) = unused.iter().find(|(_, given)| *given) {
        return Err(Error::usage(format!(
            "{option} does not apply to the weighted {} bound (bound --weights): it has no \
             weighted version",
            args.method
        )));
    }
    if let Some(path) = &args.certificate {
        check_destination("--certificate", path)?;
    }
    output::check_json_report(args.json)?;
    let start = args
        .start
        .as_deref()
        .map(microagg::labels::read_labels)
        .transpose()?;
    let inst = args.data.load_weighted()?;
    let k = args.data.k;
    let b = if colgen {
        let (b, cert) = microagg::bound::weighted::weighted_colgen(
            &inst,
            k,
            args.time_limit,
            start.as_deref(),
            interrupt::flag(),
        )?;
        if let Some(path) = &args.certificate {
            let cert = cert.map_err(|why| Error::usage(format!("--certificate: {why}")))?;
            cert.write(path)?;
            eprintln!(
                "certificate of the weighted Lagrangian bound {:.12e} written to {}",
                cert.lower_bound,
                path.display()
            );
        }
        b
    } else {
        microagg::bound::weighted::weighted_nn(&inst, k, interrupt::flag())?
    };
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
            microagg::render::round_trip(w.total),
            microagg::render::decimal(sst, 6)
        ))?;
    }
    Ok(super::finished_status())
}
