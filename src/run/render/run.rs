//! # The text of a pipeline run
//!
//! `microagg run --json` prints the run's [`Record`] (src/run/record.rs, the type experiment
//! records use; schema/run-record.json); `run_text` is its text form: a summary line, one
//! line per stage, the bound with its gap or why it was skipped, and the released file.
//!
//! ## Complexity
//! Linear in the stages.
//!
//! ## References
//! None.

use crate::bound::BoundOutcome;
use crate::record::Record;

/// One JSON object (no newline).
pub fn run_json(record: &Record) -> String {
    serde_json::to_string(record).expect("record serialises")
}

/// The text form of a run. `bound` is the bound computed after the run (its gap is taken
/// whether or not it is certified, and says so); `signal` names the signal that interrupted
/// the run, if it was.
pub(crate) fn run_text(record: &Record, bound: Option<&BoundOutcome>, signal: &str) -> String {
    let mut text = format!(
        "{} on {} (n={}, d={}), k={}: SSE {:.6} IL {:.6} % in {} groups of {}..{} records, {:.3} s{}\n",
        record.method,
        record.instance_name,
        record.n,
        record.d,
        record.k,
        record.sse,
        record.il,
        record.groups,
        record.min_group_size,
        record.max_group_size,
        record.seconds,
        if record.interrupted {
            format!(" (interrupted by {signal}: best partition so far)")
        } else {
            String::new()
        }
    );
    for s in &record.stages {
        text += &format!(
            "  stage {:<20} IL {:.6} %  {:.3} s\n",
            s.name, s.il, s.seconds
        );
    }
    if let Some(w) = &record.weights {
        text += &weighted_line(w);
        if let Some(b) = &w.bound {
            text += &format!(
                "  weighted bound {:<11} IL >= {:.6} %  (certified), weighted gap {} %\n",
                b.method,
                b.il_lower_bound,
                b.gap_percent
                    .map_or("n/a".to_string(), |g| format!("{g:.4}"))
            );
        }
    }
    if let Some(b) = bound {
        // Labelled by the method that produced the value (nn when colgen did not pass it).
        text += &format!(
            "  bound {:<20} IL >= {:.6} %  ({}certified), gap {} %{}\n",
            b.produced_by,
            b.il_lower_bound,
            if b.certified { "" } else { "not " },
            crate::bound::gap_percent(record.sse, b.lower_bound)
                .map_or("n/a".to_string(), |g| format!("{g:.4}")),
            if b.produced_by != b.method {
                format!(" ({} asked; it did not pass the nn bound)", b.method)
            } else {
                String::new()
            }
        );
    }
    text += &best_known_lines(record);
    if let Some(why) = &record.bound_skipped {
        text += &format!("  bound skipped: {why}\n");
    }
    if let Some(r) = &record.release {
        text += &release_line(r);
    }
    if let Some(m) = &record.missing {
        text += &m.line();
    }
    text
}

/// The library's bound and the two gaps of a run: to the best certified bound known (with
/// its source) and to the best-known SSE.
pub(crate) fn best_known_lines(record: &Record) -> String {
    let mut text = String::new();
    let pct = |g: Option<f64>| g.map_or("n/a".to_string(), |g| format!("{g:.4}"));
    if let Some(b) = record
        .bounds
        .iter()
        .find(|b| b.name == crate::library::Reference::LABEL)
    {
        text += &format!(
            "  bound {:<20} IL >= {:.6} %  ({}), gap {} %\n",
            b.name,
            b.il,
            b.source,
            pct(crate::bound::gap_percent(record.sse, b.sse))
        );
    }
    if let (Some(best), Some(_)) = (&record.best_bound, &record.best_known_sse) {
        text += &format!(
            "  gap {} % to the best certified bound known ({}: {}); gap {} % to the best-known SSE {:.6}\n",
            pct(record.gap),
            best.name,
            best.source,
            pct(record.gap_best_known),
            record.best_known_sse.unwrap_or(f64::NAN)
        );
    } else if let Some(known) = record.best_known_sse {
        text += &format!(
            "  gap {} % to the best-known SSE {known:.6}\n",
            pct(record.gap_best_known)
        );
    }
    text
}

/// The `weighted (--weights ...)` line of a run with sampling weights (split or not).
pub(crate) fn weighted_line(w: &crate::weighted::WeightedIl) -> String {
    format!(
        "  weighted (--weights {}, total {}): SSE {} IL {:.6} % ({})\n",
        w.column,
        super::round_trip(w.total),
        super::decimal(w.sse, 6),
        w.il,
        match w.objective.as_deref() {
            Some("weighted") => "the method minimised the weighted SSE",
            _ => "the method minimised the unweighted SSE; weighted IL reported only",
        }
    )
}

/// The text lines of a released file (unsplit and split runs): what was written, its IL,
/// and its measures when asked, each with how to read it.
pub(crate) fn release_line(r: &crate::release::ReleaseRecord) -> String {
    let mut protect = String::new();
    if let Some(order) = &r.row_order {
        protect += &format!("; rows {order}");
    }
    if let Some(how) = &r.identifier_release {
        let done = match how.as_str() {
            "drop" => "dropped",
            "hash" => "hashed (keyed)",
            _ => "kept",
        };
        protect += &format!(", identifiers {} {done}", r.identifiers.join(", "));
    }
    let mut line = format!(
        "  released {} ({}, {}{}{protect}): IL of the released values {:.6} %\n",
        r.file,
        r.layout,
        r.aggregation,
        if r.rounded_to_input {
            ", rounded to the input's decimals"
        } else {
            ""
        },
        r.il_released
    );
    if let Some(w) = r.il_released_weighted {
        line += &format!("  released weighted IL {w:.6} % (weighted group means)\n");
    }
    if let Some(m) = &r.measures {
        line += &crate::measure::reading_lines(m);
    }
    line
}
