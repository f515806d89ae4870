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

use super::style::{self, draw_marker, Shape};
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

/// Line width and marker radius of series i of n: earlier series are drawn wider and larger
/// (and first), so that a series equal to a later one still shows around it.
pub(super) fn under(i: usize, n: usize) -> (u32, i32) {
    let extra = n.saturating_sub(i + 1).min(4);
    (
        style::LINE + 3 * extra as u32,
        style::MARK + 4 * extra as i32,
    )
}

pub(super) fn font(size: f64) -> TextStyle<'static> {
    ("sans-serif", size).into_font().color(&BLACK)
}

/// Legend layout: the most columns (up to 3) whose entries fit the width, entry i in column
/// i mod cols, each column as wide as its widest entry; returns the columns' x offsets.
pub(super) fn legend_columns(names: &[String], width: u32) -> Vec<i32> {
    let entry = |s: &String| style::text_width(s) as i32 + 130;
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
        if cols == 1 || widths.iter().sum::<i32>() <= width as i32 - 40 {
            return widths
                .iter()
                .scan(30, |x, w| {
                    let at = *x;
                    *x += w;
                    Some(at)
                })
                .collect();
        }
    }
    vec![30]
}

/// Split a canvas into the plot (top) and a legend strip (bottom) with `n` entries of
/// the given names; returns both areas and the number of legend columns.
pub(super) fn with_legend<'a>(
    root: &DrawingArea<SVGBackend<'a>, Shift>,
    names: &[String],
) -> (
    DrawingArea<SVGBackend<'a>, Shift>,
    DrawingArea<SVGBackend<'a>, Shift>,
    usize,
) {
    let (w, h) = root.dim_in_pixel();
    let cols = legend_columns(names, w).len();
    let rows = names.len().div_ceil(cols) as u32;
    let legend_h = rows * (style::TEXT * 1.2) as u32 + 20;
    let (top, bottom) = root.split_vertically(h - legend_h);
    (top, bottom, cols)
}

/// One legend entry per series: line sample (optional; dashed for a black entry, the
/// bound), marker and name.
pub(super) fn draw_legend(
    area: &DrawingArea<SVGBackend<'_>, Shift>,
    entries: &[(String, RGBColor, Option<Shape>, bool)],
    cols: usize,
) -> DrawResult<()> {
    let (w, _) = area.dim_in_pixel();
    let names: Vec<String> = entries.iter().map(|e| e.0.clone()).collect();
    let mut xs = legend_columns(&names, w);
    // The caller sized the strip for `cols` columns; never use more.
    xs.truncate(cols.max(1));
    let cols = xs.len();
    let row_h = (style::TEXT * 1.2) as i32;
    for (i, (name, c, shp, line)) in entries.iter().enumerate() {
        let x = xs[i % cols];
        let y = 10 + (i / cols) as i32 * row_h + row_h / 2;
        if *line && *c == RGBColor(0, 0, 0) && shp.is_none() {
            for seg in [(x, x + 20), (x + 30, x + 50), (x + 60, x + 70)] {
                area.draw(&PathElement::new(
                    vec![(seg.0, y), (seg.1, y)],
                    c.stroke_width(4),
                ))?;
            }
        } else if *line {
            area.draw(&PathElement::new(
                vec![(x, y), (x + 70, y)],
                c.stroke_width(style::LINE),
            ))?;
        }
        if let Some(s) = shp {
            draw_marker(area, (x + 35, y), *s, *c, style::MARK)?;
        }
        area.draw(&Text::new(
            name.clone(),
            (x + 85, y),
            font(style::TEXT).pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}
