//! The contestants of one invocation: found, chosen by `--contestant` (variants such as
//! `tokio@1.38.0` among them), checked for their toolchain, built, and under `--cpus`
//! made one subject per core count. A contestant that cannot run is kept with its reason,
//! so that `list`, the tables and the JSON say why it is missing.

use crate::contestant::variant::{self, Patch};
use crate::contestant::{Availability, Contestant, Places, discover};
use crate::results::ContestantInfo;
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
/// or unavailable contestant is an error. `tokio@1.38.0` and `tokio@patch` are variants of
/// `tokio` (contestant/variant.rs), built with `patches` for the latter.
pub fn choose(
    entries: Vec<Entry>,
    names: &[String],
    patches: &[Patch],
    places: &Places,
) -> anyhow::Result<Vec<Entry>> {
    if !patches.is_empty() && !names.iter().any(|n| n.ends_with("@patch")) {
        bail!(
            "--patch builds the NAME@patch contestants, and none is named \
             (example: -c tokio,tokio@patch --patch tokio=../tokio)"
        );
    }
    if names.is_empty() {
        return Ok(entries);
    }
    let mut chosen: Vec<Entry> = Vec::new();
    for name in names {
        let (base, spec) = variant::split(name)?;
        let Some(entry) = entries.iter().find(|e| e.contestant.name() == base) else {
            let known: Vec<&str> = entries.iter().map(|e| e.contestant.name()).collect();
            bail!("unknown contestant '{base}' (known: {})", known.join(", "));
        };
        if let Availability::Unavailable(reason) = &entry.availability {
            bail!("contestant '{base}' is unavailable: {reason}");
        }
        if chosen.iter().any(|e| e.contestant.name() == name) {
            bail!("contestant '{name}' is named twice");
        }
        let contestant = match &spec {
            None => entry.contestant.clone(),
            Some(spec) => entry.contestant.variant(spec, patches, places)?,
        };
        chosen.push(Entry {
            contestant,
            availability: Availability::Available,
        });
    }
    Ok(chosen)
}

/// Builds and probes every available entry (a failed build, or a runtime that cannot start
/// here, makes it unavailable with the reason), and returns the subjects to run and the
/// description of every entry. With `cpus` (`--cpus 1,2`), each contestant is a subject
/// per value, pinned to that many cores and its runtime told so (`tokio cpus=2`).
pub fn prepare(
    entries: Vec<Entry>,
    places: &Places,
    cpus: &[u32],
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
            Availability::Available => None,
            Availability::Unavailable(reason) => Some(reason),
        };
        let subject = Subject {
            name: contestant.name().to_string(),
            argv: contestant.run_command(places),
            cwd: contestant.dir.clone(),
            unsupported: contestant.manifest.unsupported.clone(),
            startup: crate::presets::estimate::startup(&contestant.manifest.language),
            baseline: None,
            cpus: None,
            env: Vec::new(),
        };
        let info = ContestantInfo {
            name: contestant.name().to_string(),
            language: contestant.manifest.language.clone(),
            runtime: contestant.manifest.runtime.clone(),
            version: contestant.version(places),
            unavailable,
            cpus: None,
        };
        let pinned: Vec<(Subject, ContestantInfo)> = match cpus {
            [] => vec![(subject, info)],
            _ => cpus
                .iter()
                .map(|&n| {
                    let subject = subject.pinned(n, contestant.manifest.workers_env(n));
                    let info = ContestantInfo {
                        name: subject.name.clone(),
                        cpus: Some(n),
                        ..info.clone()
                    };
                    (subject, info)
                })
                .collect(),
        };
        for (subject, info) in pinned {
            if info.unavailable.is_none() {
                subjects.push(subject);
            }
            infos.push(info);
        }
    }
    (subjects, infos)
}

/// `--cpus`: each value at most the cores taskbench may use here, none twice.
pub fn check_cpus(cpus: &[u32]) -> anyhow::Result<()> {
    let allowed = crate::measure::affinity::allowed().len();
    if let Some(n) = cpus.iter().find(|&&n| n as usize > allowed) {
        bail!("--cpus {n}: taskbench may use {allowed} cores here");
    }
    if let Some(n) = cpus
        .iter()
        .find(|&&n| cpus.iter().filter(|&&m| m == n).count() > 1)
    {
        bail!("--cpus: {n} is given twice");
    }
    Ok(())
}

/// The `--command` subjects, one per `--cpus` value (as given when there is none).
pub fn pinned(subjects: Vec<Subject>, cpus: &[u32]) -> Vec<Subject> {
    match cpus {
        [] => subjects,
        _ => subjects
            .iter()
            .flat_map(|s| cpus.iter().map(|&n| s.pinned(n, Vec::new())))
            .collect(),
    }
}
