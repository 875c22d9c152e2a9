//! Where the store is, as every `--store` (and `TASKBENCH_STORE`) names it: a PostgreSQL
//! database by its URL (`postgres://…` or `postgresql://…`), anything else a SQLite file.

use anyhow::Context;
use std::fmt;
use std::path::PathBuf;
use std::str::FromStr;

/// A store's location.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Location {
    /// A SQLite database file, created when first written.
    Sqlite(PathBuf),
    /// A PostgreSQL database, by its connection URL (`postgres://USER@HOST:PORT/DATABASE`).
    Postgres(String),
}

impl Location {
    /// Whether there is a store here to read: a SQLite file that exists; a PostgreSQL
    /// database always (connecting tells).
    pub fn exists(&self) -> bool {
        match self {
            Location::Sqlite(path) => path.is_file(),
            Location::Postgres(_) => true,
        }
    }

    /// Creates the folder a SQLite store goes into.
    pub fn create_parent(&self) -> anyhow::Result<()> {
        let Location::Sqlite(path) = self else {
            return Ok(());
        };
        match path.parent().filter(|p| !p.as_os_str().is_empty()) {
            Some(parent) => std::fs::create_dir_all(parent)
                .with_context(|| format!("--store: cannot create {}", parent.display())),
            None => Ok(()),
        }
    }
}

impl FromStr for Location {
    type Err = String;

    fn from_str(text: &str) -> Result<Location, String> {
        if !(text.starts_with("postgres://") || text.starts_with("postgresql://")) {
            return Ok(Location::Sqlite(PathBuf::from(text)));
        }
        let (rest, _) = super::tls::split(text)?;
        let config: postgres::Config = rest
            .parse()
            .map_err(|e| format!("not a PostgreSQL URL ({})", super::tls::one_line(&e)))?;
        if config.get_hosts().is_empty() {
            return Err(
                "a PostgreSQL URL names its server: postgres://USER@HOST:PORT/DATABASE".into(),
            );
        }
        Ok(Location::Postgres(text.to_string()))
    }
}

/// The path, or the URL with its password (if any) hidden, as messages name the store.
impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Location::Sqlite(path) => write!(f, "{}", path.display()),
            Location::Postgres(url) => {
                let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
                let authority = rest.split(['/', '?']).next().unwrap_or("");
                match authority.rsplit_once('@') {
                    Some((user, host)) if user.contains(':') => {
                        let name = user.split(':').next().unwrap_or("");
                        let path = &rest[authority.len()..];
                        write!(f, "{scheme}://{name}:***@{host}{path}")
                    }
                    _ => f.write_str(url),
                }
            }
        }
    }
}

/// Written as shown, a password masked (a run's stored options are a file anyone may read):
/// a masked location read back names the store, and the run resumed gives it again.
impl serde::Serialize for Location {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Location {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_postgres_and_anything_else_a_file() {
        let url = "postgres://bench@db.example:5433/taskbench";
        assert_eq!(url.parse(), Ok(Location::Postgres(url.into())));
        let long = "postgresql://bench@db.example/taskbench";
        assert_eq!(long.parse(), Ok(Location::Postgres(long.into())));
        assert_eq!(
            "results/taskbench.sqlite".parse(),
            Ok(Location::Sqlite("results/taskbench.sqlite".into()))
        );
        for bad in [
            "postgres://db.example:port/x",
            "postgres:///x",
            "postgres://h/x?nope=1",
            "postgres://h/x?sslmode=verify",
        ] {
            let err = bad.parse::<Location>().unwrap_err();
            assert!(!err.is_empty() && !err.contains('\n'), "{bad}: {err}");
        }
    }

    #[test]
    fn a_password_is_not_shown() {
        let with = Location::Postgres("postgres://bench:s3cret@db:5432/tb?sslmode=disable".into());
        assert_eq!(
            with.to_string(),
            "postgres://bench:***@db:5432/tb?sslmode=disable"
        );
        let without = Location::Postgres("postgres://bench@db/tb".into());
        assert_eq!(without.to_string(), "postgres://bench@db/tb");
        let written = serde_json::to_string(&with).unwrap();
        assert!(!written.contains("s3cret"), "{written}");
        let file = Location::Sqlite("results/taskbench.sqlite".into());
        let back: Location = serde_json::from_str(&serde_json::to_string(&file).unwrap()).unwrap();
        assert_eq!(back, file);
    }
}
