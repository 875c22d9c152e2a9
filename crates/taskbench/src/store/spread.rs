//! The store's earlier sessions of a case on this machine, as run-to-run spreads of its
//! elapsed, peak RSS and CPU medians (analysis/run_to_run.rs), for `compare` and
//! `run --baseline` across sessions.

use super::{Location, Store};
use crate::compare::gate::{Comparison, Side, across};
use analysis::run_to_run::{RunToRun, Spreads};
use catalogue::Point;
use exit::cannot_compare;
use measure::machine::Machine;

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
    let rows = store.query(
        "SELECT s.started, s.id, m.summary
         FROM summaries m JOIN sessions s ON s.id = m.session
         WHERE m.point = ? AND m.contestant = ? AND m.outcome = 'valid'
           AND s.cpu = ? AND s.cores = ?",
        &[
            point.to_string().into(),
            contestant.into(),
            machine.cpu.as_str().into(),
            machine.cores.into(),
        ],
    )?;
    let mut sessions = Vec::new();
    for row in rows {
        let started: String = row.get(0)?;
        if exclude.contains(&started) {
            continue;
        }
        let summary: serde_json::Value = serde_json::from_str(&row.get::<String>(2)?)?;
        let median = |figure: &str| summary[figure]["median"].as_f64();
        let medians = [median("elapsed"), median("peak_rss"), median("cpu")];
        sessions.push((started, row.get::<i64>(1)?, medians));
    }
    sessions.sort_by(|a, b| (&a.0, a.1).cmp(&(&b.0, b.1)));
    let mut figures: [Vec<f64>; 3] = Default::default();
    for (_, _, medians) in sessions {
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
pub fn take_in_sessions(
    store: &mut Store,
    results: &mut crate::results::Results,
) -> anyhow::Result<()> {
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

/// BASE against NEW, each case widened by the store's other sessions of it on NEW's machine;
/// sides of different machines only with `mixed_machines`.
pub fn across_sessions(
    base: &Side,
    new: &Side,
    store: &Location,
    mixed_machines: bool,
) -> anyhow::Result<Comparison> {
    if !store.exists() {
        return across(base, new, None, mixed_machines);
    }
    let mut db = super::open(store).map_err(cannot_compare)?;
    let exclude = [base.started.clone(), new.started.clone()];
    across(
        base,
        new,
        Some(&mut |point, contestant| spreads(&mut db, &new.machine, point, contestant, &exclude)),
        mixed_machines,
    )
    .map_err(cannot_compare)
}
