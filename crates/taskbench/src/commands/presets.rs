//! `taskbench presets`: every preset `run --preset` takes, what it runs, how many cases,
//! its lineup, and how long it would take with that lineup's contestants available here.

use crate::cli::PresetsArgs;
use contestant::{Availability, Places, ProcessCost};
use lineup::{Lineup, choose, survey};
use presets::{Plan, available, estimate, expand};
use std::path::Path;
use units::rough_duration;

pub(crate) fn presets(
    args: &PresetsArgs,
    contestants_dir: &Path,
    places: &Places,
) -> anyhow::Result<()> {
    let presets = available(args.preset_file.as_deref())?;
    let surveyed = survey(contestants_dir, places).unwrap_or_default();
    let mut listing =
        words::plain_table(&["preset", "what it runs", "cases", "lineup · est. time"]);
    for preset in &presets {
        // What the processes of the available contestants of the preset's lineup cost.
        let costs: Vec<ProcessCost> = choose(
            surveyed.clone(),
            Lineup::Default(&preset.contestants),
            &[],
            places,
        )
        .unwrap_or_default()
        .iter()
        .filter(|e| e.availability == Availability::Available)
        .map(|e| ProcessCost::of(&e.contestant.manifest, &e.contestant.dir))
        .collect();
        let (workloads, seeds) = expand(&preset.cases, &Default::default(), None)?;
        let plan = Plan {
            preset: Some(preset.name.clone()),
            workloads,
            seeds,
            stopping: preset.stopping,
            warm_up: preset.warm_up,
            idle_runs: preset.idle_runs,
            seed: 0,
            held_back: Vec::new(),
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
                words::plan::stopping_line(&plan),
                preset.warm_up
            ),
            format!(
                "{}\n{} here · {}",
                preset.contestants.join(","),
                costs.len(),
                rough_duration(estimate(&plan, &costs).total)
            ),
        ]);
    }
    println!("{listing}");
    println!(
        "lineup: what the preset runs when -c names none, and how many of it are available \
         here; est. time: for those (`run --preset NAME --dry-run` explains it)"
    );
    Ok(())
}
