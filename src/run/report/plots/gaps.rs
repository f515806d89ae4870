//! # The gaps figure
//!
//! Per case and pipeline, a bar to the gap of the best run and a diamond at the gap of the
//! median run, to the case's best certified bound known (see [`super`]), and a circle at the
//! best run's gap to the best-known SSE (benchmark library) when the case has one. The axis
//! names the methods that produced the bounds (centred on the figure) (`library`: the stored certificate).
//!
//! ## Complexity
//! O(records log records) for the medians; drawing is linear in the bars drawn.
//!
//! ## References
//! plotters crate documentation.

use super::*;

/// Bars of one case: (pipeline index, best-run gap, median-run gap, best run's gap to the
/// best-known SSE).
type GapBars = Vec<(usize, f64, f64, Option<f64>)>;

/// The longest case label: 22 characters at one column and 9 pt, more on a wider figure
/// (at most a third of its width), fewer with larger text.
fn label_chars(st: &FigureStyle) -> usize {
    let room = st.width() as f64 / crate::report::style::WIDTH as f64 / st.scale();
    (22.0 * room).round().clamp(12.0, 48.0) as usize
}

pub(super) fn gaps_svg(
    records: &[Record],
    cases: &[(String, usize)],
    all: &[String],
    st: &FigureStyle,
) -> DrawResult<String> {
    // Per case and pipeline: (pipeline index, best-run gap, median-run gap).
    let mut rows: Vec<(String, GapBars)> = Vec::new();
    for (inst, k) in cases {
        let mut bars = Vec::new();
        for (i, p) in all.iter().enumerate() {
            let of: Vec<&Record> = records
                .iter()
                .filter(|r| &r.instance == inst && r.k == *k && &r.pipeline == p)
                .collect();
            let gaps: Vec<f64> = of.iter().filter_map(|r| r.gap).collect();
            if !gaps.is_empty() {
                let best = gaps.iter().copied().fold(f64::INFINITY, f64::min);
                let known = of.iter().filter_map(|r| r.gap_best_known).reduce(f64::min);
                bars.push((i, best, median(&gaps), known));
            }
        }
        if !bars.is_empty() {
            rows.push((case_label(inst, *k, label_chars(st)), bars));
        }
    }
    let methods = distinct(
        records
            .iter()
            .filter_map(|r| r.best_bound.as_ref().map(|b| b.name.clone())),
    );
    let g_max = rows
        .iter()
        .flat_map(|(_, b)| b.iter().map(|x| x.2.max(x.1)))
        .fold(0.0, f64::max);
    let x1 = if g_max > 0.0 { g_max * 1.1 } else { 1.0 };
    // A run below the best-known SSE has a negative gap to it: the axis starts there.
    let g_min = rows
        .iter()
        .flat_map(|(_, b)| b.iter().filter_map(|x| x.3))
        .fold(0.0, f64::min);
    let x0 = if g_min < 0.0 { g_min * 1.1 } else { 0.0 };
    let has_known = rows.iter().any(|(_, b)| b.iter().any(|x| x.3.is_some()));
    let dec = decimals(x1);
    let slots: usize = rows.iter().map(|(_, b)| b.len()).sum();
    let used: Vec<usize> = distinct(rows.iter().flat_map(|(_, b)| b.iter().map(|x| x.0)));
    let mut names: Vec<String> = used.iter().map(|&i| all[i].clone()).collect();
    names.push("median run".into());
    if has_known {
        names.push("best run, gap to best-known SSE".into());
    }
    let label_w = rows
        .iter()
        .map(|(l, _)| st.text_width(l))
        .max()
        .unwrap_or(0)
        + st.px(40);
    let height = st.px(420 + 38 * slots as u32 + 30 * rows.len() as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (st.width(), height)).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom, cols) = with_legend(&root, &names, st);
        let total = slots as f64 + rows.len() as f64 * 0.8;
        let title = "Gap of the best run to the bound";
        let mut chart = row_chart(&top, st, title, label_w, x0..x1, 0.0..total, dec, None)?;
        // The axis title centred on the figure, not on the plot: the case labels take the
        // left of a column and a title centred on the rest would run past the right edge.
        let (tw, th) = top.dim_in_pixel();
        top.draw(&Text::new(
            format!("gap to best bound: {} (%)", methods.join(", ")),
            (tw as i32 / 2, th as i32 - st.px(30) as i32),
            font(st.title_text()).pos(Pos::new(HPos::Center, VPos::Center)),
        ))?;
        // Rows from the top: a case's bars one per slot, 0.8 slot between cases.
        let mut y = total - 0.4;
        for (label, bars) in &rows {
            let y_top = y;
            for &(i, best, med, known) in bars {
                let c = color(i);
                chart.draw_series(std::iter::once(Rectangle::new(
                    [(0.0, y - 0.9), (best, y - 0.1)],
                    c.filled(),
                )))?;
                // The median run (diamond), then the best run's gap to the best-known SSE
                // (circle) when there is one.
                let marks = [
                    (Some(med), Shape::Diamond, RGBColor(0, 0, 0)),
                    (known, Shape::Circle, RGBColor(90, 90, 90)),
                ];
                for (x, shape, color) in marks {
                    if let Some(x) = x {
                        draw_marker(
                            chart.plotting_area(),
                            (x, y - 0.5),
                            shape,
                            color,
                            marker(st),
                        )?;
                    }
                }
                y -= 1.0;
            }
            let (px, py) = chart.backend_coord(&(0.0, (y_top + y) / 2.0));
            root.draw(&Text::new(
                label.clone(),
                (px - st.px(15) as i32, py),
                font(st.text()).pos(Pos::new(HPos::Right, VPos::Center)),
            ))?;
            y -= 0.8;
        }
        let mut legend: Vec<(String, RGBColor, Option<Shape>, bool)> = used
            .iter()
            .map(|&i| (all[i].clone(), color(i), Some(Shape::Square), false))
            .collect();
        legend.push((
            "median run".into(),
            RGBColor(0, 0, 0),
            Some(Shape::Diamond),
            false,
        ));
        if has_known {
            legend.push((
                "best run, gap to best-known SSE".into(),
                RGBColor(90, 90, 90),
                Some(Shape::Circle),
                false,
            ));
        }
        draw_legend(&bottom, &legend, cols, st)?;
        root.present()?;
    }
    Ok(svg)
}
