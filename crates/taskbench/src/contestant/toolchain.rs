//! What a contestant needs before it can run: its toolchain (the manifest's `detect`), its
//! build, and its version (from `Cargo.lock` or a command).

use super::{Contestant, Places, VersionSource};
use std::path::Path;
use std::process::{Command, Stdio};

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
