//! `taskbench list`: the scenario catalogue, the contestants with their status, groups, build,
//! toolchain's age and entry in docs/FAIRNESS.md, the warm-up rule of each, each toolchain
//! with the release it runs here and the newest, and each group (`-c @name`) with its
//! members.

use contestant::Contestant;
use contestant::warm_up;
use contestant::{Availability, Places, age, fairness_entry, groups};
use lineup::{Surveyed, survey};
use std::path::Path;
use words::plain_table;

/// Prints the scenarios, the contestants, their warm-up rules, toolchains and groups.
pub(crate) fn list(contestants_dir: &Path, places: &Places) -> anyhow::Result<()> {
    let surveyed = survey(contestants_dir, places)?;
    println!("{}\n", scenario_table());
    let mut lineup = plain_table(&[
        "contestant",
        "language · groups",
        "runtime · version",
        "notes",
    ]);
    for entry in &surveyed {
        let c = &entry.contestant;
        lineup.add_row([
            c.name().to_string(),
            format!(
                "{}\n@{}",
                c.manifest.language,
                c.manifest.groups().join(" @")
            ),
            format!("{}\n{}", c.manifest.runtime, c.version(places)),
            notes(entry).join("\n"),
        ]);
    }
    println!("{lineup}\n");
    let rules: Vec<String> = surveyed
        .iter()
        .filter_map(|e| {
            let c = &e.contestant;
            c.manifest.warm_up_table(&c.dir).ok().map(|t| t.describe())
        })
        .collect();
    for rule in warm_up::distinct(rules.iter().map(String::as_str)) {
        println!("warm-up — {rule}\n");
    }
    let found: Vec<Contestant> = surveyed.iter().map(|e| e.contestant.clone()).collect();
    let root = contestants_dir
        .canonicalize()
        .unwrap_or_else(|_| contestants_dir.to_path_buf());
    println!("{}\n", toolchain_table(&found, &root));
    println!("{}", group_table(&surveyed));
    Ok(())
}

/// Each scenario with its parameters' defaults and what it measures.
fn scenario_table() -> comfy_table::Table {
    let mut scenarios = plain_table(&["scenario", "parameters (default)", "what it measures"]);
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
    scenarios
}

/// A contestant's notes column: why it cannot run, its own notes, what it runs inline or
/// not at all, its build, toolchains, warm-up rule and terms.
fn notes(entry: &Surveyed) -> Vec<String> {
    let c = &entry.contestant;
    let mut notes = Vec::new();
    if let Availability::Unavailable(reason) = &entry.availability {
        notes.push(format!("UNAVAILABLE: {reason}"));
    }
    notes.extend(c.manifest.notes.clone());
    if !c.manifest.inline.is_empty() {
        notes.push(format!(
            "inline (ranked apart): {}",
            c.manifest.inline.join(", ")
        ));
    }
    if !c.manifest.unsupported.is_empty() {
        notes.push(format!("n/a: {}", c.manifest.unsupported.join(", ")));
    }
    if c.manifest.reference {
        notes.push("reference: shown apart, never ranked".to_string());
    }
    notes.extend(c.manifest.build_flags().map(|b| format!("built: {b}")));
    notes.extend(c.manifest.sockets.as_ref().map(|s| format!("sockets: {s}")));
    notes.extend(
        c.toolchains
            .iter()
            .map(|t| format!("toolchain: {}", t.summary())),
    );
    let rule = c.manifest.warm_up_table(&c.dir).map(|t| t.describe());
    notes.push(match &rule {
        Ok(rule) => format!("warm-up: {}", warm_up::short(rule)),
        Err(e) => format!("warm-up: {e:#}"),
    });
    notes.push(format!("terms: {}", fairness_entry(c.name())));
    notes
}

/// Each toolchain the contestants run on: the folders of its rows, the release it runs
/// here, the newest stable one as last checked and how far behind (contestant/age.rs).
fn toolchain_table(contestants: &[Contestant], root: &Path) -> comfy_table::Table {
    let mut table = plain_table(&age::COLUMNS);
    for (toolchain, rows) in age::by_toolchain(contestants, root) {
        table.add_row(age::table_row(&toolchain, &rows));
    }
    table
}

/// Each group `-c @name` takes, what it holds and its members (`all` by count alone).
fn group_table(surveyed: &[Surveyed]) -> comfy_table::Table {
    let mut table = plain_table(&["group", "members"]);
    for (group, about) in groups::known() {
        let members: Vec<&str> = surveyed
            .iter()
            .filter(|e| e.contestant.manifest.in_group(group))
            .map(|e| e.contestant.name())
            .collect();
        let listed = match group {
            groups::ALL => format!("{} contestants", members.len()),
            _ if members.is_empty() => "none here".to_string(),
            _ => members.join(", "),
        };
        table.add_row([format!("@{group}"), format!("{about}\n{listed}")]);
    }
    table
}
