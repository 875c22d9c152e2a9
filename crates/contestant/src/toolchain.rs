//! What a contestant needs before it can run: its toolchain (the manifest's `detect`), its
//! build, and its version (from `Cargo.lock` or a command).

use super::command::{self, CommandError};
use super::{Contestant, Places, VersionSource};
use catalogue::{Invocation, Scenario};
use std::path::Path;
use std::time::Duration;

/// How long a `detect` command may take (GHCi loading a package is the slowest, seconds).
const DETECT_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a `version` command may take.
const VERSION_TIMEOUT: Duration = Duration::from_secs(30);
/// How long a build may take: a cold release build of a Rust runtime, `npm ci`, `pip`.
pub(super) const BUILD_TIMEOUT: Duration = Duration::from_secs(20 * 60);
/// How long a contestant may take to start and finish its idle run.
const PROBE_TIMEOUT: Duration = Duration::from_secs(60);

/// Whether a contestant can run here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    Available,
    /// The toolchain or a library is missing, or the build failed; the reason says which.
    Unavailable(String),
}

/// The harness itself could not run a command (out of processes, descriptors or memory):
/// every other contestant would fail the same way, so the invocation stops.
#[derive(Debug, thiserror::Error)]
#[error("taskbench cannot start processes: {0}")]
pub struct HarnessFault(pub CommandError);

impl Contestant {
    /// Runs the manifest's `detect` command; `Err` only for a fault of the harness.
    pub fn detect(&self, places: &Places) -> Result<Availability, HarnessFault> {
        let command = self
            .manifest
            .expand(&self.manifest.detect, &self.dir, places);
        match checked(&command, &self.dir, DETECT_TIMEOUT) {
            Ok(_) => Ok(Availability::Available),
            Err(Failure::Harness(fault)) => Err(fault),
            // The install command first: the terminal gives each unavailable contestant
            // one line, and the reason may be long.
            Err(Failure::Command(reason)) => Ok(Availability::Unavailable(format!(
                "install: {} ({reason})",
                self.manifest.install
            ))),
        }
    }

    /// Fetches a variant's release (contestant/variant), then runs the manifest's `build`
    /// command, if any; the error is the fetch's one line, or carries the build's last lines.
    pub fn build(&self, places: &Places) -> Result<(), String> {
        if let Some(fetch) = self.variant.as_ref().and_then(|v| v.fetch.as_ref()) {
            fetch.run()?;
        }
        let Some(build) = &self.manifest.build else {
            return Ok(());
        };
        std::fs::create_dir_all(places.cache.join(self.name()))
            .map_err(|e| format!("cannot create the build cache: {e}"))?;
        let command = self.manifest.expand(build, &self.dir, places);
        checked(&command, &self.dir, BUILD_TIMEOUT)
            .map(drop)
            .map_err(|e| format!("build failed: {e}"))
    }

    /// Starts the built contestant once on the idle spawn case, so that a runtime that cannot
    /// start here (io_uring disabled, a missing library) is unavailable with its own reason
    /// rather than failing every run.
    pub fn probe(&self, places: &Places) -> Result<(), String> {
        let idle = Invocation {
            scenario: Scenario::Spawn { tasks: 0 },
            warm_up: None,
            inner_warm_up: 0,
            iterations: 1,
        };
        let mut command = self.run_command(places);
        command.extend(idle.to_args());
        let done = match command::run(&command, &self.dir, PROBE_TIMEOUT) {
            Ok(done) => done,
            Err(CommandError::TimedOut { limit, .. }) => {
                return Err(format!(
                    "did not finish its idle run in {}",
                    humantime::format_duration(limit)
                ));
            }
            Err(e) => return Err(format!("cannot start: {e}")),
        };
        if done.success() || done.status.code() == Some(catalogue::EXIT_NOT_IMPLEMENTED) {
            return Ok(());
        }
        let last = done
            .stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message");
        Err(format!("cannot start ({}): {}", done.status, last.trim()))
    }

    /// The runtime version, or a short reason it could not be learnt.
    pub fn version(&self, places: &Places) -> String {
        let lockfile = self
            .variant
            .as_ref()
            .and_then(|v| v.lockfile.clone())
            .unwrap_or_else(|| places.root.join("Cargo.lock"));
        let found = match &self.manifest.version {
            VersionSource::Crate(name) => crate_versions(&lockfile, std::slice::from_ref(name)),
            VersionSource::Crates(names) => crate_versions(&lockfile, names),
            VersionSource::Command(command) => {
                let command = self.manifest.expand(command, &self.dir, places);
                checked(&command, &self.dir, VERSION_TIMEOUT)
                    .map_err(|e| e.to_string())
                    .and_then(|text| {
                        text.lines()
                            .map(str::trim)
                            .find(|l| !l.is_empty())
                            .map(str::to_string)
                            .ok_or_else(|| "version command printed nothing".into())
                    })
            }
        };
        let found = found.unwrap_or_else(|e| format!("unknown ({e})"));
        match self.variant.as_ref().and_then(|v| v.note.as_ref()) {
            Some(note) => format!("{found} ({note})"),
            None => found,
        }
    }
}

/// Why a checked command failed: its own fault (the reason) or the harness's.
#[derive(Debug)]
pub(super) enum Failure {
    Command(String),
    Harness(HarnessFault),
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Failure::Command(reason) => f.write_str(reason),
            Failure::Harness(fault) => write!(f, "{fault}"),
        }
    }
}

/// Runs a command to a successful end; what it printed (stdout, or stderr when stdout is
/// blank), else a reason with the last lines it printed.
pub(super) fn checked(command: &[String], dir: &Path, limit: Duration) -> Result<String, Failure> {
    let done = match command::run(command, dir, limit) {
        Ok(done) => done,
        Err(e) if e.is_harness_fault() => return Err(Failure::Harness(HarnessFault(e))),
        Err(e) => return Err(Failure::Command(e.to_string())),
    };
    if done.success() {
        return Ok(done.text().to_string());
    }
    let tail = done.last_lines(3);
    Err(Failure::Command(format!(
        "`{}` failed ({}){}",
        command.join(" "),
        done.status,
        if tail.is_empty() {
            String::new()
        } else {
            format!(": {tail}")
        }
    )))
}

/// `name version` of each crate from a lock file, joined by commas.
fn crate_versions(lockfile: &Path, names: &[String]) -> Result<String, String> {
    let versions: Result<Vec<String>, String> = names
        .iter()
        .map(|name| lockfile_version(lockfile, name).map(|v| format!("{name} {v}")))
        .collect();
    versions.map(|v| v.join(", "))
}

/// The version of package `name` in a `Cargo.lock` (the highest, if several are locked).
pub fn lockfile_version(lockfile: &Path, name: &str) -> Result<String, String> {
    #[derive(serde::Deserialize)]
    struct Lock {
        package: Vec<Package>,
    }
    #[derive(serde::Deserialize)]
    struct Package {
        name: String,
        version: String,
    }
    let text = std::fs::read_to_string(lockfile)
        .map_err(|e| format!("cannot read {}: {e}", lockfile.display()))?;
    let lock: Lock = toml::from_str(&text).map_err(|e| format!("{}: {e}", lockfile.display()))?;
    let key = |v: &str| {
        v.split(['.', '-'])
            .map(|p| p.parse::<u64>().unwrap_or(0))
            .collect::<Vec<_>>()
    };
    lock.package
        .into_iter()
        .filter(|p| p.name == name)
        .map(|p| p.version)
        .max_by_key(|v| key(v))
        .ok_or_else(|| format!("{name} is not in {}", lockfile.display()))
}
