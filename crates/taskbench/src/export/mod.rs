//! Writes a finished run's results: JSON (everything, versioned schema), CSV (one tidy row
//! per run), Markdown (the tables), HTML (the report) and the ecosystem's formats, all
//! each a [`Format`]. Each file is written whole or not at all.

mod csv;
mod ecosystem;
mod folder;
mod format;
mod log;
mod markdown;

pub use self::csv::write_csv;
pub use crate::results::Results;
pub use folder::{assemble, rebuild, write_results};
pub use format::{FORMATS, Format};
pub use log::{RUN_FILE_SCHEMA, RunFile, append, lock, read_records, rewrite};
pub use markdown::markdown;

use anyhow::Context;
use std::path::Path;

/// Writes `bytes` to `path` through a temporary file and a rename, so that a reader never
/// sees half a file.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(".tmp");
    let written = std::fs::write(&tmp, bytes).and_then(|()| std::fs::rename(&tmp, path));
    if written.is_err() {
        // Half a temporary file is left behind by nobody.
        std::fs::remove_file(&tmp).ok();
    }
    written.with_context(|| format!("cannot write {}", path.display()))
}

/// Fails early, naming the path, if a file cannot be created there; leaves nothing behind.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    let existed = path.exists();
    std::fs::OpenOptions::new()
        .append(true)
        .create(true)
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))?;
    if !existed {
        std::fs::remove_file(path).ok();
    }
    Ok(())
}
