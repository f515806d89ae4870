//! # Figure layout shared by the figures
//!
//! The pieces every figure of [`super::plots`] and [`super::anytime`] draws with: the y range
//! of a fraction, padded axis ranges, label offsets, fonts, and the legend under the plot
//! (columns sized to their names). Moved out of `plots.rs` unchanged, so that the figure
//! modules import it instead of each other.
//!
//! ## Complexity
//! Linear in the legend entries.
//!
//! ## References
//! plotters crate documentation.

use super::style::{draw_marker, FigureStyle, Shape};
use plotters::chart::MeshStyle;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// The y range of a fraction (profiles, time to target): a little below 0, so that markers
/// at 0 stand clear of the axis and its labels.
pub(super) const Y_FRACTION: std::ops::Range<f64> = -0.04..1.05;

pub(super) type DrawResult<T> = std::result::Result<T, Box<dyn std::error::Error>>;

pub(super) fn padded(lo: f64, hi: f64) -> (f64, f64) {
    // Equal values (a deterministic method over seeds) still get a readable axis.
    let span = (hi - lo).abs().max(0.01 * hi.abs()).max(1e-6);
    (lo - 0.08 * span, hi + 0.08 * span)
}

/// The style's marker (radius, stroke) for [`draw_marker`].
pub(super) fn marker(st: &FigureStyle) -> (i32, u32) {
    (st.mark(), st.line())
}

/// A chart builder on `area` with the style's title (when titles are on).
pub(super) fn chart_on<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    st: &FigureStyle,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut b = ChartBuilder::on(area);
    if st.title {
        b.caption(title, font(st.title_text()));
    }
    b
}

/// The chart of a figure with one row per label (gaps, spread): x over `x` with five ticks
/// of `dec` decimals and the title `x_desc` when given, y over `y` with neither ticks nor
/// grid lines (the caller writes the row labels in the `label_w` left of the plot).
#[allow(clippy::too_many_arguments)]
pub(super) fn row_chart<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    st: &FigureStyle,
    title: &str,
    label_w: u32,
    x: std::ops::Range<f64>,
    y: std::ops::Range<f64>,
    dec: usize,
    x_desc: Option<&str>,
) -> DrawResult<ChartContext<'a, SVGBackend<'b>, Cartesian2d<RangedCoordf64, RangedCoordf64>>> {
    let mut chart = chart_on(area, st, title)
        .margin(st.px(20))
        .margin_right(st.px(50))
        .x_label_area_size(st.px(130))
        .y_label_area_size(label_w.min(st.width() / 2))
        .build_cartesian_2d(x, y)?;
    let ticks = |x: &f64| format!("{x:.dec$}");
    let mut mesh = chart.configure_mesh();
    if let Some(desc) = x_desc {
        mesh.x_desc(desc);
    }
    house_mesh(&mut mesh, st)
        .x_label_formatter(&ticks)
        .x_labels(5)
        .y_labels(0)
        .disable_y_mesh()
        .draw()?;
    Ok(chart)
}

/// The house style of a chart's mesh: the style's fonts for labels and axis titles, no
/// light grid lines, faint bold ones, axes two pixels wide.
pub(super) fn house_mesh<'m, 'a, 'b, X: Ranged, Y: Ranged, DB: DrawingBackend>(
    mesh: &'m mut MeshStyle<'a, 'b, X, Y, DB>,
    st: &FigureStyle,
) -> &'m mut MeshStyle<'a, 'b, X, Y, DB> {
    mesh.label_style(font(st.text()))
        .axis_desc_style(font(st.title_text()))
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.12))
        .axis_style(BLACK.stroke_width(st.px(2)))
}

pub(super) fn font(size: f64) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&BLACK)
}

/// Legend layout: the most columns (up to 3) whose entries fit the width, entry i in column
/// i mod cols, each column as wide as its widest entry; returns the columns' x offsets.
pub(super) fn legend_columns(names: &[String], width: u32, st: &FigureStyle) -> Vec<i32> {
    let entry = |s: &String| (st.text_width(s) + st.px(130)) as i32;
    for cols in (1..=3usize.min(names.len().max(1))).rev() {
        let widths: Vec<i32> = (0..cols)
            .map(|c| {
                names
                    .iter()
                    .skip(c)
                    .step_by(cols)
                    .map(entry)
                    .max()
                    .unwrap_or(0)
            })
            .collect();
        if cols == 1 || widths.iter().sum::<i32>() <= width as i32 - st.px(40) as i32 {
            return widths
                .iter()
                .scan(st.px(30) as i32, |x, w| {
                    let at = *x;
                    *x += w;
                    Some(at)
                })
                .collect();
        }
    }
    vec![st.px(30) as i32]
}

/// Split a canvas into the plot (top) and a legend strip (bottom) with `n` entries of
/// the given names; returns both areas and the number of legend columns.
pub(super) fn with_legend<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    names: &[String],
    st: &FigureStyle,
) -> (
    DrawingArea<SVGBackend<'a>, Shift>,
    DrawingArea<SVGBackend<'a>, Shift>,
    usize,
) {
    let (w, h) = root.dim_in_pixel();
    let cols = legend_columns(names, w, st).len();
    let rows = names.len().div_ceil(cols) as u32;
    let legend_h = rows * (st.text() * 1.2) as u32 + st.px(20);
    let (top, bottom) = root.split_vertically(h - legend_h);
    (top, bottom, cols)
}

/// A legend entry: name, colour, marker (None: a reference line, drawn dashed) and whether
/// a line sample is drawn.
pub(super) type LegendEntry = (String, RGBColor, Option<Shape>, bool);

/// One legend entry per series: line sample (optional; dashed for a reference line, one
/// without a marker: the bound, the best-known partition), marker and name.
pub(super) fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    entries: &[LegendEntry],
    cols: usize,
    st: &FigureStyle,
) -> DrawResult<()> {
    let (w, _) = area.dim_in_pixel();
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let mut xs = legend_columns(&names, w, st);
    // The caller sized the strip for `cols` columns; never use more.
    xs.truncate(cols.max(1));
    let cols = xs.len();
    let row_h = (st.text() * 1.2) as i32;
    let u = |v: u32| st.px(v) as i32;
    for (i, (name, c, shp, line)) in entries.iter().enumerate() {
        let x = xs[i % cols];
        let y = u(10) + (i / cols) as i32 * row_h + row_h / 2;
        // A line without a marker is a reference line, drawn dashed in the figure.
        if *line && shp.is_none() {
            for seg in [(0, 20), (30, 50), (60, 70)] {
                area.draw(&PathElement::new(
                    vec![(x + u(seg.0), y), (x + u(seg.1), y)],
                    c.stroke_width(st.line()),
                ))?;
            }
        } else if *line {
            area.draw(&PathElement::new(
                vec![(x, y), (x + u(70), y)],
                c.stroke_width(st.line()),
            ))?;
        }
        if let Some(s) = shp {
            draw_marker(area, (x + u(35), y), *s, *c, marker(st))?;
        }
        area.draw(&Text::new(
            name.clone(),
            (x + u(85), y),
            font(st.text()).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
