//! The contestants of one invocation: found, chosen by `--contestant`, checked for their
//! toolchain and built. A contestant that cannot run is kept with its reason, so that
//! `list`, the tables and the JSON say why it is missing.

use crate::contestant::{Availability, Contestant, Places, discover};
use crate::export::ContestantInfo;
use crate::run::Subject;
use anyhow::bail;
use std::path::{Path, PathBuf};

/// The repository this binary was built from: where `contestants/`, `Cargo.lock` and the
/// contestants' build output live.
pub fn repository_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap_or_else(|_| ".".into())
}

/// The default places for placeholders, under the repository's `target/`.
pub fn places() -> Places {
    let root = repository_root();
    Places {
        target: root.join("target/contestants"),
        cache: root.join("target/cache"),
        root,
    }
}

/// A contestant and whether it can run.
#[derive(Debug, Clone)]
pub struct Entry {
    pub contestant: Contestant,
    pub availability: Availability,
}

/// Every contestant below `dir`, with its toolchain checked (each `detect` with a
/// deadline); a harness that cannot start processes is an error, not a missing toolchain.
pub fn survey(dir: &Path, places: &Places) -> anyhow::Result<Vec<Entry>> {
    discover(dir)?
        .into_iter()
        .map(|contestant| {
            let availability = contestant.detect(places)?;
            Ok(Entry {
                contestant,
                availability,
            })
        })
        .collect()
}

/// Narrows to the contestants named (all available ones when none are); naming an unknown
/// or unavailable contestant is an error.
pub fn choose(entries: Vec<Entry>, names: &[String]) -> anyhow::Result<Vec<Entry>> {
    if names.is_empty() {
        return Ok(entries);
    }
    let mut chosen = Vec::new();
    for name in names {
        let Some(entry) = entries.iter().find(|e| e.contestant.name() == name) else {
            let known: Vec<&str> = entries.iter().map(|e| e.contestant.name()).collect();
            bail!("unknown contestant '{name}' (known: {})", known.join(", "));
        };
        if let Availability::Unavailable(reason) = &entry.availability {
            bail!("contestant '{name}' is unavailable: {reason}");
        }
        if chosen.iter().any(|e: &Entry| e.contestant.name() == name) {
            bail!("contestant '{name}' is named twice");
        }
        chosen.push(entry.clone());
    }
    Ok(chosen)
}

/// Builds and probes every available entry (a failed build, or a runtime that cannot start
/// here, makes it unavailable with the reason), and
/// returns the subjects to run and the description of every entry.
pub fn prepare(
    entries: Vec<Entry>,
    places: &Places,
    announce: &mut dyn FnMut(&str),
) -> (Vec<Subject>, Vec<ContestantInfo>) {
    let mut subjects = Vec::new();
    let mut infos = Vec::new();
    for Entry {
        contestant,
        mut availability,
    } in entries
    {
        if availability == Availability::Available {
            announce(contestant.name());
            if let Err(reason) = contestant
                .build(places)
                .and_then(|()| contestant.probe(places))
            {
                availability = Availability::Unavailable(reason);
            }
        }
        let unavailable = match availability {
            Availability::Available => {
                subjects.push(Subject {
                    name: contestant.name().to_string(),
                    argv: contestant.run_command(places),
                    cwd: contestant.dir.clone(),
                    unsupported: contestant.manifest.unsupported.clone(),
                    startup: crate::presets::estimate::startup(&contestant.manifest.language),
                    baseline: None,
                });
                None
            }
            Availability::Unavailable(reason) => Some(reason),
        };
        infos.push(ContestantInfo {
            name: contestant.name().to_string(),
            language: contestant.manifest.language.clone(),
            runtime: contestant.manifest.runtime.clone(),
            version: contestant.version(places),
            unavailable,
        });
    }
    (subjects, infos)
}
