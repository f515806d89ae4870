//! # Re-checking a case
//!
//! `case` re-checks one stored case on its data: the partition is feasible with the
//! recorded SSE and IL, the certificate file still has the recorded sha256, verifies, and
//! claims the recorded value, and `proven_optimal` is what `verify-bound --labels` says.
//! Each verified certificate enters the cache (`super::cache`).
//!
//! ## Complexity
//! One labels check (O(n d)) and one certificate verification.

use super::{key, submit::verify_certificate, Case, Library, Verified};
use crate::data::Instance;
use crate::error::Result;

/// What `case` found: one line per check, and whether every check passed.
pub struct CaseCheck {
    pub ok: bool,
    pub lines: Vec<String>,
}

/// Re-check `case` of `lib` on `inst` (module doc); records the verification in the cache.
pub(crate) fn case(lib: &mut Library, inst: &Instance, case: &Case) -> Result<CaseCheck> {
    let mut out = CaseCheck {
        ok: true,
        lines: Vec::new(),
    };
    let fail = |out: &mut CaseCheck, line: String| {
        out.ok = false;
        out.lines.push(format!("FAILED {line}"));
    };
    let mut labels = None;
    if let Some(p) = &case.partition {
        let path = lib.dir.join(&p.file);
        match crate::labels::read_labels(&path)
            .and_then(|l| crate::labels::check_labels(inst, case.k, &l).map(|r| (l, r)))
        {
            Err(e) => fail(&mut out, format!("partition {}: {e}", p.file)),
            Ok((_, r)) if !r.feasible => {
                fail(&mut out, format!("partition {}: infeasible", p.file))
            }
            Ok((_, r)) if (r.sse - p.sse).abs() > 1e-9 * p.sse.max(1.0) => fail(
                &mut out,
                format!(
                    "partition {}: SSE {:.10}, recorded {:.10}",
                    p.file, r.sse, p.sse
                ),
            ),
            Ok((l, r)) => {
                out.lines.push(format!(
                    "partition {}: feasible, SSE {:.10}, IL {:.6} %",
                    p.file, r.sse, r.il
                ));
                labels = Some(l);
            }
        }
    }
    let Some(b) = &case.bound else {
        return Ok(out);
    };
    let path = lib.dir.join(&b.file);
    let sha = key::file_sha256(&path)?;
    if sha != b.sha256 {
        fail(
            &mut out,
            format!(
                "certificate {}: sha256 {sha}, recorded {}",
                b.file, b.sha256
            ),
        );
        return Ok(out);
    }
    let started = std::time::Instant::now();
    let v = match verify_certificate(&path, inst, case.k) {
        Ok(v) => v,
        Err(e) => {
            fail(&mut out, format!("certificate {}: {e}", b.file));
            return Ok(out);
        }
    };
    let seconds = started.elapsed().as_secs_f64();
    if !v.valid || v.claimed != b.value {
        let why = v
            .reason
            .clone()
            .unwrap_or_else(|| format!("claims {}, recorded {}", v.claimed, b.value));
        fail(&mut out, format!("certificate {}: {why}", b.file));
        return Ok(out);
    }
    out.lines.push(format!(
        "certificate {}: valid, {:.10} (recomputed {:.10}, {seconds:.1} s)",
        b.file, v.claimed, v.recomputed
    ));
    lib.cache.0.insert(
        sha,
        Verified {
            file: b.file.clone(),
            instance: case.instance.clone(),
            k: case.k,
            claimed: v.claimed,
            recomputed: v.recomputed,
            seconds,
        },
    );
    if let (Some(l), Some(p)) = (&labels, &case.partition) {
        let upper = crate::certificate::labels_upper(inst, case.k, l, &lib.dir.join(&p.file))?;
        let o = crate::certificate::optimality_of(&v, &upper);
        if o.proven_optimal != case.proven_optimal {
            fail(
                &mut out,
                format!(
                    "proven_optimal is {}, the check says {}",
                    case.proven_optimal, o.proven_optimal
                ),
            );
        } else if o.proven_optimal {
            out.lines.push("proven optimal".into());
        }
    }
    Ok(out)
}
