//! An open store: a SQLite connection or a PostgreSQL client behind the same few calls —
//! query, execute, a batch of statements, a write transaction — so that every query is
//! written once, with `?` placeholders. What the two do differently is here and nowhere
//! else: placeholders numbered `$n` for PostgreSQL, where the schema version is kept, how
//! writers take turns, and the schema's two dialect tokens.

use super::tls::one_line;
use super::value::{Row, Value};
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// An open store ([`super::open`] opens and migrates one).
pub enum Store {
    Sqlite(rusqlite::Connection),
    /// Boxed: a client and its statements are three times a connection's size.
    Postgres(Box<Postgres>),
}

/// A PostgreSQL client with the statements it has prepared, each prepared once (a record
/// inserts every run with the same statement).
pub struct Postgres {
    client: postgres::Client,
    prepared: HashMap<String, postgres::Statement>,
}

/// The advisory lock a PostgreSQL store's writers and migrations take in turn, held to the
/// end of their transaction: a key of our own ("taskbenc" in ASCII). Advisory locks are
/// per database, so stores on one server do not wait for each other.
const WRITE_LOCK: i64 = 0x7461_736b_6265_6e63;

impl Store {
    /// Opens (creating) the SQLite file at `path`: WAL, so readers do not wait for a
    /// writer, and a 30 s busy timeout, so a writer waits for another.
    pub(super) fn sqlite(path: &Path) -> anyhow::Result<Store> {
        let db = rusqlite::Connection::open(path)?;
        db.busy_timeout(Duration::from_secs(30))?;
        db.pragma_update(None, "journal_mode", "WAL")?;
        db.pragma_update(None, "foreign_keys", "ON")?;
        Ok(Store::Sqlite(db))
    }

    /// Connects to the PostgreSQL database at `url`, over TLS as its `sslmode` asks
    /// (libpq's modes, [`super::tls`]), giving up on a silent server after 10 s unless the
    /// URL says otherwise (`connect_timeout=`).
    pub(super) fn postgres(url: &str) -> anyhow::Result<Store> {
        let (rest, tls) = super::tls::split(url).map_err(anyhow::Error::msg)?;
        let mut config: postgres::Config = rest.parse().map_err(|e| one_line(&e))?;
        if config.get_connect_timeout().is_none() {
            config.connect_timeout(Duration::from_secs(10));
        }
        let client = tls.connect(config)?;
        Ok(Store::Postgres(Box::new(Postgres {
            client,
            prepared: HashMap::new(),
        })))
    }

    /// The rows `sql` gives, its `?`s bound to `params` in order.
    pub(crate) fn query(&mut self, sql: &str, params: &[Value]) -> anyhow::Result<Vec<Row>> {
        match self {
            Store::Sqlite(db) => {
                let mut statement = db.prepare_cached(sql)?;
                let columns = statement.column_count();
                let mut rows = statement.query(rusqlite::params_from_iter(params))?;
                let mut found = Vec::new();
                while let Some(row) = rows.next()? {
                    let values = (0..columns)
                        .map(|k| Value::from_sqlite(row.get_ref(k)?))
                        .collect::<anyhow::Result<_>>()?;
                    found.push(Row(values));
                }
                Ok(found)
            }
            Store::Postgres(pg) => {
                let statement = pg.prepare(sql)?;
                let rows = pg
                    .client
                    .query(&statement, &pg_params(params))
                    .map_err(|e| one_line(&e))?;
                rows.iter()
                    .map(|row| {
                        let values = (0..row.len()).map(|k| row.try_get(k));
                        Ok(Row(values
                            .collect::<Result<_, _>>()
                            .map_err(|e| one_line(&e))?))
                    })
                    .collect()
            }
        }
    }

    /// Runs the statement `sql`, its `?`s bound to `params`.
    pub(crate) fn execute(&mut self, sql: &str, params: &[Value]) -> anyhow::Result<()> {
        match self {
            Store::Sqlite(db) => {
                db.prepare_cached(sql)?
                    .execute(rusqlite::params_from_iter(params))?;
            }
            Store::Postgres(pg) => {
                let statement = pg.prepare(sql)?;
                pg.client
                    .execute(&statement, &pg_params(params))
                    .map_err(|e| one_line(&e))?;
            }
        }
        Ok(())
    }

    /// Runs `sql`, statements without parameters separated by `;`.
    pub(super) fn batch(&mut self, sql: &str) -> anyhow::Result<()> {
        match self {
            Store::Sqlite(db) => db.execute_batch(sql)?,
            Store::Postgres(pg) => pg.client.batch_execute(sql).map_err(|e| one_line(&e))?,
        }
        Ok(())
    }

    /// Runs `work` as one transaction that no other writer interleaves with — SQLite's
    /// BEGIN IMMEDIATE (a second writer waits out the busy timeout), PostgreSQL's
    /// transaction-scoped advisory lock — committed if `work` succeeds, else rolled back.
    pub(super) fn write<T>(
        &mut self,
        work: impl FnOnce(&mut Store) -> anyhow::Result<T>,
    ) -> anyhow::Result<T> {
        match self {
            Store::Sqlite(_) => self.batch("BEGIN IMMEDIATE")?,
            Store::Postgres(_) => self.batch(&format!(
                "BEGIN; SELECT pg_advisory_xact_lock({WRITE_LOCK})"
            ))?,
        }
        match work(self) {
            Ok(done) => {
                self.batch("COMMIT")?;
                Ok(done)
            }
            Err(err) => {
                // The error that made it roll back is the one to tell.
                let _ = self.batch("ROLLBACK");
                Err(err)
            }
        }
    }

    /// The schema version (0: an empty store): SQLite's `PRAGMA user_version`, the one row
    /// of PostgreSQL's `taskbench_schema`. Read within [`Store::write`].
    pub(super) fn schema_version(&mut self) -> anyhow::Result<u32> {
        let sql = match self {
            Store::Sqlite(_) => "PRAGMA user_version",
            Store::Postgres(_) => {
                self.batch(
                    "CREATE TABLE IF NOT EXISTS taskbench_schema (version BIGINT NOT NULL)",
                )?;
                "SELECT version FROM taskbench_schema"
            }
        };
        match self.query(sql, &[])?.first() {
            Some(row) => row.get(0),
            None => Ok(0),
        }
    }

    /// Sets the schema version, within [`Store::write`].
    pub(super) fn set_schema_version(&mut self, version: u32) -> anyhow::Result<()> {
        self.batch(&match self {
            Store::Sqlite(_) => format!("PRAGMA user_version = {version}"),
            Store::Postgres(_) => format!(
                "DELETE FROM taskbench_schema; INSERT INTO taskbench_schema (version) VALUES ({version})"
            ),
        })
    }

    /// A migration's SQL as this store takes it. Everything is SQL both accept (BIGINT and
    /// DOUBLE PRECISION have SQLite's INTEGER and REAL affinities) but two tokens:
    /// `{key}`, a session's id given on insert (SQLite's rowid alias, which only
    /// `INTEGER PRIMARY KEY` spelt so is); and `{rowid}`, the order rows were inserted in,
    /// for numbering the rows of stores older than their own numbers — which only SQLite
    /// stores can be.
    pub(super) fn dialect(&self, migration: &str) -> String {
        let (key, rowid) = match self {
            Store::Sqlite(_) => ("INTEGER PRIMARY KEY", "rowid"),
            Store::Postgres(_) => (
                "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY",
                "NULL",
            ),
        };
        migration.replace("{key}", key).replace("{rowid}", rowid)
    }
}

impl Postgres {
    fn prepare(&mut self, sql: &str) -> anyhow::Result<postgres::Statement> {
        if let Some(statement) = self.prepared.get(sql) {
            return Ok(statement.clone());
        }
        let statement = self
            .client
            .prepare(&numbered(sql))
            .map_err(|e| one_line(&e))?;
        self.prepared.insert(sql.to_string(), statement.clone());
        Ok(statement)
    }
}

fn pg_params(params: &[Value]) -> Vec<&(dyn postgres::types::ToSql + Sync)> {
    params.iter().map(|v| v as _).collect()
}

/// `sql` with its `?`s numbered `$1`, `$2`, … as PostgreSQL takes them; a `?` within
/// quotes is text.
fn numbered(sql: &str) -> String {
    let mut out = String::with_capacity(sql.len() + 8);
    let (mut next, mut quoted) = (1, false);
    for c in sql.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                out.push(c);
            }
            '?' if !quoted => {
                out.push_str(&format!("${next}"));
                next += 1;
            }
            c => out.push(c),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn placeholders_are_numbered_outside_quotes() {
        assert_eq!(
            super::numbered("SELECT a FROM t WHERE b = ? AND c = '?' AND d IN (?, ?)"),
            "SELECT a FROM t WHERE b = $1 AND c = '?' AND d IN ($2, $3)"
        );
    }
}
