//! Change points over a case's history (`history --changes`, the trend charts, `compare
//! --fail-on-change`): a series of figures in time order — one per session — or in release
//! order — one per release of a sweep — and its steps as E-divisive finds them
//! (stats/edivisive.rs): where each starts, how big it is (the mean of the segment after
//! over the mean of the segment before) and how sure (the permutation test's p).

use crate::stats::{ChangeSettings, change_points};
use catalogue::Point;

/// Which figure a series follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Figure {
    /// The history's time: the overhead where the scenario has an ideal time, else the
    /// elapsed (`compare --fail-on-change`: the elapsed).
    Time,
    PeakRss,
}

/// What a series' figures follow one another along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Along {
    /// Sessions, in the order they started.
    Sessions,
    /// A sweep's releases, oldest first (analysis/releases.rs).
    Releases,
}

/// Where one figure of a series was measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Place {
    /// When its session started (RFC 3339).
    pub started: String,
    pub commit: Option<String>,
    pub dirty: Option<bool>,
    /// The contestant's version, as the session recorded it.
    pub version: Option<String>,
    /// Along releases: the release variant (`go@1.24.0`).
    pub release: Option<String>,
}

/// One case's figures in order.
#[derive(Debug, Clone, PartialEq)]
pub struct Series {
    pub point: Point,
    /// The contestant, or along releases the contestant they are releases of (`go`).
    pub contestant: String,
    pub figure: Figure,
    pub along: Along,
    /// Each figure's place, in the same order.
    pub places: Vec<Place>,
    pub values: Vec<f64>,
}

/// A change point of a series.
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// The index of the first figure after the step.
    pub index: usize,
    /// The mean of the segment after over the mean of the segment before (1.42: 42 % up).
    pub ratio: f64,
    /// The means of the segments before and after.
    pub levels: (f64, f64),
    pub p_value: f64,
    /// Figures in the segments before and after (up to the neighbouring change points).
    pub before: usize,
    pub after: usize,
}

/// A series and its steps.
#[derive(Debug, Clone, PartialEq)]
pub struct SeriesSteps {
    pub series: Series,
    pub steps: Vec<Step>,
}

impl SeriesSteps {
    /// The place where `step` starts: the first figure after it.
    pub fn at(&self, step: &Step) -> &Place {
        &self.series.places[step.index]
    }

    /// The place of the last figure before `step`.
    pub fn before(&self, step: &Step) -> &Place {
        &self.series.places[step.index - 1]
    }
}

/// The steps of `series` under `settings`.
pub fn steps(series: Series, settings: &ChangeSettings) -> SeriesSteps {
    let points = change_points(&series.values, settings);
    let mut bounds = vec![0];
    bounds.extend(points.iter().map(|c| c.index));
    bounds.push(series.values.len());
    let mean = |range: &[f64]| range.iter().sum::<f64>() / range.len() as f64;
    let steps = points
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let before = &series.values[bounds[k]..c.index];
            let after = &series.values[c.index..bounds[k + 2]];
            let levels = (mean(before), mean(after));
            Step {
                index: c.index,
                ratio: levels.1 / levels.0,
                levels,
                p_value: c.p_value,
                before: before.len(),
                after: after.len(),
            }
        })
        .collect();
    SeriesSteps { series, steps }
}

/// What the change-point gate found for one case: its newest step, where that starts
/// among the newest `recent` figures and passes `threshold` upwards.
pub fn newest_step(found: &SeriesSteps, recent: usize, threshold: f64) -> Option<&Step> {
    let newest = found.steps.last()?;
    let starts_recently = newest.index + recent >= found.series.values.len();
    (starts_recently && newest.ratio > 1.0 + threshold).then_some(newest)
}

#[cfg(test)]
mod tests;
