//! Contestants: the programs taskbench measures, found as manifests under `contestants/`,
//! checked for their toolchain, built, and asked for their version — every command of
//! theirs run the one way `command` runs it (a deadline, its group killed, pipes drained).
//! A layer of taskbench's pipeline (docs/ARCHITECTURE.md) and a crate of its own: it uses
//! the catalogue and measure, and nothing that runs or reads a case.

pub mod age;
pub mod command;
mod discover;
pub mod groups;
pub mod home;
mod info;
mod joint;
pub mod language;
mod manifest;
pub mod releases;
mod startup;
mod toolchain;
pub mod variant;

pub mod warm_up;
pub use age::ToolchainAge;
pub use discover::discover;
pub use info::{ContestantInfo, references};
pub use joint::joint_builds;
pub use language::startup;
pub use manifest::{MANIFEST_FILE, Manifest, Places, VersionSource};
pub use startup::ProcessCost;
pub use toolchain::{Availability, HarnessFault, lockfile_version};
pub use warm_up::{WarmUp, WarmUpTable};

// The unit tests start commands through the launcher (measure/launcher.rs): their binary
// is one too.
#[cfg(test)]
measure::launch_before_main!();

use std::path::PathBuf;

/// Where docs/FAIRNESS.md states a contestant's terms: its build, warm-up, primitives and
/// known handicaps (`docs/FAIRNESS.md#tokio`); a variant (`tokio@1.38.0`) shares its
/// contestant's.
pub fn fairness_entry(name: &str) -> String {
    let contestant = name.split('@').next().unwrap_or(name);
    format!("docs/FAIRNESS.md#{contestant}")
}

/// A contestant as found on disk.
#[derive(Debug, Clone)]
pub struct Contestant {
    pub manifest: Manifest,
    /// The folder holding the manifest; commands run there.
    pub dir: PathBuf,
    /// For a variant (`tokio@1.38.0`, `tokio@patch`): its own lock file and what it was
    /// built with.
    pub variant: Option<variant::Built>,
    /// The manifest's `toolchains`, each its entry in toolchains.toml (contestant/age.rs).
    pub toolchains: Vec<ToolchainAge>,
}

impl Contestant {
    /// Name used in tables and on the command line.
    pub fn name(&self) -> &str {
        &self.manifest.name
    }

    /// The run command with placeholders filled in, ready for the protocol arguments.
    pub fn run_command(&self, places: &Places) -> Vec<String> {
        self.manifest.expand(&self.manifest.run, &self.dir, places)
    }
}
