//! What the site is built from, read from the store once: every session with its machine,
//! every summary's figures from the store's columns (each session's summaries whole only
//! when a page needs them, [`Site::summaries`]), every bisect, and each contestant's
//! description (language, family, toolchain age, FAIRNESS.md entry) as the newest session
//! that ran it recorded it, else as its manifest in the tree says.

use analysis::CaseSummary;
use contestant::ContestantInfo;
use contestant::releases::is_release_variant;
use std::collections::{BTreeMap, HashMap};
use std::path::Path;
use store::{Machine, SessionRow, Store, StoredBisect, SummaryRow};

/// A machine sessions ran on, named `m1`, `m2`, … in the order it first ran one.
#[derive(Debug, Clone)]
pub(crate) struct SiteMachine {
    pub(crate) key: String,
    pub(crate) machine: Machine,
}

/// A contestant as the site describes it.
#[derive(Debug, Clone, Default)]
pub(crate) struct Described {
    pub(crate) language: String,
    /// Its language family's group (`rust`, `js`, `beam`), or `other`.
    pub(crate) family: String,
    pub(crate) info: Option<ContestantInfo>,
}

/// Everything read from the store.
pub(crate) struct Site {
    pub(crate) store: Store,
    /// Oldest first.
    pub(crate) sessions: Vec<SessionRow>,
    pub(crate) machines: Vec<SiteMachine>,
    /// Each session's machine key.
    pub(crate) machine_of: HashMap<i64, String>,
    pub(crate) summaries: Vec<SummaryRow>,
    /// Each session's summaries, as indices into `summaries`.
    of_session: HashMap<i64, Vec<usize>>,
    pub(crate) bisects: Vec<StoredBisect>,
    described: BTreeMap<String, Described>,
    read: HashMap<i64, Vec<CaseSummary>>,
    /// docs/FAIRNESS.md of the project the contestants are in (empty where there is none).
    pub(crate) fairness: String,
}

impl Site {
    /// Reads the store; `contestants_dir` describes contestants no session described.
    pub(crate) fn read(mut store: Store, contestants_dir: &Path) -> anyhow::Result<Site> {
        let sessions = store::session_rows(&mut store)?;
        let summaries = store::summary_rows(&mut store)?;
        let bisects = store::bisects(&mut store)?;
        let mut machines: Vec<SiteMachine> = Vec::new();
        let mut machine_of = HashMap::new();
        for session in &sessions {
            let known = machines.iter().find(|m| m.machine == session.machine);
            let key = match known {
                Some(m) => m.key.clone(),
                None => {
                    let key = format!("m{}", machines.len() + 1);
                    machines.push(SiteMachine {
                        key: key.clone(),
                        machine: session.machine.clone(),
                    });
                    key
                }
            };
            machine_of.insert(session.id, key);
        }
        let described = describe(&sessions, &summaries, contestants_dir);
        let mut of_session: HashMap<i64, Vec<usize>> = HashMap::new();
        for (k, m) in summaries.iter().enumerate() {
            of_session.entry(m.session).or_default().push(k);
        }
        Ok(Site {
            store,
            sessions,
            machines,
            machine_of,
            summaries,
            of_session,
            bisects,
            described,
            read: HashMap::new(),
            fairness: fairness_document(contestants_dir),
        })
    }

    /// How the site describes `contestant` (a release variant as its contestant).
    pub(crate) fn described(&self, contestant: &str) -> Described {
        let own = self.described.get(contestant);
        let base = self.described.get(runtime_of(contestant));
        own.or(base).cloned().unwrap_or_else(|| Described {
            language: "unknown".into(),
            family: "other".into(),
            info: None,
        })
    }

    /// The session of `id`.
    pub(crate) fn session(&self, id: i64) -> Option<&SessionRow> {
        self.sessions.iter().find(|s| s.id == id)
    }

    /// The summaries of `session`, as the store's columns keep them.
    pub(crate) fn summaries_of(&self, session: i64) -> impl Iterator<Item = &SummaryRow> {
        let found = self.of_session.get(&session).map_or(&[][..], Vec::as_slice);
        found.iter().map(|&k| &self.summaries[k])
    }

    /// Whether `session` is a step of a bisect (its command one, or its folder inside a
    /// bisect's): two releases of a contestant, not a run of the lineup.
    pub(crate) fn bisect_step(&self, session: &SessionRow) -> bool {
        session.command.iter().any(|a| a == "bisect")
            || self.bisects.iter().any(|b| step_of(b, session))
    }

    /// The sessions of `bisect`'s steps, oldest first.
    pub(crate) fn steps_of(&self, bisect: &StoredBisect) -> Vec<&SessionRow> {
        (self.sessions.iter())
            .filter(|s| step_of(bisect, s))
            .collect()
    }

    /// Every summary of `session`, kept whole, read once.
    pub(crate) fn summaries(&mut self, session: i64) -> anyhow::Result<&[CaseSummary]> {
        if !self.read.contains_key(&session) {
            let read = store::summary_json(&mut self.store, session)?;
            self.read.insert(session, read);
        }
        Ok(&self.read[&session])
    }

    /// Every runtime the store holds, a release variant's under its contestant's name.
    pub(crate) fn runtimes(&self) -> Vec<String> {
        let mut names: Vec<String> = (self.summaries.iter())
            .map(|s| runtime_of(&s.contestant).to_string())
            .collect();
        names.sort();
        names.dedup();
        names
    }
}

/// Where `point` stands among a page's points: scenarios in the catalogue's order (spawn
/// first, as a run and report.html take them), then by size, then by label; the same
/// from SQLite and PostgreSQL, which keep no order of a session's summaries.
pub(crate) fn point_order(point: &catalogue::Point) -> (usize, Option<u64>, String) {
    let at = catalogue::SCENARIOS
        .iter()
        .position(|s| s.name == point.scenario);
    let size = point.to_scenario().and_then(|s| s.size());
    (at.unwrap_or(usize::MAX), size, point.to_string())
}

/// docs/FAIRNESS.md beside the contestants' folder, or nothing.
fn fairness_document(contestants_dir: &Path) -> String {
    let docs = contestants_dir
        .parent()
        .unwrap_or(Path::new("."))
        .join("docs");
    std::fs::read_to_string(docs.join("FAIRNESS.md")).unwrap_or_default()
}

/// Whether `session` ran in a folder inside `bisect`'s (each step's run has one).
fn step_of(bisect: &StoredBisect, session: &SessionRow) -> bool {
    let inside = format!("{}/", bisect.folder.trim_end_matches('/'));
    session
        .folder
        .as_deref()
        .is_some_and(|f| f.starts_with(&inside))
}

/// The contestant a release variant is of (`go@1.22.12` → `go`); a name without a release,
/// itself.
pub(crate) fn runtime_of(contestant: &str) -> &str {
    if is_release_variant(contestant) {
        contestant
            .split_once('@')
            .map_or(contestant, |(base, _)| base)
    } else {
        contestant
    }
}

/// Each contestant of the summaries as the newest session that ran it described it, else
/// as its manifest under `contestants_dir` (where there is one).
fn describe(
    sessions: &[SessionRow],
    summaries: &[SummaryRow],
    contestants_dir: &Path,
) -> BTreeMap<String, Described> {
    let mut described = BTreeMap::new();
    for info in sessions
        .iter()
        .filter_map(|s| s.contestants.as_ref())
        .flatten()
    {
        described.insert(
            info.name.clone(),
            of_language(&info.language, Some(info.clone())),
        );
    }
    let manifests = contestant::discover(contestants_dir).unwrap_or_default();
    for summary in summaries {
        let name = runtime_of(&summary.contestant);
        if described.contains_key(name) {
            continue;
        }
        if let Some(found) = manifests.iter().find(|c| c.name() == name) {
            described.insert(
                name.to_string(),
                of_language(&found.manifest.language, None),
            );
        }
    }
    described
}

fn of_language(language: &str, info: Option<ContestantInfo>) -> Described {
    Described {
        language: language.to_string(),
        family: contestant::language::family_group(language)
            .unwrap_or("other")
            .to_string(),
        info,
    }
}
