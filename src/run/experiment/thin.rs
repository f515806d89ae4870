//! # Trace thinning
//!
//! A run record keeps its search trace (`trace = true` in a suite) in the record itself, one
//! line per run, so that shards and `--resume` merge traces exactly as they merge records.
//! A long search finds thousands of new bests, so the trace is thinned before it is stored:
//! within each stage (consecutive points of one stage name) the first and the last point are
//! kept, and of the others only the last point of each step bucket, where the buckets grow
//! geometrically: `PER_DECADE` buckets per decade of steps (step s falls in bucket
//! `floor(PER_DECADE * log10(1 + s))`). A stage of 10^6 steps keeps at most about
//! 6 * 32 + 2 points; a figure on a log time axis loses nothing visible.
//!
//! The rule looks at steps only, never at the clock, so a thinned trace still repeats with
//! its run (apart from the `seconds` fields), whatever the number of workers.
//!
//! ## Complexity
//! Linear in the number of points.
//!
//! ## References
//! None (engineering).

use crate::search::trace::TracePoint;

/// Step buckets per decade of steps.
pub(crate) const PER_DECADE: f64 = 32.0;

fn bucket(step: u64) -> i64 {
    (PER_DECADE * (1.0 + step as f64).log10()).floor() as i64
}

/// The thinned trace (see the module documentation).
pub(crate) fn thin(points: &[TracePoint]) -> Vec<TracePoint> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < points.len() {
        // One stage: points i..end.
        let mut end = i + 1;
        while end < points.len() && points[end].stage == points[i].stage {
            end += 1;
        }
        out.push(points[i].clone());
        for j in i + 1..end {
            let last_of_stage = j + 1 == end;
            let last_of_bucket =
                !last_of_stage && bucket(points[j + 1].step) != bucket(points[j].step);
            if last_of_stage || last_of_bucket {
                out.push(points[j].clone());
            }
        }
        i = end;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn p(stage: &str, step: u64, best: f64) -> TracePoint {
        TracePoint {
            seconds: step as f64 * 1e-3,
            stage: stage.into(),
            step,
            current_il: best,
            best_il: best,
        }
    }

    #[test]
    fn keeps_stage_ends_and_one_point_per_bucket() {
        // A stage improving at every step 0..10000, then a second stage of three points.
        let mut pts: Vec<TracePoint> = (0..10_000u64)
            .map(|s| p("ils", s, 100.0 - s as f64 * 1e-3))
            .collect();
        pts.extend([p("sa", 0, 89.0), p("sa", 1, 88.0), p("sa", 2, 87.0)]);
        let t = thin(&pts);
        // First and last of each stage are kept.
        assert_eq!(t[0], pts[0]);
        assert!(t.contains(&pts[9_999]) && t.contains(&pts[10_000]) && t.contains(&pts[10_002]));
        // Four decades of steps: at most 32 buckets per decade, plus the stage ends.
        let ils = t.iter().filter(|x| x.stage == "ils").count();
        assert!(
            (4 * 32 - 40..=4 * 32 + 3).contains(&ils),
            "{ils} points kept"
        );
        // Every point kept is one of the input, in order, and the best never rises.
        assert!(t
            .windows(2)
            .all(|w| w[0].stage != w[1].stage || w[0].step < w[1].step));
        assert!(t
            .iter()
            .filter(|x| x.stage == "ils")
            .collect::<Vec<_>>()
            .windows(2)
            .all(|w| w[1].best_il <= w[0].best_il));
        // A short trace is kept whole.
        assert_eq!(thin(&pts[10_000..]), pts[10_000..].to_vec());
        assert!(thin(&[]).is_empty());
    }
}
