//! Writes a finished run's results: JSON (everything, versioned schema), CSV (one tidy row
//! per run), Markdown (the tables), HTML (the report) and the ecosystem's formats, all
//! each a [`Format`]. Each file is written whole or not at all; an export's path `-` is
//! stdout (one document at a time). Result folders merged into one (shards/merge.rs) are
//! written with the same pieces, as a run's folder is. A crate of its own, over the words
//! and the page: it cannot name a feature, the scheduler or a command.

mod csv;
mod ecosystem;
mod folder;
mod format;
mod log;
mod markdown;

pub(crate) use self::csv::write_csv;
pub use folder::{assemble, rebuild, write_exports, write_results};
pub use format::{FORMATS, Format};
pub use log::{SESSION_FILE_SCHEMA, SessionFile, append, lock, read_records, rewrite};
pub(crate) use markdown::markdown;
pub(crate) use results::Results;

use anyhow::Context;
use std::path::Path;

/// The text of `path`, or `None` when there is no such file (a folder's run.json, or the
/// options beside it, written only once a run got that far).
pub fn read_if_there(path: &Path) -> anyhow::Result<Option<String>> {
    match std::fs::read_to_string(path) {
        Ok(text) => Ok(Some(text)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
}

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

/// The path that stands for stdout in `--export-<flag> PATH`, as in hyperfine.
pub(crate) const STDOUT: &str = "-";

/// Whether an export's path is stdout.
pub fn is_stdout(path: &Path) -> bool {
    path.as_os_str() == STDOUT
}

/// Writes an export's `bytes` to `path`, or to stdout for `-` (during a run, a closed
/// stdout stops it, and the folder's files are still written: run/interrupt.rs).
pub(crate) fn deliver(path: &Path, bytes: &[u8]) -> anyhow::Result<()> {
    if !is_stdout(path) {
        return write_atomically(path, bytes);
    }
    run::interrupt::write_stdout(bytes).context("cannot write to stdout")
}

/// Refuses exports of which more than one goes to stdout, naming them (`flag` turns a
/// format into its option: `--export-json` or `--json`).
pub fn check_stdout(
    exports: &[(&Format, &Path)],
    flag: fn(&Format) -> String,
) -> anyhow::Result<()> {
    let to_stdout: Vec<String> = exports
        .iter()
        .filter(|(_, path)| is_stdout(path))
        .map(|(format, _)| flag(format))
        .collect();
    anyhow::ensure!(
        to_stdout.len() <= 1,
        "only one document can go to stdout (-), and {} ask for it: give the others a file",
        to_stdout.join(" and ")
    );
    Ok(())
}

/// Fails early, naming the path, if a file cannot be created there; leaves nothing behind.
/// Stdout (`-`) is always there.
pub fn check_writable(path: &Path) -> anyhow::Result<()> {
    if is_stdout(path) {
        return Ok(());
    }
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
