//! Decides what the runs say: per contestant and parameter point, the statistics of the
//! valid runs, overhead, per-task cost above the idle footprint, and the ratio to the best.
//! Renderers only format what is decided here.

use crate::run::{Phase, RunRecord, RunStatus, counts, point_label};
use crate::stats::Summary;
use catalogue::Scenario;
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;

/// What the runs of one contestant at one point came to.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum Outcome {
    /// At least one valid measured run.
    Valid,
    /// The contestant does not implement the scenario.
    NotImplemented { reason: String },
    /// No valid run; `status` is the first failure's label.
    Failed { status: String },
}

/// One row of a results table.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CaseSummary {
    pub contestant: String,
    pub scenario: String,
    /// `scenario p=v …`: the parameter point.
    pub point: String,
    pub params: BTreeMap<String, u64>,
    #[serde(flatten)]
    pub outcome: Outcome,
    /// Valid measured runs / measured runs attempted.
    pub runs_ok: usize,
    pub runs: usize,
    /// Each failure with its detail (`crashed (SIGSEGV): <stderr line>`), once per kind.
    pub problems: Vec<String>,
    /// Value of the scenario's size parameter (tasks, requests …).
    pub size: Option<u64>,
    pub ideal_ns: u64,
    /// Contestant-reported elapsed, ns.
    pub elapsed: Option<Summary>,
    /// Process wall clock, ns.
    pub wall: Option<Summary>,
    /// user + sys, ns.
    pub cpu: Option<Summary>,
    /// Peak RSS, bytes.
    pub peak_rss: Option<Summary>,
    /// median elapsed − ideal, ns.
    pub overhead_ns: Option<f64>,
    /// Median peak RSS of the idle-size case, bytes.
    pub idle_rss_bytes: Option<f64>,
    /// overhead / size.
    pub ns_per_task: Option<f64>,
    /// (peak RSS − idle RSS) / size.
    pub bytes_per_task: Option<f64>,
    pub peak_threads: u32,
    /// median elapsed / the best median elapsed at this point.
    pub ratio_to_best: Option<f64>,
    /// Medians of the contestant's extra figures.
    pub extra: BTreeMap<String, f64>,
}

/// All rows of one parameter point, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointSummary {
    pub point: String,
    pub scenario: String,
    pub rows: Vec<CaseSummary>,
}

/// Summarises records into points (in the order first run) and rows (best first).
pub fn summarize(records: &[RunRecord]) -> Vec<PointSummary> {
    let mut points: Vec<PointSummary> = Vec::new();
    for record in records.iter().filter(|r| r.phase == Phase::Measured) {
        let point = record.point_label();
        let index = match points.iter().position(|p| p.point == point) {
            Some(i) => i,
            None => {
                points.push(PointSummary {
                    point: point.clone(),
                    scenario: record.scenario.clone(),
                    rows: Vec::new(),
                });
                points.len() - 1
            }
        };
        if !points[index]
            .rows
            .iter()
            .any(|r| r.contestant == record.contestant)
        {
            let row = summarize_case(records, &record.contestant, &point);
            points[index].rows.push(row);
        }
    }
    for point in &mut points {
        rank(&mut point.rows);
    }
    points
}

fn summarize_case(records: &[RunRecord], contestant: &str, point: &str) -> CaseSummary {
    let mine: Vec<&RunRecord> = records
        .iter()
        .filter(|r| {
            r.contestant == contestant && r.phase == Phase::Measured && r.point_label() == point
        })
        .collect();
    let first = mine[0];
    let valid: Vec<&RunRecord> = mine.iter().copied().filter(|r| counts(r)).collect();
    let figure = |f: fn(&crate::run::Figures) -> Option<f64>| {
        let values: Vec<f64> = valid
            .iter()
            .filter_map(|r| r.figures.as_ref().and_then(f))
            .collect();
        Summary::of(&values)
    };
    let elapsed = figure(|f| f.elapsed_ns.map(|v| v as f64));
    let peak_rss = figure(|f| Some(f.peak_rss_bytes as f64));
    let scenario = Scenario::new(
        &first.scenario,
        &first
            .params
            .iter()
            .map(|(k, v)| (k.as_str(), *v))
            .collect::<Vec<_>>(),
    )
    .ok();
    let size = scenario.and_then(|s| s.size());
    let ideal_ns = scenario.map_or(0, |s| s.ideal_ns());
    let overhead_ns = elapsed.map(|e| e.median - ideal_ns as f64);
    let idle_rss_bytes = scenario
        .and_then(|s| s.idle())
        .and_then(|idle| idle_rss(records, contestant, &idle));
    let per_task = |total: Option<f64>| match (total, size) {
        (Some(t), Some(n)) if n > 0 => Some(t / n as f64),
        _ => None,
    };
    CaseSummary {
        contestant: contestant.to_string(),
        scenario: first.scenario.clone(),
        point: point.to_string(),
        params: first.params.clone(),
        outcome: outcome(&mine, &valid),
        runs_ok: valid.len(),
        runs: mine.len(),
        problems: problems(&mine),
        size,
        ideal_ns,
        wall: figure(|f| Some(f.wall_ns as f64)),
        cpu: figure(|f| Some(f.cpu_ns as f64)),
        overhead_ns,
        ns_per_task: per_task(overhead_ns.map(|o| o.max(0.0))),
        bytes_per_task: per_task(
            idle_rss_bytes
                .zip(peak_rss)
                .map(|(idle, rss)| rss.median - idle),
        ),
        idle_rss_bytes,
        elapsed,
        peak_rss,
        peak_threads: valid
            .iter()
            .filter_map(|r| r.figures.as_ref())
            .map(|f| f.peak_threads)
            .max()
            .unwrap_or(0),
        ratio_to_best: None,
        extra: extra_medians(&valid),
    }
}

fn idle_rss(records: &[RunRecord], contestant: &str, idle: &Scenario) -> Option<f64> {
    let label = idle.label();
    let values: Vec<f64> = records
        .iter()
        .filter(|r| r.contestant == contestant && r.phase == Phase::Idle && r.status.is_ok())
        .filter(|r| r.scenario == idle.name() && params_label(r) == label)
        .filter_map(|r| r.figures.as_ref().map(|f| f.peak_rss_bytes as f64))
        .collect();
    Summary::of(&values).map(|s| s.median)
}

fn params_label(record: &RunRecord) -> String {
    point_label(&record.scenario, &record.params)
        .split_once(' ')
        .map_or(String::new(), |(_, p)| p.to_string())
}

fn outcome(mine: &[&RunRecord], valid: &[&RunRecord]) -> Outcome {
    if !valid.is_empty() {
        return Outcome::Valid;
    }
    match &mine[0].status {
        RunStatus::NotImplemented { reason } => Outcome::NotImplemented {
            reason: reason.clone(),
        },
        status => Outcome::Failed {
            status: status.label(),
        },
    }
}

fn problems(mine: &[&RunRecord]) -> Vec<String> {
    let mut seen: Vec<String> = Vec::new();
    for record in mine.iter().filter(|r| !r.status.is_ok()) {
        if matches!(record.status, RunStatus::NotImplemented { .. }) {
            continue;
        }
        let count = mine
            .iter()
            .filter(|r| r.status.label() == record.status.label())
            .count();
        let stderr = record
            .figures
            .as_ref()
            .and_then(|f| f.stderr_tail.lines().rev().find(|l| !l.trim().is_empty()))
            .map(|l| format!(" — {}", l.trim()))
            .unwrap_or_default();
        let line = format!("{count}× {}{stderr}", record.status);
        if !seen
            .iter()
            .any(|s| s.starts_with(&format!("{count}× {}", record.status.label())))
        {
            seen.push(line);
        }
    }
    seen
}

fn extra_medians(valid: &[&RunRecord]) -> BTreeMap<String, f64> {
    let mut by_name: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for figures in valid.iter().filter_map(|r| r.figures.as_ref()) {
        for (name, value) in &figures.extra {
            by_name.entry(name.clone()).or_default().push(*value);
        }
    }
    by_name
        .into_iter()
        .filter_map(|(n, v)| Summary::of(&v).map(|s| (n, s.median)))
        .collect()
}

/// Best (lowest median elapsed) first, then n/a, then failures; sets the ratios.
fn rank(rows: &mut [CaseSummary]) {
    let key = |r: &CaseSummary| match (&r.outcome, r.elapsed) {
        (Outcome::Valid, Some(e)) => (0, e.median),
        (Outcome::NotImplemented { .. }, _) => (2, 0.0),
        _ => (1, 0.0),
    };
    rows.sort_by(|a, b| {
        let (ka, kb) = (key(a), key(b));
        ka.0.cmp(&kb.0)
            .then(ka.1.total_cmp(&kb.1))
            .then_with(|| a.contestant.cmp(&b.contestant))
    });
    let best = rows.first().and_then(|r| r.elapsed).map(|e| e.median);
    for row in rows.iter_mut() {
        row.ratio_to_best = match (row.elapsed, best) {
            (Some(e), Some(b)) if b > 0.0 => Some(e.median / b),
            _ => None,
        };
    }
}

#[cfg(test)]
mod tests;
