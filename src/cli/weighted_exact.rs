//! # `microagg solve-exact --weights W`
//!
//! The weighted optimum of a small instance (n <= 20) by the weighted subset DP
//! (`microagg_solvers::exact::dp_weighted`): the minimum weighted SSE over **all**
//! partitions into groups of at least k records (weighted centroids; P40 W1(b) keeps the
//! sizes k..2k-1). Only `--method auto` or `subset-dp`; the set-partitioning MIP and
//! branch-and-price have no weighted version and are refused. The value is the DP's
//! tabulated optimum (optimal up to the rounding of the tabulated costs, relative about
//! (n + 3d) 2^-53), not a certified bound.
//!
//! ## Complexity
//! O(2^n n) memory and time for the tables plus one step per (state, group).
//!
//! ## References
//! Held, M. and Karp, R. M. (1962). J. SIAM 10(1), 196-210.

use super::exact::SolveExactArgs;
use microagg::error::{Error, Result};
use microagg::labels;
use microagg::output;
use serde_json::json;
use std::process::ExitCode;

/// `microagg solve-exact --weights W [--method auto|subset-dp]`.
pub fn solve(args: &SolveExactArgs) -> Result<ExitCode> {
    super::exact::check_outputs(args)?;
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
    let dp = microagg_solvers::exact::dp_weighted::weighted_subset_dp(
        &inst.z, inst.n, inst.d, data.k, &w.values,
    )
    .map_err(|e| Error::algorithm("solve-exact (weighted subset DP)", e))?;
    let seconds = start.elapsed().as_secs_f64();
    if let Some(path) = &args.labels_out {
        labels::write_labels(path, &dp.labels)?;
    }
    let sse = microagg::weighted::weighted_sse_of_labels(&inst, &w.values, &dp.labels);
    let sst = microagg::weighted::weighted_sst(&inst, &w.values);
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
            "weighted subset DP on {} (n={}, d={}), k={}, --weights {}: weighted SSE {:.6} \
             IL_w {:.6} % in {groups} groups (optimal over all partitions up to rounding), \
             {} steps, {seconds:.3} s",
            inst.name,
            inst.n,
            inst.d,
            data.k,
            w.column,
            sse,
            100.0 * sse / sst,
            dp.steps
        ))?;
    }
    Ok(super::finished_status())
}
