//! `taskbench import DIR` and `taskbench history`: a results folder into the store, and
//! the store's figures over time, as a table, (`--changes`) the change points of each case's
//! series and (`--export-html`) trend charts (see `store`).

use crate::cli::{HistoryArgs, ImportArgs};
use crate::history::change_points::at_least;
use results::read_results;
use store::{HistoryFilter, Provenance};
use words::{render_terminal, terminal_width};

/// Adds DIR/results.json to the store, with the tags given; the project's commit is not
/// known for a folder from elsewhere, so none is recorded.
pub(crate) fn import(args: &ImportArgs) -> anyhow::Result<()> {
    let results = read_results(&args.dir.join("results.json"))?;
    args.store.create_parent()?;
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

/// Prints the history table, and with `--changes` each change point.
pub(crate) fn history(args: &HistoryArgs) -> anyhow::Result<()> {
    let mut store = store::open_existing(&args.store)?;
    let filter = HistoryFilter {
        contestants: args.contestant.clone(),
        scenarios: args.scenario.clone(),
        tags: args.tags.clone(),
        since: args.since.clone(),
    };
    let rows = store::history_rows(&mut store, &filter)?;
    let table = crate::history::table::history_table(&rows);
    if table.rows.is_empty() {
        println!("nothing in {} matches", args.store);
    } else {
        println!("{}", render_terminal(&table, terminal_width()));
    }
    let mut found = if args.changes || args.export_html.is_some() {
        Some(crate::history::changes::steps_of(&mut store, &rows)?)
    } else {
        None
    };
    let min_change = args.min_change.unwrap_or(0.0);
    let left_out = (found.as_mut()).map_or(0, |f| at_least(f, min_change));
    if let (true, Some(found)) = (args.changes, &found) {
        for line in crate::history::words::change_lines(found) {
            println!("{line}");
        }
        if left_out > 0 {
            println!(
                "{}",
                crate::history::words::left_out_line(left_out, min_change)
            );
        }
    }
    if let Some(path) = &args.export_html {
        let page =
            crate::history::trend::trend_page(&rows, &table, found.as_deref().unwrap_or(&[]));
        export::write_atomically(path, page.as_bytes())?;
    }
    Ok(())
}
