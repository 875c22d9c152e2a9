//! A contestant as a run's documents keep it (run.json, results.json): its name, version,
//! build and terms, written once the contestants are built and read by every stage after.

use serde::{Deserialize, Serialize};

/// A contestant as it stood for this run, with the terms its figures stand on: how it was
/// built, what it ran before measuring, and where docs/FAIRNESS.md says the rest.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct ContestantInfo {
    pub name: String,
    pub language: String,
    pub runtime: String,
    pub version: String,
    /// Why the contestant could not run (missing toolchain, failed build), if it could not.
    pub unavailable: Option<String>,
    /// `--cpus N`: the cores it was pinned to (its name ends in ` cpus=N`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cpus: Option<u32>,
    /// How it was built, in words (its manifest's `build_flags`): compiler and flags, or
    /// that it is interpreted.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub build_flags: Option<String>,
    /// The toolchains it ran on, each with the release this machine ran and the newest
    /// stable one as last checked (its manifest's `toolchains`; contestant/age.rs).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub toolchains: Vec<super::ToolchainAge>,
    /// What its processes ran before the measured iterations, in words: its warm-up rule
    /// (contestant/warm_up.rs `WarmUpTable::describe`), the short clause first.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub warm_up: Option<String>,
    /// Its entry in docs/FAIRNESS.md: primitives, build, warm-up, known handicaps.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub fairness: Option<String>,
    /// A reference (`floor`), not a runtime: outside the ranking, never the best.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub reference: bool,
    /// The scenarios whose tasks it runs inside their caller, never through its scheduler
    /// (its manifest's `inline`): those cells are ranked apart.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub inline: Vec<String>,
}

/// The names of the references among `contestants`.
pub fn references(contestants: &[ContestantInfo]) -> Vec<String> {
    contestants
        .iter()
        .filter(|c| c.reference)
        .map(|c| c.name.clone())
        .collect()
}
