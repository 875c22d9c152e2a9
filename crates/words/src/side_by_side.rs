//! The points of a small run side by side in one table: each contestant's time and peak
//! memory at every point — the shape of bluebird's published table (implementation ·
//! doxbee time · memory · parallel time · memory), so that `taskbench run --scenario
//! doxbee,parallel` reads like seed 001. Printed after the points' own tables when a run
//! has two to four points.

use super::Table;
use analysis::{CaseSummary, PointSummary};
use units::{bytes, duration};

/// Column headers for up to four points: the title numbers the points.
const HEADERS: [&str; 8] = [
    "(1) time",
    "(1) peak RSS",
    "(2) time",
    "(2) peak RSS",
    "(3) time",
    "(3) peak RSS",
    "(4) time",
    "(4) peak RSS",
];

/// The table, or `None` for fewer than two points or more than four.
pub fn side_by_side(points: &[PointSummary]) -> Option<Table> {
    if !(2..=HEADERS.len() / 2).contains(&points.len()) {
        return None;
    }
    // Contestants in the first point's order (best first), then any that only others have.
    let mut contestants: Vec<&str> = Vec::new();
    for point in points {
        for row in &point.rows {
            if !contestants.contains(&row.contestant.as_str()) {
                contestants.push(&row.contestant);
            }
        }
    }
    let rows = contestants
        .iter()
        .map(|name| {
            let mut cells = vec![name.to_string()];
            for point in points {
                match point.rows.iter().find(|r| r.contestant == *name) {
                    Some(row) => cells.extend(figures(row)),
                    None => cells.extend(["–".to_string(), "–".to_string()]),
                }
            }
            cells
        })
        .collect();
    let mut headers = vec!["contestant"];
    headers.extend(&HEADERS[..points.len() * 2]);
    let names: Vec<String> = points
        .iter()
        .enumerate()
        .map(|(i, p)| format!("({}) {}", i + 1, p.point))
        .collect();
    Table {
        title: format!("side by side · {}", names.join(" · ")),
        headers: super::table::headers(&headers),
        rows,
        notes: vec![
            "time: the contestant's elapsed (median), as the seeds report a whole iteration; \
             peak RSS: the median of the memory processes"
                .into(),
        ],
    }
    .into()
}

/// Time and peak RSS of one case, or its status twice.
fn figures(row: &CaseSummary) -> [String; 2] {
    if let Some(status) = row.status_label() {
        return [status.clone(), status];
    }
    let time = row.elapsed.map_or("–".into(), |s| duration(s.median));
    let rss = row.peak_rss.map_or("–".into(), |s| bytes(s.median));
    [time, rss]
}
