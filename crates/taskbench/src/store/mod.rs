//! The store: every run's results kept in one SQLite database (rusqlite, SQLite bundled:
//! nothing to install), so that a runtime's figures can be followed across versions and
//! commits. By default `results/taskbench.sqlite`, beside the result folders (`--store`
//! for another). One row per session (a `taskbench run`, with the machine's fingerprint,
//! the project's commit and the tags), per measured run, and per summary row. A versioned
//! schema (`PRAGMA user_version`) migrated on open; baselines by name (`--save-baseline`); WAL and a busy timeout, so two runs
//! may write at once.

mod history;
mod record;
mod select;
mod spread;

pub use history::{Entry, HistoryFilter, entries, history_table};
pub use record::{Provenance, record};
pub use select::{Session, find, runs, save_baseline};
pub use spread::{Machine, Spreads, spreads};

use anyhow::Context;
use rusqlite::Connection;
use std::path::{Path, PathBuf};
use std::time::Duration;

/// File name of the default store, beside the result folders.
pub const STORE_FILE: &str = "taskbench.sqlite";

/// The schema version this build writes; [`MIGRATIONS`] lead every older store to it.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Migration N takes a store from version N to N + 1 (0: an empty file).
const MIGRATIONS: &[&str] = &[
    // 1: sessions, runs, summaries.
    "CREATE TABLE sessions (
        id INTEGER PRIMARY KEY,
        started TEXT NOT NULL,
        command TEXT NOT NULL,
        folder TEXT,
        tags TEXT NOT NULL,
        interrupted INTEGER NOT NULL,
        taskbench TEXT NOT NULL,
        cpu TEXT NOT NULL,
        cores INTEGER NOT NULL,
        memory_bytes INTEGER NOT NULL,
        kernel TEXT NOT NULL,
        governor TEXT,
        git_commit TEXT,
        git_dirty INTEGER,
        recorded TEXT NOT NULL,
        UNIQUE (started, command)
    );
    CREATE TABLE runs (
        session INTEGER NOT NULL REFERENCES sessions(id),
        contestant TEXT NOT NULL,
        version TEXT,
        scenario TEXT NOT NULL,
        point TEXT NOT NULL,
        phase TEXT NOT NULL,
        run INTEGER NOT NULL,
        iterations INTEGER NOT NULL,
        status TEXT NOT NULL,
        elapsed_ns INTEGER,
        cpu_ns INTEGER,
        peak_rss_bytes INTEGER,
        record TEXT NOT NULL
    );
    CREATE TABLE summaries (
        session INTEGER NOT NULL REFERENCES sessions(id),
        contestant TEXT NOT NULL,
        version TEXT,
        scenario TEXT NOT NULL,
        point TEXT NOT NULL,
        outcome TEXT NOT NULL,
        time_ns REAL,
        time_low_ns REAL,
        time_high_ns REAL,
        peak_rss_bytes REAL,
        cpu_ns REAL,
        summary TEXT NOT NULL
    );
    CREATE INDEX summaries_by_point ON summaries (point, contestant);",
    // 2: baselines by name (`run --save-baseline NAME`), each a session.
    "CREATE TABLE baselines (
        name TEXT PRIMARY KEY,
        session INTEGER NOT NULL REFERENCES sessions(id),
        saved TEXT NOT NULL
    );
    CREATE INDEX runs_by_session ON runs (session);",
];

/// The store a run writes to: `--store`, else `taskbench.sqlite` beside the run's folder.
pub fn default_path(out: &Path) -> PathBuf {
    out.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join(STORE_FILE)
}

/// Opens (creating) the store at `path` and migrates it to [`SCHEMA_VERSION`].
pub fn open(path: &Path) -> anyhow::Result<Connection> {
    let mut db = Connection::open(path)
        .with_context(|| format!("cannot open the store {}", path.display()))?;
    db.busy_timeout(Duration::from_secs(30))?;
    db.pragma_update(None, "journal_mode", "WAL")?;
    db.pragma_update(None, "foreign_keys", "ON")?;
    migrate(&mut db).with_context(|| format!("cannot migrate the store {}", path.display()))?;
    Ok(db)
}

fn migrate(db: &mut Connection) -> anyhow::Result<()> {
    let tx = db.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let version: u32 = tx.pragma_query_value(None, "user_version", |row| row.get(0))?;
    anyhow::ensure!(
        version <= SCHEMA_VERSION,
        "it has schema version {version}, newer than this taskbench's {SCHEMA_VERSION}: upgrade taskbench"
    );
    for migration in &MIGRATIONS[version as usize..] {
        tx.execute_batch(migration)?;
    }
    tx.pragma_update(None, "user_version", SCHEMA_VERSION)?;
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests;
