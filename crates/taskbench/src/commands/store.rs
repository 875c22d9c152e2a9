//! `taskbench import DIR` and `taskbench history`: a results folder into the store, and
//! the store's figures over time, as a table and (`--export-html`) trend charts (see `store`).

use crate::cli::{HistoryArgs, ImportArgs};
use crate::report::{render_terminal, terminal_width};
use crate::results::read_results;
use crate::store::{self, HistoryFilter, Location, Provenance};
use anyhow::Context;

/// Adds DIR/results.json to the store, with the tags given; the project's commit is not
/// known for a folder from elsewhere, so none is recorded.
pub fn import(args: &ImportArgs) -> anyhow::Result<()> {
    let results = read_results(&args.dir.join("results.json"))?;
    create_parent(&args.store)?;
    let mut store = store::open(&args.store)?;
    let provenance = Provenance {
        folder: Some(args.dir.display().to_string()),
        tags: args.tags.clone(),
        ..Provenance::default()
    };
    store::record(&mut store, &results, &provenance)?;
    println!(
        "{}: {} runs of {} into {}",
        args.dir.display(),
        results.runs.len(),
        results.platform.started,
        args.store
    );
    Ok(())
}

/// Prints the history table.
pub fn history(args: &HistoryArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.store.exists(),
        "no store at {} (every `taskbench run` makes one; --store PATH for another)",
        args.store
    );
    let mut store = store::open(&args.store)?;
    let filter = HistoryFilter {
        contestants: args.contestant.clone(),
        scenarios: args.scenario.clone(),
        tags: args.tags.clone(),
        since: args.since.clone(),
    };
    let entries = store::entries(&mut store, &filter)?;
    let table = store::history_table(&entries);
    if table.rows.is_empty() {
        println!("nothing in {} matches", args.store);
    } else {
        println!("{}", render_terminal(&table, terminal_width()));
    }
    if let Some(path) = &args.export_html {
        let page = crate::html::trend_page(&entries, &table);
        crate::export::write_atomically(path, page.as_bytes())?;
    }
    Ok(())
}

/// Adds a finished run to the store at `location` and saves it as `--save-baseline`'s name.
pub(super) fn keep(
    location: &Location,
    results: &crate::results::Results,
    out: &std::path::Path,
    args: &crate::cli::RunArgs,
) -> anyhow::Result<()> {
    let provenance = Provenance::here(&crate::lineup::repository_root(), out, &args.tags);
    create_parent(location)?;
    let opened = store::open(location).and_then(|mut store| {
        let session = store::record(&mut store, results, &provenance)?;
        Ok((store, session))
    });
    let (mut store, session) = opened.with_context(|| {
        format!(
            "the results are in {}, but the store was not written",
            out.display()
        )
    })?;
    if let Some(name) = &args.save_baseline {
        store::save_baseline(&mut store, name, session)?;
        if !args.quiet {
            println!("baseline {name}: this run, in {location}");
        }
    }
    trend(&mut store, results, out)
}

/// DIR/trend.html, when the store holds an earlier session of one of the run's cases: its
/// points and contestants over every session (`history --export-html` for other choices).
fn trend(
    store: &mut store::Store,
    results: &crate::results::Results,
    out: &std::path::Path,
) -> anyhow::Result<()> {
    let cases: Vec<(&str, &str)> = results
        .points
        .iter()
        .flat_map(|p| {
            p.rows
                .iter()
                .map(|r| (p.point.as_str(), r.contestant.as_str()))
        })
        .collect();
    let filter = HistoryFilter {
        contestants: cases.iter().map(|(_, c)| c.to_string()).collect(),
        ..HistoryFilter::default()
    };
    let entries: Vec<store::Entry> = store::entries(store, &filter)?
        .into_iter()
        .filter(|e| cases.contains(&(e.point.as_str(), e.contestant.as_str())))
        .collect();
    let sessions = |point: &str, contestant: &str| {
        entries
            .iter()
            .filter(|e| e.point == point && e.contestant == contestant)
            .count()
    };
    if cases.iter().any(|&(p, c)| sessions(p, c) >= 2) {
        let page = crate::html::trend_page(&entries, &store::history_table(&entries));
        crate::export::write_atomically(&out.join("trend.html"), page.as_bytes())?;
    }
    Ok(())
}

/// Creates the folder a SQLite store goes into.
pub(super) fn create_parent(location: &Location) -> anyhow::Result<()> {
    let Location::Sqlite(path) = location else {
        return Ok(());
    };
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => std::fs::create_dir_all(parent)
            .with_context(|| format!("--store: cannot create {}", parent.display())),
        None => Ok(()),
    }
}
