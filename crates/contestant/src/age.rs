//! How old each row's toolchain is — the release this machine runs, the newest stable
//! release of it as last checked, and the gap between them — so that a figure of CPython
//! 3.11 or GHC 9.0 is not read as one of today's runtime. The rows that share a toolchain
//! share its entry in the contestants folder's `toolchains.toml`; each manifest's
//! `toolchains` names the entries it runs on (`["elixir", "otp"]`).

use super::{Contestant, MANIFEST_FILE};
use anyhow::Context;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// The file, in the contestants folder, of the toolchains the manifests name.
pub const FILE: &str = "toolchains.toml";

/// `newest` where no source reached here told the newest release.
pub(crate) const NOT_CHECKED: &str = "not checked here";

/// A toolchain a row runs on, with its age: what it runs here and the newest release.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ToolchainAge {
    /// Its entry in toolchains.toml (`node`), as a manifest's `toolchains` names it.
    pub id: String,
    /// What it is called (`Node.js`, `Erlang/OTP`).
    pub name: String,
    /// The release this machine runs (`26.12.1`).
    pub runs: String,
    /// Where that release comes from here (`Debian 12's ghc`).
    pub via: String,
    /// The newest stable release as last checked: a release (`1.27.4`), a bound where the
    /// source may lag behind the project's own releases (`>= 1.99.0`), or [`NOT_CHECKED`].
    pub newest: String,
    /// Where `newest` was learnt (`npm view bun version`), or why it was not.
    pub source: String,
    /// The day `newest` was checked (`2026-12-05`).
    pub checked: String,
}

/// An entry of toolchains.toml: a [`ToolchainAge`] whose id is the entry's key.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Entry {
    name: String,
    runs: String,
    via: String,
    newest: String,
    source: String,
    checked: String,
}

/// `newest`, read.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Newest {
    Exactly(Vec<u64>),
    AtLeast(Vec<u64>),
    NotChecked,
}

/// A release's numbers (`1.26.8` → `[1, 26, 8]`): one to four of them, digits only.
fn release(text: &str) -> Option<Vec<u64>> {
    let numbers: Option<Vec<u64>> = text
        .split('.')
        .map(|part| {
            if part.bytes().all(|b| b.is_ascii_digit()) {
                part.parse().ok()
            } else {
                None
            }
        })
        .collect();
    numbers.filter(|n| (1..=4).contains(&n.len()))
}

/// `newest` read, with the bound's release text (`>= 1.99.0` → `1.99.0`).
fn parse_newest(text: &str) -> Option<(Newest, &str)> {
    if text == NOT_CHECKED {
        return Some((Newest::NotChecked, text));
    }
    match text.strip_prefix(">=") {
        Some(bound) => release(bound.trim()).map(|n| (Newest::AtLeast(n), bound.trim())),
        None => release(text).map(|n| (Newest::Exactly(n), text)),
    }
}

/// A release's `i`th number, a missing one counting as 0 (`1.26` is `1.26.0`).
fn number(release: &[u64], i: usize) -> u64 {
    release.get(i).copied().unwrap_or(0)
}

/// Whether release `a` is older than `b`.
fn older(a: &[u64], b: &[u64]) -> bool {
    (0..a.len().max(b.len()))
        .map(|i| number(a, i).cmp(&number(b, i)))
        .find(|order| order.is_ne())
        .is_some_and(std::cmp::Ordering::is_lt)
}

/// The release lines from `runs` to a later `newest` (`1.26 → 1.27`, `2.9.6 → 2.9.8`): as
/// many numbers as tell them apart, at least two; `None` unless `newest` is later.
fn gap(runs: &str, newest: &str) -> Option<String> {
    let (a, b) = (release(runs)?, release(newest)?);
    if !older(&a, &b) {
        return None;
    }
    let first = (0..a.len().max(b.len())).find(|&i| number(&a, i) != number(&b, i))?;
    let line = |text: &str| {
        let parts: Vec<&str> = text.split('.').take((first + 1).max(2)).collect();
        parts.join(".")
    };
    Some(format!("{} → {}", line(runs), line(newest)))
}

/// Whether `day` is written `YYYY-MM-DD`.
fn is_day(day: &str) -> bool {
    day.len() == 10
        && day.bytes().enumerate().all(|(i, b)| match i {
            4 | 7 => b == b'-',
            _ => b.is_ascii_digit(),
        })
}

impl ToolchainAge {
    /// How far `runs` is behind `newest`: `current`, the release lines (`1.26 → 1.27`),
    /// followed by `or later` where `newest` is a bound, `none known` where a bound is no
    /// later than `runs`, `not checked`, or `unknown` for text that is no release.
    pub(crate) fn behind(&self) -> String {
        match parse_newest(&self.newest).filter(|_| release(&self.runs).is_some()) {
            None => "unknown".into(),
            Some((Newest::NotChecked, _)) => "not checked".into(),
            Some((Newest::Exactly(_), newest)) => {
                gap(&self.runs, newest).unwrap_or_else(|| "current".into())
            }
            Some((Newest::AtLeast(_), bound)) => gap(&self.runs, bound)
                .map_or_else(|| "none known".into(), |g| format!("{g} or later")),
        }
    }

    /// `newest` as shown: `≥` for `>=`.
    pub(crate) fn newest_shown(&self) -> String {
        match self.newest.strip_prefix(">=") {
            Some(bound) => format!("≥ {}", bound.trim()),
            None => self.newest.clone(),
        }
    }

    /// One line for a row's terms: `GHC 9.0.2 (newest ≥ 9.12.1: 9.0 → 9.12 or later)`.
    pub fn summary(&self) -> String {
        match parse_newest(&self.newest) {
            Some((Newest::NotChecked, _)) => {
                format!("{} {} (newest {NOT_CHECKED})", self.name, self.runs)
            }
            _ => format!(
                "{} {} (newest {}: {})",
                self.name,
                self.runs,
                self.newest_shown(),
                self.behind()
            ),
        }
    }

    /// Why an entry cannot stand: a release that is none, a newest older than what runs,
    /// a day not written `YYYY-MM-DD`, or a blank.
    fn check(&self) -> Result<(), String> {
        let runs = release(&self.runs)
            .ok_or_else(|| format!("runs: '{}' is not a release (26.12.1)", self.runs))?;
        match parse_newest(&self.newest) {
            None => {
                return Err(format!(
                    "newest: '{}' is not a release, `>= RELEASE` or `{NOT_CHECKED}`",
                    self.newest
                ));
            }
            Some((Newest::Exactly(newest), _)) if older(&newest, &runs) => {
                return Err(format!(
                    "newest: {} is older than what runs ({})",
                    self.newest, self.runs
                ));
            }
            Some(_) => {}
        }
        if !is_day(&self.checked) {
            return Err(format!(
                "checked: '{}' is not a day (2026-12-05)",
                self.checked
            ));
        }
        for (field, text) in [
            ("name", &self.name),
            ("via", &self.via),
            ("source", &self.source),
        ] {
            if text.trim().is_empty() {
                return Err(format!("`{field}` must say something"));
            }
        }
        Ok(())
    }
}

/// The toolchains of a `toolchains.toml`, by id, each checked; an error names the file.
pub fn load(path: &Path) -> anyhow::Result<BTreeMap<String, ToolchainAge>> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let entries: BTreeMap<String, Entry> = toml::from_str(&text)
        .map_err(|e| anyhow::anyhow!("{}: {}", path.display(), e.message().trim_end()))?;
    entries
        .into_iter()
        .map(|(id, e)| {
            let age = ToolchainAge {
                id: id.clone(),
                name: e.name,
                runs: e.runs,
                via: e.via,
                newest: e.newest,
                source: e.source,
                checked: e.checked,
            };
            age.check()
                .map_err(|e| anyhow::anyhow!("{}: [{id}] {e}", path.display()))?;
            Ok((id, age))
        })
        .collect()
}

/// The toolchains.toml of a contestants folder: in it, or in the nearest folder above
/// (discovery may start below the contestants folder, at `contestants/rust/tokio`).
pub(crate) fn find(root: &Path) -> Option<PathBuf> {
    root.ancestors()
        .map(|dir| dir.join(FILE))
        .find(|path| path.is_file())
}

/// Each contestant's `toolchains` made the entries of the toolchains.toml at or above
/// `root`; a name the file lacks, or no file where a manifest names one, is an error
/// naming the manifest.
pub(super) fn resolve(root: &Path, found: &mut [Contestant]) -> anyhow::Result<()> {
    let Some(first) = found.iter().find(|c| !c.manifest.toolchains.is_empty()) else {
        return Ok(());
    };
    let path = find(root).ok_or_else(|| {
        anyhow::anyhow!(
            "{}: toolchains: no {FILE} in {} or a folder above it",
            first.dir.join(MANIFEST_FILE).display(),
            root.display()
        )
    })?;
    let known = load(&path)?;
    for contestant in found.iter_mut() {
        contestant.toolchains = contestant
            .manifest
            .toolchains
            .iter()
            .map(|id| {
                known.get(id).cloned().ok_or_else(|| {
                    anyhow::anyhow!(
                        "{}: toolchains: '{id}' is not in {} (known: {})",
                        contestant.dir.join(MANIFEST_FILE).display(),
                        path.display(),
                        known.keys().cloned().collect::<Vec<_>>().join(", ")
                    )
                })
            })
            .collect::<anyhow::Result<_>>()?;
    }
    Ok(())
}

impl Contestant {
    /// A variant on another release of toolchain `id` (`go@1.22`): that entry runs
    /// `release`, got as `via` says; its newest stays the entry's.
    pub(super) fn runs_release(&mut self, id: &str, release: &str, via: &str) {
        for age in self.toolchains.iter_mut().filter(|a| a.id == id) {
            age.runs = release.to_string();
            age.via = via.to_string();
        }
    }
}

/// Each toolchain the contestants run on, once, in id order, with the folders under
/// `root` of the rows on it (`java/ (4), kotlin/ (1)`): the table of `taskbench list` and
/// of docs/FAIRNESS.md's toolchain ages.
pub fn by_toolchain(contestants: &[Contestant], root: &Path) -> Vec<(ToolchainAge, String)> {
    let mut ages: BTreeMap<String, (ToolchainAge, BTreeMap<String, usize>)> = BTreeMap::new();
    for contestant in contestants.iter().filter(|c| c.variant.is_none()) {
        let folder = contestant
            .dir
            .strip_prefix(root)
            .ok()
            .and_then(|d| d.components().next())
            .map_or_else(
                || contestant.name().to_string(),
                |c| format!("{}/", c.as_os_str().to_string_lossy()),
            );
        for age in &contestant.toolchains {
            let entry = ages
                .entry(age.id.clone())
                .or_insert_with(|| (age.clone(), BTreeMap::new()));
            *entry.1.entry(folder.clone()).or_default() += 1;
        }
    }
    ages.into_values()
        .map(|(age, folders)| {
            let rows: Vec<String> = folders
                .iter()
                .map(|(folder, n)| format!("{folder} ({n})"))
                .collect();
            (age, rows.join(", "))
        })
        .collect()
}

/// The column names of the toolchain ages' table.
pub const COLUMNS: [&str; 7] = [
    "toolchain",
    "rows (folders under contestants/)",
    "runs here",
    "got from",
    "newest stable",
    "behind by",
    "as of: newest learnt from",
];

/// A row of the toolchain ages' table, in [`COLUMNS`]' order.
pub fn table_row(age: &ToolchainAge, rows: &str) -> [String; 7] {
    [
        age.name.clone(),
        rows.to_string(),
        age.runs.clone(),
        age.via.clone(),
        age.newest_shown(),
        age.behind(),
        format!("{}: {}", age.checked, age.source),
    ]
}

/// The toolchain ages as the Markdown table docs/FAIRNESS.md holds.
pub fn markdown(ages: &[(ToolchainAge, String)]) -> String {
    let line = |cells: &[String]| {
        let cells: Vec<String> = cells.iter().map(|c| c.replace('|', "\\|")).collect();
        format!("| {} |\n", cells.join(" | "))
    };
    let mut out = line(&COLUMNS.map(String::from));
    out.push_str(&format!("|{}\n", "---|".repeat(COLUMNS.len())));
    for (age, rows) in ages {
        out.push_str(&line(&table_row(age, rows)));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn age(runs: &str, newest: &str) -> ToolchainAge {
        ToolchainAge {
            id: "go".into(),
            name: "Go".into(),
            runs: runs.into(),
            via: "/usr/local/go".into(),
            newest: newest.into(),
            source: "the Go module proxy".into(),
            checked: "2026-12-05".into(),
        }
    }

    #[test]
    fn the_gap_names_the_release_lines_apart() {
        for (runs, newest, behind) in [
            ("1.26.8", "1.27.4", "1.26 → 1.27"),
            ("1.26.8", "1.26.11", "1.26.8 → 1.26.11"),
            ("1.4.5", "1.4.5", "current"),
            ("1.6.10", ">= 2.2.0", "1.6 → 2.2 or later"),
            ("25.2.3", ">= 28.0", "25.2 → 28.0 or later"),
            ("26.12.1", ">= 26.12.1", "none known"),
            ("26", "26.12.1", "26 → 26.12"),
            ("25.0.3", NOT_CHECKED, "not checked"),
            ("1.0", "soon", "unknown"),
            ("go1.26", "1.27.4", "unknown"),
            ("1.26", "1.26.0", "current"),
        ] {
            assert_eq!(age(runs, newest).behind(), behind, "{runs} → {newest}");
        }
        assert_eq!(
            age("9.0.2", ">= 9.12.1").summary(),
            "Go 9.0.2 (newest ≥ 9.12.1: 9.0 → 9.12 or later)"
        );
        assert_eq!(
            age("25.0.3", NOT_CHECKED).summary(),
            "Go 25.0.3 (newest not checked here)"
        );
    }

    #[test]
    fn an_entry_that_cannot_stand_is_refused_naming_its_field() {
        assert_eq!(age("1.26.8", "1.27.4").check(), Ok(()));
        for (bad, says) in [
            (age("go1.26", "1.27"), "runs: 'go1.26' is not a release"),
            (
                age("1.26.8", "1.27-rc1"),
                "newest: '1.27-rc1' is not a release",
            ),
            (
                age("1.26.8", "1.25.0"),
                "newest: 1.25.0 is older than what runs",
            ),
            (age("1.26.8", "1.26.8.1.2"), "is not a release"),
            (
                ToolchainAge {
                    checked: "5 Dec".into(),
                    ..age("1.26.8", "1.27.4")
                },
                "checked: '5 Dec' is not a day",
            ),
            (
                ToolchainAge {
                    source: " ".into(),
                    ..age("1.26.8", "1.27.4")
                },
                "`source` must say something",
            ),
        ] {
            let err = bad.check().unwrap_err();
            assert!(err.contains(says), "{err}");
        }
    }

    #[test]
    fn the_file_is_read_by_id_and_a_bad_entry_named() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(FILE);
        let entry = "name = \"Go\"\nruns = \"1.26.8\"\nvia = \"go.dev\"\n\
                     newest = \"1.27.4\"\nsource = \"the proxy\"\nchecked = \"2026-12-05\"\n";
        std::fs::write(&path, format!("[go]\n{entry}")).unwrap();
        let ages = load(&path).unwrap();
        assert_eq!(ages["go"].id, "go");
        assert_eq!(ages["go"].behind(), "1.26 → 1.27");
        assert_eq!(find(&dir.path().join("go/deeper")), Some(path.clone()));
        std::fs::write(&path, format!("[go]\n{}", entry.replace("1.27.4", "1.2"))).unwrap();
        let err = format!("{:#}", load(&path).unwrap_err());
        assert!(err.contains("[go] newest: 1.2 is older"), "{err}");
        std::fs::write(&path, format!("[go]\n{entry}colour = \"blue\"\n")).unwrap();
        let err = format!("{:#}", load(&path).unwrap_err());
        assert!(
            err.contains("toolchains.toml") && err.contains("colour"),
            "{err}"
        );
    }

    #[test]
    fn the_table_holds_each_toolchain_once_with_its_rows_folders() {
        let go = age("1.26.8", "1.27.4");
        let row = |name: &str, dir: &str| {
            let manifest: super::super::Manifest = toml::from_str(&format!(
                "name = {name:?}\nlanguage = \"Go\"\nruntime = \"r\"\ndetect = [\"true\"]\n\
                 install = \"i\"\nrun = [\"true\"]\nversion = {{ crate = \"x\" }}\n\
                 toolchains = [\"go\"]\n"
            ))
            .unwrap();
            Contestant {
                manifest,
                dir: PathBuf::from("/c").join(dir),
                variant: None,
                toolchains: vec![go.clone()],
            }
        };
        let rows = [row("a", "go/a"), row("b", "go/b"), row("c", "other")];
        let ages = by_toolchain(&rows, Path::new("/c"));
        assert_eq!(ages, [(go.clone(), "go/ (2), other/ (1)".to_string())]);
        let table = markdown(&ages);
        assert!(table.starts_with("| toolchain | rows (folders under contestants/) |"));
        assert!(table.ends_with(
            "| Go | go/ (2), other/ (1) | 1.26.8 | /usr/local/go | 1.27.4 | 1.26 → 1.27 \
             | 2026-12-05: the Go module proxy |\n"
        ));
        let mut variant = rows[0].clone();
        variant.runs_release("go", "1.22", "fetched for this variant");
        assert_eq!(variant.toolchains[0].runs, "1.22");
        assert_eq!(variant.toolchains[0].behind(), "1.22 → 1.27");
    }
}
