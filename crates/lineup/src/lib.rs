//! The contestants of one invocation: found, chosen by `--contestant` (variants such as
//! `tokio@1.38.0` among them), checked for their toolchain, built, and under `--cpus`
//! made one subject per core count. A contestant that cannot run is kept with its reason,
//! so that `list`, the tables and the JSON say why it is missing. A layer of taskbench's
//! pipeline and a crate of its own, over the contestants and the run's subjects: it knows
//! nothing of the command line or of what a session does with its lineup.

use anyhow::bail;
use contestant::ContestantInfo;
use contestant::variant::{self, Patch};
use contestant::{Availability, Contestant, Places, discover, groups, joint_builds, startup};
use run::Subject;
use std::path::Path;

/// A contestant as the survey found it, and whether it can run.
#[derive(Debug, Clone)]
pub struct Surveyed {
    pub contestant: Contestant,
    pub availability: Availability,
}

/// Every contestant below `dir`, with its toolchain checked (each `detect` with a
/// deadline); a harness that cannot start processes is an error, not a missing toolchain.
pub fn survey(dir: &Path, places: &Places) -> anyhow::Result<Vec<Surveyed>> {
    discover(dir)?
        .into_iter()
        .map(|contestant| checked(contestant, places))
        .collect()
}

/// Every contestant below `dir`, the toolchain checked only of those `lineup` can choose:
/// a `detect` takes up to seconds (GHCi loading a package), and a run of a few contestants
/// should not wait for all 57. The others are kept, unchecked, for the names an error
/// lists.
pub fn survey_for(
    dir: &Path,
    places: &Places,
    lineup: Lineup<'_>,
) -> anyhow::Result<Vec<Surveyed>> {
    let found = discover(dir)?;
    let wanted = reachable(&found, lineup);
    found
        .into_iter()
        .map(|contestant| {
            if wanted.iter().any(|name| name == contestant.name()) {
                checked(contestant, places)
            } else {
                Ok(Surveyed {
                    contestant,
                    availability: Availability::Unavailable(UNCHECKED.into()),
                })
            }
        })
        .collect()
}

/// Why a contestant outside the lineup has no availability.
const UNCHECKED: &str = "not checked: outside the lineup";

fn checked(contestant: Contestant, places: &Places) -> anyhow::Result<Surveyed> {
    let availability = contestant.detect(places)?;
    Ok(Surveyed {
        contestant,
        availability,
    })
}

/// The names `lineup` can choose among `found`: its groups' members and its names (a
/// default lineup that holds none of them chooses them all).
fn reachable(found: &[Contestant], lineup: Lineup<'_>) -> Vec<String> {
    let (items, named) = lineup.parts();
    let picked: Vec<String> = found
        .iter()
        .filter(|c| {
            items.iter().any(|item| match item.strip_prefix('@') {
                Some(group) => c.manifest.in_group(group),
                None => item.split('@').next() == Some(c.name()),
            })
        })
        .map(|c| c.name().to_string())
        .collect();
    if picked.is_empty() && !named {
        return found.iter().map(|c| c.name().to_string()).collect();
    }
    picked
}

/// The lineup a run asks for, as names and `@group`s (`-c @headline,node-q`).
#[derive(Debug, Clone, Copy)]
pub enum Lineup<'a> {
    /// `-c`: every name must be a contestant that can run here; a group brings its members,
    /// those that cannot run here kept with their reason.
    Named(&'a [String]),
    /// No `-c`: the preset's default lineup (`@headline` unless it says), taken as far as
    /// this folder has it — a member that cannot run here kept with its reason, a name the
    /// folder lacks skipped. A folder holding none of it (contestants of your own) runs
    /// every contestant.
    Default(&'a [String]),
}

impl<'a> Lineup<'a> {
    /// Its names and `@group`s, and whether `-c` gave them.
    fn parts(self) -> (&'a [String], bool) {
        match self {
            Lineup::Named(items) => (items, true),
            Lineup::Default(items) => (items, false),
        }
    }
}

/// Narrows to the contestants of `lineup` (its `@group`s with contestant/groups.rs),
/// each once, in the order named. Naming an unknown group, or an unknown or unavailable
/// contestant, is an error. `tokio@1.38.0` and `tokio@patch` are variants of `tokio`
/// (contestant/variant.rs), built with `patches` for the latter.
pub fn choose(
    surveyed: Vec<Surveyed>,
    lineup: Lineup<'_>,
    patches: &[Patch],
    places: &Places,
) -> anyhow::Result<Vec<Surveyed>> {
    let (items, named) = lineup.parts();
    // `go@1.20..1.26` names each release between its ends.
    let items: Vec<String> = items
        .iter()
        .map(|item| variant::expand(item))
        .collect::<anyhow::Result<Vec<_>>>()?
        .concat();
    if !patches.is_empty() && !items.iter().any(|n| n.ends_with("@patch")) {
        bail!(
            "--patch builds the NAME@patch contestants, and none is named \
             (example: -c tokio,tokio@patch --patch tokio=../tokio)"
        );
    }
    let mut chosen: Vec<Surveyed> = Vec::new();
    for (index, item) in items.iter().enumerate() {
        if items[..index].contains(item) {
            bail!("contestant '{item}' is named twice");
        }
        let picked = match item.strip_prefix('@') {
            Some(group) => members(&surveyed, group)?,
            None => one(&surveyed, item, named, patches, places)?
                .into_iter()
                .collect(),
        };
        for candidate in picked {
            if !chosen
                .iter()
                .any(|c| c.contestant.name() == candidate.contestant.name())
            {
                chosen.push(candidate);
            }
        }
    }
    if chosen.is_empty() && !named {
        return Ok(surveyed);
    }
    Ok(chosen)
}

/// The members of `@group`, as they are (available or not).
fn members(surveyed: &[Surveyed], group: &str) -> anyhow::Result<Vec<Surveyed>> {
    if !groups::is_known(group) {
        bail!("{}", groups::unknown(group));
    }
    Ok(surveyed
        .iter()
        .filter(|e| e.contestant.manifest.in_group(group))
        .cloned()
        .collect())
}

/// The contestant `name` (or its variant), when it can run; a lineup that is not `named`
/// skips a name this folder lacks and keeps an unavailable one with its reason.
fn one(
    surveyed: &[Surveyed],
    name: &str,
    named: bool,
    patches: &[Patch],
    places: &Places,
) -> anyhow::Result<Option<Surveyed>> {
    let (base, spec) = variant::split(name)?;
    let Some(entry) = surveyed.iter().find(|e| e.contestant.name() == base) else {
        if !named {
            return Ok(None);
        }
        let known: Vec<&str> = surveyed.iter().map(|e| e.contestant.name()).collect();
        bail!("unknown contestant '{base}' (known: {})", known.join(", "));
    };
    if let Availability::Unavailable(reason) = &entry.availability {
        if !named {
            return Ok(Some(entry.clone()));
        }
        bail!("contestant '{base}' is unavailable: {reason}");
    }
    let contestant = match &spec {
        None => entry.contestant.clone(),
        Some(spec) => entry.contestant.variant(spec, patches, places)?,
    };
    Ok(Some(Surveyed {
        contestant,
        availability: Availability::Available,
    }))
}

/// What `prepare` is building: the `index`-th (from 1) of `total` contestants to build, and
/// the names built in this step (several for a joint cargo build).
pub struct BuildStep<'a> {
    pub index: usize,
    pub total: usize,
    pub names: &'a [String],
}

impl BuildStep<'_> {
    /// `building 3/15: go`, or for a joint cargo build `building 1–4/15: floor, smol,
    /// threads, tokio (one cargo build)`.
    pub fn line(&self) -> String {
        match self.names {
            [one] => format!("building {}/{}: {one}", self.index, self.total),
            names => format!(
                "building {}–{}/{}: {} (one cargo build)",
                self.index,
                self.index + names.len() - 1,
                self.total,
                names.join(", ")
            ),
        }
    }
}

/// The error when no entry of `infos` can run here: each one's reason.
pub fn none_can_run(infos: &[ContestantInfo]) -> anyhow::Error {
    let reasons: Vec<String> = infos
        .iter()
        .filter_map(|i| i.unavailable.as_ref().map(|r| format!("{}: {r}", i.name)))
        .collect();
    anyhow::anyhow!("no contestant can run here ({})", reasons.join("; "))
}

/// Builds and probes every available entry (a failed build, or a runtime that cannot start
/// here, makes it unavailable with the reason), and returns the subjects to run and the
/// description of every entry. The Rust contestants build in one cargo invocation
/// (contestant/joint.rs), each alone when that fails. With `cpus` (`--cpus 1,2`), each
/// contestant is a subject per value, pinned to that many cores and its runtime told so
/// (`tokio cpus=2`). `announce` hears of each build step before it starts.
pub fn prepare(
    surveyed: Vec<Surveyed>,
    places: &Places,
    cpus: &[u32],
    announce: &mut dyn FnMut(BuildStep<'_>),
) -> (Vec<Subject>, Vec<ContestantInfo>) {
    let available: Vec<&Contestant> = surveyed
        .iter()
        .filter(|e| e.availability == Availability::Available)
        .map(|e| &e.contestant)
        .collect();
    let total = available.len();
    let mut index = 0;
    let mut built: Vec<String> = Vec::new();
    for joint in joint_builds(&available, places) {
        announce(BuildStep {
            index: index + 1,
            total,
            names: &joint.names,
        });
        // A failed joint build counts for nothing: its contestants build alone below.
        if joint.run(&available).is_ok() {
            index += joint.names.len();
            built.extend(joint.names);
        }
    }
    let mut subjects = Vec::new();
    let mut infos = Vec::new();
    for Surveyed {
        contestant,
        mut availability,
    } in surveyed
    {
        if availability == Availability::Available {
            let joined = built.iter().any(|n| n == contestant.name());
            if !joined {
                index += 1;
                announce(BuildStep {
                    index,
                    total,
                    names: &[contestant.name().to_string()],
                });
            }
            let outcome = if joined {
                Ok(())
            } else {
                contestant.build(places)
            };
            if let Err(reason) = outcome.and_then(|()| contestant.probe(places)) {
                availability = Availability::Unavailable(reason);
            }
        }
        for (subject, info) in describe(&contestant, availability, places, cpus) {
            if info.unavailable.is_none() {
                subjects.push(subject);
            }
            infos.push(info);
        }
    }
    (subjects, infos)
}

/// A contestant as the run sees it: its subject and description, one of each per `--cpus`
/// value.
fn describe(
    contestant: &Contestant,
    availability: Availability,
    places: &Places,
    cpus: &[u32],
) -> Vec<(Subject, ContestantInfo)> {
    let table = contestant.manifest.warm_up_table(&contestant.dir);
    let unavailable = match (availability, &table) {
        (Availability::Available, Ok(_)) => None,
        (Availability::Available, Err(e)) => Some(format!("{e:#}")),
        (Availability::Unavailable(reason), _) => Some(reason),
    };
    let warm_up = table.unwrap_or_default();
    let subject = Subject {
        name: contestant.name().to_string(),
        argv: contestant.run_command(places),
        cwd: contestant.dir.clone(),
        unsupported: contestant.manifest.unsupported.clone(),
        startup: startup(&contestant.manifest.language),
        warm_up: warm_up.clone(),
        baseline: None,
        cpus: None,
        env: Vec::new(),
    };
    let info = ContestantInfo {
        name: contestant.name().to_string(),
        language: contestant.manifest.language.clone(),
        runtime: contestant.manifest.runtime.clone(),
        // An unavailable contestant's version command would only repeat why it is
        // unavailable, less clearly (a variant's release that could not be fetched).
        version: match unavailable {
            None => contestant.version(places),
            Some(_) => "–".to_string(),
        },
        unavailable,
        cpus: None,
        build_flags: contestant.manifest.build_flags(),
        toolchains: contestant.toolchains.clone(),
        warm_up: Some(warm_up.describe()),
        fairness: Some(contestant::fairness_entry(contestant.name())),
        reference: contestant.manifest.reference,
        inline: contestant.manifest.inline.clone(),
    };
    match cpus {
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
    }
}

/// `--cpus`: each value at most the cores taskbench may use here, none twice.
pub fn check_cpus(cpus: &[u32]) -> anyhow::Result<()> {
    let allowed = measure::affinity::allowed().len();
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

#[cfg(test)]
mod tests {
    use super::*;
    use contestant::Manifest;

    /// A contestant of `language` in `groups`, available or not.
    fn candidate(name: &str, language: &str, groups: &[&str], available: bool) -> Surveyed {
        let manifest: Manifest = toml::from_str(&format!(
            "name = {name:?}\nlanguage = {language:?}\nruntime = \"r\"\ndetect = [\"true\"]\n\
             install = \"apt-get install {name}\"\nrun = [\"true\"]\nversion = {{ crate = \"x\" }}\n\
             groups = {groups:?}\n"
        ))
        .unwrap();
        Surveyed {
            contestant: Contestant {
                manifest,
                dir: "/nowhere".into(),
                variant: None,
                toolchains: Vec::new(),
            },
            availability: if available {
                Availability::Available
            } else {
                Availability::Unavailable("no toolchain".into())
            },
        }
    }

    fn folder() -> Vec<Surveyed> {
        vec![
            candidate("erlang", "Erlang", &["headline"], false),
            candidate("floor", "Rust", &["headline"], true),
            candidate(
                "node-async-await",
                "JavaScript",
                &["headline", "bluebird"],
                true,
            ),
            candidate("node-q", "JavaScript", &["bluebird"], true),
            candidate("smol", "Rust", &[], true),
            candidate("tokio", "Rust", &["headline"], true),
        ]
    }

    fn places() -> Places {
        Places {
            root: "/r".into(),
            target: "/r/t".into(),
            cache: "/r/c".into(),
        }
    }

    fn pick(lineup: Lineup<'_>, surveyed: Vec<Surveyed>) -> anyhow::Result<Vec<String>> {
        let chosen = choose(surveyed, lineup, &[], &places())?;
        Ok(chosen
            .iter()
            .map(|c| c.contestant.name().to_string())
            .collect())
    }

    fn items(list: &[&str]) -> Vec<String> {
        list.iter().map(|i| (*i).to_string()).collect()
    }

    #[test]
    fn groups_select_their_members_and_mix_with_names() {
        let headline = items(&["@headline"]);
        assert_eq!(
            pick(Lineup::Named(&headline), folder()).unwrap(),
            ["erlang", "floor", "node-async-await", "tokio"],
            "an unavailable member is kept, to be shown with its reason"
        );
        let mixed = items(&["@headline", "node-q", "tokio"]);
        assert_eq!(
            pick(Lineup::Named(&mixed), folder()).unwrap(),
            ["erlang", "floor", "node-async-await", "tokio", "node-q"],
            "each once, in the order named"
        );
        let family = items(&["@js", "@rust"]);
        assert_eq!(
            pick(Lineup::Named(&family), folder()).unwrap(),
            ["node-async-await", "node-q", "floor", "smol", "tokio"]
        );
        assert_eq!(
            pick(Lineup::Named(&items(&["@all"])), folder())
                .unwrap()
                .len(),
            6
        );
    }

    #[test]
    fn the_default_takes_what_the_folder_has_of_it() {
        let default = items(&["@headline", "python-asyncio", "erlang"]);
        assert_eq!(
            pick(Lineup::Default(&default), folder()).unwrap(),
            ["erlang", "floor", "node-async-await", "tokio"],
            "a missing name is skipped, an unavailable one kept"
        );
        let own = vec![
            candidate("mine", "sh", &[], true),
            candidate("yours", "Rust", &[], true),
        ];
        assert_eq!(
            pick(Lineup::Default(&items(&["@headline"])), own).unwrap(),
            ["mine", "yours"],
            "a folder with none of the default runs all of it"
        );
    }

    #[test]
    fn only_what_the_lineup_can_choose_is_detected() {
        let found: Vec<Contestant> = folder().into_iter().map(|c| c.contestant).collect();
        let (mixed, nobody) = (items(&["@bluebird", "tokio@patch"]), items(&["nobody"]));
        assert_eq!(
            reachable(&found, Lineup::Named(&mixed)),
            ["node-async-await", "node-q", "tokio"]
        );
        assert!(reachable(&found, Lineup::Named(&nobody)).is_empty());
        assert_eq!(
            reachable(&found, Lineup::Default(&nobody)).len(),
            6,
            "a default the folder lacks chooses all, so all are checked"
        );
    }

    #[test]
    fn a_bad_lineup_is_one_line() {
        let err = pick(Lineup::Named(&items(&["@nope"])), folder()).unwrap_err();
        let err = format!("{err:#}");
        assert!(
            err.starts_with("unknown group '@nope' (known: @headline, @bluebird, @rust, "),
            "{err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        let err = pick(Lineup::Named(&items(&["erlang"])), folder()).unwrap_err();
        assert!(
            err.to_string()
                .starts_with("contestant 'erlang' is unavailable"),
            "{err}"
        );
        let err = pick(Lineup::Named(&items(&["nobody"])), folder()).unwrap_err();
        assert!(
            err.to_string().starts_with("unknown contestant 'nobody'"),
            "{err}"
        );
        let err = pick(Lineup::Named(&items(&["tokio", "tokio"])), folder()).unwrap_err();
        assert_eq!(err.to_string(), "contestant 'tokio' is named twice");
    }
}
