//! # Anytime curves
//!
//! What the convergence and time-to-target figures plot, computed from run records:
//!
//! - a run's **best-so-far curve**: the IL of the best partition found by time t, a step
//!   function through the ends of the pipeline's stages (cumulative stage seconds, IL after
//!   the stage) and the points of its search trace (thinned, see
//!   `crate::experiment::thin`), made monotone by a running minimum. A run without a
//!   trace (constructive methods, or `trace = false`) is its stage ends alone.
//! - a pipeline's **median curve** on a case: on a log-spaced time grid from the moment every
//!   run has its first partition to the end of the slowest run, the median, minimum and
//!   maximum over seeds of the best-so-far IL (a finished run keeps its final IL).
//! - **time to target**: the first time a run's best-so-far IL is at most the case's target,
//!   the best final IL of any run of the case plus [`TARGET_PERCENT`] percent of it.
//!
//! ## Complexity
//! A curve is linear in the run's points; the median curve is O(grid * runs * log points).
//!
//! ## References
//! H. H. Hoos and T. Stuetzle, "Stochastic Local Search: Foundations and Applications",
//! Morgan Kaufmann 2004, ch. 4 (run-time distributions, time-to-target).

use crate::experiment::record::Record;

/// Median of a non-empty slice (mean of the two middle values for an even count).
pub fn median(values: &[f64]) -> f64 {
    quantile(values, 0.5)
}

/// Linear-interpolation quantile (type 7) of a non-empty slice.
pub(crate) fn quantile(values: &[f64], q: f64) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let h = q * (v.len() - 1) as f64;
    let (lo, hi) = (h.floor() as usize, h.ceil() as usize);
    v[lo] + (h - lo as f64) * (v[hi] - v[lo])
}

/// The target of a case: its best final IL over every run and pipeline, plus this percentage
/// of it (relative).
pub const TARGET_PERCENT: f64 = 1.0;

/// Smallest time plotted on a log axis (a constructive method can take under a microsecond).
pub(crate) const MIN_SECONDS: f64 = 1e-6;

/// A run's best-so-far IL: (seconds, IL) with seconds increasing and IL not increasing.
pub(crate) fn run_curve(r: &Record) -> Vec<(f64, f64)> {
    let mut pts: Vec<(f64, f64)> = Vec::new();
    let mut t = 0.0;
    for s in &r.stages {
        t += s.seconds;
        pts.push((t, s.il));
    }
    if let Some(trace) = &r.trace {
        pts.extend(trace.iter().map(|p| (p.seconds, p.best_il)));
    }
    pts.iter_mut().for_each(|p| p.0 = p.0.max(MIN_SECONDS));
    pts.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut out: Vec<(f64, f64)> = Vec::new();
    for (t, il) in pts {
        let best = out.last().map_or(il, |l| l.1.min(il));
        match out.last_mut() {
            Some(l) if l.0 == t => l.1 = best,
            // Keep only the points where the best improves.
            Some(l) if l.1 <= best => {}
            _ => out.push((t, best)),
        }
    }
    // The run's end, so that a curve spans the whole run.
    if let (Some(&(_, last)), Some(end)) = (out.last(), pts_end(r)) {
        if end > out.last().map_or(0.0, |l| l.0) {
            out.push((end, last));
        }
    }
    out
}

fn pts_end(r: &Record) -> Option<f64> {
    let stages: f64 = r.stages.iter().map(|s| s.seconds).sum();
    let trace = r
        .trace
        .as_ref()
        .and_then(|t| t.last())
        .map_or(0.0, |p| p.seconds);
    (!r.stages.is_empty()).then(|| stages.max(trace).max(MIN_SECONDS))
}

/// The best-so-far value of a curve at time t (None before its first point).
pub(crate) fn value_at(curve: &[(f64, f64)], t: f64) -> Option<f64> {
    let i = curve.partition_point(|p| p.0 <= t);
    (i > 0).then(|| curve[i - 1].1)
}

/// One pipeline on one case over seeds.
#[derive(Debug, Clone, PartialEq)]
pub enum Median {
    /// Every run ends at about the same time with one partition: (median time, median IL,
    /// min IL, max IL).
    Point(f64, f64, f64, f64),
    /// (time, median, min, max) on a log grid.
    Curve(Vec<(f64, f64, f64, f64)>),
}

/// Grid points of the median curve.
const GRID: usize = 80;

/// The median curve of some runs (None without runs).
pub(crate) fn median_curve(runs: &[&Record]) -> Option<Median> {
    let curves: Vec<Vec<(f64, f64)>> = runs
        .iter()
        .map(|r| run_curve(r))
        .filter(|c| !c.is_empty())
        .collect();
    if curves.is_empty() {
        return None;
    }
    let start = curves.iter().map(|c| c[0].0).fold(0.0, f64::max);
    let end = curves.iter().map(|c| c[c.len() - 1].0).fold(0.0, f64::max);
    let single = curves.iter().all(|c| c.len() == 1) || end <= start * 1.05;
    if single {
        let finals: Vec<f64> = curves.iter().map(|c| c[c.len() - 1].1).collect();
        let ends: Vec<f64> = curves.iter().map(|c| c[c.len() - 1].0).collect();
        let (lo, hi) = min_max(&finals);
        return Some(Median::Point(
            quantile(&ends, 0.5),
            quantile(&finals, 0.5),
            lo,
            hi,
        ));
    }
    let ratio = (end / start).ln();
    // The last grid point is the end itself (exp/ln may round below it).
    let grid = (0..GRID).map(|i| {
        if i + 1 == GRID {
            end
        } else {
            (start * (ratio * i as f64 / (GRID - 1) as f64).exp()).min(end)
        }
    });
    Some(Median::Curve(
        grid.map(|t| {
            let v: Vec<f64> = curves
                .iter()
                .map(|c| value_at(c, t).expect("every run started by the grid's start"))
                .collect();
            let (lo, hi) = min_max(&v);
            (t, quantile(&v, 0.5), lo, hi)
        })
        .collect(),
    ))
}

fn min_max(v: &[f64]) -> (f64, f64) {
    v.iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(lo, hi), &x| {
            (lo.min(x), hi.max(x))
        })
}

/// The target IL of a case from its runs (every pipeline): best final IL plus
/// [`TARGET_PERCENT`] percent.
pub(crate) fn target(runs: &[&Record]) -> Option<f64> {
    let best = runs.iter().map(|r| r.il).fold(f64::INFINITY, f64::min);
    best.is_finite()
        .then(|| best * (1.0 + TARGET_PERCENT / 100.0))
}

/// When a run's best-so-far IL first reaches `target` (None: never).
pub(crate) fn time_to_target(r: &Record, target: f64) -> Option<f64> {
    run_curve(r).iter().find(|p| p.1 <= target).map(|p| p.0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::experiment::record::StageResult;
    use crate::search::trace::TracePoint;

    fn stage(il: f64, seconds: f64) -> StageResult {
        StageResult {
            name: "s".into(),
            seed: 0,
            sse: il,
            il,
            groups: 1,
            seconds,
            stop: None,
            steps: None,
            stats: None,
        }
    }

    fn tp(seconds: f64, best_il: f64) -> TracePoint {
        TracePoint {
            seconds,
            stage: "ils".into(),
            step: 0,
            current_il: best_il + 1.0,
            best_il,
        }
    }

    fn record(stages: Vec<StageResult>, trace: Option<Vec<TracePoint>>) -> Record {
        let mut r: Record = serde_json::from_str(MINIMAL).unwrap();
        r.il = stages.last().unwrap().il;
        r.stages = stages;
        r.trace = trace;
        r
    }

    const MINIMAL: &str = r#"{"suite":"t","index":0,"run_id":"a","instance":"i","instance_name":"i","instance_sha256":"","n":1,"d":1,"k":1,"pipeline":"p","method":"p","params":[],"seeds":{"base":0,"run":0,"replicate":0,"stages":[]},"time_limit":null,"bounds_requested":[],"stages":[],"sse":0,"il":0,"groups":1,"min_group_size":1,"max_group_size":1,"bounds":[],"best_bound":null,"gap":null,"seconds":0,"version":"","git_commit":""}"#;

    #[test]
    fn run_curve_merges_stage_ends_and_trace_into_a_falling_step_function() {
        let r = record(
            vec![stage(10.0, 0.01), stage(7.0, 0.99)],
            Some(vec![
                tp(0.02, 9.0),
                tp(0.5, 8.0),
                tp(0.6, 8.5),
                tp(1.0, 7.0),
            ]),
        );
        let c = run_curve(&r);
        assert_eq!(c, vec![(0.01, 10.0), (0.02, 9.0), (0.5, 8.0), (1.0, 7.0)]);
        assert_eq!(value_at(&c, 0.005), None);
        assert_eq!(value_at(&c, 0.7), Some(8.0));
        assert_eq!(time_to_target(&r, 8.0), Some(0.5));
        assert_eq!(time_to_target(&r, 6.9), None);
        // Without a trace: the stage ends only.
        let plain = record(vec![stage(10.0, 0.01), stage(7.0, 0.99)], None);
        assert_eq!(run_curve(&plain), vec![(0.01, 10.0), (1.0, 7.0)]);
    }

    #[test]
    fn median_curve_of_three_runs_and_a_single_point_method() {
        let runs: Vec<Record> = [(9.0, 6.0), (8.0, 5.0), (10.0, 7.0)]
            .iter()
            .map(|&(a, b)| record(vec![stage(a, 0.001), stage(b, 1.0)], None))
            .collect();
        let refs: Vec<&Record> = runs.iter().collect();
        let Some(Median::Curve(c)) = median_curve(&refs) else {
            panic!("a curve")
        };
        assert_eq!(c.len(), GRID);
        assert_eq!(c[0], (0.001, 9.0, 8.0, 10.0));
        let last = c[GRID - 1];
        assert!((last.0 - 1.001).abs() < 1e-12 && (last.1, last.2, last.3) == (6.0, 5.0, 7.0));
        assert_eq!(target(&refs), Some(5.0 * 1.01));
        let single: Vec<Record> = [3.0, 4.0]
            .iter()
            .map(|&a| record(vec![stage(a, 0.002)], None))
            .collect();
        let refs: Vec<&Record> = single.iter().collect();
        assert_eq!(
            median_curve(&refs),
            Some(Median::Point(0.002, 3.5, 3.0, 4.0))
        );
    }
}
