//! Which charts a point and a sweep get, fed from the analysis: each row's headline time
//! (the overhead where the scenario has an ideal time) and peak RSS as medians with their
//! 95 % intervals (a reference such as floor grey and named so), the timer's oversleep
//! medians, the RSS timelines of the contestants with
//! the lowest, median and highest peak (and every contestant's as small multiples on
//! shared axes), a contestant across its releases (`go@1.20` … `go@1.26`, oldest first),
//! and a sweep's fitted medians against N with the fitted lines and the medians'
//! intervals as bands.

use analysis::{CaseSummary, Outcome, PointSummary};

use contestant::releases::ReleaseSweep;

use analysis::fits::{Fit, Metric};
use measure::Sample;
use plot::{
    self, HALF_WIDTH, LineChart, Marks, Palette, Percentiles, Quantity, Row, RowChart, Series,
};
use run::RunRecord;
use stats::Summary;
use words::table::REFERENCE_MARK;

/// Keys of the timer's extra figures.
const OVERSLEEP: [&str; 3] = ["oversleep_p50_ns", "oversleep_p99_ns", "oversleep_max_ns"];
/// What an interval chart's rows show.
const MEDIAN: &str = "median and 95 % interval";
const LINE_SIZE: (u32, u32) = (HALF_WIDTH, 340);
/// One small multiple of the RSS timelines.
const SMALL_SIZE: (u32, u32) = (300, 190);

/// The charts of one point, as SVG (or a line saying why one could not be drawn);
/// `timelines` are the point's RSS timelines ([`timelines`]), `releases` the run's release
/// sweeps, each drawn across its releases where the point has two or more of them.
pub(crate) fn point_charts(
    point: &PointSummary,
    timelines: &[Series],
    releases: &[ReleaseSweep],
    palette: &Palette,
) -> Vec<String> {
    let overhead = point.rows.first().is_some_and(|r| r.ideal_ns > 0);
    let time = if overhead {
        "overhead (elapsed − ideal)"
    } else {
        "elapsed"
    };
    let every: Vec<&CaseSummary> = point.rows.iter().collect();
    let headline = |r: &CaseSummary| r.headline().copied();
    let mut charts = vec![
        intervals(
            &every,
            &format!("{time} · {MEDIAN}"),
            time,
            Quantity::Time,
            headline,
            palette,
        ),
        intervals(
            &every,
            &format!("peak RSS · {MEDIAN}"),
            "peak RSS",
            Quantity::Memory,
            |r| r.peak_rss,
            palette,
        ),
    ];
    for sweep in releases {
        let rows: Vec<&CaseSummary> = (sweep.releases.iter())
            .filter_map(|name| point.rows.iter().find(|r| r.contestant == *name))
            .collect();
        if rows.len() > 1 {
            let title = format!("{} by release, oldest first · {MEDIAN}", sweep.contestant);
            charts.push(intervals(
                &rows,
                &title,
                time,
                Quantity::Time,
                headline,
                palette,
            ));
        }
    }
    charts.extend(oversleep_chart(point, palette));
    charts.extend(rss_chart(timelines, palette));
    charts
}

/// The timers' oversleep per sleep, where the point's rows report it.
fn oversleep_chart(point: &PointSummary, palette: &Palette) -> Option<String> {
    if !point.rows.iter().any(|r| oversleep(r).is_some()) {
        return None;
    }
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
    Some(svg(plot::rows(&chart, palette)))
}

/// RSS over one measured run: the lowest, the median and the highest peak (the rest are
/// small multiples); nothing without timelines.
fn rss_chart(timelines: &[Series], palette: &Palette) -> Option<String> {
    if timelines.is_empty() {
        return None;
    }
    let mut picked: Vec<&Series> = Vec::new();
    for index in [0, timelines.len() / 2, timelines.len() - 1] {
        if !picked.contains(&&timelines[index]) {
            picked.push(&timelines[index]);
        }
    }
    let title = match timelines.len() {
        1..=3 => "RSS over one measured run".to_string(),
        n => format!("RSS over one measured run · lowest, median, highest peak of {n}"),
    };
    let chart = LineChart {
        title,
        x_axis: "time since the process started".into(),
        x: Quantity::Time,
        y_axis: "RSS".into(),
        y: Quantity::Memory,
        series: picked.into_iter().cloned().collect(),
        log: false,
        size: LINE_SIZE,
        legend: true,
        reach: None,
    };
    Some(svg(plot::lines(&chart, palette)))
}

/// Every contestant's RSS timeline as a small chart, all on the same axes.
pub(crate) fn timeline_multiples(timelines: &[Series], palette: &Palette) -> Vec<String> {
    let far = |pick: fn(&(f64, f64)) -> f64| {
        timelines
            .iter()
            .flat_map(|s| s.points.iter().map(pick))
            .fold(0.0, f64::max)
    };
    let reach = (far(|p| p.0), far(|p| p.1));
    timelines
        .iter()
        .map(|series| {
            let chart = LineChart {
                title: series.name.clone(),
                x_axis: "time".into(),
                x: Quantity::Time,
                y_axis: "RSS".into(),
                y: Quantity::Memory,
                series: vec![series.clone()],
                log: false,
                size: SMALL_SIZE,
                legend: false,
                reach: Some(reach),
            };
            svg(plot::lines(&chart, palette))
        })
        .collect()
}

/// The charts of one sweep (fits of one scenario, swept parameter and fixed parameters):
/// overhead and peak RSS against N, the fitted medians joined, the fitted line thin, the
/// medians' 95 % intervals as a band. The page gives the legend.
pub(crate) fn sweep_charts(
    fits: &[&Fit],
    points: &[PointSummary],
    palette: &Palette,
) -> Vec<String> {
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
                fit: Some(plot::Fit {
                    slope: f.slope,
                    intercept: f.intercept,
                }),
                band: band(f, points),
                ..Series::line(
                    &f.contestant,
                    f.points.iter().map(|p| (p.n as f64, p.value)).collect(),
                )
            })
            .collect();
        let chart = LineChart {
            title: format!("{what} against {} · fit, 95 % band", first.param),
            x_axis: first.param.clone(),
            x: Quantity::Count,
            y_axis: what.into(),
            y: quantity,
            series,
            log: true,
            size: LINE_SIZE,
            legend: false,
            reach: None,
        };
        svg(plot::lines(&chart, palette))
    })
    .collect()
}

/// The 95 % interval of each fitted median, from the row the analysis summarised there.
fn band(fit: &Fit, points: &[PointSummary]) -> Vec<(f64, f64, f64)> {
    fit.points
        .iter()
        .filter_map(|p| {
            let row = points.iter().flat_map(|point| &point.rows).find(|r| {
                r.contestant == fit.contestant
                    && r.point.scenario == fit.scenario
                    && r.point.params.get(&fit.param) == Some(&p.n)
                    && fit
                        .other_params
                        .iter()
                        .all(|(k, v)| r.point.params.get(k) == Some(v))
            })?;
            let summary = match fit.metric {
                Metric::OverheadNs => row.overhead,
                Metric::PeakRssBytes => row.peak_rss,
                Metric::CpuNs => row.cpu,
            }?;
            let ci = summary.median_ci?;
            Some((p.n as f64, ci.low, ci.high))
        })
        .collect()
}

/// A chart of one summary of `rows`, in their order: its median and 95 % interval.
fn intervals(
    rows: &[&CaseSummary],
    title: &str,
    what: &str,
    quantity: Quantity,
    pick: fn(&CaseSummary) -> Option<Summary>,
    palette: &Palette,
) -> String {
    let rows = rows.iter().map(|r| {
        let marks = pick(r).map(|s| {
            let ci = s.median_ci;
            Marks::Interval {
                median: s.median,
                low: ci.map_or(s.median, |c| c.low),
                high: ci.map_or(s.median, |c| c.high),
            }
        });
        row(r, marks)
    });
    let chart = RowChart {
        title: title.into(),
        axis: what.into(),
        quantity,
        rows: rows.collect(),
        reference: None,
        width: HALF_WIDTH,
    };
    svg(plot::rows(&chart, palette))
}

/// Every row's RSS timeline (the run the analysis chose), lowest peak first.
pub(crate) fn timelines(point: &PointSummary, runs: &[RunRecord]) -> Vec<Series> {
    let mut series: Vec<(f64, Series)> = point
        .rows
        .iter()
        .filter_map(|r| {
            let timeline = timeline(runs, r)?;
            let points: Vec<(f64, f64)> = timeline
                .iter()
                .map(|s| (s.at_us as f64 * 1e3, s.rss_bytes as f64))
                .collect();
            let peak = points.iter().map(|p| p.1).fold(0.0, f64::max);
            Some((peak, Series::line(&r.contestant, points)))
        })
        .collect();
    series.sort_by(|a, b| a.0.total_cmp(&b.0));
    series.into_iter().map(|(_, s)| s).collect()
}

/// A row with `marks`, or with the row's status when it has no valid run.
fn row(summary: &CaseSummary, marks: Option<Marks>) -> Row {
    let marks = match (&summary.outcome, marks) {
        (Outcome::Valid, Some(marks)) => marks,
        (Outcome::Valid, None) => Marks::Status("–".into()),
        (Outcome::NotImplemented { .. }, _) => Marks::Status("n/a".into()),
        (Outcome::Failed { status }, _) => Marks::Status(status.clone()),
    };
    // A reference (floor) is drawn apart: grey, its name saying so.
    let name = if summary.reference {
        format!("{} {REFERENCE_MARK}", summary.contestant)
    } else {
        summary.contestant.clone()
    };
    Row { name, marks }
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
pub fn svg(drawn: anyhow::Result<String>) -> String {
    drawn.unwrap_or_else(|err| {
        format!(
            r#"<p class="chart-error">chart not drawn: {}</p>"#,
            super::table::escape(&err.to_string())
        )
    })
}
