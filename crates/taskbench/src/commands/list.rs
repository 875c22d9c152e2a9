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
    let mut lineup = table(&["contestant", "language", "runtime", "version", "status"]);
    for entry in &entries {
        let c = &entry.contestant;
        let status = match &entry.availability {
            Availability::Available => "available".to_string(),
            Availability::Unavailable(reason) => format!("unavailable: {reason}"),
        };
        let mut runtime = c.manifest.runtime.clone();
        if let Some(notes) = &c.manifest.notes {
            runtime.push_str(&format!("\n({notes})"));
        }
        if !c.manifest.unsupported.is_empty() {
            runtime.push_str(&format!("\nn/a: {}", c.manifest.unsupported.join(", ")));
        }
        lineup.add_row([
            c.name().to_string(),
            c.manifest.language.clone(),
            runtime,
            c.version(places),
            status,
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
