//! Finds every `contestant.toml` below a folder; adding a runtime is adding a folder.

use super::{Contestant, MANIFEST_FILE, Manifest};
use anyhow::{Context, bail};
use std::path::Path;

/// Folders never searched: dependencies and build output of the contestants themselves.
const SKIPPED: &[&str] = &[
    "node_modules",
    "target",
    ".git",
    "_build",
    "deps",
    "dist-newstyle",
];

/// All contestants below `root`, sorted by name, each with the toolchains its manifest
/// names (contestant/age.rs); a bad manifest, a duplicate name or a toolchain the
/// toolchains.toml lacks is an error naming the file.
pub fn discover(root: &Path) -> anyhow::Result<Vec<Contestant>> {
    if !root.is_dir() {
        bail!("contestants folder {} does not exist", root.display());
    }
    let mut found = Vec::new();
    walk(root, &mut found)?;
    found.sort_by(|a: &Contestant, b| a.name().cmp(b.name()));
    for pair in found.windows(2) {
        if pair[0].name() == pair[1].name() {
            bail!(
                "two contestants are named '{}': {} and {}",
                pair[0].name(),
                pair[0].dir.display(),
                pair[1].dir.display()
            );
        }
    }
    super::age::resolve(root, &mut found)?;
    Ok(found)
}

fn walk(dir: &Path, found: &mut Vec<Contestant>) -> anyhow::Result<()> {
    let manifest = dir.join(MANIFEST_FILE);
    if manifest.is_file() {
        let dir = dir
            .canonicalize()
            .with_context(|| format!("cannot resolve {}", dir.display()))?;
        found.push(Contestant {
            manifest: Manifest::load(&manifest)?,
            dir,
            variant: None,
            toolchains: Vec::new(),
        });
    }
    let entries =
        std::fs::read_dir(dir).with_context(|| format!("cannot list {}", dir.display()))?;
    let mut subdirs: Vec<_> = entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
        .filter(|e| !SKIPPED.iter().any(|s| e.file_name() == *s))
        .map(|e| e.path())
        .collect();
    subdirs.sort();
    for sub in subdirs {
        walk(&sub, found)?;
    }
    Ok(())
}
