//! The store's earlier sessions of a case on this machine, as run-to-run spreads of its
//! elapsed, peak RSS and CPU medians (analysis/run_to_run.rs), for `compare` and
//! `run --baseline` across sessions.

use crate::analysis::run_to_run::RunToRun;
use rusqlite::{Connection, params};

/// The machine a session ran on, as the store fingerprints it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    pub cpu: String,
    pub cores: u32,
}

/// A case's spreads; `None` where fewer than three sessions measured it validly.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spreads {
    pub time: Option<RunToRun>,
    pub peak_rss: Option<RunToRun>,
    pub cpu: Option<RunToRun>,
}

/// The spreads of `contestant` at `point` over the sessions on `machine`, leaving out those
/// started at `exclude` (the two being compared).
pub fn spreads(
    db: &Connection,
    machine: &Machine,
    point: &str,
    contestant: &str,
    exclude: &[String],
) -> anyhow::Result<Spreads> {
    let mut query = db.prepare_cached(
        "SELECT s.started, json_extract(m.summary, '$.elapsed.median'),
                json_extract(m.summary, '$.peak_rss.median'), json_extract(m.summary, '$.cpu.median')
         FROM summaries m JOIN sessions s ON s.id = m.session
         WHERE m.point = ?1 AND m.contestant = ?2 AND m.outcome = 'valid'
           AND s.cpu = ?3 AND s.cores = ?4",
    )?;
    let rows = query.query_map(
        params![point, contestant, machine.cpu, machine.cores as i64],
        |row| {
            Ok((
                row.get::<_, String>(0)?,
                [
                    row.get::<_, Option<f64>>(1)?,
                    row.get::<_, Option<f64>>(2)?,
                    row.get::<_, Option<f64>>(3)?,
                ],
            ))
        },
    )?;
    let mut figures: [Vec<f64>; 3] = Default::default();
    for row in rows {
        let (started, values) = row?;
        if exclude.contains(&started) {
            continue;
        }
        for (list, value) in figures.iter_mut().zip(values) {
            list.extend(value);
        }
    }
    Ok(Spreads {
        time: RunToRun::of(&figures[0]),
        peak_rss: RunToRun::of(&figures[1]),
        cpu: RunToRun::of(&figures[2]),
    })
}
