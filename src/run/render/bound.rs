//! # Bound and verification records
//!
//! What `microagg bound` and `microagg verify-bound` print: the [`BoundOutcome`] with the
//! instance it is for (`bound_json`, `bound_text`) and the verdict of a certificate check
//! (`verdict_json`, `verdict_text`).
//!
//! ## Complexity
//! Linear in the bound's details.
//!
//! ## References
//! None.

use crate::bound::{BestPartition, BoundOutcome};
use crate::certificate::Verdict;
use crate::data::Instance;
use std::path::Path;

/// `bound --json`: the outcome's fields with the instance's identity, k and SST.
pub fn bound_json(b: &BoundOutcome, inst: &Instance, k: usize) -> String {
    let mut v = serde_json::to_value(b).expect("bound serialises");
    let o = v.as_object_mut().expect("an object");
    o.insert("instance".into(), inst.name.clone().into());
    o.insert("instance_sha256".into(), inst.sha256.clone().into());
    o.insert("n".into(), inst.n.into());
    o.insert("d".into(), inst.d.into());
    o.insert("k".into(), k.into());
    o.insert("sst".into(), inst.sst.into());
    serde_json::to_string(&v).expect("bound serialises")
}

/// The one-line text form of a bound, and a second line with colgen's `--master-upper`
/// estimate when it was computed.
pub fn bound_text(b: &BoundOutcome, inst: &Instance, k: usize) -> String {
    let mut text = format!(
        "{} bound on {} (n={}, d={}), k={}: SSE >= {}, IL >= {:.6} % ({}certified), {:.3} s",
        b.method,
        inst.name,
        inst.n,
        inst.d,
        k,
        super::decimal(b.lower_bound, 6),
        b.il_lower_bound,
        if b.certified { "" } else { "not " },
        b.seconds
    );
    if b.interrupted {
        text.push_str(&format!(
            " (interrupted by {}: best certified bound so far)",
            crate::interrupt::signal_name()
        ));
    }
    if let Some(p) = &b.best_partition {
        text.push_str(&format!("\n{}", best_partition_text(p)));
    }
    // colgen's --master-upper (proofs/P09 Part D): said to be an estimate, on its own line.
    let upper = &b.details["master_upper"];
    if let (Some(v), Some(r)) = (upper["value"].as_f64(), upper["residual"].as_f64()) {
        text.push_str(&format!(
            "\nLP relaxation <= {v:.6} (restricted master without box or cuts; an estimate \
             with HiGHS' tolerance, coverage residual {r:.1e}, not a bound)"
        ));
    }
    text
}

/// The line of the best partition a bound found: its SSE and IL, and its proof of
/// optimality or its gap to the bound.
fn best_partition_text(p: &BestPartition) -> String {
    let status = if p.proven_optimal {
        crate::bound::bnp::PROVEN_OPTIMAL.to_string()
    } else {
        match p.gap_percent {
            Some(g) => format!("gap to the bound {g:.4} %"),
            None => "no gap (the bound is 0)".to_string(),
        }
    };
    format!(
        "best partition found: SSE {}, IL {:.6} %, {status}",
        super::decimal(p.sse, 6),
        p.il
    )
}

/// `verify-bound --json`: the verdict with the certificate file, instance, k and time, and
/// with `--labels` the optimality check under `labels`.
pub(crate) fn verdict_json(
    v: &Verdict,
    path: &Path,
    inst: &Instance,
    k: usize,
    seconds: f64,
    optimality: Option<&crate::certificate::OptimalityCheck>,
) -> String {
    let mut rec = serde_json::to_value(v).expect("verdict serialises");
    rec["certificate"] = path.display().to_string().into();
    rec["instance"] = inst.name.clone().into();
    rec["k"] = k.into();
    rec["seconds"] = seconds.into();
    if let Some(o) = optimality {
        rec["labels"] = serde_json::to_value(o).expect("the check serialises");
    }
    rec.to_string()
}

/// The one-line text form of a verdict.
pub(crate) fn verdict_text(
    v: &Verdict,
    path: &Path,
    inst: &Instance,
    k: usize,
    seconds: f64,
) -> String {
    if v.valid {
        format!(
            "valid: the duals of {} prove SSE >= {:.12e} (claimed {:.12e}) on {} k={}, {:.2} s",
            path.display(),
            v.recomputed,
            v.claimed,
            inst.name,
            k,
            seconds
        )
    } else {
        format!(
            "{}: {} ({} k={})",
            if v.time_limit_reached {
                "NOT VERIFIED within the time limit"
            } else {
                "INVALID"
            },
            v.reason.as_deref().unwrap_or("claim not supported"),
            inst.name,
            k
        )
    }
}

/// The text line of `verify-bound --labels`: the labels' SSE, its certified upper bound, the
/// relative gap to the recomputed bound and the verdict on optimality (proofs/P12).
pub(crate) fn optimality_text(o: &crate::certificate::OptimalityCheck) -> String {
    format!(
        "labels {}: SSE {:.12e} (certified upper bound {:.12e}), gap to the bound {:.3e} \
         relative: {}",
        o.labels,
        o.sse,
        o.sse_upper,
        o.relative_gap,
        if o.proven_optimal {
            "PROVEN OPTIMAL (within the relative gap 1e-9 of proofs/P12)"
        } else {
            "not proven optimal"
        }
    )
}
