//! What warm-up curves say: where each process's times settle (its last change point,
//! stats/steady.rs), how much slower its first iteration was, and the warm-up a time
//! process of that contestant and scenario should run — the figure `taskbench warmup
//! --write` keeps in the contestant's table.

use serde::Serialize;
use stats::median;
use stats::steady::{SeriesClass, classify};

/// The margin over the latest settling seen: a few processes show only part of the spread.
pub(crate) const MARGIN: f64 = 0.25;

/// How far above its last level a series may stay and count as settled: level shifts of a
/// few per cent later in a process are the machine's drift, not a warm-up to wait out.
pub(crate) const SETTLED_WITHIN: f64 = 0.10;

/// One process's curve.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct ProcessCurve {
    pub(crate) class: SeriesClass,
    /// The iteration from which its times first reach their last level (within
    /// [`SETTLED_WITHIN`]; 0: from the first).
    pub(crate) settled_at: usize,
    /// The last level's median, ns.
    pub(crate) steady_ns: f64,
    /// The first iteration ÷ the last level's median.
    pub(crate) first_over_steady: f64,
    /// Every iteration, ns.
    pub(crate) series: Vec<f64>,
}

/// The curves of one contestant at one scenario, and the warm-up they ask for.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub(crate) struct CaseCurves {
    pub(crate) contestant: String,
    pub(crate) scenario: String,
    pub(crate) processes: Vec<ProcessCurve>,
    /// Warm-up iterations a time process should run: the latest settling among the
    /// processes, with [`MARGIN`], at least 1 (the cold start).
    pub(crate) proposed: u32,
}

/// A process's curve from its series.
pub(crate) fn process_curve(series: Vec<f64>) -> ProcessCurve {
    let classified = classify(&series, series.len());
    let last = &series[classified.settled_at.min(series.len().saturating_sub(1))..];
    let steady_ns = median(last).unwrap_or(0.0);
    let first = series.first().copied().unwrap_or(0.0);
    ProcessCurve {
        class: classified.class,
        settled_at: settled(&series, &classified.change_points, steady_ns),

        steady_ns,
        first_over_steady: if steady_ns > 0.0 {
            first / steady_ns
        } else {
            0.0
        },
        series,
    }
}

/// The start (0 or a change point) of the first segment whose median is within
/// [`SETTLED_WITHIN`] of the last level `steady_ns`: where the curve first reaches its final
/// level. A JIT's curve falls to it and stays; a later burst of the machine's noise above it
/// is not a warm-up still going on, and is not waited out.
fn settled(series: &[f64], change_points: &[usize], steady_ns: f64) -> usize {
    let starts: Vec<usize> = std::iter::once(0)
        .chain(change_points.iter().copied())
        .collect();
    let ends = starts
        .iter()
        .skip(1)
        .copied()
        .chain(std::iter::once(series.len()));
    starts
        .iter()
        .zip(ends)
        .find(|&(&a, b)| {
            median(&series[a..b]).is_some_and(|m| m <= steady_ns * (1.0 + SETTLED_WITHIN))
        })
        .map_or(0, |(&a, _)| a)
}

/// The curves of a case and the warm-up they propose.
pub(crate) fn case_curves(contestant: &str, scenario: &str, series: Vec<Vec<f64>>) -> CaseCurves {
    let processes: Vec<ProcessCurve> = series.into_iter().map(process_curve).collect();
    CaseCurves {
        contestant: contestant.to_string(),
        scenario: scenario.to_string(),
        proposed: proposed(&processes),
        processes,
    }
}

/// The latest settling among the processes, with the margin; at least 1. A process that
/// slows down at its end still warmed up before: where it first reached its last level is
/// where its warm-up ended.
fn proposed(processes: &[ProcessCurve]) -> u32 {
    let latest = processes.iter().map(|p| p.settled_at).max().unwrap_or(0);
    ((latest as f64 * (1.0 + MARGIN)).ceil() as u32).max(1)
}

impl CaseCurves {
    /// The evidence in one line, kept as a comment beside the figure in the table:
    /// `settled at 12, 15 of 100 iterations (warmed up, warmed up); first 8.5x steady`.
    pub(crate) fn evidence(&self) -> String {
        let settled: Vec<String> = self
            .processes
            .iter()
            .map(|p| p.settled_at.to_string())
            .collect();
        let classes: Vec<&str> = self.processes.iter().map(|p| p.class.label()).collect();
        let lengths = self.processes.iter().map(|p| p.series.len()).max();
        let first: Vec<String> = self
            .processes
            .iter()
            .map(|p| format!("{:.1}", p.first_over_steady))
            .collect();
        format!(
            "settled at {} of {} iterations ({}); first iteration {}x the steady one",
            settled.join(", "),
            lengths.unwrap_or(0),
            classes.join(", "),
            first.join(", ")
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn curve(warm: usize, steady: usize) -> Vec<f64> {
        let noise = |i: usize| 1.0 + 0.01 * ((i * 7919 % 11) as f64 - 5.0) / 5.0;
        (0..warm + steady)
            .map(|i| if i < warm { 20.0 } else { 1.0 } * 1e6 * noise(i))
            .collect()
    }

    #[test]
    fn the_proposal_is_the_latest_warm_up_with_a_margin() {
        let case = case_curves("node", "spawn", vec![curve(8, 92), curve(16, 84)]);
        assert!((16..=21).contains(&case.proposed), "{case:?}");
        assert!(
            case.processes
                .iter()
                .all(|p| p.class == SeriesClass::WarmedUp)
        );
        assert!((case.processes[0].first_over_steady - 20.0).abs() < 1.0);
        assert!(
            case.evidence().starts_with("settled at "),
            "{}",
            case.evidence()
        );
        let flat = case_curves("tokio", "spawn", vec![curve(0, 100)]);
        assert_eq!(flat.proposed, 1, "the cold start at least");
        // A shift of 7 % halfway is drift, not a warm-up to wait out.
        let drift: Vec<f64> = (0..100)
            .map(|i| if i < 50 { 1.07e6 } else { 1e6 })
            .collect();
        let drift = case_curves("tokio", "pingpong", vec![drift]);
        assert_eq!(drift.processes[0].settled_at, 0, "{drift:?}");
    }
}
