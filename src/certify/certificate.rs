//! # Bound certificates anyone can re-check
//!
//! A certificate records what a lower bound rests on, so that the bound can be recomputed
//! without the solver that found it: for the column generation (Lagrangian) bound, the duals
//! `y` (`proofs/P09-lagrangian-bound.md` Part A holds for every `y`) with the instance's
//! sha256, n, d, k and the claimed value. [`verify`] recomputes the bound from the duals with
//! the solvers crate's own proven pricing and outward rounding
//! ([`microagg_solvers::bounds::verify_lagrangian`], no HiGHS) and accepts the claim when it is
//! at most the recomputed value (`proofs/P13-bound-certificates.md`).
//!
//! With subset-row cuts (`bound --cuts`, `proofs/P14-subset-row-cuts.md`) the certificate
//! also lists each cut's three records and its dual `sigma <= 0`; the bound is then
//! `sum y + sum sigma + floor(n/k) min(0, R)` with `R` proven for the reduced cost with the
//! cut penalties ([`microagg_solvers::bounds::verify_lagrangian_cuts`]).
//!
//! The file is JSON (`format = "microagg-bound-certificate/1"` without cuts, `/2` with
//! them; version 1 files are read as before); numbers are written with round-trip precision,
//! so the duals read back are the duals written.
//!
//! ## Complexity
//! Writing and reading: O(n). Verifying: one exact pricing pass (see `verify_lagrangian`).
//!
//! ## References
//! - Neumaier, A. and Shcherbina, O. (2004). Safe bounds in linear and mixed-integer linear
//!   programming. Math. Program. 99, 283-296.

use crate::data::Instance;
use crate::error::{Error, Result};
use crate::render::round_trip;
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::time::{Duration, Instant};

mod container;
pub(crate) mod weighted;
pub use container::{format_of, read_text, write_text, MAX_TEXT_BYTES};

/// The format tag of version 1 (no cuts).
pub const FORMAT: &str = "microagg-bound-certificate/1";

/// The format tag of version 2 (with subset-row cuts).
pub(crate) const FORMAT_CUTS: &str = "microagg-bound-certificate/2";

/// A subset-row cut of a certificate: three distinct records (0-based input rows) and the
/// cut row's dual (`<= 0`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CertificateCut {
    pub records: [u32; 3],
    pub dual: f64,
}

/// A Lagrangian bound certificate.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BoundCertificate {
    /// [`FORMAT`], or `FORMAT_CUTS` when `cuts` is not empty.
    pub format: String,
    /// The kind of bound: `"lagrangian"` (duals over all groups of k..2k-1 records).
    pub kind: String,
    /// Instance name (informative).
    pub instance: String,
    /// sha256 of the instance as loaded (must match the data it is verified against).
    pub instance_sha256: String,
    pub n: usize,
    pub d: usize,
    pub k: usize,
    /// The claimed lower bound on the optimal SSE (z-scored data).
    pub lower_bound: f64,
    /// One dual per record.
    pub duals: Vec<f64>,
    /// Subset-row cuts with their duals (format 2 only; absent in format 1).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub cuts: Vec<CertificateCut>,
    /// Anchor threshold `tau <= 0` of the medoid-anchored bound (proofs/P20; absent or 0:
    /// exact per-anchor minima). Any `tau <= 0` proves a valid bound; a negative one makes
    /// the verifier's search much faster at duals where many groups are near 0.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub anchor_threshold: f64,
    /// Program and method that wrote it (informative).
    pub produced_by: String,
}

/// The verdict of [`verify`].
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Verdict {
    /// The claim holds: `claimed <= recomputed`.
    pub valid: bool,
    pub claimed: f64,
    /// The bound the duals prove, recomputed here (rounded outward).
    pub recomputed: f64,
    /// The pricing search finished (else `recomputed` is a weaker, still valid bound).
    pub pricing_exact: bool,
    /// The claim is not valid because the time limit cut the verification: not verified
    /// within the limit, rather than proven not to hold (`reason` says what was reached).
    pub time_limit_reached: bool,
    /// Pricing nodes explored.
    pub nodes: u64,
    /// Why the certificate was rejected, if it was.
    pub reason: Option<String>,
}

impl Verdict {
    /// The verdict on `claimed` from the bound `recomputed` that a verification proved
    /// (`exact`: no search was cut), with `why` the reason of a rejection that the time limit
    /// did not cause. A claim above the bound of a verification cut by `deadline` was not
    /// verified within the time limit.
    pub(crate) fn on_claim(
        claimed: f64,
        recomputed: f64,
        exact: bool,
        nodes: u64,
        deadline: Option<Instant>,
        why: impl FnOnce() -> String,
    ) -> Verdict {
        let valid = claimed <= recomputed;
        let time_limit_reached = !valid && !exact && past(deadline);
        Verdict {
            valid,
            claimed,
            recomputed,
            pricing_exact: exact,
            time_limit_reached,
            nodes,
            reason: (!valid).then(|| {
                if time_limit_reached {
                    format!(
                        "the searches cut by the limit prove {}, less than the claimed {}",
                        round_trip(recomputed),
                        round_trip(claimed)
                    )
                } else {
                    why()
                }
            }),
        }
    }
}

/// Whether `deadline` (None: no limit) has passed.
pub(crate) fn past(deadline: Option<Instant>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
}

/// The deadline `seconds` from now (None: no limit).
pub(crate) fn deadline_in(seconds: Option<f64>) -> Option<Instant> {
    seconds.map(|s| Instant::now() + Duration::from_secs_f64(s.clamp(0.0, 1e9)))
}

/// What a labels file says before a bound is known (`verify-bound --labels`, proofs/P12):
/// checked before the verification, so a bad file is refused before the long search.
#[derive(Debug, Clone)]
pub struct LabelsUpper {
    /// The labels file.
    pub labels: String,
    /// The labels' SSE (two-pass, as `check` reports it).
    pub sse: f64,
    /// A certified upper bound on the labels' exact SSE (pairwise form, rounded outward).
    pub sse_upper: f64,
}

/// What a verified bound says of a labelling (`verify-bound --labels`, proofs/P12).
#[derive(Debug, Clone, Serialize)]
pub struct OptimalityCheck {
    /// The labels file.
    pub labels: String,
    /// The labels' SSE (two-pass, as `check` reports it).
    pub sse: f64,
    /// A certified upper bound on the labels' exact SSE (pairwise form, rounded outward).
    pub sse_upper: f64,
    /// `(sse_upper - bound) / sse_upper` with the recomputed bound (0 when both are 0).
    pub relative_gap: f64,
    /// The verdict is valid and its recomputed bound is at least `(1 - 1e-9) sse_upper`: no
    /// partition has an SSE below the labels' by more than that relative amount.
    pub proven_optimal: bool,
}

/// Check `labels` (one per record, every group of at least `k` records; an error otherwise,
/// naming the file `path`) and bound their exact SSE from above.
pub fn labels_upper(
    inst: &Instance,
    k: usize,
    labels: &[usize],
    path: &std::path::Path,
) -> Result<LabelsUpper> {
    let file = path.display().to_string();
    let report = crate::labels::check_labels(inst, k, labels)
        .map_err(|e| Error::Infeasible(format!("{file}: {e}")))?;
    if !report.feasible {
        let (label, size) = report.undersized[0];
        return Err(Error::Infeasible(format!(
            "{file}: group {label} has {size} records, fewer than k = {k} ({} such groups)",
            report.undersized_groups
        )));
    }
    // Dense group indices for the certified sum (labels may be any numbers).
    let mut index = std::collections::BTreeMap::new();
    let dense: Vec<usize> = labels
        .iter()
        .map(|&l| {
            let next = index.len();
            *index.entry(l).or_insert(next)
        })
        .collect();
    Ok(LabelsUpper {
        labels: file,
        sse: report.sse,
        sse_upper: microagg_solvers::exact::partition_sse_upper(&inst.z, inst.d, &dense),
    })
}

/// What the bound recomputed in `v` says of the labels checked in `upper`.
pub fn optimality_of(v: &Verdict, upper: &LabelsUpper) -> OptimalityCheck {
    let (bound, sse_upper) = (v.recomputed, upper.sse_upper);
    let relative_gap = if sse_upper > 0.0 {
        (sse_upper - bound) / sse_upper
    } else {
        0.0
    };
    OptimalityCheck {
        labels: upper.labels.clone(),
        sse: upper.sse,
        sse_upper,
        relative_gap,
        proven_optimal: v.valid && microagg_solvers::exact::is_proven(bound, sse_upper),
    }
}

fn is_zero(v: &f64) -> bool {
    *v == 0.0
}

impl BoundCertificate {
    /// A Lagrangian certificate for `inst`, `k`, duals `y` and the claimed bound.
    pub fn lagrangian(inst: &Instance, k: usize, lower_bound: f64, duals: Vec<f64>) -> Self {
        Self::lagrangian_with_cuts(inst, k, lower_bound, duals, &[], &[])
    }

    /// A Lagrangian certificate with subset-row cuts `triples` and their duals `sigma`
    /// (format 2; without cuts, format 1 as [`BoundCertificate::lagrangian`]).
    pub(crate) fn lagrangian_with_cuts(
        inst: &Instance,
        k: usize,
        lower_bound: f64,
        duals: Vec<f64>,
        triples: &[[u32; 3]],
        sigma: &[f64],
    ) -> Self {
        let cuts: Vec<CertificateCut> = triples
            .iter()
            .zip(sigma)
            .map(|(&records, &dual)| CertificateCut { records, dual })
            .collect();
        BoundCertificate {
            format: if cuts.is_empty() { FORMAT } else { FORMAT_CUTS }.into(),
            kind: "lagrangian".into(),
            instance: inst.name.clone(),
            instance_sha256: inst.sha256.clone(),
            n: inst.n,
            d: inst.d,
            k,
            lower_bound,
            duals,
            cuts,
            anchor_threshold: 0.0,
            produced_by: format!("microagg {} colgen", env!("CARGO_PKG_VERSION")),
        }
    }

    /// The same certificate resting on the anchored bound at threshold `tau <= 0`
    /// (proofs/P20).
    pub fn with_anchor_threshold(mut self, tau: f64) -> Self {
        self.anchor_threshold = tau;
        self
    }

    /// Write as JSON (`write_pretty`).
    pub fn write(&self, path: &Path) -> Result<()> {
        write_pretty(path, self)
    }

    /// Read and check the shape (format, kind, one finite dual per record).
    pub fn read(path: &Path) -> Result<Self> {
        Self::parse(&read_text(path)?, &path.display().to_string())
    }

    /// Parse certificate `text` (from `file`) and check the shape as [`Self::read`].
    pub fn parse(text: &str, file: &str) -> Result<Self> {
        let bad = shape_error(file);
        let c: BoundCertificate =
            serde_json::from_str(text).map_err(|e| bad(format!("not a bound certificate: {e}")))?;
        if c.format != FORMAT && c.format != FORMAT_CUTS {
            return Err(bad(format!(
                "field 'format' is '{}', expected '{FORMAT}' or '{FORMAT_CUTS}'",
                c.format
            )));
        }
        if c.format == FORMAT && !c.cuts.is_empty() {
            return Err(bad(format!("field 'cuts' in a '{FORMAT}' certificate")));
        }
        if c.kind != "lagrangian" {
            return Err(bad(format!(
                "field 'kind' is '{}', expected 'lagrangian'",
                c.kind
            )));
        }
        if let Some(problem) = duals_problem(&c.duals, c.n, c.lower_bound) {
            return Err(bad(problem));
        }
        Ok(c)
    }

    /// Read a certificate that the Lagrangian tools restart from: shape as [`Self::read`],
    /// about `inst` and `k` (`check_instance`) and without cuts (their duals would be
    /// dropped by a restart that prices without them).
    pub fn read_cut_free(path: &Path, inst: &Instance, k: usize) -> Result<Self> {
        let c = Self::read(path)?;
        check_instance(&c.instance_sha256, c.n, c.d, c.k, inst, k)?;
        if !c.cuts.is_empty() {
            return Err(Error::Data {
                file: path.display().to_string(),
                location: "certificate".into(),
                message: format!(
                    "{} subset-row cuts; a cut-free Lagrangian certificate is needed",
                    c.cuts.len()
                ),
            });
        }
        Ok(c)
    }
}

/// Write `cert` as indented JSON and a newline ([`write_text`]: gzip-compressed when `path`
/// ends in `.gz`, written atomically).
pub(crate) fn write_pretty(path: &Path, cert: &impl Serialize) -> Result<()> {
    let text = serde_json::to_string_pretty(cert).expect("a certificate serialises");
    write_text(path, &(text + "\n"))
}

/// The error of a certificate file `file` whose shape is wrong, saying what is wrong.
pub(crate) fn shape_error(file: &str) -> impl Fn(String) -> Error + '_ {
    move |message| Error::Data {
        file: file.to_string(),
        location: "certificate".into(),
        message,
    }
}

/// What is wrong with a certificate's format tag `found` when `expected` is the one format
/// it may have, if anything.
pub(crate) fn format_problem(found: &str, expected: &str) -> Option<String> {
    (found != expected).then(|| format!("field 'format' is '{found}', expected '{expected}'"))
}

/// Why a claim fails when the duals prove only `proved` (both rounded to round-trip
/// precision).
pub(crate) fn duals_fall_short(proved: f64, claimed: f64) -> String {
    format!(
        "the duals prove {}, less than the claimed {}",
        round_trip(proved),
        round_trip(claimed),
    )
}

/// What is wrong with a Lagrangian certificate's duals and claim, if anything: it needs one
/// finite dual per record (`n`) and a finite claimed `lower_bound`.
pub(crate) fn duals_problem(duals: &[f64], n: usize, lower_bound: f64) -> Option<String> {
    if duals.len() != n {
        return Some(format!("{} duals for n = {n}", duals.len()));
    }
    if let Some(i) = duals.iter().position(|v| !v.is_finite()) {
        return Some(format!("dual {i} is not finite"));
    }
    if !lower_bound.is_finite() {
        return Some("the claimed bound is not finite".into());
    }
    None
}

/// Check that a certificate for (`sha256`, `n`, `d`, `k`) is about `inst` and `--k k`.
pub(crate) fn check_instance(
    sha256: &str,
    n: usize,
    d: usize,
    cert_k: usize,
    inst: &Instance,
    k: usize,
) -> Result<()> {
    let mismatch = [
        (sha256 != inst.sha256).then(|| {
            format!(
                "instance sha256 {} does not match the certificate's {sha256}",
                inst.sha256
            )
        }),
        (n != inst.n || d != inst.d).then(|| {
            format!(
                "data have n = {}, d = {}; the certificate n = {n}, d = {d}",
                inst.n, inst.d
            )
        }),
        (cert_k != k).then(|| format!("--k {k}, but the certificate is for k = {cert_k}")),
    ]
    .into_iter()
    .flatten()
    .next();
    match mismatch {
        Some(m) => Err(Error::usage(m)),
        None => Ok(()),
    }
}

/// Check `cert` against `inst` and `k`: the instance must be the one certified (sha256, n,
/// d, k); then the bound is recomputed from the duals and the claim accepted when it is at
/// most the recomputed value. `deadline` ends every pricing search (one deadline for all; a
/// cut search gives a weaker bound, and a claim it does not reach is reported as not
/// verified within the time limit).
pub fn verify(
    cert: &BoundCertificate,
    inst: &Instance,
    k: usize,
    deadline: Option<Instant>,
) -> Result<Verdict> {
    check_instance(&cert.instance_sha256, cert.n, cert.d, cert.k, inst, k)?;
    let triples: Vec<[u32; 3]> = cert.cuts.iter().map(|c| c.records).collect();
    let sigma: Vec<f64> = cert.cuts.iter().map(|c| c.dual).collect();
    if !cert.anchor_threshold.is_finite() || cert.anchor_threshold > 0.0 {
        return Err(Error::usage(format!(
            "anchor_threshold {} in the certificate: must be finite and <= 0",
            round_trip(cert.anchor_threshold)
        )));
    }
    let solver = |e| Error::algorithm("verify-bound", e);
    let (z, n, d) = (&inst.z, inst.n, inst.d);
    // With a threshold the claim rests on the anchored bound: no plain search first.
    let plain = if cert.anchor_threshold < 0.0 {
        None
    } else {
        Some(
            microagg_solvers::bounds::verify_lagrangian_cuts(
                z,
                n,
                d,
                k,
                &cert.duals,
                &triples,
                &sigma,
                deadline,
            )
            .map_err(solver)?,
        )
    };
    let v = match plain {
        Some(v)
            if !(cert.lower_bound > v.lower_bound && v.lower_bound > f64::NEG_INFINITY)
                || past(deadline) =>
        {
            v
        }
        _ => microagg_solvers::bounds::verify_lagrangian_anchored_claim(
            z,
            n,
            d,
            k,
            &cert.duals,
            &triples,
            &sigma,
            deadline,
            cert.anchor_threshold,
            cert.lower_bound,
        )
        .map_err(solver)?,
    };
    let exact = v.pricing_exact;
    Ok(Verdict::on_claim(
        cert.lower_bound,
        v.lower_bound,
        exact,
        v.nodes,
        deadline,
        || {
            if let Some(j) = sigma.iter().position(|&s| s > 0.0) {
                return format!(
                    "cut {j} has a positive dual {}; the bound needs <= 0",
                    round_trip(sigma[j])
                );
            }
            duals_fall_short(v.lower_bound, cert.lower_bound)
        },
    ))
}
