//! What `taskbench history` reads: the store's summaries, filtered, one [`HistoryRow`] per
//! session, point and contestant — every session's figure with its interval, version and
//! commit, in time order (history/table.rs draws them as a table).

use super::{Machine, Store, Value};
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
    pub started: String,
    pub tags: String,
    pub commit: Option<String>,
    pub dirty: Option<bool>,
    /// Kept in the store as its label, read back here.
    pub point: Point,
    pub contestant: String,
    pub version: Option<String>,
    /// `valid`, or the status the row was shown with.
    pub outcome: String,
    pub time: Option<f64>,
    pub time_low: Option<f64>,
    pub time_high: Option<f64>,
    pub peak_rss: Option<f64>,
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

/// One valid session of a case, as [`case_sessions`] reads it: where and when it ran, and
/// its summary kept whole (results.json's shape, the figures' medians in it).
#[derive(Debug, Clone)]
pub struct CaseSession {
    pub(crate) session: i64,
    pub started: String,
    pub commit: Option<String>,
    pub dirty: Option<bool>,
    pub version: Option<String>,
    pub(crate) summary: serde_json::Value,
}

impl CaseSession {
    /// The median of one of the summary's figures (`elapsed`, `peak_rss`, `cpu`).
    pub fn median(&self, figure: &str) -> Option<f64> {
        self.summary[figure]["median"].as_f64()
    }
}

/// Every valid session of `contestant` at `point` on `machine`, in the order they started
/// (the session's id breaking a tie): what a case's run-to-run spread and its change
/// points are made of. Text is ordered here, byte by byte, not by the database's collation.
pub fn case_sessions(
    store: &mut Store,
    machine: &Machine,
    point: &str,
    contestant: &str,
) -> anyhow::Result<Vec<CaseSession>> {
    let rows = store.query(
        "SELECT s.started, s.id, s.git_commit, s.git_dirty, m.version, m.summary
         FROM summaries m JOIN sessions s ON s.id = m.session
         WHERE m.point = ? AND m.contestant = ? AND m.outcome = 'valid'
           AND s.cpu = ? AND s.cores = ?",
        &[
            point.into(),
            contestant.into(),
            machine.cpu.as_str().into(),
            machine.cores.into(),
        ],
    )?;
    let mut found = Vec::new();
    for row in rows {
        found.push(CaseSession {
            started: row.get(0)?,
            session: row.get(1)?,
            commit: row.get(2)?,
            dirty: row.get(3)?,
            version: row.get(4)?,
            summary: serde_json::from_str(&row.get::<String>(5)?)?,
        });
    }
    found.sort_by(|a, b| (&a.started, a.session).cmp(&(&b.started, b.session)));
    Ok(found)
}

/// The point a summary's label names.
fn point(label: &str) -> anyhow::Result<Point> {
    label
        .parse()
        .context("the store holds a summary whose point is unreadable")
}
