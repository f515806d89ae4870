//! # Certificates of the weighted column generation bound
//!
//! `bound --method colgen --weights W --certificate FILE` writes the duals `y` of the best
//! certified weighted Lagrangian value with the instance's sha256, n, d, k, the weights
//! column's name and the sha256 of its values (little-endian `f64` bytes), the anchor
//! threshold `tau <= 0` and the claimed value. `verify-bound --weights W` recomputes the
//! bound from the duals with the exact weighted per-anchor search and outward rounding
//! (`microagg_solvers::bounds::colgen_weighted::verify_weighted_lagrangian`, no HiGHS) and
//! accepts the claim when it is at most the recomputed value (proofs/P43 "Certificates").
//! Other weights (another column, or edited values) are refused; raised duals or a raised
//! claim are rejected by the recomputation itself.
//!
//! ## Complexity
//! Writing and reading O(n); verifying one exact weighted pricing pass.
//!
//! ## References
//! proofs/P13 (the unweighted certificates), proofs/P43.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::render::round_trip;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

/// The format tag.
pub const FORMAT: &str = "microagg-weighted-bound-certificate/1";

/// A weighted Lagrangian bound certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WeightedCertificate {
    /// [`FORMAT`].
    pub format: String,
    /// `"weighted-lagrangian"`.
    pub kind: String,
    /// Instance name (informative).
    pub instance: String,
    /// sha256 of the instance as loaded.
    pub instance_sha256: String,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// The weights column (`--weights`).
    pub weights: String,
    /// sha256 of the weights' `f64` values, little-endian, in record order.
    pub weights_sha256: String,
    /// The claimed lower bound on the optimal weighted SSE (z-scored data).
    pub lower_bound: f64,
    /// One dual per record.
    pub duals: Vec<f64>,
    /// Threshold `tau <= 0` of the per-anchor search (proofs/P43).
    pub anchor_threshold: f64,
    /// Program that wrote it (informative).
    pub produced_by: String,
}

/// sha256 of weight values (little-endian `f64` bytes, hex).
pub(crate) fn weights_sha256(values: &[f64]) -> String {
    crate::data::instance::sha256_of_values(values)
}

impl WeightedCertificate {
    /// The certificate of `lower_bound` proven by duals `y` at threshold `tau` for `inst`
    /// (which must carry weights) and `k`.
    pub fn new(
        inst: &Instance,
        k: usize,
        lower_bound: f64,
        duals: Vec<f64>,
        tau: f64,
    ) -> Result<Self> {
        let w = inst
            .weights
            .as_ref()
            .ok_or_else(|| Error::usage("a weighted certificate needs --weights"))?;
        Ok(WeightedCertificate {
            format: FORMAT.into(),
            kind: "weighted-lagrangian".into(),
            instance: inst.name.clone(),
            instance_sha256: inst.sha256.clone(),
            n: inst.n,
            d: inst.d,
            k,
            weights: w.column.clone(),
            weights_sha256: weights_sha256(&w.values),
            lower_bound,
            duals,
            anchor_threshold: tau,
            produced_by: format!("microagg {} colgen --weights", env!("CARGO_PKG_VERSION")),
        })
    }

    /// Write as JSON (`crate::certificate::write_pretty`).
    pub fn write(&self, path: &Path) -> Result<()> {
        crate::certificate::write_pretty(path, self)
    }

    /// Parse and check the shape (format, kind, one finite dual per record).
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let bad = crate::certificate::shape_error(file);
        let c: WeightedCertificate = serde_json::from_str(text)
            .map_err(|e| bad(format!("not a weighted bound certificate: {e}")))?;
        if let Some(problem) = crate::certificate::format_problem(&c.format, FORMAT) {
            return Err(bad(problem));
        }
        if c.kind != "weighted-lagrangian" {
            return Err(bad(format!(
                "field 'kind' is '{}', expected 'weighted-lagrangian'",
                c.kind
            )));
        }
        if let Some(problem) = crate::certificate::duals_problem(&c.duals, c.n, c.lower_bound) {
            return Err(bad(problem));
        }
        if !(c.anchor_threshold.is_finite() && c.anchor_threshold <= 0.0) {
            return Err(bad(format!(
                "anchor_threshold {} must be finite and <= 0",
                round_trip(c.anchor_threshold)
            )));
        }
        Ok(c)
    }
}

/// Check `cert` against `inst` (loaded with `--weights`) and `k`, then recompute the bound
/// from its duals and accept the claim when it is at most the recomputed value. `deadline`
/// ends the search (a claim the cut search does not reach is not verified within the time
/// limit).
pub fn verify(
    cert: &WeightedCertificate,
    inst: &Instance,
    k: usize,
    deadline: Option<Instant>,
) -> Result<crate::certificate::Verdict> {
    crate::certificate::check_instance(&cert.instance_sha256, cert.n, cert.d, cert.k, inst, k)?;
    let w = inst.weights.as_ref().ok_or_else(|| {
        Error::usage(format!(
            "the certificate is of a weighted bound (weights column '{}'): give --weights {}",
            cert.weights, cert.weights
        ))
    })?;
    if w.column != cert.weights {
        return Err(Error::usage(format!(
            "--weights {}, but the certificate is for the weights column '{}'",
            w.column, cert.weights
        )));
    }
    let sha = weights_sha256(&w.values);
    if sha != cert.weights_sha256 {
        return Err(Error::usage(format!(
            "the weights of column '{}' (sha256 {sha}) are not those certified ({})",
            w.column, cert.weights_sha256
        )));
    }
    let v = microagg_solvers::bounds::colgen_weighted::verify_weighted_lagrangian(
        &inst.z,
        inst.n,
        inst.d,
        k,
        &w.values,
        &cert.duals,
        cert.anchor_threshold,
        deadline,
    )
    .map_err(|e| Error::algorithm("verify-bound (weighted)", e))?;
    Ok(crate::certificate::Verdict::on_claim(
        cert.lower_bound,
        v.lower_bound,
        v.pricing_exact,
        v.nodes,
        deadline,
        || crate::certificate::duals_fall_short(v.lower_bound, cert.lower_bound),
    ))
}
