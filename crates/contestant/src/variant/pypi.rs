//! Python variants (`python-trio@0.25.0`, `python-uvloop@0.19.0`, `python-gevent@24.2.1`):
//! the contestant's own code on another release of the one library it runs on, from PyPI.
//! The library is the one its version command names (`versions.py trio`); a contestant that
//! names none (python-asyncio: the standard library) has no release to fetch. The variant
//! makes its own venv in its own folder and installs that one library at that release; the
//! contestant's hashed pins are for its own release, so pip resolves the library's
//! dependencies itself, unhashed, and the variant's version line says so. The version
//! recorded is the one the venv reports (`importlib.metadata.version`).

use super::{Built, FETCH_TIMEOUT, Fetch, Spec};
use crate::command;
use crate::{Contestant, VersionSource};
use std::path::{Path, PathBuf};

/// The script whose arguments name the libraries a Python contestant runs on.
const VERSIONS: &str = "/versions.py";

/// A library release asked for, and the variant's folder its venv is made in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Release {
    /// `trio==0.25.0`.
    requirement: String,
    dir: PathBuf,
}

/// The contestant run in `{cache}/venv`, made and filled by the fetch; its build makes
/// sure of the venv but installs no pins.
pub(super) fn variant(variant: &mut Contestant, spec: &Spec, dir: &Path) -> anyhow::Result<Built> {
    let name = variant.name().to_string();
    let library = library(&variant.manifest.version).ok_or_else(|| {
        anyhow::anyhow!(
            "'{name}': it runs on the standard library alone (its version command names no \
             library), so PyPI has no release of it to fetch"
        )
    })?;
    let version = super::release(&name, spec, &library)?.to_string();
    if let Some(build) = &mut variant.manifest.build {
        build.retain(|w| !w.ends_with("requirements.txt"));
    }
    let requirement = format!("{library}=={version}");
    Ok(Built {
        lockfile: None,
        note: Some(format!(
            "{requirement} from PyPI; its dependencies resolved by pip, without hashes"
        )),
        fetch: Some(Fetch::Pypi(Release {
            requirement,
            dir: dir.to_path_buf(),
        })),
    })
}

/// The one library a version command names after `versions.py`, if it names one.
fn library(version: &VersionSource) -> Option<String> {
    let VersionSource::Command(command) = version else {
        return None;
    };
    let at = command.iter().position(|w| w.ends_with(VERSIONS))?;
    match &command[at + 1..] {
        [one] => Some(one.clone()),
        _ => None,
    }
}

impl Release {
    /// Every version PyPI lists of the library, from its JSON API.
    pub(super) fn versions(&self) -> Result<Vec<String>, String> {
        let library = self.requirement.split("==").next().unwrap_or_default();
        let url = format!("https://pypi.org/pypi/{library}/json");
        let json = super::listing::download(&url, &self.dir)?;
        versions_of(&json).ok_or_else(|| format!("{url}: no list of releases"))
    }

    /// Makes the venv and installs the release, unless the folder has it already.
    pub(super) fn fetch(&self) -> Result<(), String> {
        let installed = self.dir.join("installed");
        if std::fs::read_to_string(&installed).is_ok_and(|s| s.trim() == self.requirement) {
            return Ok(());
        }
        let venv = self.dir.join("venv");
        let python = venv.join("bin/python").to_string_lossy().into_owned();
        if !venv.join("bin/python").is_file() {
            let make = ["python3", "-m", "venv", &venv.to_string_lossy()].map(String::from);
            self.run(&make)
                .map_err(|e| format!("cannot make its venv: {e}"))?;
        }
        let install = [
            &python,
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            "--retries",
            "0",
            "--timeout",
            "20",
            &self.requirement,
        ]
        .map(String::from);
        self.run(&install)
            .map_err(|output| reason(&output, &self.requirement))?;
        std::fs::write(&installed, format!("{}\n", self.requirement))
            .map_err(|e| format!("cannot write {}: {e}", installed.display()))
    }

    /// Runs a command in the variant's folder; all it printed when it fails.
    fn run(&self, command: &[String]) -> Result<(), String> {
        match command::run(command, &self.dir, FETCH_TIMEOUT) {
            Ok(done) if done.success() => Ok(()),
            Ok(done) => Err(format!("{}\n{}", done.stderr, done.stdout)),
            Err(e) => Err(e.to_string()),
        }
    }
}

/// Why pip could not install `requirement`, in one line: the index lists other releases
/// (the newest named), none at all (the name is wrong or PyPI cannot be reached: pip says
/// the same for both), or pip's first error.
fn reason(output: &str, requirement: &str) -> String {
    let (library, version) = requirement.split_once("==").unwrap_or((requirement, ""));
    let listed = output
        .split_once("(from versions: ")
        .and_then(|(_, rest)| rest.split_once(')'))
        .map(|(list, _)| list.trim());
    match listed {
        Some("none") => {
            return format!(
                "pip found no release of {library} (is PyPI reachable, the name right?)"
            );
        }
        Some(list) => {
            let newest = list.rsplit(", ").next().unwrap_or(list);
            return format!("PyPI has no {library} {version} (newest: {newest})");
        }
        None => {}
    }
    let first = output
        .lines()
        .map(str::trim)
        .find(|l| l.starts_with("ERROR:"))
        .or_else(|| output.lines().map(str::trim).find(|l| !l.is_empty()))
        .unwrap_or("no message");
    format!("pip could not install {requirement}: {first}")
}

/// The releases of PyPI's JSON answer (`{"releases": {"0.25.0": [...], ...}}`), leaving
/// out those with no files (yanked or never uploaded).
fn versions_of(json: &str) -> Option<Vec<String>> {
    let answer: serde_json::Value = serde_json::from_str(json).ok()?;
    let releases = answer.get("releases")?.as_object()?;
    let uploaded = releases
        .iter()
        .filter(|(_, files)| files.as_array().is_some_and(|f| !f.is_empty()));
    Some(uploaded.map(|(version, _)| version.clone()).collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::variant::testing::variant as python;

    #[test]
    fn a_python_variant_installs_its_one_library_unpinned_into_its_own_venv() {
        let cache = tempfile::tempdir().unwrap();
        for (name, version) in [("python-trio", "0.25.0"), ("python-uvloop", "0.19.0")] {
            let spec = format!("{name}@{version}");
            let variant = python(&spec, cache.path()).unwrap();
            let build = variant.manifest.build.as_ref().unwrap();
            assert!(
                !build.iter().any(|w| w.contains("requirements")),
                "{build:?}"
            );
            assert_eq!(build.last().unwrap(), "{cache}");
            let built = variant.variant.unwrap();
            let library = name.trim_start_matches("python-");
            let note = built.note.unwrap();
            assert!(
                note.starts_with(&format!("{library}=={version} from PyPI")),
                "{note}"
            );
            assert!(note.contains("without hashes"), "{note}");
            let Some(Fetch::Pypi(release)) = built.fetch else {
                panic!("no fetch")
            };
            assert_eq!(release.dir, cache.path().join(&spec));
            assert_eq!(release.requirement, format!("{library}=={version}"));
        }
        assert!(python("python-trio@trio0.25.0", cache.path()).is_ok());
        let err = python("python-trio@uvloop0.19.0", cache.path()).unwrap_err();
        assert!(err.to_string().contains("it runs on trio"), "{err}");
    }

    #[test]
    fn asyncio_has_no_library_to_fetch() {
        let cache = tempfile::tempdir().unwrap();
        let err = python("python-asyncio@3.12", cache.path()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "'python-asyncio@3.12': it runs on the standard library alone (its version \
             command names no library), so PyPI has no release of it to fetch"
        );
    }

    #[test]
    fn a_release_pypi_lacks_is_said_so_and_other_failures_by_their_first_error() {
        let missing = "ERROR: Could not find a version that satisfies the requirement \
                       trio==9.9.9 (from versions: 0.1.0, 0.2.0, 0.35.0)\nERROR: No matching \
                       distribution found for trio==9.9.9\n";
        assert_eq!(
            reason(missing, "trio==9.9.9"),
            "PyPI has no trio 9.9.9 (newest: 0.35.0)"
        );
        let none = missing.replace("0.1.0, 0.2.0, 0.35.0", "none");
        assert_eq!(
            reason(&none, "trio==9.9.9"),
            "pip found no release of trio (is PyPI reachable, the name right?)"
        );
        let broken = "  error: subprocess-exited-with-error\nERROR: Failed building wheel for \
                      uvloop\n";
        assert_eq!(
            reason(broken, "uvloop==0.1.0"),
            "pip could not install uvloop==0.1.0: ERROR: Failed building wheel for uvloop"
        );
    }

    #[test]
    fn pypis_json_lists_the_releases_with_files() {
        let saved = r#"{"info": {"name": "trio"}, "releases": {"0.24.0": [{"filename": "a.whl"}],
            "0.25.0": [{"filename": "b.whl"}], "0.25.1rc1": [{"filename": "c.whl"}],
            "0.9.9": []}}"#;
        let mut found = versions_of(saved).unwrap();
        found.sort();
        assert_eq!(found, ["0.24.0", "0.25.0", "0.25.1rc1"]);
        assert_eq!(versions_of("<html>"), None);
    }
}
