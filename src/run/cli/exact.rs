//! # `microagg solve-exact`
//!
//! The exact optimum of a small instance from [`crate::exact::solve_from_mdav`], with
//! its proof status (`proofs/P12`), as text or JSON; optionally its labels. With `--weights`
//! the weighted subset DP (n <= 20), the only method with a weighted version.
//!
//! ## Complexity
//! That of the exact method (exponential in n; the weighted DP O(2^n n)).
//!
//! ## References
//! Held, M. and Karp, R. M. (1962). J. SIAM 10(1), 196-210 (the subset DP).

use super::data::DataArgs;
use super::run::RunOutputs;
use super::values::{self, ExactChoice};
use crate::error::{Error, Result};
use crate::exact::ExactParams;
use crate::interrupt;
use crate::labels;
use crate::output;
use crate::params::{key_values, parse_params};
use crate::progress::Meter;
use crate::render::exact::{exact_json, exact_text, ExactRun};
use microagg_solvers::bnp::BnpOptions;
use serde_json::json;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(clap::Args)]
pub(crate) struct SolveExactArgs {
    #[command(flatten)]
    pub data: DataArgs,
    /// Method: auto (DP for n <= 16, else MIP), subset-dp (n <= 20), set-partitioning,
    /// branch-and-price (any n up to 8000; default time limit 60 s, then the incumbent,
    /// certified bound and gap; proofs/P17).
    #[arg(long, value_enum, default_value = "auto")]
    pub method: ExactChoice,
    /// Wall-clock limit in seconds (set-partitioning; on expiry the best partition found,
    /// never worse than MDAV, is reported with proven_optimal = false, a certified lower
    /// bound and a note).
    #[arg(long, value_parser = values::time_limit)]
    pub time_limit: Option<f64>,
    /// Write one group label per input row, in input order.
    #[arg(long)]
    pub labels_out: Option<PathBuf>,
    /// A parameter, KEY=VALUE (repeatable): mip_solver=NAME solves the set-partitioning
    /// MIPs that are solved once (set-partitioning, branch-and-price) with highs (default),
    /// or cbc, scip, lp-cbc, lp-glpk, lp-gurobi, lp-cplex when this build has them
    /// (docs/developer/models.md).
    #[arg(long = "param", value_name = "KEY=VALUE")]
    pub params: Vec<String>,
    /// Print one JSON object on stdout instead of text.
    #[arg(long)]
    pub json: bool,
    #[command(flatten)]
    pub progress: values::ProgressArgs,
}

/// Refuse a `--labels-out` that would overwrite the input or cannot be written, and
/// `--labels-out -` with `--json` (both on standard output), before the solve (also for `solve-exact --weights`, [`solve_weighted`]).
pub(crate) fn check_outputs(args: &SolveExactArgs) -> Result<()> {
    RunOutputs {
        labels: args.labels_out.clone(),
        masked: None,
        trace: None,
    }
    .check(&args.data)?;
    output::check_json_report(args.json)
}

/// `microagg solve-exact`. With `--weights` only a method with a weighted version runs
/// ([`ExactChoice::has_weighted_version`]: the subset DP), in [`solve_weighted`].
pub fn solve_exact(args: SolveExactArgs) -> Result<ExitCode> {
    if args.data.weights.is_some() {
        return solve_weighted(&args);
    }
    let data = &args.data;
    check_outputs(&args)?;
    let params: ExactParams = parse_params("solve-exact", &key_values("--param", &args.params)?)?;
    let mip_solver = params.solver().map_err(Error::usage)?;
    let inst = data.load()?;
    let Some(method) = args.method.small_method() else {
        let base = BnpOptions {
            mip_solver,
            ..BnpOptions::default()
        };
        crate::bnp::command(
            &inst,
            data.k,
            "solve-exact",
            args.time_limit,
            None,
            args.labels_out.as_deref(),
            args.json,
            &base,
            interrupt::flag(),
        )?;
        return Ok(super::finished_status());
    };
    // The solver reports nothing until it ends: the line shows the time spent, then the
    // optimum (or incumbent) and its bound.
    let meter = Meter::start("solve-exact", inst.sst, args.progress.show());
    meter.status().stage(method.name());
    let (s, seconds) = crate::exact::solve_from_mdav_with(
        &inst,
        data.k,
        method,
        args.time_limit,
        mip_solver,
        interrupt::flag(),
    )?;
    meter.status().best(s.sse);
    meter.status().bound(s.lower_bound);
    meter.finish();
    if let Some(path) = &args.labels_out {
        labels::write_labels(path, &s.labels)?;
    }
    let run = ExactRun {
        inst: &inst,
        k: data.k,
        seconds,
        time_limit: args.time_limit,
        interrupted: interrupt::requested(),
    };
    if args.json {
        output::println(&exact_json(&s, &run))?;
    } else {
        output::println(&exact_text(&s, &run))?;
    }
    // Interrupted: the best partition and bound are out; say so in the exit status.
    Ok(super::finished_status())
}

/// `microagg solve-exact --weights W [--method auto|subset-dp]`: the weighted optimum of a
/// small instance (n <= 20) by the weighted subset DP (`microagg_solvers::exact::dp`),
/// the minimum weighted SSE over **all** partitions into groups of at least k records
/// (weighted centroids; P40 W1(b) keeps the sizes k..2k-1); the DP's tabulated optimum
/// (optimal up to the rounding of the tabulated costs, relative about (n + 3d) 2^-53), not a
/// certified bound. O(2^n n) memory and time (Held & Karp 1962).
fn solve_weighted(args: &SolveExactArgs) -> Result<ExitCode> {
    check_outputs(args)?;
    if !args.params.is_empty() {
        return Err(Error::usage(
            "solve-exact --weights: --param has no meaning for the weighted subset DP (it solves no MIP)",
        ));
    }
    if !args.method.has_weighted_version() {
        return Err(Error::usage(
            "solve-exact --weights: only the subset DP (--method auto or subset-dp, n <= 20) \
             has a weighted version; set-partitioning and branch-and-price price unweighted \
             groups (docs/weights.md)",
        ));
    }
    let data = &args.data;
    let inst = data.load_weighted()?;
    inst.check_k(data.k)?;
    let w = inst.weights.as_ref().expect("loaded with weights");
    let start = std::time::Instant::now();
    let dp =
        microagg_solvers::exact::dp::weighted_subset_dp(&inst.z, inst.n, inst.d, data.k, &w.values)
            .map_err(|e| Error::algorithm("solve-exact (weighted subset DP)", e))?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &args.labels_out {
        labels::write_labels(path, &dp.labels)?;
    }
    let sse = crate::weighted::weighted_sse_of_labels(&inst, &w.values, &dp.labels);
    let sst = crate::weighted::weighted_sst(&inst, &w.values);
    let groups = dp.labels.iter().max().map_or(0, |m| m + 1);
    if args.json {
        let v = json!({
            "instance": inst.name,
            "instance_sha256": inst.sha256,
            "n": inst.n,
            "d": inst.d,
            "k": data.k,
            "method": "weighted-subset-dp",
            "weights": {"column": w.column, "total": w.total},
            "sse_weighted": sse,
            "sst_weighted": sst,
            "il_weighted": 100.0 * sse / sst,
            "dp_value": dp.value,
            "groups": groups,
            "steps": dp.steps,
            "optimal": "weighted optimum over all partitions, up to the rounding of the tabulated group costs",
            "seconds": seconds,
        });
        output::println(&v.to_string())?;
    } else {
        output::println(&format!(
            "weighted subset DP on {} (n={}, d={}), k={}, --weights {}: weighted SSE {} \
             IL_w {:.6} % in {groups} groups (optimal over all partitions up to rounding), \
             {} steps, {seconds:.3} s",
            inst.name,
            inst.n,
            inst.d,
            data.k,
            w.column,
            crate::render::decimal(sse, 6),
            100.0 * sse / sst,
            dp.steps
        ))?;
    }
    Ok(super::finished_status())
}
