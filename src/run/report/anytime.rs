//! # Anytime figures
//!
//! The two figures drawn from the runs' best-so-far curves ([`super::curves`]), on a log time
//! axis, legend below the data:
//!
//! - **convergence-CASE**: IL against time, per pipeline the median over seeds (line) with a
//!   band from the minimum to the maximum over seeds; a pipeline whose runs give one
//!   partition each (a constructive method) is a marker at the median with a bar from the
//!   minimum to the maximum. The case's best certified lower bound is a dashed black line.
//! - **time-to-target**: over every case of the records, per pipeline the fraction of its
//!   runs whose best-so-far IL has reached the case's target by time t (target: best final IL
//!   of the case over all runs + [`TARGET_PERCENT`](super::curves::TARGET_PERCENT) %).
//!
//! ## Complexity
//! Linear in the points drawn (80 grid points per pipeline and case).
//!
//! ## References
//! H. H. Hoos and T. Stuetzle, "Stochastic Local Search", Morgan Kaufmann 2004 (run-time
//! distributions); plotters crate documentation.

use super::curves::{self, Median, MIN_SECONDS, TARGET_PERCENT};
use super::layout::{
    chart_on, draw_legend, font, house_mesh, marker, padded, with_legend, DrawResult, LegendEntry,
    Y_FRACTION,
};
use super::style::{color, decimals, draw_marker, log_tick_sparse, shape, FigureStyle};
use crate::experiment::record::Record;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// Whole decades around [lo, hi] (so that the log axis has labelled ticks), widened so that
/// no point sits on the axis itself (at least a factor 1.5 of room at either end).
fn decades(lo: f64, hi: f64) -> (f64, f64) {
    if !(lo.is_finite() && hi.is_finite() && lo > 0.0) {
        return (1e-3, 1.0);
    }
    let a = lo.log10().floor();
    let b = hi.log10().ceil().max(a + 1.0);
    (10f64.powf(a).min(lo / 1.5), 10f64.powf(b).max(hi * 1.5))
}

/// Markers along the median line of series `i` (indices into its `n` points): two, at
/// fractions of the line that differ from series to series, so that markers of lines that
/// start and end together (every refinement starts from the same partition) do not pile up
/// and each series still reads in grey.
fn marker_indices(i: usize, n: usize) -> [usize; 2] {
    let at = |f: f64| ((n.saturating_sub(1)) as f64 * f).round() as usize;
    let shift = 0.1 * (i % 4) as f64;
    [at(0.15 + shift), at(0.55 + shift)]
}

/// Legend of the best-known partition's line.
const KNOWN: &str = "best-known partition (library)";

pub(crate) fn convergence_svg(
    title: &str,
    runs: &[&Record],
    all: &[String],
    st: &FigureStyle,
) -> DrawResult<String> {
    let series: Vec<(usize, Median)> = all
        .iter()
        .enumerate()
        .filter_map(|(i, p)| {
            let of: Vec<&Record> = runs.iter().copied().filter(|r| &r.pipeline == p).collect();
            curves::median_curve(&of).map(|m| (i, m))
        })
        .collect();
    let bound = runs
        .iter()
        .filter_map(|r| r.best_bound.as_ref())
        .filter(|b| b.certified)
        .max_by(|a, b| a.il.total_cmp(&b.il));
    // The best-known partition's IL (benchmark library), when the records carry it.
    let known_il = runs
        .iter()
        .find_map(|r| Some(100.0 * r.best_known_sse? / r.sst?));
    let (xs, ys) = convergence_axes(&series, bound.map(|b| b.il), known_il);
    let mut names: Vec<String> = series.iter().map(|(i, _)| all[*i].clone()).collect();
    if let Some(b) = bound {
        names.push(format!("certified LB ({})", b.name));
    }
    if known_il.is_some() {
        names.push(KNOWN.to_string());
    }
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (st.width(), st.px(860))).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom, cols) = with_legend(&root, &names, st);
        let top = title_strip(top, title, st)?;
        let (x0, x1) = xs;
        let mut chart = ChartBuilder::on(&top)
            .margin(st.px(20))
            .margin_top(st.px(30))
            .margin_right(st.px(60))
            .x_label_area_size(st.px(130))
            .y_label_area_size(st.px(170))
            .build_cartesian_2d((x0..x1).log_scale(), ys.0..ys.1)?;
        time_mesh(
            &mut chart,
            st,
            xs,
            "best IL so far (%)",
            decimals(ys.1 - ys.0),
        )?;
        let mut legend = draw_medians(&mut chart, &series, all, st)?;
        if let Some(b) = bound {
            chart.draw_series(DashedLineSeries::new(
                vec![(x0, b.il), (x1, b.il)],
                st.px(18),
                st.px(10),
                BLACK.stroke_width(st.line()),
            ))?;
            legend.push((
                format!("certified LB ({})", b.name),
                RGBColor(0, 0, 0),
                None,
                true,
            ));
        }
        if let Some(il) = known_il {
            chart.draw_series(DashedLineSeries::new(
                vec![(x0, il), (x1, il)],
                st.px(6),
                st.px(8),
                RGBColor(90, 90, 90).stroke_width(st.line()),
            ))?;
            legend.push((KNOWN.to_string(), RGBColor(90, 90, 90), None, true));
        }
        draw_legend(&bottom, &legend, cols, st)?;
        root.present()?;
    }
    Ok(svg)
}

/// The time axis (whole decades) and the IL axis (padded) of everything drawn: the median
/// curves and bands, the bound `bound_il` and the best-known IL `known_il`.
fn convergence_axes(
    series: &[(usize, Median)],
    bound_il: Option<f64>,
    known_il: Option<f64>,
) -> ((f64, f64), (f64, f64)) {
    // (time, lo, hi) of everything drawn, for the axes.
    let extent: Vec<(f64, f64, f64)> = series
        .iter()
        .flat_map(|(_, m)| match m {
            Median::Point(t, _, lo, hi) => vec![(*t, *lo, *hi)],
            Median::Curve(c) => c.iter().map(|p| (p.0, p.2, p.3)).collect(),
        })
        .collect();
    let t_lo = extent.iter().map(|e| e.0).fold(f64::INFINITY, f64::min);
    let t_hi = extent.iter().map(|e| e.0).fold(0.0, f64::max);
    let il_lo = extent
        .iter()
        .map(|e| e.1)
        .chain(bound_il)
        .chain(known_il)
        .fold(f64::INFINITY, f64::min);
    let il_hi = extent
        .iter()
        .map(|e| e.2)
        .chain(known_il)
        .fold(f64::NEG_INFINITY, f64::max);
    let ys = if il_lo.is_finite() && il_hi.is_finite() {
        padded(il_lo, il_hi)
    } else {
        (0.0, 1.0)
    };
    (decades(t_lo, t_hi), ys)
}

/// The area below the title: the title in a strip of its own (the top y tick label can sit
/// at the plot's top edge and must not run into it), or all of `top` without a title.
fn title_strip<'a>(
    top: DrawingArea<SVGBackend<'a>, Shift>,
    title: &str,
    st: &FigureStyle,
) -> DrawResult<DrawingArea<SVGBackend<'a>, Shift>> {
    if !st.title {
        return Ok(top);
    }
    let (title_area, rest) = top.split_vertically((st.title_text() * 1.4) as u32);
    let (tw, th) = title_area.dim_in_pixel();
    title_area.draw(&Text::new(
        title.to_string(),
        (tw as i32 / 2, th as i32 / 2 + st.px(10) as i32),
        font(st.title_text()).pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    Ok(rest)
}

/// A chart over log time `x0..x1` and a linear y axis.
type TimeChart<'a, 'b> =
    ChartContext<'a, SVGBackend<'b>, Cartesian2d<LogCoord<f64>, RangedCoordf64>>;

/// The grid and the axes of a chart over log time: time ticks sparse by decade, `y_desc` on
/// the y axis with ticks of `dec` decimals.
fn time_mesh(
    chart: &mut TimeChart,
    st: &FigureStyle,
    (x0, x1): (f64, f64),
    y_desc: &str,
    dec: usize,
) -> DrawResult<()> {
    house_mesh(&mut chart.configure_mesh(), st)
        .x_desc("time (s)")
        .y_desc(y_desc)
        .x_label_formatter(&|x| log_tick_sparse(*x, (x1 / x0).log10()))
        .y_label_formatter(&|y| format!("{y:.dec$}"))
        .y_labels(6)
        .draw()?;
    Ok(())
}

/// The median curves of `series` with their bands, and the constructive methods' points
/// with their ranges; the legend entries of the series.
fn draw_medians(
    chart: &mut TimeChart,
    series: &[(usize, Median)],
    all: &[String],
    st: &FigureStyle,
) -> DrawResult<Vec<LegendEntry>> {
    let mut legend = Vec::new();
    // Bands first, so that no band covers another pipeline's line.
    for (i, m) in series {
        if let Median::Curve(c) = m {
            let mut poly: Vec<(f64, f64)> = c.iter().map(|p| (p.0, p.3)).collect();
            poly.extend(c.iter().rev().map(|p| (p.0, p.2)));
            chart.draw_series(std::iter::once(Polygon::new(
                poly,
                color(*i).mix(0.18).filled(),
            )))?;
        }
    }
    for (i, m) in series {
        let curve = matches!(m, Median::Curve(_));
        legend.push((all[*i].clone(), color(*i), Some(shape(*i)), curve));
    }
    // Curves first, then the constructive methods' points over them.
    let mut ordered: Vec<&(usize, Median)> = series.iter().collect();
    ordered.sort_by_key(|(_, m)| matches!(m, Median::Point(..)));
    for (i, m) in ordered {
        let c = color(*i);
        match m {
            Median::Point(t, med, lo, hi) => {
                chart.draw_series(std::iter::once(PathElement::new(
                    vec![(*t, *lo), (*t, *hi)],
                    c.stroke_width(st.line()),
                )))?;
                draw_marker(chart.plotting_area(), (*t, *med), shape(*i), c, marker(st))?;
            }
            Median::Curve(pts) => {
                let line: Vec<(f64, f64)> = pts.iter().map(|p| (p.0, p.1)).collect();
                chart.draw_series(LineSeries::new(line.clone(), c.stroke_width(st.line())))?;
                for j in marker_indices(*i, line.len()) {
                    draw_marker(chart.plotting_area(), line[j], shape(*i), c, marker(st))?;
                }
            }
        }
    }
    Ok(legend)
}

/// Per pipeline (index into `all`), the sorted times to target of its runs over every case
/// (None: never reached), and the number of runs.
pub fn times_to_target(records: &[Record], all: &[String]) -> Vec<(Vec<f64>, usize)> {
    let cases: Vec<(&str, usize)> = {
        let mut c: Vec<(&str, usize)> = Vec::new();
        for r in records {
            if !c.contains(&(r.instance.as_str(), r.k)) {
                c.push((r.instance.as_str(), r.k));
            }
        }
        c
    };
    all.iter()
        .map(|p| {
            let mut times = Vec::new();
            let mut count = 0;
            for &(inst, k) in &cases {
                let of_case: Vec<&Record> = records
                    .iter()
                    .filter(|r| r.instance == inst && r.k == k)
                    .collect();
                let Some(target) = curves::target(&of_case) else {
                    continue;
                };
                for r in of_case.iter().filter(|r| &r.pipeline == p) {
                    count += 1;
                    times.extend(curves::time_to_target(r, target));
                }
            }
            times.sort_by(f64::total_cmp);
            (times, count)
        })
        .collect()
}

pub(crate) fn time_to_target_svg(
    records: &[Record],
    all: &[String],
    st: &FigureStyle,
) -> DrawResult<String> {
    let ttt = times_to_target(records, all);
    // The axis spans every run, from the first partition found to the end of the slowest.
    let spans: Vec<(f64, f64)> = records
        .iter()
        .filter_map(|r| {
            let c = curves::run_curve(r);
            Some((c.first()?.0, c.last()?.0))
        })
        .collect();
    let t_lo = spans.iter().map(|s| s.0).fold(f64::INFINITY, f64::min);
    let t_hi = spans.iter().map(|s| s.1).fold(MIN_SECONDS, f64::max);
    let (x0, x1) = decades(t_lo, t_hi);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (st.width(), st.px(940))).into_drawing_area();
        root.fill(&WHITE)?;
        // Legend names carry how many runs got there.
        let names: Vec<String> = all
            .iter()
            .zip(&ttt)
            .map(|(p, (t, n))| format!("{p} ({}/{n})", t.len()))
            .collect();
        let (top, bottom, cols) = with_legend(&root, &names, st);
        let title = format!("Time to target (best IL of the case + {TARGET_PERCENT} %)");
        let mut chart = chart_on(&top, st, &title)
            .margin(st.px(20))
            .margin_right(st.px(60))
            .x_label_area_size(st.px(130))
            .y_label_area_size(st.px(150))
            .build_cartesian_2d((x0..x1).log_scale(), Y_FRACTION)?;
        time_mesh(&mut chart, st, (x0, x1), "fraction at target", 1)?;
        let mut legend = Vec::new();
        for (i, (times, runs)) in ttt.iter().enumerate() {
            let c = color(i);
            let n = (*runs).max(1) as f64;
            // Empirical distribution as a staircase, from the axis start to its end.
            let mut pts = vec![(x0, 0.0)];
            for (j, &t) in times.iter().enumerate() {
                pts.push((t, j as f64 / n));
                pts.push((t, (j + 1) as f64 / n));
            }
            let last = times.len() as f64 / n;
            pts.push((x1, last));
            chart.draw_series(LineSeries::new(pts, c.stroke_width(st.line())))?;
            // A marker where the curve ends its rise, or at the axis end when no run got there.
            let at = times.last().map_or((x1, 0.0), |&t| (t, last));
            draw_marker(chart.plotting_area(), at, shape(i), c, marker(st))?;
            legend.push((names[i].clone(), c, Some(shape(i)), true));
        }
        draw_legend(&bottom, &legend, cols, st)?;
        root.present()?;
    }
    Ok(svg)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_round_outward() {
        assert_eq!(decades(0.003, 0.2), (1e-3, 1.0));
        assert_eq!(decades(2.0, 2.0), (1.0, 10.0));
        assert_eq!(decades(f64::INFINITY, 0.0), (1e-3, 1.0));
        // A point just above a decade gets room before the axis.
        assert_eq!(decades(1.2e-5, 0.5), (1.2e-5 / 1.5, 1.0));
    }
}
