//! # Final IL over seeds: strip plot or box plot
//!
//! One row per pipeline of a case. With few runs (some pipeline that draws random numbers
//! has fewer than `BOX_FROM` on the case) every run is a point (the pipeline's marker, rows spread
//! apart by a fixed, deterministic offset so equal values stay visible) and a black line
//! marks the median: quartiles of three values are not statistics worth a box. With more
//! runs, a box from the first to the third quartile, a black median line and whiskers to
//! the minimum and maximum. A deterministic pipeline (one run per case, see
//! [`Record::deterministic`]) is always one point with its line: it decides nothing about
//! the kind of figure, and a box of one value would be a line posing as a spread.
//!
//! ## Complexity
//! O(runs log runs) for the quantiles; drawing is linear in the runs.
//!
//! ## References
//! J. W. Tukey, "Exploratory Data Analysis", Addison-Wesley 1977 (box plots); T. L.
//! Weissgerber et al., "Beyond bar and line graphs: time for a new data presentation
//! paradigm", PLoS Biology 13 (2015) e1002128 (show the points of small samples).

use super::*;

/// Box plots from this many runs per pipeline on a case; strip plots below.
pub(crate) const BOX_FROM: usize = 10;

/// Whether a case's figure is a strip plot: some pipeline with random runs has fewer than
/// `BOX_FROM` of them, or no pipeline has random runs.
pub(crate) fn strip(runs: &[&Record], all: &[String]) -> bool {
    let random: Vec<usize> = all
        .iter()
        .map(|p| {
            runs.iter()
                .filter(|r| &r.pipeline == p && !r.deterministic)
                .count()
        })
        .filter(|&n| n > 0)
        .collect();
    random.is_empty() || random.iter().any(|&n| n < BOX_FROM)
}

/// The vertical offsets of a row's points (in row units): spread evenly within +-0.25, in
/// run order, so the same records draw the same figure.
fn offsets(n: usize) -> Vec<f64> {
    if n <= 1 {
        return vec![0.0; n];
    }
    (0..n)
        .map(|i| -0.25 + 0.5 * i as f64 / (n - 1) as f64)
        .collect()
}

pub(crate) fn spread_svg(
    title: &str,
    runs: &[&Record],
    all: &[String],
    st: &FigureStyle,
) -> DrawResult<String> {
    let rows: Vec<(usize, Vec<f64>)> = (0..all.len())
        .filter_map(|i| {
            let ils: Vec<f64> = runs
                .iter()
                .filter(|r| r.pipeline == all[i])
                .map(|r| r.il)
                .collect();
            (!ils.is_empty()).then_some((i, ils))
        })
        .collect();
    let as_strip = strip(runs, all);
    let lo = rows
        .iter()
        .flat_map(|r| r.1.iter())
        .fold(f64::INFINITY, |a, &b| a.min(b));
    let hi = rows
        .iter()
        .flat_map(|r| r.1.iter())
        .fold(f64::NEG_INFINITY, |a, &b| a.max(b));
    let (x0, x1) = padded(lo, hi);
    let dec = decimals(x1 - x0);
    let n = rows.len();
    let label_w = rows
        .iter()
        .map(|(i, _)| st.text_width(&all[*i]))
        .max()
        .unwrap_or(0)
        + st.px(40);
    let height = st.px(260 + 110 * n as u32);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (st.width(), height)).into_drawing_area();
        root.fill(&WHITE)?;
        let rows_y = -0.5..(n as f64 - 0.5);
        let x_desc = Some("final IL over seeds (%)");
        let mut chart = row_chart(&root, st, title, label_w, x0..x1, rows_y, dec, x_desc)?;
        let w = st.line();
        for (row, (i, ils)) in rows.iter().enumerate() {
            // First pipeline at the top.
            let y = (n - 1 - row) as f64;
            let c = color(*i);
            let med = median(ils);
            if as_strip || ils.len() == 1 {
                // The median under the points, so that no point is hidden.
                chart.draw_series([PathElement::new(
                    vec![(med, y - 0.4), (med, y + 0.4)],
                    BLACK.stroke_width(w),
                )])?;
                for (il, dy) in ils.iter().zip(offsets(ils.len())) {
                    draw_marker(
                        chart.plotting_area(),
                        (*il, y + dy),
                        shape(*i),
                        c,
                        marker(st),
                    )?;
                }
            } else {
                let q = [0.0, 0.25, 0.75, 1.0].map(|p| quantile(ils, p));
                chart.draw_series([
                    Rectangle::new([(q[1], y - 0.3), (q[2], y + 0.3)], c.mix(0.35).filled()),
                    Rectangle::new([(q[1], y - 0.3), (q[2], y + 0.3)], c.stroke_width(w)),
                ])?;
                chart.draw_series([
                    PathElement::new(vec![(q[0], y), (q[1], y)], c.stroke_width(w)),
                    PathElement::new(vec![(q[2], y), (q[3], y)], c.stroke_width(w)),
                    PathElement::new(vec![(q[0], y - 0.15), (q[0], y + 0.15)], c.stroke_width(w)),
                    PathElement::new(vec![(q[3], y - 0.15), (q[3], y + 0.15)], c.stroke_width(w)),
                    PathElement::new(vec![(med, y - 0.3), (med, y + 0.3)], BLACK.stroke_width(w)),
                ])?;
            }
            let (px, py) = chart.backend_coord(&(x0, y));
            root.draw(&Text::new(
                all[*i].clone(),
                (px - st.px(15) as i32, py),
                font(st.text()).pos(Pos::new(HPos::Right, VPos::Center)),
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
    fn offsets_spread_a_row_evenly() {
        assert_eq!(offsets(1), vec![0.0]);
        assert_eq!(offsets(3), vec![-0.25, 0.0, 0.25]);
    }
}
