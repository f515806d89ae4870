//! # The text of a split run
//!
//! [`split_text`]: what `microagg run --strata/--blocks/--part` prints without `--json`, from
//! its [`SplitRecord`]: one summary line, a line per pipeline stage, then the weighted,
//! released and missing-cell lines and what an interrupt or the time limit left behind.
//!
//! ## Complexity
//! Linear in the stages and the unsolved units.
//!
//! ## References
//! None.

use super::SplitRecord;

/// The text report of a split run; `blocks` says whether it was split into blocks.
pub(super) fn split_text(record: &SplitRecord<'_>, blocks: bool) -> String {
    let mut text = summary_line(record);
    for s in record.stages {
        text += &format!(
            "  stage {:<20} IL {:.6} %  {:.3} s (summed over units)\n",
            s.name, s.il, s.seconds
        );
    }
    if let Some(w) = &record.weights {
        text += &crate::render::run::weighted_line(w);
    }
    if let Some(rel) = &record.release {
        text += &crate::render::run::release_line(rel);
    }
    if let Some(m) = &record.missing {
        text += &m.line();
    }
    if blocks && record.part.is_some() {
        text += "  block borders are not repaired in a part (the repair needs every block)\n";
    }
    if record.interrupted || !record.unsolved_units.is_empty() {
        text += &stopped_line(record);
    }
    text
}

/// The first line: method, instance, split, units, rows, SSE, IL, groups and time.
fn summary_line(record: &SplitRecord<'_>) -> String {
    format!(
        "{} on {} (n={}, d={}), k={}, split {}{}: {} of {} units, {} rows, SSE {:.6} (IL {:.6} % \
         of the whole data's SST) in {} groups of {}..{} records, {:.3} s\n",
        record.method,
        record.instance,
        record.n,
        record.d,
        record.k,
        record.split,
        record
            .part
            .map_or(String::new(), |p| format!(", part {}/{}", p.index, p.count)),
        record.units_here,
        record.units,
        record.rows_here,
        record.sse,
        record.il,
        record.groups,
        record.min_group_size,
        record.max_group_size,
        record.seconds
    )
}

/// What an interrupt or the time limit left: which units got the fallback groups.
fn stopped_line(record: &SplitRecord<'_>) -> String {
    let repair_cut = record
        .border_repair
        .is_some_and(|r| r.iter().any(|s| s.interrupted));
    let unsolved = record.unsolved_units;
    format!(
        "  {}: units done keep their groups, running refiners their best so far{}; {} \
         unit(s) stopped before their initializer finished got sorted-sum fallback \
         groups{}\n",
        if record.interrupted {
            format!("interrupted by {}", crate::interrupt::signal_name())
        } else {
            "time limit".to_string()
        },
        if repair_cut {
            ", the border repair the cuts done"
        } else {
            ""
        },
        unsolved.len(),
        if unsolved.is_empty() {
            String::new()
        } else {
            format!(" ({})", unsolved.join(", "))
        }
    )
}
