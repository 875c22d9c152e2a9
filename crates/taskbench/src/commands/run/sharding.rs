//! The shard of a run (`run --shard K/N`) as `taskbench run` chooses it: the subjects'
//! names and start-ups before anything is built, their cases' estimates, and the line that
//! tells the user what the shard takes.

use super::super::dry_run::plural;
use crate::contestant::Availability;
use crate::lineup::Entry;
use crate::presets::Plan;
use crate::presets::estimate::{case_estimate, startup};
use crate::report::units::rough_duration;
use crate::run::shard::Case;
use crate::run::{Shard, ShardCases, pinned_name};
use std::time::Duration;

/// Each contestant's subject names (`tokio`, or `tokio cpus=N` for each `--cpus N`) with
/// its processes' start-up; only those available here when `available_only`.
pub(super) fn subject_names(
    entries: &[Entry],
    cpus: &[u32],
    available_only: bool,
) -> Vec<(String, Duration)> {
    let names = entries
        .iter()
        .filter(|e| !available_only || e.availability == Availability::Available)
        .map(|e| {
            let name = e.contestant.name().to_string();
            (name, startup(&e.contestant.manifest.language))
        });
    match cpus {
        [] => names.collect(),
        cpus => names
            .flat_map(|(name, up)| cpus.iter().map(move |&n| (pinned_name(&name, n), up)))
            .collect(),
    }
}

/// The cases of `shard` among the plan's on `names`; an error when it has none.
pub(super) fn shard_cases(
    plan: &Plan,
    names: &[(String, Duration)],
    shard: Shard,
) -> anyhow::Result<ShardCases> {
    let cases: Vec<Case> = plan
        .workloads
        .iter()
        .flat_map(|&workload| {
            names.iter().map(move |(name, start)| Case {
                subject: name.clone(),
                workload,
                cost: case_estimate(plan, workload, *start).total,
            })
        })
        .collect();
    let chosen = ShardCases::of(&cases, shard);
    anyhow::ensure!(
        chosen.cases > 0,
        "--shard {shard}: the run has {} {}, so part {} would have none: use at most {} parts",
        cases.len(),
        plural(cases.len(), "case"),
        shard.index,
        cases.len()
    );
    Ok(chosen)
}

/// `shard 2/3: 165 of 495 cases · estimated 4 min (the parts: 4 min, 4 min, 4 min)`.
pub(super) fn shard_line(shard: Shard, chosen: &ShardCases, subjects: usize) -> String {
    let parts: Vec<String> = chosen.parts.iter().map(|&d| rough_duration(d)).collect();
    format!(
        "shard {shard}: {} of {} cases on {subjects} {} · estimated {} (the parts: {})",
        chosen.cases,
        chosen.total,
        plural(subjects, "contestant"),
        rough_duration(chosen.parts[shard.index as usize - 1]),
        parts.join(", ")
    )
}
