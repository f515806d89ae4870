//! # Figures
//!
//! Figures from run records, each written as SVG, PNG and PDF ([`super::export`]) at a
//! column's width in the style of [`super::style`] (Okabe-Ito colours, one marker shape per
//! series, legends below the data, horizontal case labels):
//!
//! - **convergence-CASE**, one per case (instance, k), and **time-to-target**: drawn from
//!   the runs' best-so-far curves (stage ends and search traces), see [`super::anytime`].
//! - **strip-CASE** or **boxplot-CASE**, one per case: final IL over seeds per pipeline,
//!   every run as a point with a line at the median while some pipeline has fewer than
//!   `spread::BOX_FROM` runs on the case (quartiles of three values say little), else a
//!   box (quartiles, median line, whiskers to minimum and maximum); see [`spread`].
//! - **gaps** (when some record has a bound): per case and pipeline, a bar to the gap of the
//!   best run and a diamond at the gap of the median run, to the case's best bound; the
//!   bound's method is named in the axis title.
//! - **profile-il** and **profile-time** (Dolan & More performance profiles, when the records
//!   hold two or more pipelines): for each pipeline, the fraction of cases whose median final
//!   IL (resp. median time) is within a factor tau of the best pipeline's on that case.
//!   profile-time is drawn only when no run had a time limit (`time_profile_skipped`): a
//!   run cut by the clock takes the limit, not its own time, so the ratios would compare
//!   limits.
//!
//! Every figure is drawn in one [`FigureStyle`] (size preset, font size, titles).
//!
//! ## Complexity
//! O(records log records) for the statistics; drawing is linear in the points drawn.
//!
//! ## References
//! E. D. Dolan and J. J. More, "Benchmarking optimization software with performance
//! profiles", Mathematical Programming 91 (2002) 201-213. plotters crate documentation.

mod gaps;
mod profile;
pub(crate) mod spread;

use super::anytime;
pub use super::curves::median;
pub(crate) use super::curves::quantile;
use super::export::write_formats;
use super::layout::{
    chart_on, draw_legend, font, house_mesh, marker, padded, row_chart, with_legend, DrawResult,
    Y_FRACTION,
};
use super::style::{
    case_label, color, decimals, draw_marker, log_tick_sparse, shape, FigureStyle, Shape,
};
use crate::error::{Error, Result};
use crate::experiment::record::Record;
use gaps::gaps_svg;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use profile::profile_svg;
use std::path::{Path, PathBuf};

/// Dolan-More performance profile. `cost[p][c]` is pipeline p's cost on case c (None: no
/// run, counted as never within any factor). Returns per pipeline the sorted ratios to the
/// best cost of each case; rho_p(tau) = (ratios <= tau) / cases.
pub(crate) fn profile_ratios(cost: &[Vec<Option<f64>>]) -> Vec<Vec<f64>> {
    let cases = cost.first().map_or(0, |c| c.len());
    let best: Vec<Option<f64>> = (0..cases)
        .map(|c| {
            cost.iter()
                .filter_map(|p| p[c])
                .fold(None, |a: Option<f64>, x| Some(a.map_or(x, |a| a.min(x))))
        })
        .collect();
    cost.iter()
        .map(|p| {
            let mut r: Vec<f64> = (0..cases)
                .filter_map(|c| {
                    let (x, b) = (p[c]?, best[c]?);
                    // Equal costs (including 0 = 0) are ratio 1; a zero best cost makes any
                    // positive cost infinitely worse.
                    Some(if x == b {
                        1.0
                    } else if b > 0.0 {
                        x / b
                    } else {
                        f64::INFINITY
                    })
                })
                .collect();
            r.sort_by(f64::total_cmp);
            r
        })
        .collect()
}

fn file_safe(s: &str) -> String {
    s.chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

fn draw_err(path: &Path, e: impl std::fmt::Display) -> Error {
    Error::io(path, format!("drawing failed: {e}"))
}

/// Distinct values in order of first appearance.
fn distinct<T: PartialEq + Clone>(items: impl Iterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for i in items {
        if !out.contains(&i) {
            out.push(i);
        }
    }
    out
}

/// Why profile-time is not drawn for these records (module doc), or None when it is.
pub(crate) fn time_profile_skipped(records: &[Record]) -> Option<String> {
    records.iter().any(|r| r.time_limit.is_some()).then(|| {
        "profile-time not drawn: runs had a time limit, so their times measure the limit, \
         not the methods"
            .to_string()
    })
}

/// Write every figure into `dir` (SVG, PNG and PDF each) in style `st`; returns the files
/// written.
pub(crate) fn write_figures(
    records: &[Record],
    dir: &Path,
    st: &FigureStyle,
) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut written = Vec::new();
    let mut emit = |stem: String, svg: DrawResult<String>| -> Result<()> {
        let svg = svg.map_err(|e| draw_err(&dir.join(format!("{stem}.svg")), e))?;
        written.extend(write_formats(dir, &stem, &svg)?);
        Ok(())
    };
    let cases = distinct(records.iter().map(|r| (r.instance.clone(), r.k)));
    let pipelines = distinct(records.iter().map(|r| r.pipeline.clone()));
    for (instance, k) in &cases {
        let of_case: Vec<&Record> = records
            .iter()
            .filter(|r| &r.instance == instance && r.k == *k)
            .collect();
        let label = case_label(instance, *k, 40);
        let safe = format!("{}-k{k}", file_safe(instance));
        emit(
            format!("convergence-{safe}"),
            anytime::convergence_svg(&label, &of_case, &pipelines, st),
        )?;
        let kind = if spread::strip(&of_case, &pipelines) {
            "strip"
        } else {
            "boxplot"
        };
        emit(
            format!("{kind}-{safe}"),
            spread::spread_svg(&label, &of_case, &pipelines, st),
        )?;
    }
    emit(
        "time-to-target".into(),
        anytime::time_to_target_svg(records, &pipelines, st),
    )?;
    if records.iter().any(|r| r.best_bound.is_some()) {
        emit("gaps".into(), gaps_svg(records, &cases, &pipelines, st))?;
    }
    if pipelines.len() >= 2 {
        let cost = |f: &dyn Fn(&Record) -> f64| -> Vec<Vec<Option<f64>>> {
            pipelines
                .iter()
                .map(|p| {
                    cases
                        .iter()
                        .map(|(i, k)| {
                            let v: Vec<f64> = records
                                .iter()
                                .filter(|r| &r.pipeline == p && &r.instance == i && r.k == *k)
                                .map(f)
                                .collect();
                            (!v.is_empty()).then(|| median(&v))
                        })
                        .collect()
                })
                .collect()
        };
        emit(
            "profile-il".into(),
            profile_svg(
                "Performance profile: final IL",
                "ratio to the best median IL of the case",
                &profile_ratios(&cost(&|r| r.il)),
                &pipelines,
                false,
                st,
            ),
        )?;
        if time_profile_skipped(records).is_none() {
            emit(
                "profile-time".into(),
                profile_svg(
                    "Performance profile: time",
                    "ratio to the fastest median time",
                    &profile_ratios(&cost(&|r| r.seconds.max(1e-6))),
                    &pipelines,
                    true,
                    st,
                ),
            )?;
        }
    }
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn median_and_quartiles() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
        assert_eq!(quantile(&[1.0, 2.0, 3.0, 4.0, 5.0], 0.25), 2.0);
        assert_eq!(quantile(&[7.0], 0.75), 7.0);
    }

    #[test]
    fn profile_ratios_by_hand() {
        // Two cases: A is best on the first, B on the second, C has no run on the second.
        let cost = vec![
            vec![Some(10.0), Some(30.0)],
            vec![Some(20.0), Some(15.0)],
            vec![Some(10.0), None],
        ];
        let r = profile_ratios(&cost);
        assert_eq!(r[0], vec![1.0, 2.0]);
        assert_eq!(r[1], vec![1.0, 2.0]);
        assert_eq!(r[2], vec![1.0]);
        assert_eq!(
            profile_ratios(&[vec![Some(0.0)], vec![Some(1.0)]])[1],
            vec![f64::INFINITY]
        );
    }
}
