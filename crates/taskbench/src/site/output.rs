//! The site's folder, written incrementally: each file with the key of what it was made
//! from (a hash of its inputs, kept in `.taskbench-site.json` beside the pages), so that a
//! second build renders and writes only the files whose inputs changed, leaves the others
//! as they are, and removes the files no page makes any more.

use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::{BTreeMap, BTreeSet};
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::{Path, PathBuf};

/// The file that keeps each file's key.
const STATE: &str = ".taskbench-site.json";

/// The key of some inputs, and of the taskbench that renders them: another binary
/// (another version, or the same source changed and built again) renders every page once
/// more, since any page may look different; the same binary built again does not.
pub(crate) fn key_of(inputs: &impl Hash) -> u64 {
    static BUILD: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    let build = BUILD.get_or_init(|| {
        let mut hasher = DefaultHasher::new();
        let binary = std::env::current_exe().and_then(std::fs::read);
        binary.unwrap_or_default().hash(&mut hasher);
        hasher.finish()
    });
    let mut hasher = DefaultHasher::new();
    env!("CARGO_PKG_VERSION").hash(&mut hasher);
    build.hash(&mut hasher);
    inputs.hash(&mut hasher);
    hasher.finish()
}

#[derive(Debug, Default, Serialize, Deserialize)]
struct State {
    /// Each file, by its path under the folder, with the key of its inputs.
    files: BTreeMap<String, u64>,
}

/// The folder being built.
pub(crate) struct Output {
    dir: PathBuf,
    before: State,
    now: State,
    /// Files this build wrote, and those it left as they were.
    pub(crate) written: usize,
    pub(crate) unchanged: usize,
}

impl Output {
    /// The folder `dir`, made, with what its last build kept.
    pub(crate) fn open(dir: &Path) -> anyhow::Result<Output> {
        std::fs::create_dir_all(dir)
            .with_context(|| format!("--out: cannot create {}", dir.display()))?;
        let before = std::fs::read_to_string(dir.join(STATE))
            .ok()
            .and_then(|text| serde_json::from_str(&text).ok())
            .unwrap_or_default();
        Ok(Output {
            dir: dir.to_path_buf(),
            before,
            now: State::default(),
            written: 0,
            unchanged: 0,
        })
    }

    /// Writes `path` (under the folder) with what `make` renders, unless the last build
    /// wrote it from inputs of the same `key` and it is still there.
    pub(crate) fn file(
        &mut self,
        path: &str,
        key: u64,
        make: impl FnOnce() -> anyhow::Result<String>,
    ) -> anyhow::Result<()> {
        let target = self.dir.join(path);
        let same = self.before.files.get(path) == Some(&key) && target.exists();
        self.now.files.insert(path.to_string(), key);
        if same {
            self.unchanged += 1;
            return Ok(());
        }
        let text = make()?;
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent)?;
        }
        if std::fs::read(&target).is_ok_and(|old| old == text.as_bytes()) {
            self.unchanged += 1;
            return Ok(());
        }
        export::write_atomically(&target, text.as_bytes())?;
        self.written += 1;
        Ok(())
    }

    /// Removes what the last build wrote and this one did not, keeps the keys, and says
    /// how many files the folder holds and their size in bytes.
    pub(crate) fn finish(self) -> anyhow::Result<(usize, usize, u64)> {
        let kept: BTreeSet<&String> = self.now.files.keys().collect();
        let mut removed = 0;
        for gone in self.before.files.keys().filter(|p| !kept.contains(p)) {
            if std::fs::remove_file(self.dir.join(gone)).is_ok() {
                removed += 1;
            }
        }
        let state = serde_json::to_string(&self.now).expect("the site's state serialises");
        export::write_atomically(&self.dir.join(STATE), state.as_bytes())?;
        let bytes = (self.now.files.keys())
            .filter_map(|p| std::fs::metadata(self.dir.join(p)).ok())
            .map(|m| m.len())
            .sum();
        Ok((self.now.files.len(), removed, bytes))
    }
}
