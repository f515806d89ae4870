//! # Checking and accepting results
//!
//! [`verify_certificate`] re-checks a certificate as `verify-bound` does (branch-and-price
//! or Lagrangian, by its format tag); `submit_partition` and `submit_certificate` add a
//! result to a [`Library`] only when it improves the case: a feasible partition with a
//! strictly lower SSE, a valid certificate with a strictly higher claim. Anything else is
//! refused with the reason, and the library is left unchanged.
//!
//! ## Complexity
//! A partition: O(n d). A certificate: one verification (seconds to minutes).

use super::{instance_key, key, Library, Provenance, StoredBound, StoredPartition, Verified};
use crate::certificate::Verdict;
use crate::data::Instance;
use crate::error::{Error, Result};
use std::path::Path;

/// How the instance of a submission was loaded (stored so that `verify` can load it again).
pub(crate) struct DataSource<'a> {
    /// The `--data` argument.
    pub data: &'a str,
    /// The `--columns` choice (empty: the default).
    pub columns: &'a [String],
}

/// A file offered to the library for (`inst`, `k`), with how the data were loaded and where
/// the file comes from. The caller has checked `k` on `inst`.
pub(crate) struct Submission<'a> {
    pub inst: &'a Instance,
    pub source: DataSource<'a>,
    pub k: usize,
    /// The labels file or certificate.
    pub path: &'a Path,
    pub provenance: Provenance,
}

/// Re-check a certificate file for (`inst`, k), as `verify-bound` does.
pub fn verify_certificate(path: &Path, inst: &Instance, k: usize) -> Result<Verdict> {
    let text = crate::certificate::read_text(path)?;
    let file = path.display().to_string();
    let format = crate::certificate::format_of(&text, &file)?;
    if format == crate::certificate::weighted::FORMAT {
        return Err(Error::usage(format!(
            "{file}: a weighted certificate bounds the weighted SSE; the library holds bounds on the SSE"
        )));
    }
    if format == crate::bnp_certificate::FORMAT {
        let c = crate::bnp_certificate::BnpCertificate::parse(&text, &file)?;
        crate::bnp_certificate::verify(&c, inst, k, None)
    } else {
        let c = crate::certificate::BoundCertificate::parse(&text, &file)?;
        crate::certificate::verify(&c, inst, k, None)
    }
}

/// Today's UTC date, `YYYY-MM-DD`.
pub(crate) fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    // Civil date from days since 1970-01-01 (H. Hinnant's algorithm).
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

/// A provenance: the user's description of the command that produced the result, and the
/// commit and date it was produced at (default: this build, today).
pub(crate) fn provenance(command: &str, commit: Option<&str>, date: Option<&str>) -> Provenance {
    Provenance {
        command: command.to_string(),
        commit: commit.unwrap_or(env!("MICROAGG_GIT_COMMIT")).to_string(),
        date: date.map_or_else(today, str::to_string),
    }
}

/// The instance's name in the library: its entry's, or a new entry's (the instance's own
/// name, suffixed with the key's first digits when another instance has it).
fn entry_name(lib: &mut Library, inst: &Instance, source: &DataSource) -> String {
    let key = instance_key(inst);
    if let Some(e) = lib.manifest.instance_by_key(&key) {
        return e.name.clone();
    }
    let mut name = inst.name.clone();
    if lib.manifest.instance_by_name(&name).is_some() {
        name = format!("{name}-{}", &key[..8]);
    }
    lib.manifest.instance.push(super::InstanceEntry {
        name: name.clone(),
        key,
        data: source.data.to_string(),
        columns: source.columns.to_vec(),
        n: inst.n,
        d: inst.d,
    });
    name
}

/// What an accepted submission changed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Accepted {
    pub instance: String,
    pub k: usize,
    /// The value before (SSE or bound), when the case had one.
    pub before: Option<f64>,
    pub after: f64,
    pub proven_optimal: bool,
}

/// Add the labels file at `path` as the best-known partition of (`inst`, k) when feasible
/// and strictly better than the stored one; refuse otherwise. The file is copied byte for
/// byte. Saves the library.
pub(crate) fn submit_partition(lib: &mut Library, s: Submission) -> Result<Accepted> {
    let (inst, k) = (s.inst, s.k);
    let labels = &crate::labels::read_labels(s.path)?;
    let report = crate::labels::check_labels(inst, k, labels)?;
    if !report.feasible {
        let (label, size) = report.undersized[0];
        return Err(Error::Infeasible(format!(
            "refused: group {label} has {size} records, fewer than k = {k} ({} such groups)",
            report.undersized_groups
        )));
    }
    let name = entry_name(lib, inst, &s.source);
    let before = lib
        .manifest
        .case(&name, k)
        .and_then(|c| c.partition.as_ref())
        .map(|p| p.sse);
    if let Some(old) = before {
        if report.sse >= old {
            return Err(Error::usage(format!(
                "refused: SSE {:.10} is not below the stored {old:.10} of {name} k = {k}",
                report.sse
            )));
        }
    }
    let file = format!("{name}-k{k}.labels");
    copy_into(lib, s.path, &file)?;
    let proven = proven_with_stored_bound(lib, &name, k, inst, labels, &file)?;
    let case = lib.manifest.case_mut(&name, k);
    case.partition = Some(StoredPartition {
        file,
        sse: report.sse,
        il: report.il,
        provenance: s.provenance,
    });
    case.proven_optimal = proven;
    saved(lib, name, k, before, report.sse, proven)
}

/// Copy the file at `path` byte for byte into the library's directory as `file`.
fn copy_into(lib: &Library, path: &Path, file: &str) -> Result<()> {
    let bytes = std::fs::read(path).map_err(|e| Error::io(path, e))?;
    std::fs::create_dir_all(&lib.dir).map_err(|e| Error::io(&lib.dir, e))?;
    crate::output::write_atomic(&lib.dir.join(file), &bytes)
}

/// Save the library and report the accepted submission of `name` k (`before` -> `after`).
fn saved(
    lib: &mut Library,
    name: String,
    k: usize,
    before: Option<f64>,
    after: f64,
    proven_optimal: bool,
) -> Result<Accepted> {
    lib.save()?;
    Ok(Accepted {
        instance: name,
        k,
        before,
        after,
        proven_optimal,
    })
}

/// Whether the stored, verified bound of the case proves `labels` optimal.
fn proven_with_stored_bound(
    lib: &Library,
    name: &str,
    k: usize,
    inst: &Instance,
    labels: &[usize],
    file: &str,
) -> Result<bool> {
    let Some(bound) = lib.manifest.case(name, k).and_then(|c| c.bound.as_ref()) else {
        return Ok(false);
    };
    let Some(v) = lib.verified(bound) else {
        return Ok(false);
    };
    let verdict = Verdict {
        valid: true,
        claimed: v.claimed,
        recomputed: v.recomputed,
        pricing_exact: true,
        nodes: 0,
        reason: None,
        time_limit_reached: false,
    };
    let upper = crate::certificate::labels_upper(inst, k, labels, &lib.dir.join(file))?;
    let o = crate::certificate::optimality_of(&verdict, &upper);
    Ok(o.proven_optimal)
}

/// Add the certificate at `path` as the best bound of (`inst`, k) when it verifies and
/// claims strictly more than the stored one; refuse otherwise. The file is copied byte for
/// byte; its verification enters the cache. Saves the library.
pub(crate) fn submit_certificate(lib: &mut Library, s: Submission) -> Result<Accepted> {
    let (inst, k, path) = (s.inst, s.k, s.path);
    let started = std::time::Instant::now();
    let v = verify_certificate(path, inst, k)?;
    if !v.valid {
        return Err(Error::usage(format!(
            "refused: {} does not verify: {}",
            path.display(),
            v.reason.as_deref().unwrap_or("the claim is not proven")
        )));
    }
    let seconds = started.elapsed().as_secs_f64();
    let name = entry_name(lib, inst, &s.source);
    let before = lib
        .manifest
        .case(&name, k)
        .and_then(|c| c.bound.as_ref())
        .map(|b| b.value);
    if let Some(old) = before {
        if v.claimed <= old {
            return Err(Error::usage(format!(
                "refused: the certificate proves {:.10}, not above the stored {old:.10} of {name} k = {k}",
                v.claimed
            )));
        }
    }
    let sha = key::file_sha256(path)?;
    let file = stored_name(lib, &name, k, path, &sha)?;
    copy_into(lib, path, &file)?;
    lib.cache.0.insert(
        sha.clone(),
        Verified {
            file: file.clone(),
            instance: name.clone(),
            k,
            claimed: v.claimed,
            recomputed: v.recomputed,
            seconds,
        },
    );
    let proven = match lib
        .manifest
        .case(&name, k)
        .and_then(|c| c.partition.clone())
    {
        Some(p) => {
            let labels = crate::labels::read_labels(&lib.dir.join(&p.file))?;
            let upper = crate::certificate::labels_upper(inst, k, &labels, &lib.dir.join(&p.file))?;
            crate::certificate::optimality_of(&v, &upper).proven_optimal
        }
        None => false,
    };
    let case = lib.manifest.case_mut(&name, k);
    case.bound = Some(StoredBound {
        file,
        sha256: sha,
        value: v.claimed,
        provenance: s.provenance,
    });
    case.proven_optimal = proven;
    saved(lib, name, k, before, v.claimed, proven)
}

/// `<name>-k<k>.<kind>` (kind from the file's name: `bnp.json.gz`, `bnp.json`,
/// `bound.json.gz` or `bound.json`), with the sha256's first digits added when a different
/// file already has that name.
fn stored_name(lib: &Library, name: &str, k: usize, path: &Path, sha: &str) -> Result<String> {
    let text = crate::certificate::read_text(path)?;
    let format = crate::certificate::format_of(&text, &path.display().to_string())?;
    let kind = if format == crate::bnp_certificate::FORMAT {
        "bnp"
    } else {
        "bound"
    };
    let gz = if path.to_string_lossy().ends_with(".gz") {
        ".gz"
    } else {
        ""
    };
    let plain = format!("{name}-k{k}.{kind}.json{gz}");
    let target = lib.dir.join(&plain);
    if !target.exists() || key::file_sha256(&target)? == sha {
        return Ok(plain);
    }
    Ok(format!("{name}-k{k}-{}.{kind}.json{gz}", &sha[..8]))
}
