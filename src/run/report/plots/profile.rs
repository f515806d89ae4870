//! # Performance profiles
//!
//! The profile figures of [`super`] (Dolan & More): for each pipeline, the fraction of cases
//! within a factor tau of the best. Moved out of `plots.rs` unchanged.
//!
//! ## Complexity
//! Linear in pipelines x cases after [`super::profile_ratios`].
//!
//! ## References
//! E. D. Dolan and J. J. More, "Benchmarking optimization software with performance
//! profiles", Mathematical Programming 91 (2002) 201-213.

use super::*;
use plotters::coord::ranged1d::ValueFormatter;
use plotters::coord::types::RangedCoordf64;
use plotters::coord::Shift;

pub(super) fn profile_svg(
    title: &str,
    x_desc: &str,
    ratios: &[Vec<f64>],
    all: &[String],
    log_x: bool,
    st: &FigureStyle,
) -> DrawResult<String> {
    let cases = ratios.iter().map(|r| r.len()).max().unwrap_or(0).max(1) as f64;
    let finite = ratios
        .iter()
        .flatten()
        .copied()
        .filter(|x| x.is_finite())
        .fold(1.0, f64::max);
    // Up to the largest finite ratio, with room for the last step to show.
    let t_max = if log_x {
        (finite * 2.0).max(2.0)
    } else {
        1.0 + (finite - 1.0).max(1e-4) * 1.1
    };
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (st.width(), st.px(800))).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom, cols) = with_legend(&root, all, st);
        let mut legend = Vec::new();
        let steps = |r: &[f64]| -> Vec<(f64, f64)> {
            // rho jumps at each ratio; drawn as a staircase from tau = 1 to t_max.
            let mut pts = vec![(1.0, 0.0)];
            let mut count = 0.0;
            for &x in r.iter().filter(|x| x.is_finite()) {
                let prev = count / cases;
                count += 1.0;
                pts.push((x, prev));
                pts.push((x, count / cases));
            }
            pts.push((t_max, count / cases));
            pts
        };
        macro_rules! draw {
            ($chart:expr) => {{
                let mut chart = $chart;
                for (i, r) in ratios.iter().enumerate() {
                    let c = color(i);
                    let pts = steps(r);
                    chart.draw_series(LineSeries::new(pts.clone(), c.stroke_width(st.line())))?;
                    // One marker where the profile reaches its last value (it names the
                    // series in grey print); markers at every jump would crowd the steps.
                    let last_jump = pts.len().saturating_sub(2);
                    draw_marker(
                        chart.plotting_area(),
                        pts[last_jump],
                        shape(i),
                        c,
                        marker(st),
                    )?;
                    legend.push((all[i].clone(), c, Some(shape(i)), true));
                }
            }};
        }
        let y_desc = "fraction of cases";
        if log_x {
            let mut chart = profile_frame(&top, st, title)
                .build_cartesian_2d((1.0 / 1.25..t_max).log_scale(), Y_FRACTION)?;
            let ticks = |x: &f64| log_tick_sparse(*x, t_max.log10());
            draw_mesh(&mut chart, st, x_desc, y_desc, &ticks, None)?;
            draw!(chart);
        } else {
            let dec = decimals(t_max - 1.0);
            let mut chart = profile_frame(&top, st, title)
                .build_cartesian_2d(1.0 - 0.04 * (t_max - 1.0)..t_max, Y_FRACTION)?;
            let ticks = |x: &f64| format!("{x:.dec$}");
            draw_mesh(&mut chart, st, x_desc, y_desc, &ticks, Some(5))?;
            draw!(chart);
        }
        draw_legend(&bottom, &legend, cols, st)?;
        root.present()?;
    }
    Ok(svg)
}

/// The profile chart's builder on `area`: the title, margins and label areas of both axes.
fn profile_frame<'a, 'b>(
    area: &'a DrawingArea<SVGBackend<'b>, Shift>,
    st: &FigureStyle,
    title: &str,
) -> ChartBuilder<'a, 'b, SVGBackend<'b>> {
    let mut builder = chart_on(area, st, title);
    builder
        .margin(st.px(20))
        .margin_right(st.px(40))
        .x_label_area_size(st.px(130))
        .y_label_area_size(st.px(150));
    builder
}

/// Draw the profile's mesh on `chart`: x ticks by `x_ticks` (`x_labels` of them when
/// given), the fraction's y ticks of one decimal, in the house style ([`house_mesh`]).
fn draw_mesh<X>(
    chart: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<X, RangedCoordf64>>,
    st: &FigureStyle,
    x_desc: &str,
    y_desc: &str,
    x_ticks: &dyn Fn(&f64) -> String,
    x_labels: Option<usize>,
) -> DrawResult<()>
where
    X: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let y_ticks = |y: &f64| format!("{y:.1}");
    let mut mesh = chart.configure_mesh();
    house_mesh(&mut mesh, st)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(x_ticks)
        .y_label_formatter(&y_ticks)
        .y_labels(6);
    if let Some(n) = x_labels {
        mesh.x_labels(n);
    }
    mesh.draw()?;
    Ok(())
}
