//! Decides what the runs say: per contestant and parameter point, the statistics of the
//! valid runs, overhead, per-task cost above the idle footprint, outliers, the ratio to
//! the best and whether it is significant; across a sweep, the per-task fits; over the
//! whole run, the warnings. Renderers only format what is decided here.

mod compare;
mod outliers;
mod sweep;
mod warnings;

pub use compare::differs;
pub use outliers::{OUTLIER_Z, Outlier};
pub use sweep::{Fit, FitPoint, MIN_POINTS_FOR_R2, Metric, fits};
pub use warnings::{
    CV_LIMIT, FIRST_RUN_FACTOR, FirstRun, LOAD_PER_CORE_LIMIT, OTHERS_LIMIT, STEAL_LIMIT,
    Variation, Warning, warnings,
};

use crate::run::{Phase, RunRecord, RunStatus, counts, record_params};
use crate::stats::{Interval, Summary, median};
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
    /// elapsed − ideal of each valid run, ns: the overhead's spread and interval.
    #[serde(default)]
    pub overhead: Option<Summary>,
    /// Median peak RSS of the idle-size case, bytes.
    pub idle_rss_bytes: Option<f64>,
    /// overhead / size.
    pub ns_per_task: Option<f64>,
    /// (peak RSS − idle RSS) / size.
    pub bytes_per_task: Option<f64>,
    pub peak_threads: u32,
    /// median elapsed / the best median elapsed at this point.
    pub ratio_to_best: Option<f64>,
    /// 95 % bootstrap interval of `ratio_to_best` (absent for the best row itself).
    #[serde(default)]
    pub ratio_ci: Option<Interval>,
    /// Whether the elapsed median's 95 % interval is apart from the best's: `false` means
    /// "not significantly slower". Absent for the best row and rows without a valid run.
    #[serde(default)]
    pub differs_from_best: Option<bool>,
    /// Measured runs whose elapsed time has a modified z-score beyond ±3.5; they stay in
    /// the statistics.
    #[serde(default)]
    pub outliers: Vec<Outlier>,
    /// Medians of the contestant's extra figures.
    pub extra: BTreeMap<String, f64>,
}

/// All rows of one parameter point, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PointSummary {
    pub point: String,
    pub scenario: String,
    /// The seed benchmark this point reproduces (`concurrency-benchmarks`, `bluebird-doxbee`,
    /// `bluebird-parallel`, `async-bench`, `ghc-1523`), when a preset case says so.
    #[serde(default)]
    pub seed: Option<String>,
    pub rows: Vec<CaseSummary>,
}

/// Summarises records into points (in the order first run) and rows (best first).
pub fn summarize(records: &[RunRecord]) -> Vec<PointSummary> {
    let mut points: Vec<(PointSummary, Vec<Vec<f64>>)> = Vec::new();
    for record in records.iter().filter(|r| r.phase == Phase::Measured) {
        let point = record.point_label();
        let index = match points.iter().position(|(p, _)| p.point == point) {
            Some(i) => i,
            None => {
                let summary = PointSummary {
                    point: point.clone(),
                    scenario: record.scenario.clone(),
                    seed: None,
                    rows: Vec::new(),
                };
                points.push((summary, Vec::new()));
                points.len() - 1
            }
        };
        let (summary, samples) = &mut points[index];
        if !summary
            .rows
            .iter()
            .any(|r| r.contestant == record.contestant)
        {
            let (row, elapsed) = summarize_case(records, &record.contestant, &point);
            summary.rows.push(row);
            samples.push(elapsed);
        }
    }
    points
        .into_iter()
        .map(|(mut point, samples)| {
            point.rows = compare::rank(point.rows.into_iter().zip(samples).collect());
            point
        })
        .collect()
}

/// The row of one case and its valid elapsed times, in run order.
fn summarize_case(records: &[RunRecord], contestant: &str, point: &str) -> (CaseSummary, Vec<f64>) {
    let mine: Vec<&RunRecord> = records
        .iter()
        .filter(|r| {
            r.contestant == contestant && r.phase == Phase::Measured && r.point_label() == point
        })
        .collect();
    let first = mine[0];
    let valid: Vec<&RunRecord> = mine.iter().copied().filter(|r| counts(r)).collect();
    let timed: Vec<(u32, f64)> = valid
        .iter()
        .filter_map(|r| Some((r.run, r.figures.as_ref()?.elapsed_ns? as f64)))
        .collect();
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
    let row = CaseSummary {
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
        overhead: Summary::of(
            &timed
                .iter()
                .map(|(_, e)| e - ideal_ns as f64)
                .collect::<Vec<_>>(),
        ),
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
        ratio_ci: None,
        differs_from_best: None,
        outliers: outliers::outliers(&timed),
        extra: extra_medians(&valid),
    };
    (row, timed.into_iter().map(|(_, v)| v).collect())
}

fn idle_rss(records: &[RunRecord], contestant: &str, idle: &Scenario) -> Option<f64> {
    let params = record_params(idle);
    let values: Vec<f64> = records
        .iter()
        .filter(|r| r.contestant == contestant && r.phase == Phase::Idle && r.status.is_ok())
        .filter(|r| r.scenario == idle.name() && r.params == params)
        .filter_map(|r| r.figures.as_ref().map(|f| f.peak_rss_bytes as f64))
        .collect();
    median(&values)
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
        .filter_map(|(n, v)| median(&v).map(|m| (n, m)))
        .collect()
}

#[cfg(test)]
mod tests;
