//! The history table: the store's summaries over time — for each point and contestant, every
//! session's figure with its interval, version and commit, so a change shows where it
//! happened. The store reads the summaries; this draws them.

use store::HistoryRow;
use units::{bytes, duration};
use words::Table;
use words::table::headers;

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

#[cfg(test)]
mod tests {
    use super::*;

    fn stored(commit: Option<&str>, dirty: Option<bool>, tags: &str) -> HistoryRow {
        HistoryRow {
            session: 1,
            started: "2026-12-03T10:41:07Z".into(),
            tags: tags.into(),
            commit: commit.map(Into::into),
            dirty,
            point: "spawn tasks=10".parse().unwrap(),
            contestant: "tokio".into(),
            version: Some("1.38.0".into()),
            outcome: "valid".into(),
            time: Some(2e6),
            time_low: Some(1.9e6),
            time_high: None,
            peak_rss: None,
        }
    }

    #[test]
    fn a_row_shows_the_short_commit_its_tags_and_the_start() {
        let rows = [
            stored(Some("0123456789abcdef"), Some(true), "before,pr-1"),
            stored(Some("0123456789abcdef"), Some(false), ""),
            stored(None, None, ""),
        ];
        let table = history_table(&rows);
        assert_eq!(table.rows.len(), 3);
        assert_eq!(table.rows[0][1], "tokio");
        assert_eq!(table.rows[0][2], "2026-12-03 10:41:07");
        assert_eq!(table.rows[0][4], "01234567+", "the short commit, dirty");
        assert_eq!(table.rows[0][5], "before,pr-1");
        assert_eq!(table.rows[1][4], "01234567");
        assert_eq!(
            (table.rows[2][4].as_str(), table.rows[2][5].as_str()),
            ("–", "–")
        );
        assert_eq!(
            table.rows[0][6],
            duration(2e6),
            "no interval without both ends"
        );
    }
}
