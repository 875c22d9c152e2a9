//! `taskbench history --export-html FILE`: the store's sessions as a page — for every point
//! a trend chart (each contestant's median per session with its 95 % interval as a whisker,
//! a ring where its version changed, a thick stroke where a change point starts, from the
//! level before to the level after; history/change_points.rs finds them) above the history
//! table.

use crate::history::change_points::{Along, Figure, SeriesSteps};
use catalogue::Point;
use html::charts::svg;
use html::{figures_table, standalone, table::escape};
use plot::{LineChart, Palette, Quantity, Series};
use std::fmt::Write;
use store::HistoryRow;
use words::Table;

/// The page of `rows`, with `table` (their history table) at its end, each case's time
/// steps along its sessions among `found` marked.
pub(crate) fn trend_page(rows: &[HistoryRow], table: &Table, found: &[SeriesSteps]) -> String {
    // Sessions in time order: the x axis counts them, so that a quiet month takes no room.
    let mut sessions: Vec<(&str, i64)> = rows
        .iter()
        .map(|e| (e.started.as_str(), e.session))
        .collect();
    sessions.sort_unstable();
    sessions.dedup();
    let mut body = String::new();
    let _ = write!(
        body,
        "<h1>taskbench history</h1><p>{} session{}, from {} to {} (UTC). Each chart: a \
         contestant's median per session with its 95 % interval; a ring where its version \
         changed; a thick stroke where a change point starts (E-divisive means, \
         <code>history --changes</code>), from the mean before to the mean after. The x axis \
         counts sessions in the order they started.</p>",
        sessions.len(),
        if sessions.len() == 1 { "" } else { "s" },
        escape(sessions.first().map_or("–", |s| s.0)),
        escape(sessions.last().map_or("–", |s| s.0)),
    );
    let mut points: Vec<&Point> = rows.iter().map(|e| &e.point).collect();
    points.dedup();
    for point in points {
        let of_point: Vec<&HistoryRow> = rows.iter().filter(|e| e.point == *point).collect();
        let Some(chart) = time_chart(point, &of_point, found, &sessions) else {
            continue;
        };
        let _ = write!(
            body,
            r#"<section class="point"><h2>{}</h2><figure>{chart}</figure></section>"#,
            escape(&point.to_string()),
        );
    }
    body.push_str(&figures_table(table));
    standalone("taskbench history", &body)
}

/// The chart of `point`'s time per session, a line per contestant of `rows` (the point's),
/// with each session's 95 % interval, its version changes ringed and its change points
/// among `found` drawn; the x axis counts `sessions` (started, id) in order. `None` where
/// no line has two sessions.
pub(crate) fn time_chart(
    point: &Point,
    rows: &[&HistoryRow],
    found: &[SeriesSteps],
    sessions: &[(&str, i64)],
) -> Option<String> {
    let index = |row: &HistoryRow| {
        let at = sessions.binary_search(&(row.started.as_str(), row.session));
        at.map_or(0, |i| i + 1) as f64
    };
    let palette = Palette::unlabelled(rows.iter().map(|e| e.contestant.clone()));
    let mut series = trend_series(rows, &index);
    mark_steps(&mut series, point, found, &|started| {
        let at = sessions.iter().position(|s| s.0 == started);
        at.map_or(0.0, |i| i as f64 + 1.0)
    });
    if series.iter().all(|s| s.points.len() < 2) {
        return None;
    }
    let chart = LineChart {
        title: format!("{point} · time per session"),
        x_axis: "session".into(),
        x: Quantity::Count,
        y_axis: "time".into(),
        y: Quantity::Time,
        series,
        log: false,
        size: (plot::HALF_WIDTH * 2, 360),
        legend: true,
        reach: None,
    };
    Some(svg(plot::lines(&chart, &palette)))
}

/// Each line's time steps along its sessions, at the session where each starts less a
/// half, so that the stroke falls between the two sessions.
fn mark_steps(
    series: &mut [Series],
    point: &Point,
    found: &[SeriesSteps],
    x_of: &dyn Fn(&str) -> f64,
) {
    for line in series {
        let of_line = found.iter().filter(|f| {
            let s = &f.series;
            (&s.point, s.contestant.as_str(), s.figure, s.along)
                == (point, line.name.as_str(), Figure::Time, Along::Sessions)
        });
        for f in of_line {
            for step in &f.steps {
                let x = x_of(&f.at(step).started) - 0.5;
                line.steps.push((x, step.levels.0, step.levels.1));
            }
        }
    }
}

/// One line per contestant over its valid sessions.
fn trend_series(rows: &[&HistoryRow], index: &dyn Fn(&HistoryRow) -> f64) -> Vec<Series> {
    let mut names: Vec<&str> = rows.iter().map(|e| e.contestant.as_str()).collect();
    names.sort_unstable();
    names.dedup();
    names
        .into_iter()
        .map(|name| {
            let mut series = Series::line(name, Vec::new());
            let mut version: Option<&str> = None;
            for row in rows.iter().filter(|e| e.contestant == name) {
                let (Some(time), "valid") = (row.time, row.outcome.as_str()) else {
                    continue;
                };
                let x = index(row);
                series.points.push((x, time));
                if let (Some(low), Some(high)) = (row.time_low, row.time_high) {
                    series.ranges.push((x, low, high));
                }
                let now = row.version.as_deref();
                if version.is_some() && now != version {
                    series.rings.push((x, time));
                }
                version = now;
            }
            series
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(started: &str, contestant: &str, version: &str, time: f64) -> HistoryRow {
        HistoryRow {
            session: started[8..10].parse().unwrap(),
            started: started.into(),
            tags: String::new(),
            commit: None,
            dirty: None,
            point: "spawn tasks=1000".parse().unwrap(),
            contestant: contestant.into(),
            version: Some(version.into()),
            outcome: "valid".into(),
            time: Some(time),
            time_low: Some(time * 0.9),
            time_high: Some(time * 1.1),
            peak_rss: None,
        }
    }

    #[test]
    fn a_trend_rings_the_session_where_the_version_changed() {
        let rows = [
            row("2026-12-01T00:00:00Z", "tokio", "tokio 1.38.0", 1e6),
            row("2026-12-02T00:00:00Z", "tokio", "tokio 1.38.0", 1.1e6),
            row("2026-12-03T00:00:00Z", "tokio", "tokio 1.54.1", 0.9e6),
            row("2026-12-03T00:00:00Z", "smol", "smol 2.0.2", 2e6),
        ];
        let refs: Vec<&HistoryRow> = rows.iter().collect();
        let index = |e: &HistoryRow| e.session as f64;
        let series = trend_series(&refs, &index);
        let tokio = series.iter().find(|s| s.name == "tokio").unwrap();
        assert_eq!(tokio.points, [(1.0, 1e6), (2.0, 1.1e6), (3.0, 0.9e6)]);
        assert_eq!(tokio.rings, [(3.0, 0.9e6)]);
        assert_eq!(tokio.ranges[0], (1.0, 0.9e6, 1.1e6));
        let table = crate::history::table::history_table(&rows);
        let page = trend_page(&rows, &table, &[]);
        assert_eq!(page.matches("<svg").count(), 1, "one point, one chart");
        assert!(page.contains("3 sessions"), "{page}");
    }

    #[test]
    fn a_change_point_is_a_stroke_between_the_sessions_on_each_side() {
        use crate::history::change_points::{Place, Series as Steps, Step};
        let mut lines = vec![
            Series::line("tokio", Vec::new()),
            Series::line("smol", Vec::new()),
        ];
        let place = |day: &str| Place {
            started: format!("2026-12-{day}T00:00:00Z"),
            ..Place::default()
        };
        let found = SeriesSteps {
            series: Steps {
                point: "spawn tasks=1000".parse().unwrap(),
                contestant: "tokio".into(),
                figure: Figure::Time,
                along: Along::Sessions,
                places: vec![place("01"), place("02"), place("03")],
                values: vec![1e6, 1e6, 2e6],
                groups: Vec::new(),
            },
            steps: vec![Step {
                index: 2,
                ratio: 2.0,
                levels: (1e6, 2e6),
                p_value: 0.001,
                before: 2,
                after: 1,
            }],
        };
        let x_of = |started: &str| started[8..10].parse::<f64>().unwrap();
        mark_steps(
            &mut lines,
            &"spawn tasks=1000".parse().unwrap(),
            std::slice::from_ref(&found),
            &x_of,
        );
        assert_eq!(lines[0].steps, [(2.5, 1e6, 2e6)]);
        assert_eq!(lines[1].steps, [], "smol has no step");
        mark_steps(
            &mut lines[1..],
            &"sleep tasks=1000 delay-ms=20".parse().unwrap(),
            &[found],
            &x_of,
        );
        assert_eq!(
            lines[1].steps,
            [],
            "another point's steps are not drawn here"
        );
    }
}
