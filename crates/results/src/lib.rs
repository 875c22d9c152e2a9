//! The results document: everything one session produced, the one shape every stage after
//! the session reads — the exports, the report, the store, `compare` (docs/RESULTS.md
//! describes its JSON schema). A layer of taskbench's pipeline and a crate of its own: it
//! uses the layers below it (catalogue to analysis) and nothing that shows, stores or
//! compares a session.

#[cfg(any(test, feature = "test-support"))]
pub mod fake;

use analysis::fits::Fit;
use analysis::{PointSummary, Warning};
use anyhow::Context;
use contestant::ContestantInfo;
use contestant::releases::ReleaseSweep;
use measure::Platform;
use measure::machine::MachineLoad;
use run::RunRecord;
use serde::{Deserialize, Serialize};
use std::borrow::Cow;
use std::path::Path;

/// Version of the document's layout; bumped on any incompatible change.
pub const SCHEMA: &str = "taskbench/2";

/// Everything a run produced.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Results {
    pub schema: String,
    /// The taskbench command line that produced the results.
    pub command: Vec<String>,
    /// The run was stopped (SIGINT, SIGTERM, SIGHUP, or killed) before every case finished: the
    /// document holds the runs that finished (`taskbench run --resume DIR` runs the rest).
    #[serde(default)]
    pub interrupted: bool,
    pub platform: Platform,
    /// How much each case was measured (absent for `--command`-free old results).
    #[serde(default)]
    pub stopping: Option<run::Stopping>,
    /// The seed of the measured rounds' random order: `taskbench run --seed N` repeats it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub seed: Option<u64>,
    pub contestants: Vec<ContestantInfo>,
    /// Summaries per parameter point, rows best first.
    pub points: Vec<PointSummary>,
    /// Per-task least-squares fits over each sweep.
    #[serde(default)]
    pub fits: Vec<Fit>,
    /// Each contestant run at several releases of its runtime (`go@1.20,go@1.26`), oldest
    /// first: drawn as one runtime across its releases.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub releases: Vec<ReleaseSweep>,
    /// What makes the figures less trustworthy (slow first runs, noise, a busy machine).
    #[serde(default)]
    pub warnings: Vec<Warning>,
    /// Load average and CPU shares around the run.
    #[serde(default)]
    pub machine: Option<MachineLoad>,
    /// Where a budgeted run's process wall clock went, its efficiency and its bound, at its
    /// budget and twice it (analysis/budget.rs); absent without `--budget`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<analysis::budget::BudgetReport>,
    /// Every run, with every sample.
    pub runs: Vec<RunRecord>,
    /// Where runs of several machines were merged side by side (`taskbench merge
    /// --mixed-machines`): each machine's label and platform; `platform` is the first's.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub machines: Vec<MachineInfo>,
}

/// One machine of results merged side by side.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MachineInfo {
    /// `m1`, `m2`, …: what its contestants' names end with (`tokio · m2`).
    pub label: String,
    pub platform: Platform,
}

impl MachineInfo {
    /// `m2: AMD EPYC 7763 · 4 cores · 16 GiB`.
    pub fn heading(&self) -> String {
        format!("{}: {}", self.label, self.platform.fingerprint())
    }
}

impl Results {
    pub fn to_json(&self) -> String {
        serde_json::to_string_pretty(self).expect("results serialise")
    }

    /// The points of each machine merged side by side — that machine's rows only — each with
    /// a heading that names the machine; for one machine, the points whole and no heading.
    pub fn per_machine(&self) -> Vec<(Option<&MachineInfo>, Cow<'_, [PointSummary]>)> {
        if self.machines.is_empty() {
            return vec![(None, Cow::Borrowed(&self.points))];
        }
        self.machines
            .iter()
            .map(|machine| {
                let points = self
                    .points
                    .iter()
                    .map(|point| PointSummary {
                        rows: (point.rows.iter())
                            .filter(|r| r.machine.as_ref() == Some(&machine.label))
                            .cloned()
                            .collect(),
                        ..point.clone()
                    })
                    .filter(|point| !point.rows.is_empty())
                    .collect();
                (Some(machine), Cow::Owned(points))
            })
            .collect()
    }

    /// One line per machine merged side by side (none for one machine).
    pub fn machine_lines(&self) -> Vec<String> {
        self.machines
            .iter()
            .map(|m| {
                format!(
                    "{} · Linux {} · started {}",
                    m.heading(),
                    m.platform.kernel,
                    m.platform.started
                )
            })
            .collect()
    }

    /// The line every header shows when the run was interrupted.
    pub fn interrupted_line(&self) -> Option<String> {
        self.interrupted.then(|| {
            "interrupted: only the runs that finished are here; \
             `taskbench run --resume DIR` runs the rest"
                .to_string()
        })
    }
}

/// Reads a results document, refusing other schema versions by name.
pub fn read_results(path: &Path) -> anyhow::Result<Results> {
    let text =
        std::fs::read_to_string(path).with_context(|| format!("cannot read {}", path.display()))?;
    let value: serde_json::Value =
        serde_json::from_str(&text).with_context(|| format!("{} is not JSON", path.display()))?;
    let schema = value
        .get("schema")
        .and_then(|s| s.as_str())
        .unwrap_or("none");
    anyhow::ensure!(
        schema == SCHEMA,
        "{}: schema '{schema}', expected '{SCHEMA}'",
        path.display()
    );
    serde_json::from_value(value)
        .with_context(|| format!("{} does not match {SCHEMA}", path.display()))
}
