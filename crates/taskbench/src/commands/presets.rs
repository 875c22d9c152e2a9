//! `taskbench presets`: every preset `run --preset` takes, what it runs, how many cases,
//! and how long it would take with the contestants available here.

use super::list::table;
use crate::cli::PresetsArgs;
use crate::contestant::{Availability, Places};
use crate::lineup::survey;
use crate::presets::{available, estimate, expand};
use crate::report::units::rough_duration;
use crate::run::schedule;
use std::path::Path;

pub fn presets(args: &PresetsArgs, contestants_dir: &Path, places: &Places) -> anyhow::Result<()> {
    let presets = available(args.preset_file.as_deref())?;
    let contestants = survey(contestants_dir, places)
        .map(|entries| {
            entries
                .iter()
                .filter(|e| e.availability == Availability::Available)
                .count()
        })
        .unwrap_or(0)
        .max(1);
    let mut listing = table(&["preset", "what it runs", "cases", "est. time"]);
    for preset in &presets {
        let (workloads, _) = expand(&preset.cases, &Default::default(), None)?;
        let steps = schedule(contestants, &workloads, preset.runs, preset.warmup);
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
                "{} points\n{} runs, {} warm-up",
                workloads.len(),
                preset.runs,
                preset.warmup
            ),
            rough_duration(estimate(&steps).total),
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
