//! # Labels check report
//!
//! The text form of a [`CheckReport`] (`microagg check`): feasibility, group sizes, SSE and
//! IL, and the undersized groups (at most [`crate::labels::UNDERSIZED_LISTED`] listed, the
//! rest counted). The JSON form is the report itself.
//!
//! ## Complexity
//! Linear in the listed groups.
//!
//! ## References
//! None.

use crate::labels::CheckReport;
use std::path::Path;

/// The text form of `report` for the labels file `path` at `k`.
pub(crate) fn check_text(report: &CheckReport, path: &Path, k: usize) -> String {
    let mut text = format!(
        "{}: {} for k = {}: {} groups of {}..{} records, SSE {:.6}, IL {:.6} %\n",
        path.display(),
        if report.feasible {
            "feasible"
        } else {
            "INFEASIBLE"
        },
        k,
        report.groups,
        report.min_group_size,
        report.max_group_size,
        report.sse,
        report.il
    );
    if let Some(w) = &report.weights {
        text += &format!(
            "  weighted (--weights {}, total {}): SSE {}, SST {}, IL {:.6} %\n",
            w.column,
            super::round_trip(w.total),
            super::decimal(w.sse, 6),
            super::decimal(w.sst, 6),
            w.il
        );
    }
    for (l, s) in &report.undersized {
        text += &format!("  group {l} has {s} < k = {k} records\n");
    }
    let unlisted = report.undersized_groups - report.undersized.len();
    if unlisted > 0 {
        text += &format!(
            "  ... and {unlisted} more undersized groups ({} in all; --json lists the first {})\n",
            report.undersized_groups,
            report.undersized.len()
        );
    }
    text
}
