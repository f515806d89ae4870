//! # Figure style
//!
//! The one style every figure of `microagg report` (and `microagg.report` in Python) is
//! drawn in ([`FigureStyle`]): a size preset (one column 3.5 in, two columns 7.16 in, a slide
//! 10 in, all at 300 dpi) and a font size (9 pt on paper, 16 pt on a slide by default), from
//! which text, margins, the one line width every series shares and the marker size follow;
//! no title unless asked (a paper's caption is the title). Besides: the Okabe-Ito
//! colour-blind-safe palette with a distinct marker per series, tick labels with as many
//! decimals as the axis span needs, instance names as published (Tarragona, Census, EIA;
//! generated instances by their spec) and short case labels (long generator specs are cut
//! at a word, never rotated).
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

/// Figure width in pixels of the one-column preset (3.5 in at 300 dpi).
pub const WIDTH: u32 = (WIDTH_IN * DPI) as u32;

/// Size presets of a figure.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, clap::ValueEnum)]
pub enum Size {
    /// One column of a two-column paper: 3.5 in wide.
    #[default]
    OneColumn,
    /// Both columns of a two-column paper: 7.16 in wide.
    TwoColumns,
    /// A slide: 10 in wide, 16 pt text by default.
    Slide,
}

impl Size {
    pub fn width_in(self) -> f64 {
        match self {
            Size::OneColumn => WIDTH_IN,
            Size::TwoColumns => 7.16,
            Size::Slide => 10.0,
        }
    }

    /// The default text size in points.
    pub fn font_pt(self) -> f64 {
        match self {
            Size::OneColumn | Size::TwoColumns => 9.0,
            Size::Slide => 16.0,
        }
    }
}

/// How a figure is drawn (module doc).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FigureStyle {
    pub size: Size,
    /// Text size in points (ticks and legends; axis titles 1 pt larger).
    pub font_pt: f64,
    /// Draw a title over each figure (its kind and case).
    pub title: bool,
}

impl Default for FigureStyle {
    fn default() -> Self {
        FigureStyle::of(Size::OneColumn, None, false)
    }
}

impl FigureStyle {
    /// A preset with its default font size unless `font_pt` is given.
    pub fn of(size: Size, font_pt: Option<f64>, title: bool) -> FigureStyle {
        FigureStyle {
            size,
            font_pt: font_pt.unwrap_or(size.font_pt()),
            title,
        }
    }

    /// Check the font size: 5 to 40 pt.
    pub fn check(&self) -> Result<(), String> {
        if (5.0..=40.0).contains(&self.font_pt) {
            Ok(())
        } else {
            Err(format!(
                "--font-size {}: expected 5 to 40 points",
                self.font_pt
            ))
        }
    }

    /// Width in pixels.
    pub fn width(&self) -> u32 {
        (self.size.width_in() * DPI).round() as u32
    }

    /// Lengths tied to the text (margins, label areas, lines, markers) grow with it.
    pub fn scale(&self) -> f64 {
        self.font_pt / 9.0
    }

    /// A length of the 9 pt design, in pixels at this style's text size.
    pub fn px(&self, v: u32) -> u32 {
        (v as f64 * self.scale()).round() as u32
    }

    /// Tick and legend text size (plotters' unit, see [`SVG_FONT_SCALE`]).
    pub fn text(&self) -> f64 {
        self.font_pt * DPI / 72.0 * SVG_FONT_SCALE
    }

    /// Axis title size: 1 pt larger than the text.
    pub(crate) fn title_text(&self) -> f64 {
        (self.font_pt + 1.0) * DPI / 72.0 * SVG_FONT_SCALE
    }

    /// The line width of every series.
    pub fn line(&self) -> u32 {
        self.px(LINE).max(1)
    }

    /// The marker radius of every series.
    pub fn mark(&self) -> i32 {
        self.px(MARK as u32).max(2) as i32
    }

    /// Approximate width in pixels of a text at [`Self::text`].
    pub(crate) fn text_width(&self, s: &str) -> u32 {
        (s.chars().count() as f64 * self.text() / SVG_FONT_SCALE * 0.6).ceil() as u32
    }
}

/// An instance as it is published: the CASC files by their names in the literature
/// (Tarragona, Census, EIA), any other (a generator spec, a file) as given.
pub(crate) fn instance_label(instance: &str) -> String {
    match instance.to_ascii_lowercase().as_str() {
        "tarragona" => "Tarragona".into(),
        "census" => "Census".into(),
        "eia" => "EIA".into(),
        _ => instance.to_string(),
    }
}
/// plotters' SVG backend writes a font of size s as `font-size = s / 1.24`; sizes below are
/// given in that unit so that the written text has the intended size.
const SVG_FONT_SCALE: f64 = 1.24;
/// Line width and marker radius in pixels at 9 pt text.
pub(crate) const LINE: u32 = 5;
pub(crate) const MARK: i32 = 13;

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

pub(crate) fn shape(i: usize) -> Shape {
    [
        Shape::Circle,
        Shape::Square,
        Shape::Triangle,
        Shape::Diamond,
        Shape::Cross,
        Shape::Plus,
    ][i % 6]
}

/// Draw a marker of radius `r` centred at a point of an area (data or pixel coordinates);
/// crosses are drawn with stroke width `line`.
pub(crate) fn draw_marker<DB: DrawingBackend, CT: CoordTranslate>(
    area: &DrawingArea<DB, CT>,
    at: CT::From,
    shape: Shape,
    color: RGBColor,
    (r, line): (i32, u32),
) -> Result<(), DrawingAreaErrorKind<DB::ErrorType>>
where
    CT::From: Clone,
{
    let filled = ShapeStyle::from(color).filled();
    let stroke = ShapeStyle::from(color).stroke_width(line);
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
pub(crate) fn decimals(span: f64) -> usize {
    if !(span > 0.0) || !span.is_finite() {
        return 2;
    }
    let step = span / 5.0;
    (-(step.log10().floor()) as i64).clamp(0, 6) as usize
}

/// A tick value on a log axis: integers plain, small values with one significant digit,
/// below 0.001 as `1e-5` (so that the labels of six decades of time do not run together).
pub(crate) fn log_tick(v: f64) -> String {
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
pub(crate) fn log_tick_sparse(v: f64, decades: f64) -> String {
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

/// A case label of at most `max` characters: the instance name as published
/// ([`instance_label`]) cut at the last separator that fits (with "…"), then " k=K".
pub(crate) fn case_label(instance: &str, k: usize, max: usize) -> String {
    let instance = &instance_label(instance);
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
        assert_eq!(case_label("eia", 3, 20), "EIA k=3");
        assert_eq!(case_label("tarragona", 5, 20), "Tarragona k=5");
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
