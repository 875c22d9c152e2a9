//! The finish step: the results document assembled from the run's records (a resumed
//! run's earlier ones first), printed, written in every format asked for, and kept in the
//! store (with `--save-baseline`, as a baseline; with an earlier session, trend.html).

use super::Measured;
use super::SessionOptions;
use crate::compare::gate::Side;
use anyhow::Context;
use catalogue::Point;
use results::Results;
use run::interrupt::{self, errln, out, outln};
use std::path::{Path, PathBuf};
use store::{HistoryFilter, Location, Provenance};
use words::condition::run_condition_line;
use words::{overview, render_terminal, side_by_side, terminal_width, warning_digest, wrap};

/// A run whose results are written.
pub(crate) struct Finished<'a> {
    pub(crate) options: &'a SessionOptions,
    pub(crate) results: Results,
    pub(crate) out: PathBuf,
    pub(crate) store: Location,
    pub(crate) baseline: Option<Side>,
}

impl Finished<'_> {
    /// The session's results, the rest of it let go (a bisect keeps only these).
    pub(crate) fn into_results(self) -> Results {
        self.results
    }
}

impl<'a> Measured<'a> {
    /// Assembles, prints, writes and stores the results.
    pub(crate) fn finish(self) -> anyhow::Result<Finished<'a>> {
        let Measured {
            built,
            records,
            machine,
        } = self;
        let mut prepared = built.prepared;
        let options = prepared.scheduler.options;
        let root = &prepared.scheduler.places.root;
        let interrupted = interrupt::requested();
        prepared.session_file.contestants = built.infos;
        let runs: Vec<_> = prepared.earlier.into_iter().chain(records).collect();
        let mut results =
            export::assemble(runs, &prepared.session_file, Some(machine), interrupted);
        if !options.keep.no_store {
            across_sessions(&prepared.store, &mut results);
        }
        if !options.is_quiet() {
            print_results(&results, options.show.tables, options.show.cold);
        }
        let out = prepared.out;
        export::write_results(&results, &out, &options.exports())?;
        if !options.keep.no_store {
            keep(&prepared.store, &results, &out, options, root)?;
        }
        match interrupt::received() {
            Some(signal) => errln!(
                "taskbench: interrupted by {}: the {} finished runs are in {dir} \
                 (`taskbench run --resume {dir}` runs the rest)",
                interrupt::signal_name(signal),
                results.runs.len(),
                dir = out.display()
            ),
            None if !options.is_quiet() => outln!(
                "report: {} (results.json and results.md beside it)",
                out.join("report.html").display()
            ),
            None => {}
        }
        Ok(Finished {
            options,
            results,
            out,
            store: prepared.store,
            baseline: prepared.baseline,
        })
    }
}

/// With `tables`, each point's table and the seeds side by side; then the overviews and
/// the warnings, one line per kind (every table and warning is in results.md and
/// report.html).
fn print_results(results: &Results, tables: bool, cold: bool) {
    let width = terminal_width();
    if let Some(line) = results.interrupted_line() {
        outln!("{line}\n");
    }
    if tables {
        for table in words::fits::tables(&results.points, &results.fits) {
            outln!("{}", render_terminal(&table, width));
        }
        if let Some(table) = side_by_side(&results.points) {
            outln!("{}", render_terminal(&table, width));
        }
    }
    out!("{}", overview::render_terminal(results, width, cold));
    for line in warning_digest(&results.warnings) {
        out!("{}", wrap(&format!("warning: {line}"), width.into()));
    }
    if let Some(line) = words::budget::run_line(results) {
        out!("{}", wrap(&line, width.into()));
    }
    if let Some(line) = run_condition_line(results.machine.as_ref()) {
        outln!("{line}");
    }
}

/// Each row's interval across the store's earlier sessions on this machine, where it has
/// them; a store that cannot be read leaves the rows within this run (storing the run
/// says why, after the results are written).
fn across_sessions(location: &Location, results: &mut Results) {
    if let Ok(mut store) = store::open(location) {
        let _ = store::take_in_sessions(&mut store, results);
    }
}

/// Adds a finished run to the store at `location` and saves it as `--save-baseline`'s name,
/// with the commit of `root`, the checkout the contestants are in (contestant/home.rs).
fn keep(
    location: &Location,
    results: &Results,
    out: &Path,
    options: &SessionOptions,
    root: &Path,
) -> anyhow::Result<()> {
    let provenance = Provenance::here(root, out, &options.keep.tags);
    location.create_parent()?;
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
    if let Some(name) = &options.keep.save_baseline {
        store::save_baseline(&mut store, name, session)?;
        if !options.is_quiet() {
            outln!("baseline {name}: this run, in {location}");
        }
    }
    trend(&mut store, results, out)
}

/// DIR/trend.html, when the store holds an earlier session of one of the run's cases: its
/// points and contestants over every session (`history --export-html` for other choices).
fn trend(store: &mut store::Store, results: &Results, out: &Path) -> anyhow::Result<()> {
    let cases: Vec<(&Point, &str)> = results
        .points
        .iter()
        .flat_map(|p| p.rows.iter().map(|r| (&p.point, r.contestant.as_str())))
        .collect();
    let filter = HistoryFilter {
        contestants: cases.iter().map(|(_, c)| c.to_string()).collect(),
        ..HistoryFilter::default()
    };
    let rows: Vec<store::HistoryRow> = store::history_rows(store, &filter)?
        .into_iter()
        .filter(|e| cases.contains(&(&e.point, e.contestant.as_str())))
        .collect();
    let sessions = |point: &Point, contestant: &str| {
        rows.iter()
            .filter(|e| e.point == *point && e.contestant == contestant)
            .count()
    };
    if cases.iter().any(|&(p, c)| sessions(p, c) >= 2) {
        let table = crate::history::table::history_table(&rows);
        let page = crate::history::trend::trend_page(
            &rows,
            &table,
            &crate::history::changes::steps_of(store, &rows)?,
        );
        export::write_atomically(&out.join("trend.html"), page.as_bytes())?;
    }
    Ok(())
}
