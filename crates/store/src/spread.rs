//! The store's earlier sessions of a case on this machine, as run-to-run spreads of its
//! elapsed, peak RSS and CPU medians (analysis/run_to_run.rs), for `compare` and
//! `run --baseline` across sessions.

use super::Store;
use super::history::case_sessions;
use analysis::run_to_run::{RunToRun, Spreads};
use catalogue::Point;
use measure::machine::Machine;
use results::Results;

/// The spreads of `contestant` at `point` over the sessions on `machine`, leaving out those
/// started at `exclude` (the two being compared). The medians are read from each summary
/// kept whole, and taken in the order the sessions started.
pub fn spreads(
    store: &mut Store,
    machine: &Machine,
    point: &Point,
    contestant: &str,
    exclude: &[String],
) -> anyhow::Result<Spreads> {
    let mut figures: [Vec<f64>; 3] = Default::default();
    let sessions = case_sessions(store, machine, &point.to_string(), contestant)?;
    for session in sessions.iter().filter(|s| !exclude.contains(&s.started)) {
        let medians = ["elapsed", "peak_rss", "cpu"].map(|figure| session.median(figure));
        for (list, value) in figures.iter_mut().zip(medians) {
            list.extend(value);
        }
    }
    Ok(Spreads {
        time: RunToRun::of(&figures[0]),
        peak_rss: RunToRun::of(&figures[1]),
        cpu: RunToRun::of(&figures[2]),
    })
}

/// Each row of `results` given its interval across the store's earlier sessions of its case
/// on this machine, where there are enough (analysis/across_sessions.rs).
pub fn take_in_sessions(store: &mut Store, results: &mut Results) -> anyhow::Result<()> {
    let machine = results.platform.machine();
    for point in &mut results.points {
        for row in &mut point.rows {
            let spread = spreads(store, &machine, &point.point, &row.contestant, &[])?;
            row.across_sessions = spread
                .time
                .and_then(|time| analysis::across_sessions::AcrossSessions::of(row, time));
        }
    }
    Ok(())
}
