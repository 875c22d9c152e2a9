//! A point that re-runs a seed benchmark gets the seed's published figures beside ours, in
//! report.html and results.md: a table per experiment, the published rows labelled with
//! their year and machine, then our rows with the same columns, and how each side was
//! measured — they are not the same experiment until the reader knows how they differ;
//! then each published figure beside our row of the same workload (words/seed_pairs.rs).

use super::seed_pairs::published;
use crate::Table;
use analysis::{CaseSummary, PointSummary};
use measure::Platform;
use seeds::{Experiment, SeedMetric};
use units::{bytes, duration};

/// The comparison tables of `point` (none for a point that reproduces no seed).
pub fn comparisons(point: &PointSummary, platform: &Platform) -> Vec<Table> {
    if point.rows.is_empty() {
        return Vec::new();
    }
    seeds::experiments_for(&point.point, point.seed.as_deref())
        .into_iter()
        .flat_map(|experiment| {
            [
                comparison(experiment, point, platform),
                super::seed_pairs::pairs(experiment, point),
            ]
        })
        .collect()
}

fn comparison(experiment: &Experiment, point: &PointSummary, platform: &Platform) -> Table {
    let figures = seeds::figures_of(experiment);
    let mut metrics: Vec<SeedMetric> = figures.iter().map(|f| f.metric).collect();
    metrics.sort();
    metrics.dedup();
    let mut headers = vec!["source", "implementation"];
    headers.extend(metrics.iter().map(|m| header(*m)));
    let mut rows: Vec<Vec<String>> = Vec::new();
    let mut keys: Vec<(Option<u16>, &str, &str)> = Vec::new();
    for f in &figures {
        let key = (f.year, f.machine, f.implementation);
        if !keys.contains(&key) {
            keys.push(key);
        }
    }
    // The source is named on the first row of its group only.
    let mut last_source = String::new();
    let mut source = |text: String| {
        if text == last_source {
            String::new()
        } else {
            last_source = text.clone();
            text
        }
    };
    for (year, machine, implementation) in keys {
        let year = year.map_or_else(|| "undated".to_string(), |y| y.to_string());
        let mut row = vec![
            source(format!("{year} · {machine}")),
            implementation.to_string(),
        ];
        row.extend(metrics.iter().map(|metric| {
            figures
                .iter()
                .find(|f| {
                    f.machine == machine
                        && f.implementation == implementation
                        && f.metric == *metric
                })
                .map_or_else(|| "–".to_string(), published)
        }));
        rows.push(row);
    }
    let date = platform.started.split('T').next().unwrap_or_default();
    for case in &point.rows {
        let mut row = vec![
            source(format!(
                "ours, {date} · {} · {} cores",
                platform.cpu, platform.cores
            )),
            case.contestant.clone(),
        ];
        row.extend(metrics.iter().map(|metric| ours(case, *metric)));
        rows.push(row);
    }
    let seed = seeds::seed(experiment.seed);
    let mut notes = vec![
        format!(
            "published figures: {}, as the source gives them",
            seed.source
        ),
        format!("how they were measured: {}", seed.measured),
    ];
    notes.push(OURS.to_string());
    notes.extend(metrics.iter().filter_map(|m| note(*m)).map(String::from));
    Table {
        title: format!(
            "{} · {} — published figures beside ours",
            seed.title, experiment.name
        ),
        headers: crate::table::headers(&headers),
        rows,
        notes,
    }
}

/// How our figures beside them were measured (docs/MEASUREMENT.md).
const OURS: &str = "how ours were measured: time is each contestant's own monotonic clock \
    around one measured iteration (the median over processes), after its in-process warm-up \
    (doxbee and parallel: 350 requests, as bluebird's); memory is the whole process's peak \
    RSS (wait4's ru_maxrss) in a process that ran one measured iteration; one fresh process \
    per run, on this machine";

fn header(metric: SeedMetric) -> &'static str {
    match metric {
        SeedMetric::Time => "time",
        SeedMetric::Overhead => "overhead\n(time − delay)",
        SeedMetric::PeakMemory => "peak memory",
        SeedMetric::MemoryGrowth => "memory\n(growth; ours: peak, idle)",
        SeedMetric::SleepOverhead => "oversleep\nper sleep",
    }
}

fn note(metric: SeedMetric) -> Option<&'static str> {
    match metric {
        SeedMetric::MemoryGrowth => Some(
            "bluebird's memory is the RSS gained during the measured requests (MB = 2^20 \
             bytes); ours is the whole process's peak RSS, and its footprint when idle",
        ),
        SeedMetric::SleepOverhead => Some(
            "GHC #1523 reports a constant 100–200 ms added to every threadDelay; ours are the \
             median and largest oversleep of one sleep",
        ),
        _ => None,
    }
}

/// Our counterpart of a published metric, or the row's status.
fn ours(case: &CaseSummary, metric: SeedMetric) -> String {
    if let Some(status) = case.status_label() {
        return status;
    }
    let value = match metric {
        SeedMetric::Time => case.elapsed.map(|s| duration(s.median)),
        SeedMetric::Overhead => case.overhead_ns.map(duration),
        SeedMetric::PeakMemory => case.peak_rss.map(|s| bytes(s.median)),
        SeedMetric::MemoryGrowth => case.peak_rss.map(|s| match case.idle_rss_bytes {
            Some(idle) => format!("peak {}\nidle {}", bytes(s.median), bytes(idle)),
            None => format!("peak {}", bytes(s.median)),
        }),
        SeedMetric::SleepOverhead => {
            let p50 = case.extra.get("oversleep_p50_ns");
            let max = case.extra.get("oversleep_max_ns");
            p50.zip(max)
                .map(|(p50, max)| format!("p50 {}\nmax {}", duration(*p50), duration(*max)))
        }
    };
    value.unwrap_or_else(|| "–".into())
}
