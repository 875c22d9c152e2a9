//! `taskbench list`: the scenario catalogue and the contestants with their status.

use crate::contestant::{Availability, Places};
use crate::lineup::survey;
use comfy_table::{ContentArrangement, Table, presets::UTF8_FULL_CONDENSED};
use std::path::Path;

pub fn list(contestants_dir: &Path, places: &Places) -> anyhow::Result<()> {
    let entries = survey(contestants_dir, places)?;
    let mut scenarios = table(&["scenario", "parameters (default)", "what it measures"]);
    for spec in catalogue::SCENARIOS {
        let params: Vec<String> = spec
            .params
            .iter()
            .map(|p| format!("--{} {}", p.name, p.default))
            .collect();
        scenarios.add_row([
            spec.name.to_string(),
            params.join("\n"),
            format!("{}\n{}", spec.measures, spec.summary),
        ]);
    }
    println!("{scenarios}\n");
    let mut lineup = table(&["contestant", "language", "runtime · version", "notes"]);
    for entry in &entries {
        let c = &entry.contestant;
        let mut notes = Vec::new();
        if let Availability::Unavailable(reason) = &entry.availability {
            notes.push(format!("UNAVAILABLE: {reason}"));
        }
        notes.extend(c.manifest.notes.clone());
        if !c.manifest.unsupported.is_empty() {
            notes.push(format!("n/a: {}", c.manifest.unsupported.join(", ")));
        }
        lineup.add_row([
            c.name().to_string(),
            c.manifest.language.clone(),
            format!("{}\n{}", c.manifest.runtime, c.version(places)),
            notes.join("\n"),
        ]);
    }
    println!("{lineup}");
    Ok(())
}

/// A plain table at the terminal's width, cells left-aligned.
pub(super) fn table(headers: &[&str]) -> Table {
    let mut t = Table::new();
    t.load_preset(UTF8_FULL_CONDENSED)
        .set_content_arrangement(ContentArrangement::Dynamic)
        .set_width(crate::report::terminal_width())
        .set_header(headers);
    t
}
