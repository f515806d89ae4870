//! # Figures
//!
//! Figures from run records, each written as SVG, PNG and PDF ([`super::export`]) at a
//! column's width in the style of [`super::style`] (Okabe-Ito colours, one marker shape per
//! series, legends below the data, horizontal case labels):
//!
//! - **convergence-CASE**, one per case (instance, k), and **time-to-target**: drawn from
//!   the runs' best-so-far curves (stage ends and search traces), see [`super::anytime`].
//! - **boxplot-CASE**, one per case: final IL over seeds per pipeline (box = quartiles,
//!   middle line = median, whiskers = minimum and maximum).
//! - **gaps** (when some record has a bound): per case and pipeline, a bar to the gap of the
//!   best run and a diamond at the gap of the median run, to the case's best bound; the
//!   bound's method is named in the axis title.
//! - **profile-il** and **profile-time** (Dolan & More performance profiles, when the records
//!   hold two or more pipelines): for each pipeline, the fraction of cases whose median final
//!   IL (resp. median time) is within a factor tau of the best pipeline's on that case.
//!
//! ## Complexity
//! O(records log records) for the statistics; drawing is linear in the points drawn.
//!
//! ## References
//! E. D. Dolan and J. J. More, "Benchmarking optimization software with performance
//! profiles", Mathematical Programming 91 (2002) 201-213. plotters crate documentation.

mod gaps;
mod profile;

use super::anytime;
pub use super::curves::{median, quantile};
use super::export::write_formats;
use super::layout::{draw_legend, font, padded, under, with_legend, DrawResult, Y_FRACTION};
use super::style::{self, case_label, color, decimals, draw_marker, log_tick_sparse, shape, Shape};
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
pub fn profile_ratios(cost: &[Vec<Option<f64>>]) -> Vec<Vec<f64>> {
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

/// Write every figure into `dir` (SVG, PNG and PDF each); returns the files written.
pub fn write_figures(records: &[Record], dir: &Path) -> Result<Vec<PathBuf>> {
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
            anytime::convergence_svg(&label, &of_case, &pipelines),
        )?;
        emit(
            format!("boxplot-{safe}"),
            boxplot_svg(&label, &of_case, &pipelines),
        )?;
    }
    emit(
        "time-to-target".into(),
        anytime::time_to_target_svg(records, &pipelines),
    )?;
    if records.iter().any(|r| r.best_bound.is_some()) {
        emit("gaps".into(), gaps_svg(records, &cases, &pipelines))?;
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
            ),
        )?;
        emit(
            "profile-time".into(),
            profile_svg(
                "Performance profile: time",
                "ratio to the fastest median time",
                &profile_ratios(&cost(&|r| r.seconds.max(1e-6))),
                &pipelines,
                true,
            ),
        )?;
    }
    Ok(written)
}

fn boxplot_svg(title: &str, runs: &[&Record], all: &[String]) -> DrawResult<String> {
    let pipelines: Vec<usize> = (0..all.len())
        .filter(|&i| runs.iter().any(|r| r.pipeline == all[i]))
        .collect();
    let stats: Vec<(usize, [f64; 5])> = pipelines
        .iter()
        .map(|&i| {
            let ils: Vec<f64> = runs
                .iter()
                .filter(|r| r.pipeline == all[i])
                .map(|r| r.il)
                .collect();
            (i, [0.0, 0.25, 0.5, 0.75, 1.0].map(|q| quantile(&ils, q)))
        })
        .collect();
    let lo = stats.iter().map(|s| s.1[0]).fold(f64::INFINITY, f64::min);
    let hi = stats
        .iter()
        .map(|s| s.1[4])
        .fold(f64::NEG_INFINITY, f64::max);
    let (x0, x1) = padded(lo, hi);
    let dec = decimals(x1 - x0);
    let n = stats.len();
    let label_w = pipelines
        .iter()
        .map(|&i| style::text_width(&all[i]))
        .max()
        .unwrap_or(0)
        + 40;
    let height = 260 + 110 * n as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (style::WIDTH, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(title, font(style::TITLE))
            .margin(20)
            .margin_right(50)
            .x_label_area_size(130)
            .y_label_area_size(label_w.min(style::WIDTH / 2))
            .build_cartesian_2d(x0..x1, -0.5..(n as f64 - 0.5))?;
        chart
            .configure_mesh()
            .x_desc("final IL over seeds (%)")
            .label_style(font(style::TEXT))
            .axis_desc_style(font(style::TITLE))
            .x_label_formatter(&|x| format!("{x:.dec$}"))
            .x_labels(5)
            .y_labels(0)
            .disable_y_mesh()
            .light_line_style(WHITE)
            .bold_line_style(BLACK.mix(0.12))
            .axis_style(BLACK.stroke_width(2))
            .draw()?;
        for (row, (i, q)) in stats.iter().enumerate() {
            // First pipeline at the top.
            let y = (n - 1 - row) as f64;
            let c = color(*i);
            chart.draw_series([
                Rectangle::new([(q[1], y - 0.3), (q[3], y + 0.3)], c.mix(0.35).filled()),
                Rectangle::new([(q[1], y - 0.3), (q[3], y + 0.3)], c.stroke_width(3)),
            ])?;
            chart.draw_series([
                PathElement::new(vec![(q[0], y), (q[1], y)], c.stroke_width(3)),
                PathElement::new(vec![(q[3], y), (q[4], y)], c.stroke_width(3)),
                PathElement::new(vec![(q[0], y - 0.15), (q[0], y + 0.15)], c.stroke_width(3)),
                PathElement::new(vec![(q[4], y - 0.15), (q[4], y + 0.15)], c.stroke_width(3)),
                PathElement::new(
                    vec![(q[2], y - 0.3), (q[2], y + 0.3)],
                    BLACK.stroke_width(5),
                ),
            ])?;
            // The median as the series' marker: a deterministic method has no box at all.
            draw_marker(chart.plotting_area(), (q[2], y), shape(*i), c, style::MARK)?;
            let (px, py) = chart.backend_coord(&(x0, y));
            root.draw(&Text::new(
                all[*i].clone(),
                (px - 15, py),
                font(style::TEXT).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
        }
        root.present()?;
    }
    Ok(svg)
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
