//! What `taskbench history` reads: the store's summaries, filtered, one [`HistoryRow`] per
//! session, point and contestant — every session's figure with its interval, version and
//! commit, in time order (history/table.rs draws them as a table).

use super::{Store, Value};
use anyhow::Context;
use catalogue::Point;

/// Which summaries to show; empty lists take everything.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    pub contestants: Vec<String>,
    pub scenarios: Vec<String>,
    pub tags: Vec<String>,
    /// Sessions started at or after this (RFC 3339, or a date: `2026-12-01`).
    pub since: Option<String>,
}

/// One session's summary of a point and contestant.
#[derive(Debug, Clone, PartialEq)]
pub struct HistoryRow {
    /// The session's id: two sessions may start in the same second.
    pub session: i64,
    pub(crate) started: String,
    pub tags: String,
    pub(crate) commit: Option<String>,
    pub(crate) dirty: Option<bool>,
    /// Kept in the store as its label, read back here.
    pub(crate) point: Point,
    pub(crate) contestant: String,
    pub(crate) version: Option<String>,
    /// `valid`, or the status the row was shown with.
    pub(crate) outcome: String,
    pub(crate) time: Option<f64>,
    pub(crate) time_low: Option<f64>,
    pub(crate) time_high: Option<f64>,
    pub(crate) peak_rss: Option<f64>,
}

/// Every summary `filter` takes, by point, contestant and time. Tags, the start and the
/// order are judged here rather than by the database: a tag matches whole and exactly, and
/// text is ordered byte by byte, whatever the database's collation.
pub fn history_rows(store: &mut Store, filter: &HistoryFilter) -> anyhow::Result<Vec<HistoryRow>> {
    let mut sql = String::from(
        "SELECT s.started, s.tags, s.git_commit, s.git_dirty, m.point, m.contestant, m.version,
                m.outcome, m.time_ns, m.time_low_ns, m.time_high_ns, m.peak_rss_bytes, s.id
         FROM summaries m JOIN sessions s ON s.id = m.session WHERE 1 = 1",
    );
    let mut args: Vec<Value> = Vec::new();
    for (column, values) in [
        ("m.contestant", &filter.contestants),
        ("m.scenario", &filter.scenarios),
    ] {
        if !values.is_empty() {
            let marks = vec!["?"; values.len()].join(", ");
            sql.push_str(&format!(" AND {column} IN ({marks})"));
            args.extend(values.iter().map(|v| v.as_str().into()));
        }
    }
    let mut found = Vec::new();
    for row in store.query(&sql, &args)? {
        let history_row = HistoryRow {
            session: row.get(12)?,
            started: row.get(0)?,
            tags: row.get(1)?,
            commit: row.get(2)?,
            dirty: row.get(3)?,
            point: point(&row.get::<String>(4)?)?,
            contestant: row.get(5)?,
            version: row.get(6)?,
            outcome: row.get(7)?,
            time: row.get(8)?,
            time_low: row.get(9)?,
            time_high: row.get(10)?,
            peak_rss: row.get(11)?,
        };
        let tagged = filter
            .tags
            .iter()
            .all(|tag| super::record::tags_of(&history_row.tags).any(|t| t == tag));
        let since = filter
            .since
            .as_ref()
            .is_none_or(|s| history_row.started >= *s);
        if tagged && since {
            found.push(history_row);
        }
    }
    // By label, as the store orders its points (`tasks=100` before `tasks=20`).
    found.sort_by_cached_key(|e| {
        let label = e.point.to_string();
        (label, e.contestant.clone(), e.started.clone(), e.session)
    });
    Ok(found)
}

/// The point a summary's label names.
fn point(label: &str) -> anyhow::Result<Point> {
    label
        .parse()
        .context("the store holds a summary whose point is unreadable")
}
