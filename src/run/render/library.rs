//! # Library tables
//!
//! `microagg library list` (one row per case) and `show` (one instance's files, values and
//! provenance). The certified bound is the cached verified value
//! ([`crate::library::Library::verified`]); a certificate not in the cache is shown as
//! unverified and gives no gap.
//!
//! ## Complexity
//! Linear in the manifest (one sha256 per certificate file).

use crate::bound::gap_percent;
use crate::library::{Case, Library};

/// The table of every case.
pub(crate) fn table(lib: &Library) -> String {
    let mut out = format!(
        "{:<14} {:>3} {:>16} {:>10} {:>18} {:>9}  {}\n",
        "instance", "k", "best SSE", "IL %", "certified LB", "gap %", "proven"
    );
    for c in &lib.manifest.case {
        let (lb, gap) = bound_and_gap(lib, c);
        let (sse, il) = c.partition.as_ref().map_or(("-".into(), "-".into()), |p| {
            (format!("{:.6}", p.sse), format!("{:.4}", p.il))
        });
        out.push_str(&format!(
            "{:<14} {:>3} {:>16} {:>10} {:>18} {:>9}  {}\n",
            c.instance,
            c.k,
            sse,
            il,
            lb,
            gap,
            if c.proven_optimal
                && lib
                    .reference_by_name(&c.instance, c.k)
                    .is_some_and(|r| r.proven_optimal)
            {
                "yes"
            } else {
                "no"
            }
        ));
    }
    out
}

/// The bound's text (value, or why there is none) and the gap's, for a case.
fn bound_and_gap(lib: &Library, c: &Case) -> (String, String) {
    let r = lib.reference_by_name(&c.instance, c.k);
    match (c.bound.as_ref(), r.as_ref().and_then(|r| r.bound)) {
        (None, _) => ("-".into(), "-".into()),
        (Some(_), None) => ("unverified".into(), "-".into()),
        (Some(_), Some(lb)) => {
            let gap = r
                .and_then(|r| r.best_sse)
                .and_then(|s| gap_percent(s, lb))
                .map_or("-".into(), |g| format!("{g:.4}"));
            (format!("{lb:.6}"), gap)
        }
    }
}

/// One instance's cases (or the one of `k`), with files and provenance.
pub(crate) fn show(lib: &Library, instance: &str, k: Option<usize>) -> String {
    let mut out = String::new();
    if let Some(e) = lib.manifest.instance_by_name(instance) {
        out.push_str(&format!(
            "instance {}: --data {}{}, n = {}, d = {}\n  key (sha256 of the standardised data and column choice) {}\n",
            e.name,
            e.data,
            if e.columns.is_empty() { String::new() } else { format!(" --columns {}", e.columns.join(",")) },
            e.n,
            e.d,
            e.key
        ));
    }
    for c in lib
        .manifest
        .case
        .iter()
        .filter(|c| c.instance == instance && k.is_none_or(|k| k == c.k))
    {
        let (lb, gap) = bound_and_gap(lib, c);
        out.push_str(&format!(
            "k = {}: certified LB {lb}, gap {gap} %, proven optimal: {}\n",
            c.k, c.proven_optimal
        ));
        if let Some(p) = &c.partition {
            let figures = format!("SSE {:.10} IL {:.6} %", p.sse, p.il);
            out += &stored(lib, "partition", &p.file, &figures, &p.provenance);
        }
        if let Some(b) = &c.bound {
            let figures = format!("claims {:.10} (sha256 {})", b.value, b.sha256);
            out += &stored(lib, "certificate", &b.file, &figures, &b.provenance);
        }
    }
    out
}

/// A stored file's lines: its kind, path and `figures`, then where it comes from.
fn stored(
    lib: &Library,
    kind: &str,
    file: &str,
    figures: &str,
    p: &crate::library::manifest::Provenance,
) -> String {
    format!(
        "  {kind} {} {figures}\n    from {} (commit {}, {})\n",
        lib.dir.join(file).display(),
        p.command,
        p.commit,
        p.date
    )
}
