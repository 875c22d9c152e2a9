//! The shard of a run (`run --shard K/N`) as the scheduler chooses it: the subjects' names
//! and start-ups before anything is built, and their cases' estimates, split alike on
//! every runner.

use contestant::Availability;
use contestant::ProcessCost;
use lineup::Surveyed;
use presets::Plan;
use presets::estimate::case_estimate;
use run::shard::EstimatedCase;
use run::{Shard, ShardCases, pinned_name};
use words::plan::plural;

/// Each contestant's subject names (`tokio`, or `tokio cpus=N` for each `--cpus N`) with
/// what its processes cost; only those available here when `available_only`.
pub(crate) fn subject_names(
    surveyed: &[Surveyed],
    cpus: &[u32],
    available_only: bool,
) -> Vec<(String, ProcessCost)> {
    let names = surveyed
        .iter()
        .filter(|e| !available_only || e.availability == Availability::Available)
        .map(|e| {
            let name = e.contestant.name().to_string();
            (
                name,
                ProcessCost::of(&e.contestant.manifest, &e.contestant.dir),
            )
        });
    match cpus {
        [] => names.collect(),
        cpus => names
            .flat_map(|(name, up)| {
                cpus.iter()
                    .map(move |&n| (pinned_name(&name, n), up.clone()))
            })
            .collect(),
    }
}

/// The cases of `shard` among the plan's on `names`; an error when it has none.
pub(crate) fn shard_cases(
    plan: &Plan,
    names: &[(String, ProcessCost)],
    shard: Shard,
) -> anyhow::Result<ShardCases> {
    let cases: Vec<EstimatedCase> = plan
        .workloads
        .iter()
        .flat_map(|&workload| {
            names.iter().map(move |(name, cost)| EstimatedCase {
                subject: name.clone(),
                workload,
                cost: case_estimate(plan, workload, cost).total,
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
