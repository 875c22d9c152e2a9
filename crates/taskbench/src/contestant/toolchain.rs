//! What a contestant needs before it can run: its toolchain (the manifest's `detect`), its
//! build, and its version (from `Cargo.lock` or a command).

use super::{Contestant, Places, VersionSource};
use catalogue::{Invocation, Scenario};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// How long a contestant may take to start and finish its idle run.
const PROBE_TIMEOUT: Duration = Duration::from_secs(60);

/// Whether a contestant can run here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Availability {
    Available,
    /// The toolchain or a library is missing, or the build failed; the reason says which.
    Unavailable(String),
}

impl Contestant {
    /// Runs the manifest's `detect` command.
    pub fn detect(&self, places: &Places) -> Availability {
        let command = self
            .manifest
            .expand(&self.manifest.detect, &self.dir, places);
        match output(&command, &self.dir) {
            Ok(_) => Availability::Available,
            Err(reason) => {
                Availability::Unavailable(format!("{reason}; install: {}", self.manifest.install))
            }
        }
    }

    /// Runs the manifest's `build` command, if any; the error carries the build's last lines.
    pub fn build(&self, places: &Places) -> Result<(), String> {
        let Some(build) = &self.manifest.build else {
            return Ok(());
        };
        std::fs::create_dir_all(places.cache.join(self.name()))
            .map_err(|e| format!("cannot create the build cache: {e}"))?;
        let command = self.manifest.expand(build, &self.dir, places);
        output(&command, &self.dir)
            .map(drop)
            .map_err(|e| format!("build failed: {e}"))
    }

    /// Starts the built contestant once on the idle spawn case, so that a runtime that cannot
    /// start here (io_uring disabled, a missing library) is unavailable with its own reason
    /// rather than failing every run.
    pub fn probe(&self, places: &Places) -> Result<(), String> {
        let idle = Invocation {
            scenario: Scenario::Spawn { tasks: 0 },
            inner_warmup: 0,
            iterations: 1,
        };
        let mut command = self.run_command(places);
        command.extend(idle.to_args());
        let mut child = Command::new(&command[0])
            .args(&command[1..])
            .current_dir(&self.dir)
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start `{}`: {e}", command[0]))?;
        let deadline = Instant::now() + PROBE_TIMEOUT;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break status,
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(10))
                }
                _ => {
                    let _ = child.kill();
                    let _ = child.wait();
                    return Err(format!(
                        "did not finish its idle run in {}s",
                        PROBE_TIMEOUT.as_secs()
                    ));
                }
            }
        };
        if status.success() || status.code() == Some(catalogue::EXIT_NOT_IMPLEMENTED) {
            return Ok(());
        }
        let mut stderr = String::new();
        if let Some(mut pipe) = child.stderr.take() {
            let _ = std::io::Read::read_to_string(&mut pipe, &mut stderr);
        }
        let last = stderr
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("no message");
        Err(format!("cannot start ({status}): {}", last.trim()))
    }

    /// The runtime version, or a short reason it could not be learnt.
    pub fn version(&self, places: &Places) -> String {
        let found = match &self.manifest.version {
            VersionSource::Crate(name) => crate_versions(places, std::slice::from_ref(name)),
            VersionSource::Crates(names) => crate_versions(places, names),
            VersionSource::Command(command) => {
                let command = self.manifest.expand(command, &self.dir, places);
                output(&command, &self.dir).and_then(|text| {
                    text.lines()
                        .map(str::trim)
                        .find(|l| !l.is_empty())
                        .map(str::to_string)
                        .ok_or_else(|| "version command printed nothing".into())
                })
            }
        };
        found.unwrap_or_else(|e| format!("unknown ({e})"))
    }
}

/// `name version` of each crate from the workspace lock file, joined by commas.
fn crate_versions(places: &Places, names: &[String]) -> Result<String, String> {
    let lockfile = places.root.join("Cargo.lock");
    let versions: Result<Vec<String>, String> = names
        .iter()
        .map(|name| lockfile_version(&lockfile, name).map(|v| format!("{name} {v}")))
        .collect();
    versions.map(|v| v.join(", "))
}

/// Runs a command to completion; its stdout (or stderr when stdout is empty) on success,
/// else a reason with the last lines it printed.
fn output(command: &[String], dir: &Path) -> Result<String, String> {
    let (program, args) = command.split_first().ok_or("empty command")?;
    let out = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("`{program}` could not be started ({e})"))?;
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    if out.status.success() {
        return Ok(if stdout.trim().is_empty() {
            stderr
        } else {
            stdout
        });
    }
    let tail: Vec<&str> = stderr
        .lines()
        .chain(stdout.lines())
        .filter(|l| !l.trim().is_empty())
        .collect();
    let tail = tail[tail.len().saturating_sub(3)..].join(" | ");
    Err(format!(
        "`{}` failed ({}){}",
        command.join(" "),
        out.status,
        if tail.is_empty() {
            String::new()
        } else {
            format!(": {tail}")
        }
    ))
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
