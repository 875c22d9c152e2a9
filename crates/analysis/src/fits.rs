//! Per-task cost across a sweep. Points of one scenario that differ only in its size
//! parameter (tasks, requests, size, pairs, length) form a sweep; for each contestant with
//! at least two valid points the medians of overhead, CPU and peak RSS are fitted against
//! N by least squares: slope = cost per task, intercept = fixed cost.
//!
//! Two points give an exact line: its slope is still the per-task cost between the two
//! sizes (what OS threads leave when they fail past some size), but R² would be 1 by
//! construction, so it is only reported from three points on.

use crate::{CaseSummary, Outcome, PointSummary};
use serde::{Deserialize, Serialize};
use stats::LinearFit;
use std::collections::BTreeMap;

/// Fewest points whose R² says anything.
pub(crate) const MIN_POINTS_FOR_R2: usize = 3;

/// What a fit is of.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Metric {
    /// Median elapsed − ideal, ns: the slope is ns/task, the intercept the fixed overhead.
    OverheadNs,
    /// Median user + sys of the whole process (start-up and inner warm-up included), ns.
    CpuNs,
    /// Median peak RSS, bytes: the slope is bytes/task, the intercept the base footprint.
    PeakRssBytes,
}

impl Metric {
    /// Every metric, in the order tables show them.
    pub const ALL: [Metric; 3] = [Metric::OverheadNs, Metric::CpuNs, Metric::PeakRssBytes];

    fn of(self, row: &CaseSummary) -> Option<f64> {
        match self {
            Metric::OverheadNs => row.overhead_ns,
            Metric::CpuNs => row.cpu.map(|s| s.median),
            Metric::PeakRssBytes => row.peak_rss.map(|s| s.median),
        }
    }
}

/// One fitted point: the size and the median there.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct FitPoint {
    pub n: u64,
    pub value: f64,
}

/// `metric ≈ slope · N + intercept` for one contestant across one sweep.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Fit {
    pub contestant: String,
    pub scenario: String,
    /// The swept parameter: the scenario's size parameter.
    pub param: String,
    /// The parameters held fixed across the sweep.
    pub other_params: BTreeMap<String, u64>,
    pub metric: Metric,
    /// Per task: ns or bytes.
    pub slope: f64,
    /// Fixed cost: ns or bytes.
    pub intercept: f64,
    /// Coefficient of determination; absent below [`MIN_POINTS_FOR_R2`] points or when
    /// every median is equal.
    pub r2: Option<f64>,
    /// The medians fitted, by N.
    pub points: Vec<FitPoint>,
}

/// Every fit over the sweeps among `points`, sweeps in the order their first point ran,
/// contestants best first at that point, metrics in [`Metric::ALL`] order.
pub fn fits(points: &[PointSummary]) -> Vec<Fit> {
    sweeps(points).iter().flat_map(Sweep::fits).collect()
}

/// The points grouped into sweeps (a lone point is a sweep of one, which fits nothing).
fn sweeps(points: &[PointSummary]) -> Vec<Sweep<'_>> {
    let mut sweeps: Vec<Sweep> = Vec::new();
    for point in points {
        let Some((param, others)) = sweep_key(point) else {
            continue;
        };
        match sweeps
            .iter_mut()
            .find(|s| s.scenario == point.point.scenario && s.param == param && s.others == others)
        {
            Some(sweep) => sweep.members.push(point),
            None => sweeps.push(Sweep {
                scenario: &point.point.scenario,
                param,
                others,
                members: vec![point],
            }),
        }
    }
    sweeps
}

/// Points of one scenario that differ only in the size parameter.
struct Sweep<'a> {
    scenario: &'a str,
    param: &'static str,
    others: BTreeMap<String, u64>,
    members: Vec<&'a PointSummary>,
}

impl Sweep<'_> {
    /// Each contestant's fits, for every metric with two or more valid points.
    fn fits(&self) -> Vec<Fit> {
        let mut contestants: Vec<&str> = Vec::new();
        for row in self.members.iter().flat_map(|p| &p.rows) {
            if !contestants.contains(&row.contestant.as_str()) {
                contestants.push(&row.contestant);
            }
        }
        let mut fits = Vec::new();
        for contestant in contestants {
            let rows: Vec<&CaseSummary> = self
                .members
                .iter()
                .flat_map(|p| &p.rows)
                .filter(|r| r.contestant == contestant && r.outcome == Outcome::Valid)
                .collect();
            for metric in Metric::ALL {
                let mut fitted: Vec<FitPoint> = rows
                    .iter()
                    .filter_map(|r| {
                        Some(FitPoint {
                            n: *r.point.params.get(self.param)?,
                            value: metric.of(r)?,
                        })
                    })
                    .collect();
                fitted.sort_by_key(|p| p.n);
                let xy: Vec<(f64, f64)> = fitted.iter().map(|p| (p.n as f64, p.value)).collect();
                let Some(line) = LinearFit::of(&xy) else {
                    continue;
                };
                fits.push(Fit {
                    contestant: contestant.to_string(),
                    scenario: self.scenario.to_string(),
                    param: self.param.to_string(),
                    other_params: self.others.clone(),
                    metric,
                    slope: line.slope,
                    intercept: line.intercept,
                    r2: line.r2.filter(|_| line.n >= MIN_POINTS_FOR_R2),
                    points: fitted,
                });
            }
        }
        fits
    }
}

impl Fit {
    /// Whether `point` is one of the points of this fit's sweep.
    pub fn covers(&self, point: &PointSummary) -> bool {
        sweep_key(point).is_some_and(|(param, others)| {
            self.scenario == point.point.scenario
                && self.param == param
                && self.other_params == others
        })
    }
}

/// The size parameter of a point and its other parameters; `None` for scenarios without a
/// size (timer) and for `--command` runs.
fn sweep_key(point: &PointSummary) -> Option<(&'static str, BTreeMap<String, u64>)> {
    let param = catalogue::spec(&point.point.scenario).ok()?.size_param?;
    let mut others = point.point.params.clone();
    others.remove(param)?;
    Some((param, others))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fake::{record, runs};
    use run::{Phase, RunStatus};

    #[test]
    fn a_sweep_is_fitted_per_contestant_and_metric() {
        // a: overhead 5 µs + 300 ns/task, RSS 1 MB + 100 B/task, at three sizes; b fails at
        // the largest, leaving an exact two-point line.
        let line = |n: u64| 5_000 + 300 * n;
        let mut records = Vec::new();
        for n in [1_000, 2_000, 4_000] {
            records.extend(runs("a", n, &[line(n); 3], 1_000_000 + 100 * n));
            if n < 4_000 {
                records.extend(runs("b", n, &[2 * line(n); 3], 2_000_000));
            } else {
                records.push(record("b", n, Phase::Measured, RunStatus::Timeout, 0, 0));
            }
        }
        let points = crate::summarize(&records, &crate::Apart::none());
        let fits = fits(&points);
        let find = |c: &str, m: Metric| fits.iter().find(|f| f.contestant == c && f.metric == m);
        let overhead = find("a", Metric::OverheadNs).unwrap();
        assert!((overhead.slope - 300.0).abs() < 1e-6, "{overhead:?}");
        assert!((overhead.intercept - 5_000.0).abs() < 1e-6, "{overhead:?}");
        assert!((overhead.r2.unwrap() - 1.0).abs() < 1e-12);
        assert_eq!(
            overhead.points.iter().map(|p| p.n).collect::<Vec<_>>(),
            [1_000, 2_000, 4_000]
        );
        let rss = find("a", Metric::PeakRssBytes).unwrap();
        assert!((rss.slope - 100.0).abs() < 1e-6 && (rss.intercept - 1e6).abs() < 1e-3);
        assert_eq!((rss.param.as_str(), rss.other_params.len()), ("tasks", 0));
        let b = find("b", Metric::OverheadNs).unwrap();
        assert_eq!(
            (b.points.len(), b.r2),
            (2, None),
            "two points: an exact line, no R²"
        );
        assert!((b.slope - 600.0).abs() < 1e-6);
        let flat = find("b", Metric::PeakRssBytes).unwrap();
        assert_eq!((flat.slope, flat.r2), (0.0, None));
    }
}
