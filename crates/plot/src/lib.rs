//! Charts for the HTML report, drawn with plotters into SVG strings: one row per
//! contestant (bars of a median with its min–max range, the timer's oversleep
//! percentiles) and lines (sweeps against N, RSS over time). A chart draws what
//! `analysis` decided — medians, intervals, fits — and computes no statistic of its own;
//! colours and marker shapes come from one [`Palette`] so a contestant looks the same in
//! every chart.

mod axis;
mod lines;
mod palette;
mod rows;

pub use axis::{Quantity, tick};
pub use lines::{Fit, LineChart, Series, lines};
pub use palette::{Identity, Palette};
pub use rows::{Marks, Percentiles, Row, RowChart, rows};

use plotters::coord::Shift;
use plotters::element::Polygon;
use plotters::prelude::{DrawingArea, SVGBackend};
use plotters::style::{Color, FontFamily, RGBColor, TextStyle};
use std::ops::Range;

/// Width of a chart that shares a line with another one, px.
pub const HALF_WIDTH: u32 = 620;

/// plotters writes `font-size` as size / 1.24: these give 13 px labels and 15 px titles.
const LABEL_SIZE: f64 = 16.0;
const CAPTION_SIZE: f64 = 19.0;
/// Width of one character of a 13 px sans-serif label, generously, px.
const CHAR_PX: f64 = 7.4;
const INK: RGBColor = RGBColor(0x33, 0x33, 0x33);
const MUTED: RGBColor = RGBColor(0x77, 0x77, 0x77);

fn label_style() -> TextStyle<'static> {
    TextStyle::from((FontFamily::SansSerif, LABEL_SIZE)).color(&INK)
}

fn caption_style() -> TextStyle<'static> {
    TextStyle::from((FontFamily::SansSerif, CAPTION_SIZE)).color(&INK)
}

/// Pixels a label of `text` needs.
fn text_px(text: &str) -> u32 {
    (text.chars().count() as f64 * CHAR_PX).ceil() as u32
}

/// A contestant's marker centred at `(x, y)` (the backend's pixels), `radius` px, filled
/// in its colour.
fn mark(
    root: &DrawingArea<SVGBackend<'_>, Shift>,
    (x, y): (i32, i32),
    identity: Identity,
    radius: f64,
) -> anyhow::Result<()> {
    let outline: Vec<(i32, i32)> = identity
        .marker
        .outline(radius)
        .into_iter()
        .map(|(dx, dy)| (x + dx.round() as i32, y + dy.round() as i32))
        .collect();
    root.draw(&Polygon::new(outline, identity.colour.filled()))?;
    Ok(())
}

/// A contestant's marker as a small inline SVG for HTML (a legend, a table's first column),
/// carrying its colour and shape as data so that a page can be checked.
pub fn marker_svg(identity: Identity, size: u32) -> String {
    let r = size as f64 / 2.0 - 0.5;
    let points: Vec<String> = identity
        .marker
        .outline(r)
        .into_iter()
        .map(|(x, y)| format!("{:.1},{:.1}", x + size as f64 / 2.0, y + size as f64 / 2.0))
        .collect();
    let RGBColor(red, green, blue) = identity.colour;
    let colour = format!("#{red:02x}{green:02x}{blue:02x}");
    format!(
        r#"<svg class="mark" width="{size}" height="{size}" viewBox="0 0 {size} {size}" data-colour="{colour}" data-marker="{}" aria-hidden="true"><polygon points="{}" fill="{colour}"/></svg>"#,
        identity.marker.name(),
        points.join(" ")
    )
}

/// How an axis maps values: linearly from zero, or by decades.
#[derive(Debug, Clone, PartialEq)]
enum Scale {
    Linear(Range<f64>),
    Log(Range<f64>),
}

impl Scale {
    /// Decades when every value is positive and they span at least a factor of ten,
    /// else linear from zero. `values` are already in the axis unit.
    fn fit(values: &[f64], allow_log: bool) -> Scale {
        let finite: Vec<f64> = values.iter().copied().filter(|v| v.is_finite()).collect();
        let max = finite.iter().copied().fold(f64::MIN, f64::max);
        let min = finite.iter().copied().fold(f64::MAX, f64::min);
        if finite.is_empty() {
            return Scale::Linear(0.0..1.0);
        }
        if allow_log && min > 0.0 && max / min >= 10.0 {
            let low = 10f64.powf(min.log10().floor());
            let high = 10f64.powf(max.log10().ceil());
            return Scale::Log(low..high);
        }
        let high = if max > 0.0 { max * 1.08 } else { 1.0 };
        Scale::Linear(min.min(0.0)..high)
    }

    fn start(&self) -> f64 {
        match self {
            Scale::Linear(range) | Scale::Log(range) => range.start,
        }
    }

    fn end(&self) -> f64 {
        match self {
            Scale::Linear(range) | Scale::Log(range) => range.end,
        }
    }

    /// The same axis made longer, so that `far` (its largest value) ends `room` of the way
    /// short of the end (0 < room < 1): space for the labels right of the marks.
    fn with_room(self, far: f64, room: f64) -> Scale {
        let keep = 1.0 - room.clamp(0.0, 0.6);
        match self {
            Scale::Linear(range) if far > range.start => {
                Scale::Linear(range.start..range.start + (far - range.start) / keep)
            }
            Scale::Log(range) if far > range.start => {
                Scale::Log(range.start..range.start * (far / range.start).powf(1.0 / keep))
            }
            unchanged => unchanged,
        }
    }

    /// Where a value that a log axis cannot show (≤ 0) is drawn: the axis start.
    fn clamp(&self, v: f64) -> f64 {
        match self {
            Scale::Log(range) => v.max(range.start),
            Scale::Linear(_) => v,
        }
    }
}

/// Runs `$body` with `$coord` bound to the plotters coordinate of `$scale`; log and
/// linear axes are different types, so the body is compiled once for each.
macro_rules! with_scale {
    ($scale:expr, $coord:ident => $body:expr) => {
        match $scale {
            $crate::Scale::Linear(range) => {
                let $coord = range.clone();
                $body
            }
            $crate::Scale::Log(range) => {
                let $coord = plotters::prelude::IntoLogRange::log_scale(range.clone());
                $body
            }
        }
    };
}
use with_scale;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decades_when_values_span_them() {
        assert_eq!(
            Scale::fit(&[120.0, 45_000.0], true),
            Scale::Log(100.0..100_000.0)
        );
        assert_eq!(Scale::fit(&[3.0, 20.0], false), Scale::Linear(0.0..21.6));
        // Less than a factor of ten, or a zero: linear from zero.
        assert_eq!(Scale::fit(&[1.0, 9.0], true), Scale::Linear(0.0..9.72));
        assert_eq!(Scale::fit(&[0.0, 500.0], true), Scale::Linear(0.0..540.0));
        assert_eq!(Scale::fit(&[], true), Scale::Linear(0.0..1.0));
        assert_eq!(Scale::Log(10.0..100.0).clamp(0.0), 10.0);
    }

    #[test]
    fn room_for_labels_right_of_the_largest_value() {
        // 80 at three quarters of the way: the axis ends at 80 / 0.75.
        let Scale::Linear(range) = Scale::Linear(0.0..86.4).with_room(80.0, 0.25) else {
            panic!()
        };
        assert!((range.end - 320.0 / 3.0).abs() < 1e-9);
        // On decades the same share of the width: 1 → 100 over three quarters of it.
        let Scale::Log(range) = Scale::Log(1.0..100.0).with_room(100.0, 0.25) else {
            panic!()
        };
        assert!((range.end.log10() - 8.0 / 3.0).abs() < 1e-9);
    }
}
