//! # Figure style
//!
//! What makes a figure readable at a column's width: sizes in pixels of a 3.5 in figure at
//! 300 dpi (text at least 8 pt = 33 px), the Okabe-Ito colour-blind-safe palette with a
//! distinct marker per series, tick labels with as many decimals as the axis span needs, and
//! short case labels (long generator specs are cut at a word, never rotated).
//!
//! ## Complexity
//! Constant per call (labels: linear in their length).
//!
//! ## References
//! M. Okabe and K. Ito, "Color Universal Design (CUD): how to make figures and presentations
//! that are friendly to colorblind people", 2008 (jfly.uni-koeln.de/color/).

use super::export::{DPI, WIDTH_IN};
use plotters::coord::CoordTranslate;
use plotters::prelude::*;
use plotters::style::RGBColor;

/// Figure width in pixels (3.5 in at 300 dpi).
pub const WIDTH: u32 = (WIDTH_IN * DPI) as u32;
/// plotters' SVG backend writes a font of size s as `font-size = s / 1.24`; sizes below are
/// given in that unit so that the written text has the intended size.
const SVG_FONT_SCALE: f64 = 1.24;
/// Text sizes: 9 pt for ticks and legends, 10 pt for axis titles (1 pt = DPI/72 px).
pub const TEXT: f64 = 9.0 * DPI / 72.0 * SVG_FONT_SCALE;
pub const TITLE: f64 = 10.0 * DPI / 72.0 * SVG_FONT_SCALE;
/// Line width and marker radius in pixels.
pub const LINE: u32 = 5;
pub const MARK: i32 = 13;

/// Okabe-Ito, ordered so that the first colours are the most distinct on white (yellow
/// last; black is the bound's colour and not used for series).
pub const PALETTE: [RGBColor; 7] = [
    RGBColor(0x00, 0x72, 0xB2), // blue
    RGBColor(0xD5, 0x5E, 0x00), // vermillion
    RGBColor(0x00, 0x9E, 0x73), // bluish green
    RGBColor(0xCC, 0x79, 0xA7), // reddish purple
    RGBColor(0xE6, 0x9F, 0x00), // orange
    RGBColor(0x56, 0xB4, 0xE9), // sky blue
    RGBColor(0xF0, 0xE4, 0x42), // yellow
];

pub fn color(i: usize) -> RGBColor {
    PALETTE[i % PALETTE.len()]
}

/// Marker shapes, in order; series i gets shape i mod 6 (and colour i mod 7, so the pair
/// repeats only after 42 series).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shape {
    Circle,
    Square,
    Triangle,
    Diamond,
    Cross,
    Plus,
}

pub fn shape(i: usize) -> Shape {
    [
        Shape::Circle,
        Shape::Square,
        Shape::Triangle,
        Shape::Diamond,
        Shape::Cross,
        Shape::Plus,
    ][i % 6]
}

/// Draw a marker centred at a point of an area (data or pixel coordinates).
pub fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    shape: Shape,
    color: RGBColor,
    r: i32,
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    CT::From: Clone,
{
    let filled = ShapeStyle::from(color).filled();
    let stroke = ShapeStyle::from(color).stroke_width(LINE);
    let h = r + r / 3;
    match shape {
        Shape::Circle => area.draw(&(EmptyElement::at(at) + Circle::new((0, 0), r, filled))),
        Shape::Square => {
            area.draw(&(EmptyElement::at(at) + Rectangle::new([(-r, -r), (r, r)], filled)))
        }
        Shape::Triangle => area.draw(
            &(EmptyElement::at(at)
                + Polygon::new(vec![(0, -h), (h, h * 3 / 4), (-h, h * 3 / 4)], filled)),
        ),
        Shape::Diamond => area.draw(
            &(EmptyElement::at(at) + Polygon::new(vec![(0, -h), (h, 0), (0, h), (-h, 0)], filled)),
        ),
        Shape::Cross => area.draw(
            &(EmptyElement::at(at)
                + PathElement::new(vec![(-r, -r), (r, r)], stroke)
                + PathElement::new(vec![(-r, r), (r, -r)], stroke)),
        ),
        Shape::Plus => area.draw(
            &(EmptyElement::at(at)
                + PathElement::new(vec![(-h, 0), (h, 0)], stroke)
                + PathElement::new(vec![(0, -h), (0, h)], stroke)),
        ),
    }
}

/// Decimals a tick label needs on an axis spanning `span` (about 5 ticks).
pub fn decimals(span: f64) -> usize {
    if !(span > 0.0) || !span.is_finite() {
        return 2;
    }
    let step = span / 5.0;
    (-(step.log10().floor()) as i64).clamp(0, 6) as usize
}

/// A tick value on a log axis: integers plain, small values with one significant digit,
/// below 0.001 as `1e-5` (so that the labels of six decades of time do not run together).
pub fn log_tick(v: f64) -> String {
    if v >= 1.0 {
        format!("{v:.0}")
    } else if v > 0.0 && v < 0.99e-3 {
        let e = v.log10().floor();
        let m = (v / 10f64.powf(e)).round();
        format!("{m}e{e}")
    } else if v > 0.0 {
        let d = (-(v.log10().floor()) as i64).clamp(0, 9) as usize;
        format!("{v:.d$}")
    } else {
        "0".to_string()
    }
}

/// A log-axis tick label, or nothing for a tick that would crowd the axis: over at most
/// two decades the 1-2-5 ticks are labelled, over more only the powers of ten.
pub fn log_tick_sparse(v: f64, decades: f64) -> String {
    if !(v > 0.0) {
        return String::new();
    }
    let m = (v / 10f64.powf(v.log10().floor())).round() as i64;
    let keep = if decades <= 2.0 {
        matches!(m, 1 | 2 | 5 | 10)
    } else {
        matches!(m, 1 | 10)
    };
    if keep {
        log_tick(v)
    } else {
        String::new()
    }
}

/// A case label of at most `max` characters: the instance name cut at the last separator
/// that fits (with "…"), then " k=K".
pub fn case_label(instance: &str, k: usize, max: usize) -> String {
    let tail = format!(" k={k}");
    let room = max.saturating_sub(tail.chars().count()).max(4);
    let name: String = if instance.chars().count() <= room {
        instance.to_string()
    } else {
        let cut: String = instance.chars().take(room - 1).collect();
        let at = cut.rfind([',', ':', ' ', '/']).filter(|&i| i >= room / 2);
        format!("{}…", at.map_or(cut.as_str(), |i| &cut[..i]))
    };
    format!("{name}{tail}")
}

/// Approximate width in pixels of a text at size [`TEXT`] (for laying out label areas).
pub fn text_width(s: &str) -> u32 {
    (s.chars().count() as f64 * TEXT / SVG_FONT_SCALE * 0.6).ceil() as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimals_follow_the_span() {
        assert_eq!(decimals(50.0), 0);
        assert_eq!(decimals(2.0), 1);
        assert_eq!(decimals(0.2), 2);
        assert_eq!(decimals(0.0), 2);
    }

    #[test]
    fn case_labels_are_short_and_keep_k() {
        let l = case_label("gauss:n=90,d=2,clusters=3,seed=2", 5, 20);
        assert!(l.chars().count() <= 20 && l.ends_with(" k=5"), "{l}");
        assert_eq!(l, "gauss:n=90,d=2… k=5");
        assert_eq!(case_label("eia", 3, 20), "eia k=3");
    }

    #[test]
    fn log_ticks_are_plain() {
        assert_eq!(log_tick(10.0), "10");
        assert_eq!(log_tick(0.001), "0.001");
        assert_eq!(log_tick(0.5), "0.5");
        assert_eq!(log_tick_sparse(0.00003, 1.0), "");
        assert_eq!(log_tick_sparse(0.00005, 1.0), "5e-5");
        assert_eq!(log_tick(0.00001), "1e-5");
        assert_eq!(log_tick_sparse(0.5, 3.0), "");
        assert_eq!(log_tick_sparse(100.0, 3.0), "100");
    }
}
