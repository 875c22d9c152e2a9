//! The sessions `taskbench compare` and `run --baseline` name: `last` (`last~N`, N sessions
//! before it), a baseline saved with `--save-baseline NAME`, or a tag (its newest session);
//! and a session's runs, read back from the records kept whole in the store.

use super::{Machine, Store};
use anyhow::Context;
use measure::condition::Condition;
use run::RunRecord;

/// A session found by name.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Session {
    pub id: i64,
    /// `baseline main · 2026-12-03 10:41:07`: what tables call it.
    pub label: String,
    pub started: String,
    pub machine: Machine,
}

/// A session as the store lists it, among which `find` looks.
struct StoredSession {
    id: i64,
    started: String,
    machine: Machine,
    tags: String,
}

/// The session `name` stands for in the store, if any: `last`/`last~N` first, then a
/// baseline, then a tag (matched whole). An unknown name is an error that lists the names
/// the store has. Sessions are ordered here, newest first by start and then by id, rather
/// than by the database, whose text ordering may follow a locale.
pub fn find(store: &mut Store, name: &str) -> anyhow::Result<Session> {
    let back = match name.strip_prefix("last") {
        Some("") => Some(0),
        Some(rest) => rest.strip_prefix('~').and_then(|n| n.parse::<usize>().ok()),
        None => None,
    };
    let sessions = newest_first(store)?;
    let baseline = match back {
        Some(_) => None,
        None => store
            .query(
                "SELECT session FROM baselines WHERE name = ?",
                &[name.into()],
            )?
            .first()
            .map(|row| row.get::<i64>(0))
            .transpose()?,
    };
    let found = match (back, baseline) {
        (Some(n), _) => sessions.get(n).map(|s| (s, "")),
        (None, Some(id)) => sessions
            .iter()
            .find(|s| s.id == id)
            .map(|s| (s, "baseline ")),
        (None, None) => sessions
            .iter()
            .find(|s| super::record::tags_of(&s.tags).any(|tag| tag == name))
            .map(|s| (s, "tag ")),
    };
    match found {
        Some((session, kind)) => Ok(Session {
            id: session.id,
            label: format!(
                "{kind}{name} · {}",
                session.started.replace('T', " ").trim_end_matches('Z')
            ),
            started: session.started.clone(),
            machine: session.machine.clone(),
        }),
        None => Err(unknown(store, name, &sessions)?),
    }
}

/// Every session, newest first by start and then by id.
fn newest_first(store: &mut Store) -> anyhow::Result<Vec<StoredSession>> {
    let mut sessions = store
        .query(
            "SELECT id, started, cpu, cores, memory_bytes, tags FROM sessions",
            &[],
        )?
        .iter()
        .map(|row| {
            Ok(StoredSession {
                id: row.get(0)?,
                started: row.get(1)?,
                machine: Machine {
                    cpu: row.get(2)?,
                    cores: row.get(3)?,
                    memory_bytes: row.get::<i64>(4)? as u64,
                },
                tags: row.get(5)?,
            })
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    sessions.sort_by(|a, b| (&b.started, b.id).cmp(&(&a.started, a.id)));
    Ok(sessions)
}

/// The error for a name no session answers to, listing the names the store has.
fn unknown(
    store: &mut Store,
    name: &str,
    sessions: &[StoredSession],
) -> anyhow::Result<anyhow::Error> {
    let listed = |mut names: Vec<String>| {
        names.sort();
        names.dedup();
        if names.is_empty() {
            "none".to_string()
        } else {
            names.join(", ")
        }
    };
    let baselines = store
        .query("SELECT name FROM baselines", &[])?
        .iter()
        .map(|row| row.get(0))
        .collect::<anyhow::Result<_>>()?;
    let tags = sessions
        .iter()
        .filter(|s| !s.tags.is_empty())
        .map(|s| s.tags.clone())
        .collect();
    Ok(anyhow::anyhow!(
        "'{name}' is not a results folder, and the store has no session by that name \
         ({} sessions; `last`, `last~1`, …; baselines: {}; tags: {})",
        sessions.len(),
        listed(baselines),
        listed(tags)
    ))
}

/// The measured runs of a session, in the order they were made.
pub fn runs(store: &mut Store, session: i64) -> anyhow::Result<Vec<RunRecord>> {
    store
        .query(
            "SELECT record FROM runs WHERE session = ? ORDER BY ordinal",
            &[session.into()],
        )?
        .iter()
        .map(|row| {
            let text: String = row.get(0)?;
            serde_json::from_str(&text).context("a run in the store does not read as a record")
        })
        .collect()
}

/// The machine's condition through `session`; `None` for a session recorded before it was
/// probed.
pub fn condition(store: &mut Store, session: i64) -> anyhow::Result<Option<Condition>> {
    let rows = store.query(
        "SELECT machine_condition FROM sessions WHERE id = ?",
        &[session.into()],
    )?;
    let Some(row) = rows.first() else {
        return Ok(None);
    };
    let text: Option<String> = row.get(0)?;
    text.map(|t| {
        serde_json::from_str(&t).context("a session's condition in the store does not read")
    })
    .transpose()
}

/// Names `session` the baseline `name`, replacing an older baseline of that name.
pub fn save_baseline(store: &mut Store, name: &str, session: i64) -> anyhow::Result<()> {
    anyhow::ensure!(
        !name.is_empty() && !name.starts_with("last") && !name.contains(['/', ',']),
        "--save-baseline '{name}': a baseline's name is not empty, does not start with `last` \
         and holds no / or ,"
    );
    store.execute(
        "INSERT INTO baselines (name, session, saved) VALUES (?, ?, ?)
         ON CONFLICT (name) DO UPDATE SET session = excluded.session, saved = excluded.saved",
        &[name.into(), session.into(), super::now().into()],
    )
}
