//! # `microagg bound --weights W`
//!
//! The weighted nearest-neighbour bound on the weighted SSE ([`microagg::bound::weighted`],
//! proofs/P41-weighted-nn-bound.md). Only `--method nn` has a weighted version; the options
//! of colgen and bnp (start labels, certificates, cuts, the k = 10 helpers, labels out) are
//! refused with `--weights`, never ignored.
//!
//! ## Complexity
//! That of [`microagg::bound::weighted::weighted_nn`].
//!
//! ## References
//! None.

use super::bound::BoundArgs;
use microagg::error::{Error, Result};
use microagg::interrupt;
use microagg::output;
use microagg::render::bound as render;
use std::process::ExitCode;

/// `microagg bound --weights W [--method nn]`.
pub fn bound(args: &BoundArgs) -> Result<ExitCode> {
    microagg::bound::weighted::check_weighted_name(&args.method)?;
    let unused = [
        ("--start", args.start.is_some()),
        ("--certificate", args.certificate.is_some()),
        ("--cuts", args.cuts.is_some()),
        ("--progress", args.progress),
        ("--max-nodes", args.max_nodes.is_some()),
        ("--max-cuts", args.max_cuts.is_some()),
        ("--nn-ascent", args.nn_ascent.is_some()),
        ("--subgradient", args.subgradient.is_some()),
        ("--lp-segment", args.lp_segment),
        ("--anchor-threshold", args.anchor_threshold.is_some()),
        ("--ipm", args.ipm),
        ("--final-fraction", args.final_fraction.is_some()),
        ("--labels-out", args.labels_out.is_some()),
    ];
    if let Some((option, _)) = unused.iter().find(|(_, given)| *given) {
        return Err(Error::usage(format!(
            "{option} does not apply to the weighted nn bound (bound --weights): it is an \
             option of colgen or bnp, which have no weighted version"
        )));
    }
    let inst = args.data.load_weighted()?;
    let k = args.data.k;
    let b = microagg::bound::weighted::weighted_nn(&inst, k, interrupt::flag())?;
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
            "{} (weighted SSE, --weights {}, total {}; weighted SST {:.6})",
            render::bound_text(&b, &inst, k),
            w.column,
            w.total,
            sst
        ))?;
    }
    Ok(super::finished_status())
}
