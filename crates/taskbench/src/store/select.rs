//! The sessions `taskbench compare` and `run --baseline` name: `last` (`last~N`, N sessions
//! before it), a baseline saved with `--save-baseline NAME`, or a tag (its newest session);
//! and a session's runs, read back from the records kept whole in the store.

use crate::run::RunRecord;
use anyhow::Context;
use rusqlite::{Connection, OptionalExtension, params};

/// A session found by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: i64,
    /// `baseline main · 2026-12-03 10:41:07`: what tables call it.
    pub label: String,
    pub started: String,
    pub machine: super::Machine,
}

/// The session `name` stands for in the store, if any: `last`/`last~N` first, then a
/// baseline, then a tag. An unknown name is an error that lists the names the store has.
pub fn find(db: &Connection, name: &str) -> anyhow::Result<Session> {
    let newest = "ORDER BY s.started DESC, s.id DESC";
    let back = match name.strip_prefix("last") {
        Some("") => Some(0),
        Some(rest) => rest.strip_prefix('~').and_then(|n| n.parse::<i64>().ok()),
        None => None,
    };
    type Found<'k> = (i64, String, super::Machine, &'k str);
    let found = |row: &rusqlite::Row, kind: &'static str| -> rusqlite::Result<Found<'static>> {
        let machine = super::Machine {
            cpu: row.get(2)?,
            cores: row.get(3)?,
        };
        Ok((row.get(0)?, row.get(1)?, machine, kind))
    };
    let found: Option<Found> = match back {
        Some(n) => db
            .query_row(
                &format!("SELECT s.id, s.started, s.cpu, s.cores FROM sessions s {newest} LIMIT 1 OFFSET ?1"),
                [n],
                |row| found(row, ""),
            )
            .optional()?,
        None => match db
            .query_row(
                "SELECT s.id, s.started, s.cpu, s.cores FROM baselines b JOIN sessions s ON s.id = b.session
                 WHERE b.name = ?1",
                [name],
                |row| found(row, "baseline "),
            )
            .optional()?
        {
            Some(found) => Some(found),
            None => db
                .query_row(
                    &format!(
                        "SELECT s.id, s.started, s.cpu, s.cores FROM sessions s
                         WHERE (',' || s.tags || ',') LIKE ?1 {newest} LIMIT 1"
                    ),
                    [format!("%,{name},%")],
                    |row| found(row, "tag "),
                )
                .optional()?,
        },
    };
    match found {
        Some((id, started, machine, kind)) => Ok(Session {
            id,
            label: format!(
                "{kind}{name} · {}",
                started.replace('T', " ").trim_end_matches('Z')
            ),
            started,
            machine,
        }),
        None => {
            let list = |sql: &str| -> anyhow::Result<String> {
                let mut query = db.prepare(sql)?;
                let names: Vec<String> = query
                    .query_map([], |row| row.get(0))?
                    .collect::<Result<_, _>>()?;
                Ok(if names.is_empty() {
                    "none".into()
                } else {
                    names.join(", ")
                })
            };
            let sessions: i64 = db.query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0))?;
            anyhow::bail!(
                "'{name}' is not a results folder, and the store has no session by that name \
                 ({sessions} sessions; `last`, `last~1`, …; baselines: {}; tags: {})",
                list("SELECT name FROM baselines ORDER BY name")?,
                list("SELECT DISTINCT tags FROM sessions WHERE tags != '' ORDER BY tags")?
            )
        }
    }
}

/// The measured runs of a session, in the order they were made.
pub fn runs(db: &Connection, session: i64) -> anyhow::Result<Vec<RunRecord>> {
    let mut query = db.prepare("SELECT record FROM runs WHERE session = ?1 ORDER BY rowid")?;
    let records = query.query_map([session], |row| row.get::<_, String>(0))?;
    records
        .map(|text| {
            let text = text?;
            serde_json::from_str(&text).context("a run in the store does not read as a record")
        })
        .collect()
}

/// Names `session` the baseline `name`, replacing an older baseline of that name.
pub fn save_baseline(db: &Connection, name: &str, session: i64) -> anyhow::Result<()> {
    anyhow::ensure!(
        !name.is_empty() && !name.starts_with("last") && !name.contains(['/', ',']),
        "--save-baseline '{name}': a baseline's name is not empty, does not start with `last` \
         and holds no / or ,"
    );
    db.execute(
        "INSERT INTO baselines (name, session, saved)
         VALUES (?1, ?2, strftime('%Y-%m-%dT%H:%M:%SZ', 'now'))
         ON CONFLICT (name) DO UPDATE SET session = excluded.session, saved = excluded.saved",
        params![name, session],
    )?;
    Ok(())
}
