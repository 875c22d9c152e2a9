//! `taskbench import DIR` and `taskbench history`: a results folder into the store, and
//! the store's figures over time (see `store`).

use crate::cli::{HistoryArgs, ImportArgs};
use crate::export::read_results;
use crate::report::{render_terminal, terminal_width};
use crate::store::{self, HistoryFilter, Provenance};
use anyhow::Context;

/// Adds DIR/results.json to the store, with the tags given; the project's commit is not
/// known for a folder from elsewhere, so none is recorded.
pub fn import(args: &ImportArgs) -> anyhow::Result<()> {
    let results = read_results(&args.dir.join("results.json"))?;
    create_parent(&args.store)?;
    let mut db = store::open(&args.store)?;
    let provenance = Provenance {
        folder: Some(args.dir.display().to_string()),
        tags: args.tags.clone(),
        ..Provenance::default()
    };
    store::record(&mut db, &results, &provenance)?;
    println!(
        "{}: {} runs of {} into {}",
        args.dir.display(),
        results.runs.len(),
        results.platform.started,
        args.store.display()
    );
    Ok(())
}

/// Prints the history table.
pub fn history(args: &HistoryArgs) -> anyhow::Result<()> {
    anyhow::ensure!(
        args.store.exists(),
        "no store at {} (every `taskbench run` makes one; --store PATH for another)",
        args.store.display()
    );
    let db = store::open(&args.store)?;
    let filter = HistoryFilter {
        contestants: args.contestant.clone(),
        scenarios: args.scenario.clone(),
        tags: args.tags.clone(),
        since: args.since.clone(),
    };
    let table = store::history_table(&db, &filter)?;
    if table.rows.is_empty() {
        println!("nothing in {} matches", args.store.display());
    } else {
        println!("{}", render_terminal(&table, terminal_width()));
    }
    Ok(())
}

/// Creates the folder a store goes into.
pub(super) fn create_parent(path: &std::path::Path) -> anyhow::Result<()> {
    match path.parent().filter(|p| !p.as_os_str().is_empty()) {
        Some(parent) => std::fs::create_dir_all(parent)
            .with_context(|| format!("--store: cannot create {}", parent.display())),
        None => Ok(()),
    }
}
