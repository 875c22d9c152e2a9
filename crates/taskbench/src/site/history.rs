//! The store's history per machine and runtime, as the case and runtime pages show it: a
//! runtime's summaries on a machine (its own and its releases') as history rows (what
//! `taskbench history` reads) and their change points (`history --changes`: each case
//! along its sessions, each release sweep along its releases), found once each and only
//! for a page being written — a session of one runtime costs the change points of that
//! runtime's cases alone.

use super::data::Site;
use crate::history::change_points::SeriesSteps;
use crate::history::changes::steps_of;
use std::collections::HashMap;
use store::HistoryRow;

/// Each machine's and runtime's rows and steps, found when first asked for.
#[derive(Default)]
pub(crate) struct Histories {
    found: HashMap<(String, String), (Vec<HistoryRow>, Vec<SeriesSteps>)>,
}

impl Histories {
    /// The rows of `runtime` and its releases on `machine` (its key), by point, contestant
    /// and start, and their steps.
    pub(crate) fn of(
        &mut self,
        site: &mut Site,
        machine: &str,
        runtime: &str,
    ) -> anyhow::Result<&(Vec<HistoryRow>, Vec<SeriesSteps>)> {
        let key = (machine.to_string(), runtime.to_string());
        if !self.found.contains_key(&key) {
            let rows = rows_of(site, machine, runtime);
            let steps = steps_of(&mut site.store, &rows)?;
            self.found.insert(key.clone(), (rows, steps));
        }
        Ok(&self.found[&key])
    }
}

/// The summaries of `runtime` and its releases in `machine`'s sessions as history rows,
/// ordered as `history` orders them.
fn rows_of(site: &Site, machine: &str, runtime: &str) -> Vec<HistoryRow> {
    let mut rows: Vec<HistoryRow> = (site.summaries.iter())
        .filter(|m| super::data::runtime_of(&m.contestant) == runtime)
        .filter(|m| site.machine_of.get(&m.session).map(String::as_str) == Some(machine))
        .filter_map(|m| {
            let session = site.session(m.session)?;
            Some(HistoryRow {
                session: m.session,
                started: session.started.clone(),
                tags: session.tags.join(","),
                commit: session.commit.clone(),
                dirty: session.dirty,
                point: m.point.parse().ok()?,
                contestant: m.contestant.clone(),
                version: m.version.clone(),
                outcome: m.outcome.clone(),
                time: m.time,
                time_low: m.time_low,
                time_high: m.time_high,
                peak_rss: m.peak_rss,
            })
        })
        .collect();
    rows.sort_by_cached_key(|e| {
        let label = e.point.to_string();
        (label, e.contestant.clone(), e.started.clone(), e.session)
    });
    rows
}
