//! The store: every run's results kept in one database, so that a runtime's figures can be
//! followed across versions and commits — a SQLite file (rusqlite, SQLite bundled: nothing
//! to install), by default `results/taskbench.sqlite` beside the result folders, or a
//! PostgreSQL database a team shares (`--store postgres://…`, over TLS as its `sslmode`
//! asks). One row per session (a `taskbench run`, with the machine's fingerprint, the
//! project's commit and the tags), per measured run, and per summary row. One schema and
//! one set of migrations for both, run on open; baselines by name (`--save-baseline`);
//! writers take turns, so two runs may write at once. A layer of taskbench's pipeline and a
//! crate of its own: it keeps and reads back results documents (the results crate) and
//! knows nothing of what a feature makes of them.

mod backend;
mod bisects;
mod history;
mod listing;
mod location;
mod record;
mod select;
mod spread;
mod tls;
mod value;

pub use backend::Store;
pub use bisects::{StoredBisect, bisects, record_bisect};
pub use history::{CaseSession, HistoryFilter, HistoryRow, case_sessions, history_rows};
pub use listing::{SessionRow, SummaryRow, session_rows, summary_json, summary_rows};
pub use location::Location;
pub use measure::machine::Machine;
pub use record::{Provenance, TAG_SEPARATOR, parse_tag, record, tags_of};
pub use select::{Session, condition, find, runs, save_baseline};
pub use spread::{spreads, take_in_sessions};
use value::Value;

use anyhow::Context;
use std::path::{Path, PathBuf};

/// File name of the default store, beside the result folders.
pub const STORE_FILE: &str = "taskbench.sqlite";

/// The schema version this build writes; [`MIGRATIONS`] lead every older store to it.
pub const SCHEMA_VERSION: u32 = MIGRATIONS.len() as u32;

/// Migration N takes a store from version N to N + 1 (0: an empty store), in SQL SQLite
/// and PostgreSQL both take but for the tokens [`Store::dialect`] spells for each.
const MIGRATIONS: &[&str] = &[
    // 1: sessions, runs, summaries.
    "CREATE TABLE sessions (
        id {key},
        started TEXT NOT NULL,
        command TEXT NOT NULL,
        folder TEXT,
        tags TEXT NOT NULL,
        interrupted BIGINT NOT NULL,
        taskbench TEXT NOT NULL,
        cpu TEXT NOT NULL,
        cores BIGINT NOT NULL,
        memory_bytes BIGINT NOT NULL,
        kernel TEXT NOT NULL,
        governor TEXT,
        git_commit TEXT,
        git_dirty BIGINT,
        recorded TEXT NOT NULL,
        UNIQUE (started, command)
    );
    CREATE TABLE runs (
        session BIGINT NOT NULL REFERENCES sessions(id),
        contestant TEXT NOT NULL,
        version TEXT,
        scenario TEXT NOT NULL,
        point TEXT NOT NULL,
        phase TEXT NOT NULL,
        run BIGINT NOT NULL,
        iterations BIGINT NOT NULL,
        status TEXT NOT NULL,
        elapsed_ns BIGINT,
        cpu_ns BIGINT,
        peak_rss_bytes BIGINT,
        record TEXT NOT NULL
    );
    CREATE TABLE summaries (
        session BIGINT NOT NULL REFERENCES sessions(id),
        contestant TEXT NOT NULL,
        version TEXT,
        scenario TEXT NOT NULL,
        point TEXT NOT NULL,
        outcome TEXT NOT NULL,
        time_ns DOUBLE PRECISION,
        time_low_ns DOUBLE PRECISION,
        time_high_ns DOUBLE PRECISION,
        peak_rss_bytes DOUBLE PRECISION,
        cpu_ns DOUBLE PRECISION,
        summary TEXT NOT NULL
    );
    CREATE INDEX summaries_by_point ON summaries (point, contestant);",
    // 2: baselines by name (`run --save-baseline NAME`), each a session.
    "CREATE TABLE baselines (
        name TEXT PRIMARY KEY,
        session BIGINT NOT NULL REFERENCES sessions(id),
        saved TEXT NOT NULL
    );
    CREATE INDEX runs_by_session ON runs (session);",
    // 3: each run's place in its session, so that it is read back in the order it was made.
    "ALTER TABLE runs ADD COLUMN ordinal BIGINT;
    UPDATE runs SET ordinal = {rowid};",
    // 4: the machine's condition through the session (measure/condition.rs), as JSON; NULL
    // for sessions recorded before it was probed.
    "ALTER TABLE sessions ADD COLUMN machine_condition TEXT;",
    // 5: each session's contestants as the run described them (language, runtime, build,
    // toolchain age, FAIRNESS.md entry), as JSON, NULL before; and each `taskbench bisect`
    // (its bisect.json whole), its steps' sessions found by their folders; a session's
    // summaries found without reading every session's.
    "ALTER TABLE sessions ADD COLUMN contestants TEXT;
    CREATE INDEX summaries_by_session ON summaries (session);
    CREATE TABLE bisects (
        id {key},
        started TEXT NOT NULL,
        folder TEXT NOT NULL UNIQUE,
        record TEXT NOT NULL
    );",
];

/// The store a run writes to: `--store`, else `taskbench.sqlite` beside the run's folder.
pub fn default_path(out: &Path) -> PathBuf {
    out.parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .join(STORE_FILE)
}

/// Opens (creating a SQLite file) the store at `location` and migrates it to
/// [`SCHEMA_VERSION`].
pub fn open(location: &Location) -> anyhow::Result<Store> {
    let mut store = match location {
        Location::Sqlite(path) => Store::sqlite(path),
        Location::Postgres(url) => Store::postgres(url),
    }
    .with_context(|| format!("cannot open the store {location}"))?;
    migrate(&mut store).with_context(|| format!("cannot migrate the store {location}"))?;
    Ok(store)
}

/// Opens the store at `location` for reading what runs kept: one that is not there is an
/// error naming it, rather than a new empty store.
pub fn open_existing(location: &Location) -> anyhow::Result<Store> {
    anyhow::ensure!(
        location.exists(),
        "no store at {location} (every `taskbench run` makes one; --store PATH for another)"
    );
    open(location)
}

/// Leads the store to [`SCHEMA_VERSION`] in one write transaction, so that of two
/// processes opening an empty store at once one creates the tables and the other finds
/// them.
fn migrate(store: &mut Store) -> anyhow::Result<()> {
    store.write(|store| {
        let version = store.schema_version()?;
        anyhow::ensure!(
            version <= SCHEMA_VERSION,
            "it has schema version {version}, newer than this taskbench's {SCHEMA_VERSION}: upgrade taskbench"
        );
        for migration in &MIGRATIONS[version as usize..] {
            store.batch(&store.dialect(migration))?;
        }
        if version < SCHEMA_VERSION {
            store.set_schema_version(SCHEMA_VERSION)?;
        }
        Ok(())
    })
}

/// Now, as the store writes times (`2026-12-03T10:41:07Z`): made here rather than by the
/// database, whose functions for it differ.
fn now() -> String {
    humantime::format_rfc3339_seconds(std::time::SystemTime::now()).to_string()
}

#[cfg(test)]
mod tests;
