//! The store's side of change points (history/change_points.rs): the history's rows as
//! the observations series are made of, and, for `compare --fail-on-change`, each case's
//! series over the store's sessions on NEW's machine that started before NEW, with NEW's
//! own figure last.

use crate::compare::gate::Side;
use crate::history::change_points::{Along, Place, Series, SeriesSteps};
use crate::history::series::{
    Figures, Observation, Processes, both_figures, history_steps, processes_of,
};
use analysis::{Apart, CaseSummary, summarize};
use catalogue::Point;
use contestant::releases::is_release_variant;
use std::collections::HashMap;
use std::collections::hash_map::Entry;
use store::{HistoryRow, Location, Machine, Store, case_sessions};

/// The change points of the history's rows at the default settings: each case along its
/// sessions, each release sweep along its releases (among its processes, read from the
/// store's runs of the sweep's sessions).
pub(crate) fn steps_of(store: &mut Store, rows: &[HistoryRow]) -> anyhow::Result<Vec<SeriesSteps>> {
    let mut observations = observations(rows);
    let mut sessions: HashMap<i64, Vec<(Point, String, Processes)>> = HashMap::new();
    let valid = rows.iter().filter(|r| r.outcome == "valid");
    for (row, seen) in valid.zip(observations.iter_mut()) {
        if !is_release_variant(&seen.contestant) {
            continue;
        }
        let session = match sessions.entry(row.session) {
            Entry::Occupied(known) => known.into_mut(),
            Entry::Vacant(new) => new.insert(processes_of(&store::runs(store, row.session)?)),
        };
        let found = (session.iter())
            .find(|(point, contestant, _)| *point == seen.point && *contestant == seen.contestant);
        if let Some((_, _, processes)) = found {
            seen.processes = processes.clone();
        }
    }
    Ok(history_steps(&observations))
}

/// The valid rows of the history as observations of their case (their processes not read).
pub(crate) fn observations(rows: &[HistoryRow]) -> Vec<Observation> {
    rows.iter()
        .filter(|r| r.outcome == "valid")
        .map(|r| Observation {
            point: r.point.clone(),
            contestant: r.contestant.clone(),
            place: Place {
                started: r.started.clone(),
                commit: r.commit.clone(),
                dirty: r.dirty,
                version: r.version.clone(),
                release: None,
            },
            time: r.time,
            peak_rss: r.peak_rss,
            processes: Processes::default(),
        })
        .collect()
}

/// Each case NEW measured validly: its elapsed and its peak RSS medians over the sessions
/// of the store at `location` on NEW's machine that started before NEW, then NEW's.
pub(crate) fn with_newest(location: &Location, new: &Side) -> anyhow::Result<Vec<Series>> {
    if !location.exists() {
        return Err(exit::fail(
            exit::ExitClass::CannotCompare,
            format!("--fail-on-change: there is no store at {location} to read the history from"),
        ));
    }
    let store = &mut store::open(location).map_err(exit::cannot_compare)?;
    let mut out = Vec::new();
    for point in summarize(&new.runs, &Apart::none()) {
        for row in &point.rows {
            let (Some(elapsed), None) = (&row.elapsed, row.status_label()) else {
                continue;
            };
            let label = point.point.to_string();
            let mut earlier = before(store, &new.machine, &label, row, &new.started)?;
            earlier.push(Figures {
                place: Place {
                    started: new.started.clone(),
                    ..Place::default()
                },
                time: Some(elapsed.median),
                peak_rss: row.peak_rss.map(|p| p.median),
                processes: Processes::default(),
            });
            out.extend(both_figures(
                &point.point,
                &row.contestant,
                Along::Sessions,
                &earlier,
            ));
        }
    }
    Ok(out)
}

/// The case's valid sessions on `machine` started before `started`, oldest first, read
/// from each summary kept whole (as the run-to-run spreads are, store/spread.rs).
fn before(
    store: &mut Store,
    machine: &Machine,
    point: &str,
    row: &CaseSummary,
    started: &str,
) -> anyhow::Result<Vec<Figures>> {
    let sessions = case_sessions(store, machine, point, &row.contestant)?;
    // Text compared here, byte by byte, not by the database's collation.
    let earlier = sessions
        .into_iter()
        .filter(|s| s.started.as_str() < started);
    Ok(earlier
        .map(|session| Figures {
            time: session.median("elapsed"),
            peak_rss: session.median("peak_rss"),
            processes: Processes::default(),
            place: Place {
                started: session.started,
                commit: session.commit,
                dirty: session.dirty,
                version: session.version,
                release: None,
            },
        })
        .collect())
}

#[cfg(test)]
mod tests;
