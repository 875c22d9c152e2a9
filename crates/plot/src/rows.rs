//! Charts with one row per contestant, best first: the contestant's marker at the median
//! with a line over its 95 % interval (overhead or elapsed, peak RSS), or the timer's
//! oversleep percentiles. The axis goes by decades when the values span more than 10×, so
//! a thread-per-task row of 900 ms leaves the 1 ms rows readable. Names sit left of their
//! row, values right of it, all visible.

use super::axis::{Quantity, axis_label, tick};
use super::palette::Identity;
use super::{INK, MUTED, Palette, Scale, caption_style, label_style, mark, text_px, with_scale};
use plotters::coord::ranged1d::{AsRangedCoord, Ranged, ValueFormatter};
use plotters::coord::types::RangedCoordf64;
use plotters::prelude::*;
use plotters::style::text_anchor::{HPos, Pos, VPos};
use units::{bytes, duration};

/// A chart of rows.
#[derive(Debug, Clone, PartialEq)]
pub struct RowChart {
    pub title: String,
    /// What the x axis measures (`elapsed`), without the unit.
    pub axis: String,
    pub quantity: Quantity,
    pub rows: Vec<Row>,
    /// A value marked by a vertical line across the rows (the ideal time), base unit.
    pub reference: Option<f64>,
    /// Width in px; the height follows from the number of rows.
    pub width: u32,
}

/// One contestant's row.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    pub name: String,
    pub marks: Marks,
}

/// What a row shows.
#[derive(Debug, Clone, PartialEq)]
pub enum Marks {
    /// The median, and its interval as a line (`low == high` when there is none).
    Interval { median: f64, low: f64, high: f64 },
    /// Oversleep percentiles of the timer scenario.
    Percentiles(Percentiles),
    /// No figure, this status instead (`n/a`, `timeout`).
    Status(String),
}

/// Oversleep per sleep, in the chart's quantity.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Percentiles {
    pub p50: f64,
    pub p99: f64,
    pub max: f64,
}

const ROW_PX: u32 = 30;
const TOP_PX: u32 = 40;
const AXIS_PX: u32 = 46;
const RIGHT_PX: u32 = 18;

/// Draws the chart as SVG.
pub fn rows(chart: &RowChart, palette: &Palette) -> anyhow::Result<String> {
    let mut values: Vec<f64> = chart.rows.iter().flat_map(|r| r.marks.values()).collect();
    values.extend(chart.reference);
    let unit = chart
        .quantity
        .unit_for(values.iter().copied().fold(0.0, f64::max));
    let scaled: Vec<f64> = values.iter().map(|v| v / unit.divisor).collect();
    let names_px = chart
        .rows
        .iter()
        .map(|r| text_px(&r.name))
        .max()
        .unwrap_or(0)
        + 14;
    let labels_px = chart
        .rows
        .iter()
        .map(|r| text_px(&r.marks.label(chart.quantity)))
        .max()
        .unwrap_or(0)
        + 12;
    let plot_px = chart.width.saturating_sub(names_px + RIGHT_PX).max(100) as f64;
    let far = scaled.iter().copied().fold(0.0, f64::max);
    let scale = Scale::fit(&scaled, true).with_room(far, labels_px as f64 / plot_px);
    let height = TOP_PX + AXIS_PX + ROW_PX * chart.rows.len().max(1) as u32;
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (chart.width, height)).into_drawing_area();
        root.fill(&WHITE)?;
        let x_label = axis_label(&chart.axis, unit);
        let frame = Frame {
            scale: &scale,
            divisor: unit.divisor,
            names_px,
            x_label: &x_label,
            palette,
        };
        with_scale!(&scale, x => draw(&root, chart, x, &frame))?;
    }
    Ok(svg)
}

/// The chart's title, with the key to its markers where it draws percentiles.
fn title(chart: &RowChart) -> String {
    let percentiles = chart
        .rows
        .iter()
        .any(|r| matches!(r.marks, Marks::Percentiles(_)));
    if percentiles {
        format!("{} · marker p50 ▲ p99 ✕ max", chart.title)
    } else {
        chart.title.clone()
    }
}

/// How a row chart is laid out: its axis and scale, the width of its names, its colours.
struct Frame<'a> {
    scale: &'a Scale,
    /// Values are divided by this for the axis's unit.
    divisor: f64,
    names_px: u32,
    x_label: &'a str,
    palette: &'a Palette,
}

fn draw<X>(
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    chart: &RowChart,
    x: X,
    frame: &Frame,
) -> anyhow::Result<()>
where
    X: AsRangedCoord<Value = f64>,
    X::CoordDescType: Ranged<ValueType = f64> + ValueFormatter<f64>,
{
    let Frame {
        scale,
        divisor,
        names_px,
        x_label,
        palette,
    } = *frame;
    let n = chart.rows.len().max(1) as f64;
    let mut plot = ChartBuilder::on(root)
        .caption(title(chart), caption_style())
        .margin_right(RIGHT_PX)
        .margin_top(6)
        .x_label_area_size(AXIS_PX - 6)
        .y_label_area_size(names_px)
        .build_cartesian_2d(x, 0.0..n)?;
    plot.configure_mesh()
        .disable_y_mesh()
        .y_labels(0)
        .x_labels(6)
        .x_desc(x_label)
        .x_label_formatter(&|v| tick(*v))
        .axis_desc_style(label_style())
        .label_style(label_style())
        .light_line_style(WHITE)
        .bold_line_style(BLACK.mix(0.08))
        .draw()?;
    let low = scale.start();
    if let Some(reference) = chart.reference {
        let at = scale.clamp(reference / divisor);
        plot.draw_series([PathElement::new(
            [(at, 0.0), (at, n)],
            MUTED.stroke_width(1),
        )])?;
    }
    for (index, row) in chart.rows.iter().enumerate() {
        let centre = n - index as f64 - 0.5;
        let identity = palette.identity(&row.name);
        let (name_x, name_y) = plot.backend_coord(&(low, centre));
        root.draw(&Text::new(
            row.name.clone(),
            (name_x - 8, name_y),
            label_style().pos(Pos::new(HPos::Right, VPos::Center)),
        ))?;
        let s = |v: f64| scale.clamp(v / divisor);
        let end = draw_marks(&mut plot, root, &row.marks, (centre, low), identity, &s)?;
        let (value_x, value_y) = plot.backend_coord(&(end, centre));
        let colour = match row.marks {
            Marks::Status(_) => MUTED,
            _ => INK,
        };
        root.draw(&Text::new(
            row.marks.label(chart.quantity),
            (value_x + 8, value_y),
            label_style()
                .color(&colour)
                .pos(Pos::new(HPos::Left, VPos::Center)),
        ))?;
    }
    Ok(())
}

/// A row's marks at height `centre` — an interval with its median on a faint guide from
/// the axis at `low`, or percentiles — in values `s` places on the axis; where they end,
/// for the value's label.
fn draw_marks<XC>(
    plot: &mut ChartContext<'_, SVGBackend<'_>, Cartesian2d<XC, RangedCoordf64>>,
    root: &DrawingArea<SVGBackend<'_>, plotters::coord::Shift>,
    marks: &Marks,
    (centre, low): (f64, f64),
    identity: Identity,
    s: &dyn Fn(f64) -> f64,
) -> anyhow::Result<f64>
where
    XC: Ranged<ValueType = f64>,
{
    let colour = identity.colour;
    Ok(match marks {
        Marks::Interval {
            median,
            low: from,
            high: to,
        } => {
            plot.draw_series([PathElement::new(
                [(low, centre), (s(*median), centre)],
                BLACK.mix(0.08).stroke_width(1),
            )])?;
            plot.draw_series([PathElement::new(
                [(s(*from), centre), (s(*to), centre)],
                colour.stroke_width(2),
            )])?;
            mark(
                root,
                plot.backend_coord(&(s(*median), centre)),
                identity,
                6.0,
            )?;
            s(*to)
        }
        Marks::Percentiles(p) => {
            let (p50, p99, max) = (s(p.p50), s(p.p99), s(p.max));
            plot.draw_series([PathElement::new(
                [(p50, centre), (max, centre)],
                colour.stroke_width(2),
            )])?;
            mark(root, plot.backend_coord(&(p50, centre)), identity, 6.0)?;
            plot.draw_series([TriangleMarker::new((p99, centre), 6, colour.filled())])?;
            plot.draw_series([Cross::new((max, centre), 5, colour.stroke_width(2))])?;
            max
        }
        Marks::Status(_) => low,
    })
}

impl Marks {
    /// The values drawn, in the quantity's base unit.
    fn values(&self) -> Vec<f64> {
        match self {
            Marks::Interval { median, low, high } => vec![*median, *low, *high],
            Marks::Percentiles(p) => vec![p.p50, p.p99, p.max],
            Marks::Status(_) => Vec::new(),
        }
    }

    /// The text right of the row: the median, the largest oversleep, or the status.
    fn label(&self, quantity: Quantity) -> String {
        let human = |v: f64| match quantity {
            Quantity::Time => duration(v),
            Quantity::Memory => bytes(v),
            Quantity::Count => tick(v),
        };
        match self {
            Marks::Interval { median, .. } => human(*median),
            Marks::Percentiles(p) => format!("p99 {} · max {}", human(p.p99), human(p.max)),
            Marks::Status(status) => status.clone(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart(rows: Vec<Row>) -> RowChart {
        RowChart {
            title: "spawn · tasks=10000".into(),
            axis: "elapsed".into(),
            quantity: Quantity::Time,
            rows,
            reference: None,
            width: 640,
        }
    }

    #[test]
    fn rows_name_every_contestant_and_value_in_its_colour() {
        let palette =
            Palette::unlabelled(["tokio".to_string(), "a-very-long-contestant-name".into()]);
        let svg = rows(
            &chart(vec![
                Row {
                    name: "tokio".into(),
                    marks: Marks::Interval {
                        median: 2.0e6,
                        low: 1.5e6,
                        high: 3.0e6,
                    },
                },
                Row {
                    name: "a-very-long-contestant-name".into(),
                    marks: Marks::Status("timeout".into()),
                },
            ]),
            &palette,
        )
        .unwrap();
        assert!(svg.contains(">\ntokio\n<") && svg.contains(">\na-very-long-contestant-name\n<"));
        assert!(
            svg.contains(">\n2.00 ms\n<") && svg.contains(">\ntimeout\n<"),
            "{svg}"
        );
        assert!(svg.contains("elapsed (ms)"));
        assert!(
            svg.contains(&palette.css("tokio").to_uppercase())
                || svg.contains(&palette.css("tokio"))
        );
        // Two rows: 40 + 46 + 2 × 30 px.
        assert!(svg.contains(r#"height="146""#), "{svg}");
    }

    #[test]
    fn oversleep_goes_on_a_log_axis_with_a_legend() {
        let svg = rows(
            &RowChart {
                title: "oversleep".into(),
                axis: "oversleep per sleep".into(),
                ..chart(vec![Row {
                    name: "tokio".into(),
                    marks: Marks::Percentiles(Percentiles {
                        p50: 60e3,
                        p99: 1.1e6,
                        max: 4.0e6,
                    }),
                }])
            },
            &Palette::unlabelled(["tokio".to_string()]),
        )
        .unwrap();
        assert!(svg.contains("oversleep per sleep (ms)"));
        assert!(svg.contains("p99 1.10 ms · max 4.00 ms"));
        assert!(svg.contains("oversleep · marker p50 ▲ p99 ✕ max"), "{svg}");
    }
}
