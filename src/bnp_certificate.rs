//! # Branch-and-price bound certificates
//!
//! A branch-price-and-cut bound rests on the leaves of its search tree: every partition
//! satisfies the together / apart decisions of exactly one leaf (Ryan-Foster branching splits
//! a region in two), and each leaf's bound is a Lagrangian bound over its region, proven by
//! its record duals `y` and cut duals `sigma <= 0` (proofs/P17, P14). The certificate lists
//! the cuts (record triples, one list for the whole tree), and per leaf its decisions, its
//! claimed bound, its duals and the duals of the first cuts (a leaf's master held a prefix of
//! the cut list); a leaf whose decisions leave no partition has no duals and no bound.
//!
//! [`verify`] checks, without HiGHS (proofs/P18-bnp-certificates.md): the instance (sha256,
//! n, d, k); that the leaves' decision lists form a complete Ryan-Foster tree
//! ([`microagg_solvers::bounds::tree_covers`]); each leaf's bound, recomputed by this crate's
//! own exact pricing restricted to the groups compatible with the decisions and rounded
//! outward ([`microagg_solvers::bounds::verify_node_bound`]), at least its claim (an empty
//! region is recomputed as such); and the global claim at most the least leaf claim. Any
//! failure makes the certificate invalid.
//!
//! An optional `enumeration` section (proofs/P19; older certificates have none and verify
//! as before) carries duals and a partition: [`verify`] repeats the reduced-cost enumeration
//! and the pool search from them (no HiGHS), the section's claim must be at most the bound
//! they prove, and the global claim at most the larger of the least leaf claim and the
//! section's claim.
//!
//! A leaf without proving duals (the search closed the gap with the nn bound, or stopped
//! before a Lagrangian bound there) is written with `"nn_bound": true` and the nn bound as
//! its claim (proofs/P06, valid over every region); [`verify`] recomputes the nn bound. The
//! key is absent from every other leaf, so certificates without such leaves are written as
//! before.
//!
//! The file is JSON (`format = "microagg-bnp-certificate/1"`), numbers with round-trip
//! precision, gzip-compressed when its name ends in `.gz`. [`BnpCertificate::from_result`]
//! writes it compacted ([`BnpCertificate::compact`]), without changing any number: two
//! sibling leaves with the same claim and the same duals (children not yet processed inherit
//! their parent's proof) become their parent, whose region is their union and whose duals
//! prove that claim there; cuts with a zero dual at every leaf are dropped and the others
//! renumbered in order (so each leaf's cuts stay a prefix); trailing zero cut duals are
//! dropped. A zero cut dual contributes nothing to a Lagrangian bound, so every leaf's
//! recomputed bound is unchanged.
//!
//! ## Complexity
//! Writing and reading: O(leaves · n + cuts); compacting: O(leaves² · depth) for the sibling
//! search (each merge restarts it) plus O(leaves · (n + cuts)). Verifying: one exact pricing search per leaf
//! with a nonempty region plus O(total decisions · depth) for the tree.
//!
//! ## References
//! - Ryan, D. M. and Foster, B. A. (1981). An integer programming approach to scheduling. In
//!   Computer Scheduling of Public Transport, North-Holland, 269-280.
//! - Neumaier, A. and Shcherbina, O. (2004). Safe bounds in linear and mixed-integer linear
//!   programming. Math. Program. 99, 283-296.

use crate::certificate::{past, Verdict};
use crate::data::Instance;
use crate::error::{Error, Result};
use crate::render::round_trip;
use microagg_solvers::bnp::BnpResult;
use microagg_solvers::bounds::colgen::cuts::Cut;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::Instant;

mod compact;

/// Most groups the verifier enumerates (about 1 GB; beyond, the enumeration proves nothing).
pub const VERIFY_MAX_COLUMNS: usize = 10_000_000;

/// The format tag.
pub const FORMAT: &str = "microagg-bnp-certificate/1";

/// A cut of a certificate: a rank-1 cut `sum_S floor(p(S ∩ C) / q) x_S <= floor(p(C) / q)`
/// (proofs/P14, P21). In JSON a subset-row triple is the array of its three records (as in
/// every older certificate); any other cut is `{"records": [...], "multipliers": [...],
/// "denominator": q}` (the multiplier of record `records[j]` is `multipliers[j] / q`), with
/// `"rhs": b` added when the right side `b` is above 1 (so cuts with right side 1 are written
/// as before). Parsing checks the shape (2..=32 distinct records, multipliers in `1..q`,
/// `sum >= q`) and that a written right side is `floor(sum / q)` (a lowered one would raise
/// the bound: refused); the verifier checks the records against `n`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "CutJson", into = "CutJson")]
pub struct BnpCut(pub Cut);

impl From<[u32; 3]> for BnpCut {
    fn from(t: [u32; 3]) -> BnpCut {
        BnpCut(Cut::triple(t))
    }
}

impl From<BnpCut> for Cut {
    fn from(c: BnpCut) -> Cut {
        c.0
    }
}

/// The JSON forms of [`BnpCut`].
#[derive(Serialize, Deserialize)]
#[serde(untagged)]
enum CutJson {
    Triple([u32; 3]),
    Rank1 {
        records: Vec<u32>,
        multipliers: Vec<u8>,
        denominator: u8,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        rhs: Option<u32>,
    },
}

impl TryFrom<CutJson> for BnpCut {
    type Error = String;
    fn try_from(j: CutJson) -> std::result::Result<BnpCut, String> {
        match j {
            CutJson::Triple(t) => Cut::new(&t, &[1, 1, 1], 2),
            CutJson::Rank1 {
                records,
                multipliers,
                denominator,
                rhs,
            } => Cut::new(&records, &multipliers, denominator).and_then(|c| match rhs {
                Some(b) if b != u32::from(c.rhs()) => Err(format!(
                    "records {records:?}: right side {b} is not floor(p(C) / q) = {}",
                    c.rhs()
                )),
                _ => Ok(c),
            }),
        }
        .map(BnpCut)
        .map_err(|m| format!("bad cut: {m}"))
    }
}

impl From<BnpCut> for CutJson {
    fn from(c: BnpCut) -> CutJson {
        match c.0.as_triple() {
            Some(t) => CutJson::Triple(t),
            None => CutJson::Rank1 {
                records: c.0.records().to_vec(),
                multipliers: c.0.multipliers().to_vec(),
                denominator: c.0.denominator(),
                rhs: (c.0.rhs() > 1).then(|| u32::from(c.0.rhs())),
            },
        }
    }
}

/// One leaf of the tree.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct LeafCertificate {
    /// Decisions `[a, b, together]` in the order taken (0-based input rows).
    pub decisions: Vec<(u32, u32, bool)>,
    /// The claimed bound over the leaf's region (None: the decisions leave no partition).
    pub lower_bound: Option<f64>,
    /// One dual per record (empty for an empty region).
    #[serde(default)]
    pub duals: Vec<f64>,
    /// Duals (`<= 0`) of the first `cut_duals.len()` cuts of the certificate.
    #[serde(default)]
    pub cut_duals: Vec<f64>,
    /// The claim rests on the nn bound of the whole instance (proofs/P06; no duals): the
    /// search had no Lagrangian bound above it in this region (it closed the gap already, or
    /// was stopped first). Absent (false) in every other leaf, as in older certificates.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub nn_bound: bool,
}

/// A branch-and-price bound certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BnpCertificate {
    /// [`FORMAT`].
    pub format: String,
    /// Instance name (informative).
    pub instance: String,
    /// sha256 of the instance as loaded.
    pub instance_sha256: String,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// The claimed lower bound on the optimal SSE (z-scored data).
    pub lower_bound: f64,
    /// The cuts: subset-row triples `[a, b, c]`, and other rank-1 cuts (proofs/P21) as
    /// `{"records", "multipliers", "denominator"}`, plus `"rhs"` when above 1 ([`BnpCut`]).
    pub cuts: Vec<BnpCut>,
    pub leaves: Vec<LeafCertificate>,
    /// Program and method that wrote it (informative).
    pub produced_by: String,
    /// A proof by reduced-cost enumeration (proofs/P19), absent from older certificates.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enumeration: Option<EnumerationCertificate>,
}

/// The data of a proof by reduced-cost enumeration (proofs/P19): duals, the partition whose
/// SSE sets the threshold, and the claimed bound. [`verify`] repeats the enumeration and the
/// pool search from them.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct EnumerationCertificate {
    /// The claimed lower bound on the optimal SSE.
    pub lower_bound: f64,
    /// Group labels of a feasible partition (its certified SSE is `U`).
    pub labels: Vec<usize>,
    /// One dual per record.
    pub duals: Vec<f64>,
    /// Duals (`<= 0`) of the first `cut_duals.len()` cuts of the certificate.
    pub cut_duals: Vec<f64>,
}

impl BnpCertificate {
    /// The certificate of a finished (or stopped) run: its leaves and the least leaf bound
    /// as the claim; a leaf without proving duals rests on the nn bound (module doc). Errors
    /// when a leaf's cuts are not a prefix of the run's cut list.
    pub fn from_result(inst: &Instance, k: usize, r: &BnpResult) -> Result<Self> {
        let mut leaves = Vec::with_capacity(r.leaves.len());
        for (j, leaf) in r.leaves.iter().enumerate() {
            let cert = match (&leaf.proof, leaf.bound.is_finite()) {
                (_, false) => LeafCertificate {
                    decisions: leaf.decisions.clone(),
                    lower_bound: None,
                    duals: Vec::new(),
                    cut_duals: Vec::new(),
                    nn_bound: false,
                },
                // Without proving duals a leaf holds the search's start bound, the nn bound
                // (P06), which the verifier recomputes.
                (None, true) => LeafCertificate {
                    decisions: leaf.decisions.clone(),
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

    /// Write as JSON ([`crate::output::write_atomic`]), gzip-compressed when `path` ends in
    /// `.gz`.
    pub fn write(&self, path: &Path) -> Result<()> {
        let text = serde_json::to_string(self).expect("a certificate serialises") + "\n";
        crate::output::write_atomic(path, &crate::certificate::gzip_if_named(path, &text))
    }

    /// Read and parse a certificate file (gzipped or not).
    pub fn read(path: &Path) -> Result<Self> {
        Self::parse(
            &crate::certificate::read_text(path)?,
            &path.display().to_string(),
        )
    }

    /// Parse and check the shape (format, lengths, finite numbers).
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let bad = |message: String| Error::Data {
            file: file.to_string(),
            location: "certificate".into(),
            message,
        };
        let c: BnpCertificate =
            serde_json::from_str(text).map_err(|e| bad(format!("not a bnp certificate: {e}")))?;
        if c.format != FORMAT {
            return Err(bad(format!(
                "field 'format' is '{}', expected '{FORMAT}'",
                c.format
            )));
        }
        if !c.lower_bound.is_finite() {
            return Err(bad("the claimed bound is not finite".into()));
        }
        for (j, l) in c.leaves.iter().enumerate() {
            let at = |m: String| bad(format!("leaf {j}: {m}"));
            match l.lower_bound {
                None if !l.duals.is_empty() || !l.cut_duals.is_empty() => {
                    return Err(at("duals given for an empty region".into()))
                }
                None if l.nn_bound => return Err(at("an nn bound for an empty region".into())),
                None => {}
                Some(b) if l.nn_bound => {
                    if !b.is_finite() {
                        return Err(at("the claimed bound is not finite".into()));
                    }
                    if !l.duals.is_empty() || !l.cut_duals.is_empty() {
                        return Err(at("duals given with an nn bound".into()));
                    }
                }
                Some(b) => {
                    if !b.is_finite() {
                        return Err(at("the claimed bound is not finite".into()));
                    }
                    if l.duals.len() != c.n {
                        return Err(at(format!("{} duals for n = {}", l.duals.len(), c.n)));
                    }
                    if l.cut_duals.len() > c.cuts.len() {
                        return Err(at(format!(
                            "{} cut duals for {} cuts",
                            l.cut_duals.len(),
                            c.cuts.len()
                        )));
                    }
                    if l.duals.iter().chain(&l.cut_duals).any(|v| !v.is_finite()) {
                        return Err(at("a dual is not finite".into()));
                    }
                }
            }
        }
        if let Some(e) = &c.enumeration {
            let at = |m: String| bad(format!("enumeration: {m}"));
            if !e.lower_bound.is_finite() {
                return Err(at("the claimed bound is not finite".into()));
            }
            if e.duals.len() != c.n || e.labels.len() != c.n {
                return Err(at(format!(
                    "{} duals and {} labels for n = {}",
                    e.duals.len(),
                    e.labels.len(),
                    c.n
                )));
            }
            if e.cut_duals.len() > c.cuts.len() {
                return Err(at(format!(
                    "{} cut duals for {} cuts",
                    e.cut_duals.len(),
                    c.cuts.len()
                )));
            }
            if e.duals.iter().chain(&e.cut_duals).any(|v| !v.is_finite()) {
                return Err(at("a dual is not finite".into()));
            }
        }
        Ok(c)
    }
}

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
    let decisions: Vec<Vec<(u32, u32, bool)>> =
        cert.leaves.iter().map(|l| l.decisions.clone()).collect();
    let mut verdict = Verdict {
        valid: true,
        claimed: cert.lower_bound,
        recomputed: f64::INFINITY,
        pricing_exact: true,
        time_limit_reached: false,
        nodes: 0,
        reason: None,
    };
    if let Err(m) = microagg_solvers::bounds::tree_covers(&decisions) {
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
