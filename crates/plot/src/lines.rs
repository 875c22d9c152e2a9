//! Line charts, one line per contestant: a sweep's medians against N (with the fitted
//! straight line and the medians' 95 % intervals as a band, when analysis made them) and a
//! run's RSS over time. Axes go by decades when the values span them. The legend, when the
//! chart has one, sits right of the plot so it never hides a line, and the chart grows to
//! hold it; a page with many contestants gives its legend in HTML instead.

use super::axis::{Quantity, axis_label, tick};
use super::palette::Identity;
use super::{INK, Palette, Scale, caption_style, label_style, mark, text_px, with_scale};
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};

/// A chart of lines.
#[derive(Debug, Clone, PartialEq)]
pub struct LineChart {
    pub title: String,
    /// What each axis measures, without the unit.
    pub x_axis: String,
    pub x: Quantity,
    pub y_axis: String,
    pub y: Quantity,
    pub series: Vec<Series>,
    /// Whether an axis may go by decades (sweeps) or stays linear (timelines).
    pub log: bool,
    pub size: (u32, u32),
    /// Whether the chart draws its own legend (else the page gives one).
    pub legend: bool,
    /// Values the axes reach at least, (x, y) in base units: small multiples share axes.
    pub reach: Option<(f64, f64)>,
}

/// One contestant's line.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub name: String,
    /// (x, y) in the quantities' base units, in x order.
    pub points: Vec<(f64, f64)>,
    /// A straight line y = slope·x + intercept fitted to the points, drawn thin.
    pub fit: Option<Fit>,
    /// Intervals drawn as whiskers: (x, low, high).
    pub ranges: Vec<(f64, f64, f64)>,
    /// Points circled (a trend's version changes).
    pub rings: Vec<(f64, f64)>,
    /// Change points, each a thick vertical stroke from the level before to the level after:
    /// (x, before, after).
    pub steps: Vec<(f64, f64, f64)>,
    /// Intervals drawn as a shaded band: (x, low, high), in x order.
    pub band: Vec<(f64, f64, f64)>,
}

impl Series {
    /// A plain line through `points`.
    pub fn line(name: &str, points: Vec<(f64, f64)>) -> Series {
        Series {
            name: name.to_string(),
            points,
            fit: None,
            ranges: Vec::new(),
            rings: Vec::new(),
            steps: Vec::new(),
            band: Vec::new(),
        }
    }
}

/// A least-squares line as analysis reported it (base units).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Fit {
    pub slope: f64,
    pub intercept: f64,
}

/// Markers on every point when a line has at most this many.
const MARKED: usize = 12;
/// Height of the title band, px.
const TITLE_PX: u32 = 30;
/// Samples of a fitted line: a straight line is a curve on log axes.
const FIT_SAMPLES: usize = 48;

/// Draws the chart as SVG.
pub fn lines(chart: &LineChart, palette: &Palette) -> anyhow::Result<String> {
    let all = chart.series.iter().flat_map(|s| s.points.iter());
    let (mut xs, mut ys): (Vec<f64>, Vec<f64>) = all.copied().unzip();
    // Whiskers and bands stay inside the axis.
    ys.extend(chart.series.iter().flat_map(|s| {
        s.ranges
            .iter()
            .chain(&s.band)
            .flat_map(|&(_, low, high)| [low, high])
    }));
    if let Some((x, y)) = chart.reach {
        xs.push(x);
        ys.push(y);
    }
    let x_unit = chart.x.unit_for(xs.iter().copied().fold(0.0, f64::max));
    let y_unit = chart.y.unit_for(ys.iter().copied().fold(0.0, f64::max));
    let xs: Vec<f64> = xs.iter().map(|v| v / x_unit.divisor).collect();
    let ys: Vec<f64> = ys.iter().map(|v| v / y_unit.divisor).collect();
    let x_scale = Scale::fit(&xs, chart.log);
    let y_scale = Scale::fit(&ys, chart.log);
    let rescale = |list: &[(f64, f64, f64)]| -> Vec<(f64, f64, f64)> {
        let (x, y) = (x_unit.divisor, y_unit.divisor);
        list.iter()
            .map(|(at, low, high)| (at / x, low / y, high / y))
            .collect()
    };
    let scaled: Vec<Series> = chart
        .series
        .iter()
        .map(|s| Series {
            name: s.name.clone(),
            points: s
                .points
                .iter()
                .map(|(x, y)| (x / x_unit.divisor, y / y_unit.divisor))
                .collect(),
            band: rescale(&s.band),
            fit: s.fit.map(|f| Fit {
                slope: f.slope * x_unit.divisor / y_unit.divisor,
                intercept: f.intercept / y_unit.divisor,
            }),
            ranges: rescale(&s.ranges),
            steps: rescale(&s.steps),
            rings: s
                .rings
                .iter()
                .map(|(x, y)| (x / x_unit.divisor, y / y_unit.divisor))
                .collect(),
        })
        .collect();
    let labels = Labels {
        title: &chart.title,
        x: axis_label(&chart.x_axis, x_unit),
        y: axis_label(&chart.y_axis, y_unit),
        legend: chart.legend,
    };
    // A legend taller than the chart makes the chart taller.
    let legend_height = if chart.legend {
        TITLE_PX + 80 + LEGEND_ROW_PX * chart.series.len() as u32
    } else {
        0
    };
    let size = (chart.size.0, chart.size.1.max(legend_height));
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, size).into_drawing_area();
        root.fill(&WHITE)?;
        with_scale!(&x_scale, x => with_scale!(&y_scale, y =>
            draw(&root, &labels, &scaled, x, y, (&x_scale, &y_scale), palette)))?;
    }
    Ok(svg)
}

struct Labels<'a> {
    title: &'a str,
    x: String,
    y: String,
    legend: bool,
}

/// Height of one legend entry, px.
const LEGEND_ROW_PX: u32 = 20;

fn draw<X, Y>(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    labels: &Labels,
    series: &[Series],
    x: X,
    y: Y,
    (x_scale, y_scale): (&Scale, &Scale),
    palette: &Palette,
) -> anyhow::Result<()>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
    Y: AsRangedCoord<Value = f64>,
    Y::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let legend_px = if labels.legend {
        series.iter().map(|s| text_px(&s.name)).max().unwrap_or(0) + 40
    } else {
        16
    };
    // The title gets its own band, so the top tick label of the y axis stays clear of it.
    let (band, body) = root.split_vertically(TITLE_PX);
    band.draw(&Text::new(
        labels.title,
        ((band.dim_in_pixel().0 / 2) as i32, (TITLE_PX / 2) as i32),
        caption_style().pos(Pos::new(HPos::Center, VPos::Center)),
    ))?;
    let mut plot = ChartBuilder::on(&body)
        .margin_right(legend_px)
        .margin_top(10)
        // The rotated y-axis title's ascenders reach past its anchor at the left edge.
        .margin_left(6)
        .x_label_area_size(44)
        .y_label_area_size(62)
        .build_cartesian_2d(x, y)?;
    plot.configure_mesh()
        .x_labels(8)
        .y_labels(6)
        .x_desc(&labels.x)
        .y_desc(&labels.y)
        .x_label_formatter(&|v| tick(*v))
        .y_label_formatter(&|v| tick(*v))
        .axis_desc_style(label_style())
        .label_style(label_style())
        .light_line_style(BLACK.mix(0.03))
        .bold_line_style(BLACK.mix(0.08))
        .draw()?;
    let (right, top) = plot.backend_coord(&(x_scale.end(), y_scale.end()));
    // Bands first, under every line.
    draw_bands(&mut plot, series, palette, (x_scale, y_scale))?;
    for (index, line) in series.iter().enumerate() {
        let identity = palette.identity(&line.name);
        let colour = identity.colour;
        let points: Vec<(f64, f64)> = line
            .points
            .iter()
            .map(|(x, y)| (x_scale.clamp(*x), y_scale.clamp(*y)))
            .collect();
        plot.draw_series(LineSeries::new(points.clone(), colour.stroke_width(2)))?;
        if points.len() <= MARKED {
            for point in &points {
                mark(root, plot.backend_coord(point), identity, 4.5)?;
            }
        }
        draw_ranges_rings_fit(&mut plot, line, colour, (x_scale, y_scale))?;
        if !labels.legend {
            continue;
        }
        let y = top + 10 + LEGEND_ROW_PX as i32 * index as i32;
        legend_entry(root, (right, y), &line.name, identity)?;
    }
    Ok(())
}

/// A series' vertical ranges, its ringed points, its steps and its fitted line, in its
/// colour.
fn draw_ranges_rings_fit<XC, YC>(
    plot: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<XC, YC>>,
    line: &Series,
    colour: RGBColor,
    (x_scale, y_scale): (&Scale, &Scale),
) -> anyhow::Result<()>
where
    XC: Ranged<ValueType = f64>,
    YC: Ranged<ValueType = f64>,
{
    for &(x, low, high) in &line.ranges {
        let (x, low, high) = (x_scale.clamp(x), y_scale.clamp(low), y_scale.clamp(high));
        plot.draw_series([PathElement::new(
            [(x, low), (x, high)],
            colour.stroke_width(1),
        )])?;
    }
    plot.draw_series(line.rings.iter().map(|&(x, y)| {
        Circle::new(
            (x_scale.clamp(x), y_scale.clamp(y)),
            8,
            colour.stroke_width(2),
        )
    }))?;
    for &(x, before, after) in &line.steps {
        let (x, before, after) = (
            x_scale.clamp(x),
            y_scale.clamp(before),
            y_scale.clamp(after),
        );
        plot.draw_series([PathElement::new(
            [(x, before), (x, after)],
            colour.mix(0.7).stroke_width(5),
        )])?;
    }
    if let Some(fit) = line.fit {
        plot.draw_series(LineSeries::new(
            fitted(fit, x_scale, y_scale),
            colour.mix(0.6).stroke_width(1),
        ))?;
    }
    Ok(())
}

/// Each series' band (its medians' intervals), filled faintly under every line.
fn draw_bands<XC, YC>(
    plot: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<XC, YC>>,
    series: &[Series],
    palette: &Palette,
    (x_scale, y_scale): (&Scale, &Scale),
) -> anyhow::Result<()>
where
    XC: Ranged<ValueType = f64>,
    YC: Ranged<ValueType = f64>,
{
    for line in series.iter().filter(|l| l.band.len() >= 2) {
        let colour = palette.colour(&line.name);
        let clamp = |x: f64, y: f64| (x_scale.clamp(x), y_scale.clamp(y));
        let upper = line.band.iter().map(|&(x, _, high)| clamp(x, high));
        let lower = line.band.iter().rev().map(|&(x, low, _)| clamp(x, low));
        plot.draw_series([Polygon::new(
            upper.chain(lower).collect::<Vec<_>>(),
            colour.mix(0.14).filled(),
        )])?;
    }
    Ok(())
}

/// One legend entry at `(right, y)` (the backend's pixels): a stroke with the marker on it,
/// then the name.
fn legend_entry(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    (right, y): (i32, i32),
    name: &str,
    identity: Identity,
) -> anyhow::Result<()> {
    root.draw(&PathElement::new(
        [(right + 12, y), (right + 30, y)],
        identity.colour.stroke_width(3),
    ))?;
    mark(root, (right + 21, y), identity, 4.5)?;
    root.draw(&Text::new(
        name.to_string(),
        (right + 36, y),
        label_style()
            .color(&INK)
            .pos(Pos::new(HPos::Left, VPos::Center)),
    ))?;
    Ok(())
}

/// Points of y = slope·x + intercept across the x axis, inside the y axis.
fn fitted(fit: Fit, x_scale: &Scale, y_scale: &Scale) -> Vec<(f64, f64)> {
    let (start, end) = (x_scale.start(), x_scale.end());
    (0..=FIT_SAMPLES)
        .map(|i| {
            let t = i as f64 / FIT_SAMPLES as f64;
            match x_scale {
                Scale::Log(_) => start * (end / start).powf(t),
                Scale::Linear(_) => start + (end - start) * t,
            }
        })
        .map(|x| (x, fit.slope * x + fit.intercept))
        .filter(|(_, y)| *y >= y_scale.start() && *y <= y_scale.end())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sweep() -> LineChart {
        LineChart {
            title: "sleep · delay-ms=1000 · peak RSS against tasks".into(),
            x_axis: "tasks".into(),
            x: Quantity::Count,
            y_axis: "peak RSS".into(),
            y: Quantity::Memory,
            series: vec![Series {
                name: "tokio".into(),
                points: vec![
                    (1e3, 3.0 * 1048576.0),
                    (1e4, 6.0 * 1048576.0),
                    (1e5, 33.0 * 1048576.0),
                ],
                fit: Some(Fit {
                    slope: 300.0,
                    intercept: 3.0 * 1048576.0,
                }),
                ranges: Vec::new(),
                rings: Vec::new(),
                steps: Vec::new(),
                band: Vec::new(),
            }],
            log: true,
            size: (640, 360),
            legend: true,
            reach: None,
        }
    }

    #[test]
    fn sweeps_go_by_decades_with_units_and_a_legend() {
        let svg = lines(&sweep(), &Palette::unlabelled(["tokio".to_string()])).unwrap();
        assert!(
            svg.contains("peak RSS (MiB)") && svg.contains(">\ntasks\n<"),
            "{svg}"
        );
        // Decade ticks of the x axis: 1000 … 100k.
        assert!(
            svg.contains(">\n1000\n<") && svg.contains(">\n100k\n<"),
            "{svg}"
        );
        assert!(svg.contains(">\ntokio\n<"));
    }

    #[test]
    fn a_fit_is_a_straight_line_in_the_axis_units() {
        // y = 300 B·x + 3 MiB, x in tasks, y in MiB: at x = 1e5, 3 + 28.6 MiB.
        let line = fitted(
            Fit {
                slope: 300.0 / 1048576.0,
                intercept: 3.0,
            },
            &Scale::Log(1e3..1e5),
            &Scale::Log(1.0..100.0),
        );
        assert_eq!(line.len(), FIT_SAMPLES + 1);
        let (x, y) = *line.last().unwrap();
        assert!((x - 1e5).abs() < 1e-6 && (y - (3.0 + 3e7 / 1048576.0)).abs() < 1e-9);
    }
}
