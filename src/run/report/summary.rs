//! # Short summary table
//!
//! One Markdown row per case (instance, k): the pipeline with the lowest best IL (all of them
//! on a tie, compared exactly), that IL, its gap to the case's best certified bound known
//! and the method that produced that bound (`library`: the benchmark library's stored
//! certificate), its gap to the best-known SSE, and the number of pipelines compared. `microagg demo` prints it before the full table.
//!
//! ## Complexity
//! O(rows^2) (rows are few: cases times pipelines).
//!
//! ## References
//! None.

use super::tables::CaseRow;

/// The short table (Markdown) of the summary rows.
pub(crate) fn best_per_case(rows: &[CaseRow]) -> String {
    let mut cases: Vec<(&str, usize)> = Vec::new();
    for r in rows {
        if !cases.contains(&(r.instance.as_str(), r.k)) {
            cases.push((r.instance.as_str(), r.k));
        }
    }
    let mut body: Vec<Vec<String>> = Vec::new();
    for (inst, k) in cases {
        let of: Vec<&CaseRow> = rows
            .iter()
            .filter(|r| r.instance == inst && r.k == k)
            .collect();
        let best = of.iter().map(|r| r.best_sse).fold(f64::INFINITY, f64::min);
        let winners: Vec<&&CaseRow> = of.iter().filter(|r| r.best_sse == best).collect();
        let w = winners[0];
        let names: Vec<&str> = winners.iter().map(|r| r.pipeline.as_str()).collect();
        body.push(vec![
            format!("{inst} k={k}"),
            names.join(", "),
            format!("{:.4}", w.best_il),
            w.gap.map_or("-".into(), |g| format!("{g:.2}")),
            w.bound_name.clone().unwrap_or_else(|| "-".into()),
            w.gap_best_known.map_or("-".into(), |g| format!("{g:.2}")),
            of.len().to_string(),
        ]);
    }
    let head = [
        "case",
        "best pipeline",
        "best IL %",
        "gap %",
        "bound",
        "gap known %",
        "of",
    ];
    let mut s = super::tables::aligned_markdown(&head.map(String::from), &body, |j| j < 2);
    s.push_str(
        "\nBest pipeline per case (lowest best IL over seeds; gap = 100 (SSE - LB) / LB to the \
         best certified bound known, the method that produced it in `bound` (library = the benchmark library's \
         stored certificate, verified); gap known = 100 (SSE - best) / best to the best-known \
         SSE; of = pipelines compared). The full table follows.\n",
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(inst: &str, k: usize, pipeline: &str, sse: f64, gap: Option<f64>) -> CaseRow {
        CaseRow {
            instance: inst.into(),
            instance_name: inst.into(),
            n: 10,
            d: 2,
            k,
            pipeline: pipeline.into(),
            method: pipeline.into(),
            runs: 1,
            best_il: sse * 10.0,
            mean_il: sse * 10.0,
            sd_il: None,
            best_sse: sse,
            mean_seconds: 0.1,
            bound_sse: None,
            bound_il: None,
            gap,
            bound_name: gap.map(|_| "nn".into()),
            bound_source: gap.map(|_| "nn".into()),
            best_known_sse: None,
            gap_best_known: gap.map(|g| g / 2.0),
            published_il: None,
            published_sse: None,
            published_source: None,
        }
    }

    #[test]
    fn one_row_per_case_with_the_best_pipeline_and_ties_named() {
        let rows = [
            row("a", 3, "mdav", 2.0, Some(20.0)),
            row("a", 3, "mdav+ils", 1.5, Some(5.0)),
            row("a", 5, "mdav", 3.0, None),
            row("a", 5, "mdav1", 3.0, None),
            row("b", 3, "mdav", 1.0, Some(1.0)),
        ];
        let t = best_per_case(&rows);
        let lines: Vec<&str> = t.lines().filter(|l| l.starts_with("| ")).collect();
        assert_eq!(lines.len(), 2 + 3, "{t}");
        let cells = |l: &str| -> Vec<String> {
            l.split('|')
                .map(|c| c.trim().to_string())
                .filter(|c| !c.is_empty())
                .collect()
        };
        assert_eq!(
            cells(lines[2]),
            ["a k=3", "mdav+ils", "15.0000", "5.00", "nn", "2.50", "2"]
        );
        assert_eq!(
            cells(lines[3]),
            ["a k=5", "mdav, mdav1", "30.0000", "-", "-", "-", "2"]
        );
        assert_eq!(
            cells(lines[4]),
            ["b k=3", "mdav", "10.0000", "1.00", "nn", "0.50", "1"]
        );
        // Every row has as many cells as the header.
        assert!(lines.iter().all(|l| l.matches('|').count() == 8));
    }
}
