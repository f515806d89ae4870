//! # Figures
//!
//! SVG figures from run records, drawn with `plotters` (SVG backend only):
//!
//! - **convergence**, one figure per case (instance, k): best IL against time, one line per
//!   pipeline. Runs do not keep a trace of improvements, so the points are the ends of the
//!   pipeline's stages: x = median over seeds of the cumulative time at the end of the stage,
//!   y = median over seeds of the IL after the stage, with a vertical bar from the minimum to
//!   the maximum over seeds. The best lower bound of the case, when there is one, is drawn as
//!   a dashed horizontal line (as IL).
//! - **gaps**: the gap of the best run to the best bound per case, one series per pipeline
//!   (only when some record has a bound).
//!
//! ## Complexity
//! Linear in the number of records.
//!
//! ## References
//! plotters crate documentation (docs.rs/plotters).

use super::tables::CaseRow;
use crate::error::{Error, Result};
use crate::experiment::record::Record;
use plotters::prelude::*;
use std::path::{Path, PathBuf};

/// Median of a non-empty slice (mean of the two middle values for an even count).
pub fn median(values: &[f64]) -> f64 {
    let mut v = values.to_vec();
    v.sort_by(f64::total_cmp);
    let m = v.len() / 2;
    if v.len() % 2 == 1 {
        v[m]
    } else {
        0.5 * (v[m - 1] + v[m])
    }
}

/// One point of a convergence line: (median time, median IL, min IL, max IL).
pub type ConvergencePoint = (f64, f64, f64, f64);

/// Convergence points of one pipeline from its runs' stage records (stages in order).
pub fn convergence_points(runs: &[&Record]) -> Vec<ConvergencePoint> {
    let stages = runs.iter().map(|r| r.stages.len()).min().unwrap_or(0);
    (0..stages)
        .map(|j| {
            let times: Vec<f64> = runs
                .iter()
                .map(|r| r.stages[..=j].iter().map(|s| s.seconds).sum())
                .collect();
            let ils: Vec<f64> = runs.iter().map(|r| r.stages[j].il).collect();
            let lo = ils.iter().copied().fold(f64::INFINITY, f64::min);
            let hi = ils.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            (median(&times), median(&ils), lo, hi)
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

/// Write every figure into `dir`; returns the files written.
pub fn write_figures(records: &[Record], rows: &[CaseRow], dir: &Path) -> Result<Vec<PathBuf>> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let mut written = Vec::new();
    // Cases in order of first appearance.
    let mut cases: Vec<(String, usize)> = Vec::new();
    for r in records {
        let c = (r.instance.clone(), r.k);
        if !cases.contains(&c) {
            cases.push(c);
        }
    }
    for (instance, k) in &cases {
        let of_case: Vec<&Record> = records
            .iter()
            .filter(|r| &r.instance == instance && r.k == *k)
            .collect();
        let path = dir.join(format!("convergence-{}-k{k}.svg", file_safe(instance)));
        let svg = convergence_svg(&format!("{instance}, k = {k}"), &of_case)
            .map_err(|e| draw_err(&path, e))?;
        crate::output::write_atomic(&path, svg.as_bytes())?;
        written.push(path);
    }
    if rows.iter().any(|r| r.gap.is_some()) {
        let path = dir.join("gaps.svg");
        let svg = gaps_svg(rows).map_err(|e| draw_err(&path, e))?;
        crate::output::write_atomic(&path, svg.as_bytes())?;
        written.push(path);
    }
    Ok(written)
}

type DrawResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

fn padded(lo: f64, hi: f64) -> (f64, f64) {
    // Equal values (a deterministic method over seeds) still get a readable axis.
    let span = (hi - lo).abs().max(0.01 * hi.abs()).max(1e-6);
    (lo - 0.08 * span, hi + 0.08 * span)
}

fn convergence_svg(title: &str, runs: &[&Record]) -> DrawResult<String> {
    let mut pipelines: Vec<String> = Vec::new();
    for r in runs {
        if !pipelines.contains(&r.pipeline) {
            pipelines.push(r.pipeline.clone());
        }
    }
    let series: Vec<(String, Vec<ConvergencePoint>)> = pipelines
        .iter()
        .map(|p| {
            let of: Vec<&Record> = runs.iter().copied().filter(|r| &r.pipeline == p).collect();
            (p.clone(), convergence_points(&of))
        })
        .collect();
    let bound_il = runs
        .iter()
        .filter_map(|r| r.best_bound.as_ref().map(|b| b.il))
        .fold(None, |a: Option<f64>, b| Some(a.map_or(b, |a| a.max(b))));
    let pts = series.iter().flat_map(|(_, p)| p.iter());
    let t_max = pts.clone().map(|p| p.0).fold(0.0, f64::max);
    let il_lo = pts
        .clone()
        .map(|p| p.2)
        .chain(bound_il)
        .fold(f64::INFINITY, f64::min);
    let il_hi = pts.map(|p| p.3).fold(f64::NEG_INFINITY, f64::max);
    let (y0, y1) = padded(il_lo, il_hi);
    let x1 = if t_max > 0.0 { t_max * 1.1 } else { 1e-3 };

    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (800, 500)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(format!("Convergence: {title}"), ("sans-serif", 20))
            .margin(15)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(0.0..x1, y0..y1)?;
        chart
            .configure_mesh()
            .x_desc("time (s, median over seeds, end of each stage)")
            .y_desc("IL (%)")
            .y_label_formatter(&|y| format!("{y:.4}"))
            .draw()?;
        if let Some(b) = bound_il {
            chart
                .draw_series(DashedLineSeries::new(
                    vec![(0.0, b), (x1, b)],
                    6,
                    4,
                    BLACK.stroke_width(1),
                ))?
                .label("best lower bound")
                .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLACK));
        }
        for (i, (name, points)) in series.iter().enumerate() {
            let color = Palette99::pick(i).to_rgba();
            let line: Vec<(f64, f64)> = points.iter().map(|p| (p.0, p.1)).collect();
            chart
                .draw_series(LineSeries::new(line.clone(), color.stroke_width(2)))?
                .label(name.clone())
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color));
            chart.draw_series(
                line.iter()
                    .map(|&(x, y)| Circle::new((x, y), 3, color.filled())),
            )?;
            chart.draw_series(
                points
                    .iter()
                    .map(|p| PathElement::new(vec![(p.0, p.2), (p.0, p.3)], color)),
            )?;
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .position(SeriesLabelPosition::UpperRight)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

fn gaps_svg(rows: &[CaseRow]) -> DrawResult<String> {
    let mut cases: Vec<(String, usize)> = Vec::new();
    let mut pipelines: Vec<String> = Vec::new();
    for r in rows {
        let c = (r.instance.clone(), r.k);
        if !cases.contains(&c) {
            cases.push(c);
        }
        if !pipelines.contains(&r.pipeline) {
            pipelines.push(r.pipeline.clone());
        }
    }
    let g_max = rows.iter().filter_map(|r| r.gap).fold(0.0, f64::max);
    let y1 = if g_max > 0.0 { g_max * 1.15 } else { 1.0 };
    let labels: Vec<String> = cases.iter().map(|(i, k)| format!("{i} k={k}")).collect();
    let mut svg = String::new();
    {
        let width = (200 + 60 * cases.len() as u32).max(600);
        let root = SVGBackend::with_string(&mut svg, (width, 520)).into_drawing_area();
        root.fill(&WHITE)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Gap of the best run to the best lower bound",
                ("sans-serif", 20),
            )
            .margin(15)
            .x_label_area_size(140)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5..(cases.len() as f64 - 0.5), 0.0..y1)?;
        chart
            .configure_mesh()
            .x_labels(cases.len())
            .x_label_formatter(&|x| {
                let i = x.round();
                if (x - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < labels.len() {
                    labels[i as usize].clone()
                } else {
                    String::new()
                }
            })
            .x_label_style(
                ("sans-serif", 12)
                    .into_font()
                    .transform(FontTransform::Rotate90),
            )
            .y_desc("gap (%)")
            .draw()?;
        for (pi, p) in pipelines.iter().enumerate() {
            let color = Palette99::pick(pi).to_rgba();
            let pts: Vec<(f64, f64)> = rows
                .iter()
                .filter(|r| &r.pipeline == p)
                .filter_map(|r| {
                    let ci = cases.iter().position(|c| c.0 == r.instance && c.1 == r.k)?;
                    r.gap.map(|g| (ci as f64, g))
                })
                .collect();
            chart
                .draw_series(
                    pts.iter()
                        .map(|&(x, y)| Circle::new((x, y), 4, color.filled())),
                )?
                .label(p.clone())
                .legend(move |(x, y)| Circle::new((x + 10, y), 4, color.filled()));
        }
        chart
            .configure_series_labels()
            .background_style(WHITE.mix(0.85))
            .border_style(BLACK)
            .draw()?;
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gap_figure_is_written_only_when_some_case_has_a_bound() {
        let row = |pipeline: &str, gap: Option<f64>| CaseRow {
            instance: "sim1:seed=1".into(),
            instance_name: "sim1:seed=1".into(),
            n: 100,
            d: 10,
            k: 3,
            pipeline: pipeline.into(),
            method: pipeline.into(),
            runs: 1,
            best_il: 30.0,
            mean_il: 30.0,
            sd_il: None,
            best_sse: 300.0,
            mean_seconds: 0.1,
            bound_sse: gap.map(|g| 300.0 * (1.0 - g / 100.0)),
            bound_il: gap.map(|g| 30.0 * (1.0 - g / 100.0)),
            gap,
            published_il: None,
            published_sse: None,
            published_source: None,
        };
        let dir = tempfile::tempdir().unwrap();
        let none = write_figures(&[], &[row("mdav", None)], dir.path()).unwrap();
        assert!(none.is_empty());
        let rows = [row("mdav", Some(4.0)), row("mdav1", Some(2.5))];
        let files = write_figures(&[], &rows, dir.path()).unwrap();
        assert_eq!(files, vec![dir.path().join("gaps.svg")]);
        let svg = std::fs::read_to_string(&files[0]).unwrap();
        assert!(
            svg.starts_with("<svg") && svg.contains("mdav1") && svg.contains("sim1:seed=1 k=3")
        );
    }

    #[test]
    fn median_of_odd_and_even_counts() {
        assert_eq!(median(&[3.0, 1.0, 2.0]), 2.0);
        assert_eq!(median(&[4.0, 1.0, 2.0, 3.0]), 2.5);
    }
}
