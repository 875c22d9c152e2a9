//! `taskbench history`: what the store holds, filtered, as one table over time — for each
//! point and contestant, every session's figure with its interval, version and commit, so
//! a change shows where it happened.

use crate::report::Table;
use crate::report::units::{bytes, duration};
use rusqlite::{Connection, params_from_iter};

/// Which summaries to show; empty lists take everything.
#[derive(Debug, Clone, Default)]
pub struct HistoryFilter {
    pub contestants: Vec<String>,
    pub scenarios: Vec<String>,
    pub tags: Vec<String>,
    /// Sessions started at or after this (RFC 3339, or a date: `2026-12-01`).
    pub since: Option<String>,
}

/// The table of every summary `filter` takes, by point, contestant and time.
pub fn history_table(db: &Connection, filter: &HistoryFilter) -> anyhow::Result<Table> {
    let mut sql = String::from(
        "SELECT s.started, s.tags, s.git_commit, s.git_dirty, m.point, m.contestant, m.version,
                m.outcome, m.time_ns, m.time_low_ns, m.time_high_ns, m.peak_rss_bytes
         FROM summaries m JOIN sessions s ON s.id = m.session WHERE 1 = 1",
    );
    let mut args: Vec<String> = Vec::new();
    let mut any_of = |column: &str, values: &[String], args: &mut Vec<String>| {
        if !values.is_empty() {
            let marks = vec!["?"; values.len()].join(", ");
            sql.push_str(&format!(" AND {column} IN ({marks})"));
            args.extend(values.iter().cloned());
        }
    };
    any_of("m.contestant", &filter.contestants, &mut args);
    any_of("m.scenario", &filter.scenarios, &mut args);
    for tag in &filter.tags {
        sql.push_str(" AND (',' || s.tags || ',') LIKE ?");
        args.push(format!("%,{tag},%"));
    }
    if let Some(since) = &filter.since {
        sql.push_str(" AND s.started >= ?");
        args.push(since.clone());
    }
    sql.push_str(" ORDER BY m.point, m.contestant, s.started");
    let mut query = db.prepare(&sql)?;
    let rows = query.query_map(params_from_iter(args), |row| {
        let started: String = row.get(0)?;
        let tags: String = row.get(1)?;
        let commit: Option<String> = row.get(2)?;
        let dirty: Option<bool> = row.get(3)?;
        let outcome: String = row.get(7)?;
        let time: Option<f64> = row.get(8)?;
        let low: Option<f64> = row.get(9)?;
        let high: Option<f64> = row.get(10)?;
        let rss: Option<f64> = row.get(11)?;
        let commit = commit.map_or("–".into(), |c| {
            let short: String = c.chars().take(8).collect();
            if dirty == Some(true) {
                format!("{short}+")
            } else {
                short
            }
        });
        let time = match (outcome.as_str(), time) {
            ("valid", Some(t)) => match low.zip(high) {
                Some((low, high)) => {
                    format!("{}\n{}–{}", duration(t), duration(low), duration(high))
                }
                None => duration(t),
            },
            (_, _) => outcome.clone(),
        };
        Ok(vec![
            row.get::<_, String>(4)?,
            row.get::<_, String>(5)?,
            started.replace('T', " ").trim_end_matches('Z').to_string(),
            row.get::<_, Option<String>>(6)?
                .unwrap_or_else(|| "–".into()),
            commit,
            if tags.is_empty() { "–".into() } else { tags },
            time,
            rss.map_or("–".into(), bytes),
        ])
    })?;
    Ok(Table {
        title: "history".into(),
        headers: vec![
            "point",
            "contestant",
            "started (UTC)",
            "version",
            "commit",
            "tags",
            "time\n(95 % CI)",
            "peak RSS",
        ],
        rows: rows.collect::<Result<_, _>>()?,
        notes: vec![
            "time: the overhead where the scenario has an ideal time, else the elapsed; \
             commit+: the tree had changes not committed"
                .into(),
        ],
    })
}
