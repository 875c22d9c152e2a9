//! The store read whole, for a reader that shows every session (`taskbench site`): each
//! session's row with its machine, condition and contestants, each summary's figures as
//! the store's columns keep them (cheap: no JSON read), and one session's summaries whole.

use super::{Machine, Store};
use analysis::CaseSummary;
use anyhow::Context;
use contestant::ContestantInfo;
use measure::condition::Condition;

/// A session as the store keeps it.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionRow {
    pub id: i64,
    pub started: String,
    /// The taskbench command line.
    pub command: Vec<String>,
    pub folder: Option<String>,
    pub tags: Vec<String>,
    pub interrupted: bool,
    /// The harness's version.
    pub taskbench: String,
    pub machine: Machine,
    pub kernel: String,
    pub governor: Option<String>,
    pub commit: Option<String>,
    pub dirty: Option<bool>,
    /// `None` for a session recorded before the condition was probed.
    pub condition: Option<Condition>,
    /// `None` for a session recorded before the store kept them.
    pub contestants: Option<Vec<ContestantInfo>>,
}

/// Every session, oldest first (by start, then id; ordered here, not by the database's
/// collation).
pub fn session_rows(store: &mut Store) -> anyhow::Result<Vec<SessionRow>> {
    let rows = store.query(
        "SELECT id, started, command, folder, tags, interrupted, taskbench, cpu, cores,
                memory_bytes, kernel, governor, git_commit, git_dirty, machine_condition,
                contestants
         FROM sessions",
        &[],
    )?;
    let mut sessions = Vec::new();
    for row in rows {
        let json = |text: Option<String>| text.filter(|t| !t.is_empty());
        let condition: Option<String> = json(row.get(14)?);
        let contestants: Option<String> = json(row.get(15)?);
        sessions.push(SessionRow {
            id: row.get(0)?,
            started: row.get(1)?,
            command: serde_json::from_str(&row.get::<String>(2)?).unwrap_or_default(),
            folder: row.get(3)?,
            tags: super::tags_of(&row.get::<String>(4)?)
                .map(String::from)
                .collect(),
            interrupted: row.get::<i64>(5)? != 0,
            taskbench: row.get(6)?,
            machine: Machine {
                cpu: row.get(7)?,
                cores: row.get(8)?,
                memory_bytes: row.get::<i64>(9)? as u64,
            },
            kernel: row.get(10)?,
            governor: row.get(11)?,
            commit: row.get(12)?,
            dirty: row.get(13)?,
            condition: condition
                .map(|t| serde_json::from_str(&t))
                .transpose()
                .context("a session's condition in the store does not read")?,
            contestants: contestants
                .map(|t| serde_json::from_str(&t))
                .transpose()
                .context("a session's contestants in the store do not read")?,
        });
    }
    sessions.sort_by(|a, b| (&a.started, a.id).cmp(&(&b.started, b.id)));
    Ok(sessions)
}

/// One summary's figures as the store's columns keep them.
#[derive(Debug, Clone, PartialEq)]
pub struct SummaryRow {
    pub session: i64,
    pub contestant: String,
    pub version: Option<String>,
    pub scenario: String,
    /// The point's label (`spawn · tasks=1000`).
    pub point: String,
    /// `valid`, or the status the row was shown with.
    pub outcome: String,
    /// The headline time (the overhead where the scenario has an ideal time) and its 95 %
    /// interval, ns.
    pub time: Option<f64>,
    pub time_low: Option<f64>,
    pub time_high: Option<f64>,
    pub peak_rss: Option<f64>,
    pub cpu: Option<f64>,
}

/// Every summary of every session, in no order.
pub fn summary_rows(store: &mut Store) -> anyhow::Result<Vec<SummaryRow>> {
    store
        .query(
            "SELECT session, contestant, version, scenario, point, outcome, time_ns,
                    time_low_ns, time_high_ns, peak_rss_bytes, cpu_ns
             FROM summaries",
            &[],
        )?
        .iter()
        .map(|row| {
            Ok(SummaryRow {
                session: row.get(0)?,
                contestant: row.get(1)?,
                version: row.get(2)?,
                scenario: row.get(3)?,
                point: row.get(4)?,
                outcome: row.get(5)?,
                time: row.get(6)?,
                time_low: row.get(7)?,
                time_high: row.get(8)?,
                peak_rss: row.get(9)?,
                cpu: row.get(10)?,
            })
        })
        .collect()
}

/// Every summary of `session`, kept whole, in no order.
pub fn summary_json(store: &mut Store, session: i64) -> anyhow::Result<Vec<CaseSummary>> {
    store
        .query(
            "SELECT summary FROM summaries WHERE session = ?",
            &[session.into()],
        )?
        .iter()
        .map(|row| {
            let text: String = row.get(0)?;
            serde_json::from_str(&text).context("a summary in the store does not read")
        })
        .collect()
}
