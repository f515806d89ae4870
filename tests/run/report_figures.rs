//! Every figure kind of `microagg report`, drawn from a fixed results folder
//! (tests/fixtures/report-small: two cases, mdav, mdav1 and a traced mdav+ils, three seeds,
//! the nn bound), as SVG, PNG and PDF: the PNG is decoded and must be a column-wide image of
//! plausible height with ink on it and every pipeline's colour drawn; the PDF page is the
//! column width; the same records give the same SVG bytes.

use crate::common;
use microagg::report::{self, style};
use resvg::tiny_skia::Pixmap;
use std::path::{Path, PathBuf};

const PIPELINES: [&str; 3] = ["mdav", "mdav1", "mdav+ils"];

fn fixture_copy() -> (tempfile::TempDir, PathBuf) {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/report-small");
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("r");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::copy(src.join("records.jsonl"), out.join("records.jsonl")).unwrap();
    (dir, out)
}

/// The file names of the figures a report wrote.
fn file_names(figures: &[PathBuf]) -> Vec<String> {
    figures
        .iter()
        .map(|f| f.file_name().unwrap().to_string_lossy().into_owned())
        .collect()
}

/// Pixels within a small distance of a colour (anti-aliased edges excluded).
fn pixels_of(png: &Pixmap, c: plotters::style::RGBColor) -> usize {
    png.pixels()
        .iter()
        .filter(|p| {
            let d = |a: u8, b: u8| (a as i32 - b as i32).abs();
            d(p.red(), c.0) + d(p.green(), c.1) + d(p.blue(), c.2) <= 24
        })
        .count()
}

/// The contents of the SVG's text elements, trimmed.
fn texts(svg: &str) -> Vec<String> {
    svg.split("<text")
        .skip(1)
        .filter_map(|t| {
            let body = &t[t.find('>')? + 1..t.find("</text>")?];
            Some(body.trim().to_string())
        })
        .collect()
}

#[test]
fn every_figure_kind_is_drawn_in_three_formats_and_looks_plausible() {
    let (_keep, out) = fixture_copy();
    let (table, figures) = report::report(&out, report::Format::Markdown).unwrap();
    assert!(table.contains("mdav+ils"));
    let stems = [
        "convergence-gauss_n_60_d_2_clusters_4_seed_5-k3",
        "convergence-uniform_n_45_d_3_seed_2-k3",
        "strip-gauss_n_60_d_2_clusters_4_seed_5-k3",
        "time-to-target",
        "gaps",
        "profile-il",
        "profile-time",
    ];
    let written = file_names(&figures);
    for stem in stems {
        for ext in ["svg", "png", "pdf"] {
            assert!(
                written.contains(&format!("{stem}.{ext}")),
                "{stem}.{ext} not in {written:?}"
            );
        }
        let dir = out.join("figures");
        let png = Pixmap::load_png(dir.join(format!("{stem}.png"))).unwrap();
        assert_eq!(png.width(), style::WIDTH, "{stem}: a column wide");
        assert!(
            (500..=2500).contains(&png.height()),
            "{stem}: height {}",
            png.height()
        );
        let total = (png.width() * png.height()) as usize;
        let ink = png
            .pixels()
            .iter()
            .filter(|p| p.red() < 240 || p.green() < 240 || p.blue() < 240)
            .count();
        assert!(
            ink * 100 > 2 * total && ink * 100 < 60 * total,
            "{stem}: {ink} of {total} pixels drawn"
        );
        // Every pipeline is drawn in its colour (series i has palette colour i).
        for (i, p) in PIPELINES.iter().enumerate() {
            let n = pixels_of(&png, style::color(i));
            assert!(n > 150, "{stem}: {p} has {n} pixels of its colour");
        }
        let svg = std::fs::read_to_string(dir.join(format!("{stem}.svg"))).unwrap();
        let texts = texts(&svg);
        for p in PIPELINES {
            // In the legend or on the axis; the time-to-target legend adds "(reached/runs)".
            assert!(
                texts
                    .iter()
                    .any(|t| t == p || t.starts_with(&format!("{p} ("))),
                "{stem}: {p} not named in {texts:?}"
            );
        }
        let pdf = std::fs::read(dir.join(format!("{stem}.pdf"))).unwrap();
        assert!(pdf.starts_with(b"%PDF"));
        // 1050 px at 300 dpi = 3.5 in = 252 pt wide.
        assert!(String::from_utf8_lossy(&pdf).contains("/MediaBox [0 0 252 "));
    }
    // The certified bound is named in the convergence legend and the gap axis.
    let conv =
        std::fs::read_to_string(out.join("figures").join(format!("{}.svg", stems[0]))).unwrap();
    assert!(conv.contains("certified LB (nn)"));
    let gaps = std::fs::read_to_string(out.join("figures/gaps.svg")).unwrap();
    assert!(gaps.contains("gap to best bound: nn (%)"));
    // The same records give the same figures, byte for byte.
    let first = std::fs::read(out.join("figures/time-to-target.svg")).unwrap();
    report::report(&out, report::Format::Markdown).unwrap();
    assert_eq!(
        first,
        std::fs::read(out.join("figures/time-to-target.svg")).unwrap()
    );
}

#[test]
fn time_to_target_counts_runs_that_reach_the_case_target() {
    let (_keep, out) = fixture_copy();
    let records = microagg::experiment::record::read_dir(&out).unwrap();
    let all: Vec<String> = PIPELINES.iter().map(|s| s.to_string()).collect();
    let ttt = report::anytime::times_to_target(&records, &all);
    // Three seeds on two cases per pipeline.
    assert!(ttt.iter().all(|(_, n)| *n == 6));
    // The best run of each case reaches its own target, by definition.
    let reached: usize = ttt.iter().map(|(t, _)| t.len()).sum();
    assert!(reached >= 2);
    // An independent count: a run reaches the target iff its final IL does.
    for (p, (times, _)) in all.iter().zip(&ttt) {
        let want = records
            .iter()
            .filter(|r| &r.pipeline == p)
            .filter(|r| {
                let best = records
                    .iter()
                    .filter(|o| o.instance == r.instance && o.k == r.k)
                    .map(|o| o.il)
                    .fold(f64::INFINITY, f64::min);
                r.il <= best * (1.0 + report::curves::TARGET_PERCENT / 100.0)
            })
            .count();
        assert_eq!(times.len(), want, "{p}");
    }
}

/// The stroke widths of the lines (`polyline`s) drawn in each series colour of an SVG.
fn series_widths(svg: &str) -> Vec<(usize, Vec<String>)> {
    (0..PIPELINES.len())
        .map(|i| {
            let c = style::color(i);
            let stroke = format!("stroke=\"#{:02X}{:02X}{:02X}\"", c.0, c.1, c.2);
            let widths = svg
                .split("<polyline")
                .skip(1)
                .filter(|e| e.contains(&stroke))
                .filter_map(|e| {
                    let w = e.split("stroke-width=\"").nth(1)?;
                    Some(w[..w.find('"')?].to_string())
                })
                .collect();
            (i, widths)
        })
        .collect()
}

#[test]
fn every_series_is_drawn_with_one_line_width_and_no_title_by_default() {
    let (_keep, out) = fixture_copy();
    report::report(&out, report::Format::Markdown).unwrap();
    let line = style::FigureStyle::default().line().to_string();
    for stem in [
        "convergence-gauss_n_60_d_2_clusters_4_seed_5-k3",
        "time-to-target",
        "profile-il",
        "profile-time",
    ] {
        let svg = std::fs::read_to_string(out.join(format!("figures/{stem}.svg"))).unwrap();
        let widths = series_widths(&svg);
        // Every series with a line has it at the style's width (mdav in the convergence
        // figure is a point with a bar: its bar has the same width too, when drawn).
        let drawn: Vec<&(usize, Vec<String>)> =
            widths.iter().filter(|(_, w)| !w.is_empty()).collect();
        assert!(drawn.len() >= 2, "{stem}: {widths:?}");
        for (i, w) in drawn {
            assert!(
                w.iter().all(|x| *x == line),
                "{stem}: series {i} widths {w:?}"
            );
        }
        // No title: neither the case nor the figure kind is written over the plot.
        let texts = texts(&svg);
        assert!(
            !texts.iter().any(|t| t.starts_with("gauss:n=60")
                || t.starts_with("Performance profile")
                || t.starts_with("Time to target")),
            "{stem}: {texts:?}"
        );
    }
    // --title adds them.
    let opts = report::ReportOptions {
        style: style::FigureStyle::of(style::Size::TwoColumns, None, true),
        ..Default::default()
    };
    report::report_with(&out, &opts).unwrap().1.unwrap();
    let svg = std::fs::read_to_string(out.join("figures/profile-il.svg")).unwrap();
    assert!(svg.contains("Performance profile: final IL"));
    let png = Pixmap::load_png(out.join("figures/profile-il.png")).unwrap();
    assert_eq!(png.width(), 2148, "7.16 in at 300 dpi");
}

#[test]
fn few_seeds_give_strip_plots_and_time_limited_runs_no_time_profile() {
    let (_keep, out) = fixture_copy();
    let (_, figures, notes) = report::report_with(&out, &Default::default()).unwrap();
    let names = file_names(&figures.unwrap());
    assert!(names.iter().any(|n| n.starts_with("strip-")), "{names:?}");
    assert!(
        !names.iter().any(|n| n.starts_with("boxplot-")),
        "{names:?}"
    );
    assert!(names.contains(&"profile-time.svg".to_string()));
    assert!(notes.is_empty(), "{notes:?}");
    // The same records with a time limit: no time profile, and the report says why.
    let (_keep2, limited) = fixture_copy();
    let path = limited.join("records.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    std::fs::write(
        &path,
        text.replace("\"time_limit\":null", "\"time_limit\":1.0"),
    )
    .unwrap();
    let (_, figures, notes) = report::report_with(&limited, &Default::default()).unwrap();
    let names = file_names(&figures.unwrap());
    assert!(
        !names.iter().any(|n| n.starts_with("profile-time")),
        "{names:?}"
    );
    assert!(names.contains(&"profile-il.svg".to_string()));
    assert_eq!(notes.len(), 1);
    assert!(notes[0].contains("profile-time not drawn"), "{notes:?}");
}

#[test]
fn columns_choose_the_table_and_a_wrong_name_lists_the_available_ones() {
    let (_keep, out) = fixture_copy();
    let pick = |cols: &[&str], format| report::ReportOptions {
        format,
        columns: Some(cols.iter().map(|c| c.to_string()).collect()),
        ..Default::default()
    };
    let (md, _, _) = report::report_with(
        &out,
        &pick(&["pipeline", "k", "best_il"], report::Format::Markdown),
    )
    .unwrap();
    let header = md.lines().next().unwrap();
    assert_eq!(
        header
            .split('|')
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>(),
        ["pipeline", "k", "best IL %"]
    );
    let (tex, _, _) =
        report::report_with(&out, &pick(&["instance", "gap"], report::Format::Latex)).unwrap();
    assert!(tex.contains("\\begin{tabular}{lr}"), "{tex}");
    assert!(tex.contains("Instance & Gap (\\%) \\\\"), "{tex}");
    let (csv, _, _) =
        report::report_with(&out, &pick(&["method", "runs"], report::Format::Csv)).unwrap();
    assert_eq!(csv.lines().next(), Some("method,runs"));
    let err = report::report_with(
        &out,
        &pick(&["pipeline", "bestil"], report::Format::Markdown),
    )
    .unwrap_err()
    .to_string();
    common::assert_contains_all(
        &err,
        &[
            "unknown column 'bestil'",
            "available: instance,n,k,pipeline",
        ],
    );
}

#[test]
fn the_markdown_report_has_a_wilcoxon_section_per_pair() {
    let (_keep, out) = fixture_copy();
    let (md, _) = report::report(&out, report::Format::Markdown).unwrap();
    let section = &md[md.find("## Wilcoxon signed-rank tests").expect("a section")..];
    // Three pipelines, three pairs, two cases each: n = 2 gives p = 0.5 at best (exact).
    for pair in [
        "| mdav | mdav1 |",
        "| mdav | mdav+ils |",
        "| mdav1 | mdav+ils |",
    ] {
        let row = section.lines().find(|l| l.starts_with(pair)).expect(pair);
        assert!(row.contains("| 2 |"), "{row}");
    }
}

/// The docs' comparison tutorial (docs/tutorials/compare.md) shows one figure of each kind
/// (docs/figures/, drawn from this fixture at 60 % of the column-wide size). Redraw them with
/// `MICROAGG_UPDATE_DOCS_FIGURES=1 cargo test --release --test run report_figures::`.
#[test]
fn readme_figures_exist_and_are_small() {
    let docs = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/figures");
    let kinds = [
        (
            "convergence",
            "convergence-gauss_n_60_d_2_clusters_4_seed_5-k3",
        ),
        ("time-to-target", "time-to-target"),
        ("profile-il", "profile-il"),
        ("boxplot", "strip-gauss_n_60_d_2_clusters_4_seed_5-k3"),
        ("gaps", "gaps"),
    ];
    if std::env::var_os("MICROAGG_UPDATE_DOCS_FIGURES").is_some() {
        let (_keep, out) = fixture_copy();
        report::report(&out, report::Format::Markdown).unwrap();
        std::fs::create_dir_all(&docs).unwrap();
        for (name, stem) in kinds {
            let svg = std::fs::read_to_string(out.join(format!("figures/{stem}.svg"))).unwrap();
            let png = report::export::png_scaled(&svg, 0.6, Path::new(stem)).unwrap();
            std::fs::write(docs.join(format!("{name}.png")), png).unwrap();
        }
    }
    let page = std::fs::read_to_string(
        Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/tutorials/compare.md"),
    )
    .unwrap();
    for (name, _) in kinds {
        let path = docs.join(format!("{name}.png"));
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(bytes.len() < 100_000, "{name}.png: {} bytes", bytes.len());
        let png = Pixmap::decode_png(&bytes).unwrap();
        assert_eq!(png.width(), (style::WIDTH as f32 * 0.6).round() as u32);
        assert!(
            page.contains(&format!("](../figures/{name}.png)")),
            "docs/tutorials/compare.md shows {name}.png"
        );
    }
}
