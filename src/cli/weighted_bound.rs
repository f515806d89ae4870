//! # `microagg bound --weights W`
//!
//! The weighted nearest-neighbour bound (`--method nn`, proofs/P41-weighted-nn-bound.md)
//! and the weighted column generation bound (`--method colgen`, proofs/P43, with
//! `--start` and `--certificate`) on the weighted SSE ([`microagg::bound::weighted`]).
//! colgen-cuts and bnp have no weighted version; the options without a weighted meaning
//! (cuts, the k = 10 helpers, labels out, and --start / --certificate for nn) are refused
//! with `--weights`, never ignored.
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
    let colgen = args.method == "colgen";
    let unused = [
        ("--start", args.start.is_some() && !colgen),
        ("--certificate", args.certificate.is_some() && !colgen),
        ("--cuts", args.cuts.is_some()),
        ("--progress", args.progress),
        ("--max-nodes", args.max_nodes.is_some()),
        ("--max-cuts", args.max_cuts.is_some()),
        ("--rank1-cuts", args.rank1_cuts),
        ("--nn-ascent", args.nn_ascent.is_some()),
        ("--subgradient", args.subgradient.is_some()),
        ("--lp-segment", args.lp_segment),
        ("--anchor-threshold", args.anchor_threshold.is_some()),
        ("--ipm", args.ipm),
        ("--final-fraction", args.final_fraction.is_some()),
        ("--certified-smoothing", args.certified_smoothing),
        ("--smoothing", args.smoothing.is_some()),
        ("--auto-smoothing", args.auto_smoothing),
        ("--labels-out", args.labels_out.is_some()),
    ];
    if let Some((option, _)) = unused.iter().find(|(_, given)| *given) {
        return Err(Error::usage(format!(
            "{option} does not apply to the weighted {} bound (bound --weights): it has no \
             weighted version",
            args.method
        )));
    }
    if let Some(path) = &args.certificate {
        super::bound::check_destination("--certificate", path)?;
    }
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
            "{} (weighted SSE, --weights {}, total {}; weighted SST {:.6})",
            render::bound_text(&b, &inst, k),
            w.column,
            w.total,
            sst
        ))?;
    }
    Ok(super::finished_status())
}
