//! Each published figure of a seed beside our row that runs the same study's workload
//! (seeds::counterparts), with the ratio of ours to theirs and what still differs: the
//! table a reader checks a published claim against. Their machines are not ours, so the
//! ratio says how far this machine and today's releases are from the study's, one
//! implementation at a time; a ratio that moves between implementations of one study is
//! what the study's comparison itself would see differently here.

use crate::Table;
use analysis::{CaseSummary, PointSummary};
use seeds::{Experiment, Figure, SeedMetric, counterparts};
use units::{bytes, duration};

/// The pairs table of one experiment that `point` re-runs.
pub(crate) fn pairs(experiment: &Experiment, point: &PointSummary) -> Table {
    let rows = seeds::figures_of(experiment)
        .iter()
        .map(|figure| row(figure, point))
        .collect();
    Table {
        title: format!(
            "{} · {} — each published figure beside our row of the same workload",
            seeds::seed(experiment.seed).title,
            experiment.name
        ),
        headers: crate::table::headers(&[
            "published",
            "theirs",
            "ours",
            "ours ÷ theirs",
            "what differs",
        ]),
        rows,
        notes: vec![NOTE.to_string()],
    }
}

/// `28.1 MB`, `100–200 ms`.
pub(super) fn published(figure: &Figure) -> String {
    match figure.upto {
        Some(upto) => format!("{}–{} {}", figure.value, upto, figure.unit),
        None => format!("{} {}", figure.value, figure.unit),
    }
}

const NOTE: &str = "ours ÷ theirs compares this machine and today's releases with the \
    study's; MB read as 2^20 bytes (bluebird's; the other sources do not say); a range is \
    divided at both ends";

fn row(figure: &Figure, point: &PointSummary) -> Vec<String> {
    let year = figure
        .year
        .map_or_else(|| "undated".into(), |y| y.to_string());
    let theirs = format!(
        "{} · {} · {year}",
        figure.implementation,
        metric_name(figure.metric)
    );
    let counterpart = counterparts::of(figure.seed, figure.implementation)
        .expect("every published implementation has its counterpart entry (tested)");
    let differs = counterpart.differs;
    let Some(name) = counterpart.contestant else {
        return vec![
            theirs,
            published(figure),
            "–".into(),
            "–".into(),
            differs.into(),
        ];
    };
    let case = point
        .rows
        .iter()
        .find(|c| c.contestant == name && c.machine.is_none());
    let (ours, quotient) = match case {
        None => (format!("{name}: not in this run"), "–".into()),
        Some(case) => match case.status_label() {
            Some(status) => (format!("{name}: {status}"), "–".into()),
            None => ours_and_ratio(figure, case, name),
        },
    };
    vec![theirs, published(figure), ours, quotient, differs.into()]
}

fn ours_and_ratio(figure: &Figure, case: &CaseSummary, name: &str) -> (String, String) {
    let Some(value) = value_of(figure.metric, case) else {
        return (format!("{name}: –"), "–".into());
    };
    let shown = match figure.metric {
        SeedMetric::PeakMemory | SeedMetric::MemoryGrowth => bytes(value),
        _ => duration(value),
    };
    let base = base_units(figure.unit);
    let quotient = match figure.upto {
        Some(upto) => format!(
            "{}–{}",
            ratio(value / (upto * base)),
            ratio(value / (figure.value * base))
        ),
        None => ratio(value / (figure.value * base)),
    };
    (format!("{name}: {shown}"), quotient)
}

/// A ratio with three significant figures at most, two below 0.1 (`0.0072`).
fn ratio(value: f64) -> String {
    if value >= 0.1 || value <= 0.0 {
        return crate::overview::ratio(value);
    }
    let decimals = (1.0 - value.log10().floor()) as usize;
    format!("{value:.decimals$}")
}

/// Our counterpart of a published metric as a number: ns or bytes.
fn value_of(metric: SeedMetric, case: &CaseSummary) -> Option<f64> {
    match metric {
        SeedMetric::Time => case.elapsed.as_ref().map(|s| s.median),
        SeedMetric::Overhead => case.overhead_ns,
        SeedMetric::PeakMemory => case.peak_rss.as_ref().map(|s| s.median),
        SeedMetric::MemoryGrowth => {
            let peak = case.peak_rss.as_ref()?.median;
            Some(peak - case.idle_rss_bytes?)
        }
        SeedMetric::SleepOverhead => case.extra.get("oversleep_p50_ns").copied(),
    }
}

/// ns or bytes in one published unit.
fn base_units(unit: &str) -> f64 {
    match unit {
        "s" => 1e9,
        "ms" => 1e6,
        "MB" => f64::from(1u32 << 20),
        other => unreachable!("a published unit not handled: {other} (seeds.rs tests)"),
    }
}

fn metric_name(metric: SeedMetric) -> &'static str {
    match metric {
        SeedMetric::Time => "time",
        SeedMetric::Overhead => "overhead",
        SeedMetric::PeakMemory => "peak memory",
        SeedMetric::MemoryGrowth => "memory growth (ours: peak − idle)",
        SeedMetric::SleepOverhead => "added delay (ours: p50 oversleep)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_ratios_keep_two_significant_figures() {
        assert_eq!(ratio(0.0072), "0.0072");
        assert_eq!(ratio(0.00123), "0.0012");
        assert_eq!(ratio(0.05), "0.050");
        assert_eq!(ratio(0.86), "0.86");
        assert_eq!(ratio(12.34), "12.3");
    }

    #[test]
    fn every_published_unit_converts() {
        for figure in seeds::figures() {
            assert!(base_units(figure.unit) > 0.0, "{figure:?}");
        }
    }
}
