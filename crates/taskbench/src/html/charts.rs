//! Which charts a point and a sweep get, fed from the analysis: bars of each row's elapsed
//! and peak RSS summaries, the timer's oversleep medians, one measured run's RSS timeline
//! per contestant, and a sweep's fitted medians against N with the fitted lines.

use crate::analysis::{CaseSummary, Fit, Metric, Outcome, PointSummary};
use crate::measure::Sample;
use crate::plot::{
    self, HALF_WIDTH, LineChart, Marks, Palette, Percentiles, Quantity, Row, RowChart, Series,
};
use crate::report::units::duration;
use crate::run::RunRecord;
use crate::stats::Summary;

/// Keys of the timer's extra figures.
const OVERSLEEP: [&str; 3] = ["oversleep_p50_ns", "oversleep_p99_ns", "oversleep_max_ns"];
const LINE_SIZE: (u32, u32) = (HALF_WIDTH, 340);

/// The charts of one point, as SVG (or a line saying why one could not be drawn).
pub fn point_charts(point: &PointSummary, runs: &[RunRecord], palette: &Palette) -> Vec<String> {
    let mut charts = vec![
        bars(point, "elapsed", Quantity::Time, |r| r.elapsed, palette),
        bars(point, "peak RSS", Quantity::Memory, |r| r.peak_rss, palette),
    ];
    if point.rows.iter().any(|r| oversleep(r).is_some()) {
        let rows = point
            .rows
            .iter()
            .map(|r| row(r, oversleep(r).map(Marks::Percentiles)));
        let chart = RowChart {
            title: "timer oversleep per sleep (medians of the runs)".into(),
            axis: "oversleep per sleep".into(),
            quantity: Quantity::Time,
            rows: rows.collect(),
            reference: None,
            width: HALF_WIDTH,
        };
        charts.push(svg(plot::rows(&chart, palette)));
    }
    let series: Vec<Series> = point
        .rows
        .iter()
        .filter_map(|r| {
            let timeline = timeline(runs, r)?;
            Some(Series {
                name: r.contestant.clone(),
                points: timeline
                    .iter()
                    .map(|s| (s.at_us as f64 * 1e3, s.rss_bytes as f64))
                    .collect(),
                fit: None,
                ranges: Vec::new(),
                rings: Vec::new(),
            })
        })
        .collect();
    if !series.is_empty() {
        let chart = LineChart {
            title: "RSS over one measured run (peak nearest the median)".into(),
            x_axis: "time since the process started".into(),
            x: Quantity::Time,
            y_axis: "RSS".into(),
            y: Quantity::Memory,
            series,
            log: false,
            size: LINE_SIZE,
        };
        charts.push(svg(plot::lines(&chart, palette)));
    }
    charts
}

/// The charts of one sweep (fits of one scenario, swept parameter and fixed parameters):
/// overhead and peak RSS against N, the fitted medians joined, the fitted line thin.
pub fn sweep_charts(fits: &[&Fit], palette: &Palette) -> Vec<String> {
    let Some(first) = fits.first() else {
        return Vec::new();
    };
    [
        (
            Metric::OverheadNs,
            "overhead (elapsed − ideal)",
            Quantity::Time,
        ),
        (Metric::PeakRssBytes, "peak RSS", Quantity::Memory),
    ]
    .into_iter()
    .filter(|(metric, _, _)| fits.iter().any(|f| f.metric == *metric))
    .map(|(metric, what, quantity)| {
        let series = fits
            .iter()
            .filter(|f| f.metric == metric)
            .map(|f| Series {
                name: f.contestant.clone(),
                points: f.points.iter().map(|p| (p.n as f64, p.value)).collect(),
                fit: Some(plot::Fit {
                    slope: f.slope,
                    intercept: f.intercept,
                }),
                ranges: Vec::new(),
                rings: Vec::new(),
            })
            .collect();
        let chart = LineChart {
            title: format!("{what} against {} · thin: least-squares fit", first.param),
            x_axis: first.param.clone(),
            x: Quantity::Count,
            y_axis: what.into(),
            y: quantity,
            series,
            log: true,
            size: LINE_SIZE,
        };
        svg(plot::lines(&chart, palette))
    })
    .collect()
}

/// A bar chart of one summary of every row.
fn bars(
    point: &PointSummary,
    what: &str,
    quantity: Quantity,
    pick: fn(&CaseSummary) -> Option<Summary>,
    palette: &Palette,
) -> String {
    let rows = point.rows.iter().map(|r| {
        let bar = pick(r).map(|s| Marks::Bar {
            median: s.median,
            min: s.min,
            max: s.max,
        });
        row(r, bar)
    });
    // The ideal time, where there is one, as a line on the elapsed chart.
    let ideal = point.rows.first().map_or(0, |r| r.ideal_ns) as f64;
    let reference = (quantity == Quantity::Time && ideal > 0.0).then_some(ideal);
    let mut title = format!("{what} · median, whiskers min–max");
    if reference.is_some() {
        title.push_str(&format!(" · line: ideal {}", duration(ideal)));
    }
    let chart = RowChart {
        title,
        axis: what.into(),
        quantity,
        rows: rows.collect(),
        reference,
        width: HALF_WIDTH,
    };
    svg(plot::rows(&chart, palette))
}

/// A row with `marks`, or with the row's status when it has no valid run.
fn row(summary: &CaseSummary, marks: Option<Marks>) -> Row {
    let marks = match (&summary.outcome, marks) {
        (Outcome::Valid, Some(marks)) => marks,
        (Outcome::Valid, None) => Marks::Status("–".into()),
        (Outcome::NotImplemented { .. }, _) => Marks::Status("n/a".into()),
        (Outcome::Failed { status }, _) => Marks::Status(status.clone()),
    };
    Row {
        name: summary.contestant.clone(),
        marks,
    }
}

fn oversleep(row: &CaseSummary) -> Option<Percentiles> {
    let [p50, p99, max] = OVERSLEEP.map(|key| row.extra.get(key).copied());
    Some(Percentiles {
        p50: p50?,
        p99: p99?,
        max: max?,
    })
}

/// The timeline of the run the analysis chose for the row.
fn timeline<'a>(runs: &'a [RunRecord], row: &CaseSummary) -> Option<&'a [Sample]> {
    row.representative(runs)
        .and_then(|r| r.figures.as_ref())
        .map(|f| f.timeline.as_slice())
}

/// The SVG, or a short note in its place.
pub(super) fn svg(drawn: anyhow::Result<String>) -> String {
    drawn.unwrap_or_else(|err| {
        format!(
            r#"<p class="chart-error">chart not drawn: {}</p>"#,
            super::table::escape(&err.to_string())
        )
    })
}
