//! `taskbench presets`: every preset `run --preset` takes, what it runs, how many cases,
//! and how long it would take with the contestants available here.

use super::list::table;
use crate::cli::PresetsArgs;
use crate::contestant::{Availability, Places};
use crate::lineup::survey;
use crate::presets::estimate::startup;
use crate::presets::{Plan, available, estimate, expand};
use crate::report::units::rough_duration;
use std::path::Path;
use std::time::Duration;

pub fn presets(args: &PresetsArgs, contestants_dir: &Path, places: &Places) -> anyhow::Result<()> {
    let presets = available(args.preset_file.as_deref())?;
    let startups: Vec<Duration> = survey(contestants_dir, places)
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e.availability == Availability::Available)
                .map(|e| startup(&e.contestant.manifest.language))
                .collect()
        })
        .unwrap_or_default();
    let contestants = startups.len();
    let mut listing = table(&["preset", "what it runs", "cases", "est. time"]);
    for preset in &presets {
        let (workloads, seeds) = expand(&preset.cases, &Default::default(), None)?;
        let plan = Plan {
            preset: Some(preset.name.clone()),
            workloads,
            seeds,
            stopping: preset.stopping,
            warmup: preset.warmup,
            idle_runs: preset.idle_runs,
        };
        let mut cases: Vec<String> = Vec::new();
        for case in &preset.cases {
            let params: Vec<String> = case
                .params
                .iter()
                .map(|(name, values)| {
                    let values: Vec<String> = values.iter().map(u64::to_string).collect();
                    format!("{name}={}", values.join(","))
                })
                .collect();
            let seed = case
                .seed
                .as_ref()
                .map_or_else(String::new, |s| format!(" ({s})"));
            cases.push(format!("{} {}{seed}", case.scenario.name, params.join(" ")));
        }
        listing.add_row([
            preset.name.clone(),
            format!("{}\n{}", preset.about, cases.join("\n")),
            format!(
                "{} points\n{},\n{} warm-up",
                plan.workloads.len(),
                super::dry_run::stopping_line(&plan),
                preset.warmup
            ),
            rough_duration(estimate(&plan, &startups).total),
        ]);
    }
    println!("{listing}");
    println!(
        "est. time: for the {contestants} contestant{} available here \
         (`run --preset NAME --dry-run` explains it)",
        if contestants == 1 { "" } else { "s" }
    );
    Ok(())
}
