//! # Certificates of a run
//!
//! [`BnpCertificate::from_result`]: the certificate of a branch-and-price run, compacted
//! (the parent module's doc says what a leaf resting on the nn bound is).

use super::{BnpCertificate, BnpCut, EnumerationCertificate, LeafCertificate, FORMAT};
use crate::data::Instance;
use crate::error::{Error, Result};
use microagg_solvers::bnp::BnpResult;

impl BnpCertificate {
    /// The certificate of a finished (or stopped) run: its leaves and the least leaf bound
    /// as the claim; a leaf without proving duals rests on the nn bound (module doc). Errors
    /// when a leaf's cuts are not a prefix of the run's cut list.
    pub fn from_result(inst: &Instance, k: usize, r: &BnpResult) -> Result<Self> {
        let mut leaves = Vec::with_capacity(r.leaves.len());
        for (j, leaf) in r.leaves.iter().enumerate() {
            let (min_groups, max_groups) = LeafCertificate::count_fields(leaf.count);
            let cert = match (&leaf.proof, leaf.bound.is_finite()) {
                (_, false) => LeafCertificate {
                    decisions: leaf.decisions.clone(),
                    min_groups,
                    max_groups,
                    lower_bound: None,
                    duals: Vec::new(),
                    cut_duals: Vec::new(),
                    nn_bound: false,
                },
                // Without proving duals a leaf holds the search's start bound, the nn bound
                // (P06), which the verifier recomputes.
                (None, true) => LeafCertificate {
                    decisions: leaf.decisions.clone(),
                    min_groups,
                    max_groups,
                    lower_bound: Some(leaf.bound),
                    duals: Vec::new(),
                    cut_duals: Vec::new(),
                    nn_bound: true,
                },
                (Some(p), true) => {
                    if p.cuts.len() > r.cuts.len() || p.cuts[..] != r.cuts[..p.cuts.len()] {
                        return Err(Error::usage(format!(
                            "leaf {j}'s cuts are not a prefix of the cut list"
                        )));
                    }
                    LeafCertificate {
                        decisions: leaf.decisions.clone(),
                        min_groups,
                        max_groups,
                        lower_bound: Some(leaf.bound),
                        duals: p.y.clone(),
                        cut_duals: p.sigma.clone(),
                        nn_bound: false,
                    }
                }
            };
            leaves.push(cert);
        }
        let least = leaves
            .iter()
            .filter_map(|l| l.lower_bound)
            .fold(f64::INFINITY, f64::min);
        if !least.is_finite() {
            return Err(Error::usage(
                "no leaf with a finite bound (the search proved nothing)".to_string(),
            ));
        }
        let enumeration = match &r.enumeration {
            Some((e, p)) => {
                if p.cuts.len() > r.cuts.len() || p.cuts[..] != r.cuts[..p.cuts.len()] {
                    return Err(Error::usage(
                        "--certificate: the enumeration's cuts are not a prefix of the cut list"
                            .to_string(),
                    ));
                }
                Some(EnumerationCertificate {
                    lower_bound: e.lower_bound,
                    labels: e.labels.clone(),
                    duals: p.y.clone(),
                    cut_duals: p.sigma.clone(),
                })
            }
            None => None,
        };
        let claim = enumeration
            .as_ref()
            .map_or(least, |e| least.max(e.lower_bound));
        Ok(BnpCertificate {
            format: FORMAT.into(),
            instance: inst.name.clone(),
            instance_sha256: inst.sha256.clone(),
            n: inst.n,
            d: inst.d,
            k,
            lower_bound: claim,
            cuts: r.cuts.iter().map(|&c| BnpCut(c)).collect(),
            leaves,
            produced_by: format!("microagg {} bnp", env!("CARGO_PKG_VERSION")),
            enumeration,
        }
        .compact())
    }
}
