//! # Certificate verification
//!
//! [`verify`]: the checks of the parent module's doc, without HiGHS: the leaves' regions
//! (count ranges and decisions) cover every partition, each leaf's claim holds (its duals' bound over its region, or the nn bound),
//! the enumeration section's claim holds, and the global claim is at most what they prove.

use super::{BnpCertificate, EnumerationCertificate, LeafCertificate, VERIFY_MAX_COLUMNS};
use crate::certificate::{past, Verdict};
use crate::data::Instance;
use crate::error::{Error, Result};
use crate::render::round_trip;
use microagg_solvers::bounds::colgen::cuts::Cut;
use std::time::Instant;

/// Check `cert` against `inst` and `k` (module doc). `deadline` ends the whole verification
/// (one deadline for every leaf's pricing search and the enumeration): a search cut short
/// gives a weaker bound, and a claim it then fails is reported as not verified within the
/// time limit.
pub fn verify(
    cert: &BnpCertificate,
    inst: &Instance,
    k: usize,
    deadline: Option<Instant>,
) -> Result<Verdict> {
    crate::certificate::check_instance(&cert.instance_sha256, cert.n, cert.d, cert.k, inst, k)?;
    let regions: Vec<microagg_solvers::bounds::LeafRegion> = cert
        .leaves
        .iter()
        .map(|l| (l.decisions.clone(), l.count()))
        .collect();
    let mut verdict = Verdict {
        valid: true,
        claimed: cert.lower_bound,
        recomputed: f64::INFINITY,
        pricing_exact: true,
        time_limit_reached: false,
        nodes: 0,
        reason: None,
    };
    if let Err(m) = microagg_solvers::bounds::regions_cover(&regions, inst.n, k) {
        verdict.valid = false;
        verdict.recomputed = f64::NEG_INFINITY;
        verdict.reason = Some(format!("the leaves do not cover every partition: {m}"));
        return Ok(verdict);
    }
    let cuts: Vec<Cut> = cert.cuts.iter().map(|c| c.0).collect();
    let check = Check {
        inst,
        k,
        cuts: &cuts,
        deadline,
    };
    // The nn bound (P06), computed once if a leaf rests on it.
    let mut nn: Option<f64> = None;
    for (j, leaf) in cert.leaves.iter().enumerate() {
        if past(deadline) {
            return Ok(not_reached(
                verdict,
                &format!("leaf {j} of {}", cert.leaves.len()),
            ));
        }
        if leaf.nn_bound {
            check.nn_leaf(&mut verdict, &mut nn, j, leaf)?;
        } else {
            check.dual_leaf(&mut verdict, j, leaf)?;
        }
        if !verdict.valid {
            return Ok(verdict);
        }
    }
    let least_claim = cert
        .leaves
        .iter()
        .map(|l| l.lower_bound.unwrap_or(f64::INFINITY))
        .fold(f64::INFINITY, f64::min);
    let mut best_claim = least_claim;
    if let Some(e) = &cert.enumeration {
        if past(deadline) {
            return Ok(not_reached(verdict, "the enumeration"));
        }
        check.enumeration(&mut verdict, e)?;
        if !verdict.valid {
            return Ok(verdict);
        }
        best_claim = best_claim.max(e.lower_bound);
    }
    if cert.lower_bound > best_claim {
        verdict.valid = false;
        verdict.reason = Some(format!(
            "the claimed {} is above the least leaf bound {}{}",
            round_trip(cert.lower_bound),
            round_trip(least_claim),
            if cert.enumeration.is_some() {
                " and the enumeration's claim"
            } else {
                ""
            }
        ));
    }
    Ok(verdict)
}

/// What every part of a certificate is checked against: the data, k, the certificate's cuts
/// and the verification's deadline.
struct Check<'a> {
    inst: &'a Instance,
    k: usize,
    cuts: &'a [Cut],
    deadline: Option<Instant>,
}

impl Check<'_> {
    /// Leaf `j` resting on the nn bound: the bound (computed once, kept in `nn`) must reach
    /// its claim. Marks `verdict` invalid when it does not.
    fn nn_leaf(
        &self,
        verdict: &mut Verdict,
        nn: &mut Option<f64>,
        j: usize,
        leaf: &LeafCertificate,
    ) -> Result<()> {
        let inst = self.inst;
        let nn = match nn {
            Some(v) => *v,
            None => {
                let v = microagg_solvers::bounds::nn_bound(&inst.z, inst.n, inst.d, self.k)
                    .map_err(|e| Error::algorithm("verify-bound", e))?
                    .lower_bound;
                *nn.insert(v)
            }
        };
        let claim = leaf.lower_bound.expect("parse: an nn leaf has a claim");
        verdict.recomputed = verdict.recomputed.min(nn);
        if nn < claim {
            verdict.valid = false;
            verdict.reason = Some(format!(
                "leaf {j}: the nn bound is {}, less than its claimed {}",
                round_trip(nn),
                round_trip(claim)
            ));
        }
        Ok(())
    }

    /// Leaf `j` with duals: the bound they prove over the leaf's region (or, without a
    /// claim, that the region is empty). Marks `verdict` invalid when the claim fails.
    fn dual_leaf(&self, verdict: &mut Verdict, j: usize, leaf: &LeafCertificate) -> Result<()> {
        let inst = self.inst;
        let m = leaf.cut_duals.len();
        let v = microagg_solvers::bounds::verify_node_bound(
            &inst.z,
            inst.n,
            inst.d,
            self.k,
            if leaf.lower_bound.is_some() {
                &leaf.duals
            } else {
                // An empty region needs no duals; zeros only feed the input checks.
                &[]
            },
            &self.cuts[..m],
            &leaf.cut_duals,
            &leaf.decisions,
            leaf.count(),
            self.deadline,
        );
        let v = match (leaf.lower_bound, v) {
            (None, Err(_)) => {
                // No duals given: only an empty region can stand without them.
                verdict.valid = false;
                verdict.reason = Some(format!(
                    "leaf {j} claims an empty region, but its decisions leave partitions"
                ));
                verdict.recomputed = f64::NEG_INFINITY;
                return Ok(());
            }
            (_, v) => v.map_err(|e| Error::algorithm("verify-bound", e))?,
        };
        verdict.nodes += v.nodes;
        verdict.pricing_exact &= v.pricing_exact;
        let claim = leaf.lower_bound.unwrap_or(f64::INFINITY);
        if v.lower_bound < claim {
            verdict.valid = false;
            verdict.time_limit_reached = !v.pricing_exact && past(self.deadline);
            verdict.reason = Some(if claim.is_infinite() {
                format!("leaf {j} claims an empty region, but its decisions leave partitions")
            } else {
                format!(
                    "leaf {j}: the duals prove {}{}, less than its claimed {}",
                    round_trip(v.lower_bound),
                    if v.pricing_exact {
                        ""
                    } else {
                        " (the search cut by the time limit)"
                    },
                    round_trip(claim),
                )
            });
        }
        verdict.recomputed = verdict.recomputed.min(v.lower_bound);
        Ok(())
    }

    /// The enumeration (P19): repeat it and the pool search (the pool capped for memory);
    /// its bound must reach its claim. Marks `verdict` invalid when it does not.
    fn enumeration(&self, verdict: &mut Verdict, e: &EnumerationCertificate) -> Result<()> {
        let inst = self.inst;
        if let Err(m) = microagg_solvers::bounds::colgen::start_groups(&e.labels, inst.n, self.k) {
            verdict.valid = false;
            verdict.recomputed = f64::NEG_INFINITY;
            verdict.reason = Some(format!("enumeration: labels: {m}"));
            return Ok(());
        }
        let opts = microagg_solvers::bnp::EnumerationOptions {
            max_columns: VERIFY_MAX_COLUMNS,
            max_nodes: u64::MAX,
            time_limit: self.deadline.map_or(1e9, |t| {
                t.saturating_duration_since(Instant::now()).as_secs_f64()
            }),
        };
        let p = microagg_solvers::bnp::prove_by_enumeration(
            &inst.z,
            inst.n,
            inst.d,
            self.k,
            &e.labels,
            &e.duals,
            &self.cuts[..e.cut_duals.len()],
            &e.cut_duals,
            &opts,
            &mut |_| {},
        )
        .map_err(|err| Error::algorithm("verify-bound", err))?;
        verdict.pricing_exact &= p.enumeration_complete;
        verdict.nodes += p.search.as_ref().map_or(0, |s| s.nodes);
        if p.lower_bound < e.lower_bound {
            let complete = p.search.as_ref().is_some_and(|s| s.complete);
            verdict.valid = false;
            verdict.time_limit_reached = !complete && past(self.deadline);
            verdict.reason = Some(format!(
                "enumeration: the duals and labels prove {}, less than its claimed {}{}",
                round_trip(p.lower_bound),
                round_trip(e.lower_bound),
                if complete {
                    ""
                } else {
                    " (the enumeration or the pool search did not complete)"
                }
            ));
            return Ok(());
        }
        verdict.recomputed = verdict.recomputed.max(p.lower_bound);
        Ok(())
    }
}

/// The verdict of a verification that the deadline stopped before `part`: nothing proven for
/// the whole tree.
fn not_reached(verdict: Verdict, part: &str) -> Verdict {
    Verdict {
        valid: false,
        recomputed: f64::NEG_INFINITY,
        pricing_exact: false,
        time_limit_reached: true,
        reason: Some(format!("the limit came before {part} was checked")),
        ..verdict
    }
}
