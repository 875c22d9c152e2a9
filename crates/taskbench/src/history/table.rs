//! The history table: the store's summaries over time — for each point and contestant, every
//! session's figure with its interval, version and commit, so a change shows where it
//! happened. The store reads the summaries; this draws them.

use crate::store::HistoryRow;
use crate::words::Table;
use crate::words::table::headers;
use units::{bytes, duration};

/// The table of `rows`: one row per session, point and contestant.
pub(crate) fn history_table(rows: &[HistoryRow]) -> Table {
    Table {
        title: "history".into(),
        headers: headers(&[
            "point",
            "contestant",
            "started (UTC)",
            "version",
            "commit",
            "tags",
            "time\n(95 % CI)",
            "peak RSS",
        ]),
        rows: rows.iter().map(row).collect(),
        notes: vec![
            "time: the overhead where the scenario has an ideal time, else the elapsed; \
             commit+: the tree had changes not committed"
                .into(),
        ],
    }
}

/// One row's cells, in the order of the headers.
fn row(e: &HistoryRow) -> Vec<String> {
    vec![
        e.point.to_string(),
        e.contestant.clone(),
        e.started
            .replace('T', " ")
            .trim_end_matches('Z')
            .to_string(),
        e.version.clone().unwrap_or_else(|| "–".into()),
        commit(e),
        if e.tags.is_empty() {
            "–".into()
        } else {
            e.tags.clone()
        },
        time(e),
        e.peak_rss.map_or("–".into(), bytes),
    ]
}

/// The commit's first 8 characters, `+` when the tree had changes not committed.
fn commit(e: &HistoryRow) -> String {
    e.commit.as_ref().map_or("–".into(), |c| {
        let short: String = c.chars().take(8).collect();
        if e.dirty == Some(true) {
            format!("{short}+")
        } else {
            short
        }
    })
}

/// The figure and its interval for a valid row, else the status it was shown with.
fn time(e: &HistoryRow) -> String {
    match (e.outcome.as_str(), e.time) {
        ("valid", Some(t)) => match e.time_low.zip(e.time_high) {
            Some((low, high)) => format!("{}\n{}–{}", duration(t), duration(low), duration(high)),
            None => duration(t),
        },
        (_, _) => e.outcome.clone(),
    }
}
