//! # Figure export
//!
//! Writes a figure drawn as SVG (by `plotters`) also as PNG (rendered by `resvg`) and PDF
//! (converted by `svg2pdf`, text embedded as fonts), all pure Rust. Figures are drawn at
//! `WIDTH_IN` inches at [`DPI`] pixels per inch, so the PNG is exactly the SVG's pixel size
//! and the PDF page is the column width.
//!
//! Text is rendered with the system's fonts: the generic `sans-serif` family is mapped to the
//! first of DejaVu Sans, Liberation Sans, Noto Sans, Arial found (or any installed family);
//! with no font at all the PNG and PDF are refused with an error rather than written
//! without text.
//!
//! ## Complexity
//! Linear in the SVG size and the pixel count (WIDTH_IN * DPI squared, about a million).
//!
//! ## References
//! resvg, usvg and svg2pdf crate documentation (docs.rs).

use crate::error::{Error, Result};
use resvg::{tiny_skia, usvg};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};

/// Figure width: one column of a two-column paper.
pub(crate) const WIDTH_IN: f64 = 3.5;
/// Pixels per inch the figures are drawn at.
pub const DPI: f64 = 300.0;

fn fonts() -> &'static Option<Arc<usvg::fontdb::Database>> {
    static DB: OnceLock<Option<Arc<usvg::fontdb::Database>>> = OnceLock::new();
    DB.get_or_init(|| {
        let mut db = usvg::fontdb::Database::new();
        db.load_system_fonts();
        let families: Vec<String> = db
            .faces()
            .flat_map(|f| f.families.iter().map(|(n, _)| n.clone()))
            .collect();
        let sans = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "Arial"]
            .iter()
            .map(|s| s.to_string())
            .find(|s| families.contains(s))
            .or_else(|| families.first().cloned())?;
        db.set_sans_serif_family(sans);
        Some(Arc::new(db))
    })
}

fn tree(svg: &str, path: &Path) -> Result<usvg::Tree> {
    let db = fonts().clone().ok_or_else(|| {
        Error::io(
            path,
            "no system font found to render figure text (install e.g. fonts-dejavu-core)",
        )
    })?;
    let opt = usvg::Options {
        fontdb: db,
        ..usvg::Options::default()
    };
    usvg::Tree::from_str(svg, &opt).map_err(|e| Error::io(path, format!("figure SVG: {e}")))
}

fn render_png(t: &usvg::Tree, scale: f32, path: &Path) -> Result<Vec<u8>> {
    let size = t
        .size()
        .to_int_size()
        .scale_by(scale)
        .ok_or_else(|| Error::io(path, "empty figure"))?;
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height())
        .ok_or_else(|| Error::io(path, "empty figure"))?;
    pixmap.fill(tiny_skia::Color::WHITE);
    resvg::render(
        t,
        tiny_skia::Transform::from_scale(scale, scale),
        &mut pixmap.as_mut(),
    );
    pixmap
        .encode_png()
        .map_err(|e| Error::io(path, format!("PNG encoding: {e}")))
}

/// A figure's PNG at `scale` times its own size (smaller copies, e.g. for a README);
/// `path` only names the figure in errors.
pub fn png_scaled(svg: &str, scale: f32, path: &Path) -> Result<Vec<u8>> {
    render_png(&tree(svg, path)?, scale, path)
}

/// Write `stem.svg`, `stem.png` and `stem.pdf` into `dir`; returns the three paths.
pub(crate) fn write_formats(dir: &Path, stem: &str, svg: &str) -> Result<Vec<PathBuf>> {
    let svg_path = dir.join(format!("{stem}.svg"));
    crate::output::write_atomic(&svg_path, svg.as_bytes())?;
    let png_path = dir.join(format!("{stem}.png"));
    let t = tree(svg, &png_path)?;
    crate::output::write_atomic(&png_path, &render_png(&t, 1.0, &png_path)?)?;
    let pdf_path = dir.join(format!("{stem}.pdf"));
    let pdf = svg2pdf::to_pdf(
        &t,
        svg2pdf::ConversionOptions::default(),
        svg2pdf::PageOptions { dpi: DPI as f32 },
    )
    .map_err(|e| Error::io(&pdf_path, format!("PDF conversion: {e}")))?;
    crate::output::write_atomic(&pdf_path, &pdf)?;
    Ok(vec![svg_path, png_path, pdf_path])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_is_rendered_in_the_png_and_the_pdf_page_is_the_column_width() {
        let dir = tempfile::tempdir().unwrap();
        let svg = r#"<svg xmlns="http://www.w3.org/2000/svg" width="1050" height="300"><text x="20" y="150" font-family="sans-serif" font-size="60">IL 12.5</text></svg>"#;
        let files = write_formats(dir.path(), "t", svg).unwrap();
        assert_eq!(files.len(), 3);
        let png = tiny_skia::Pixmap::load_png(&files[1]).unwrap();
        assert_eq!((png.width(), png.height()), (1050, 300));
        let dark = png.pixels().iter().filter(|p| p.red() < 128).count();
        assert!(dark > 500, "text drew {dark} dark pixels");
        let pdf = std::fs::read(&files[2]).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        // 1050 px at 300 dpi = 3.5 in = 252 pt.
        let text = String::from_utf8_lossy(&pdf);
        assert!(
            text.contains("/MediaBox [0 0 252 72]"),
            "{}",
            &text[..400.min(text.len())]
        );
    }
}
