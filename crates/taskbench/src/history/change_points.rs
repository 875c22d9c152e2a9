//! Change points over a case's history (`history --changes`, the trend charts, `compare
//! --fail-on-change`): a series of figures in time order — one per session — or in release
//! order — one per release of a sweep — and its steps as E-divisive finds them
//! (stats/edivisive.rs): where each starts, how big it is (the mean of the segment after
//! over the mean of the segment before) and how sure (the permutation test's p).

use catalogue::Point;
use stats::{ChangeSettings, change_points, change_points_between, median};

/// Which figure a series follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Figure {
    /// The history's time: the overhead where the scenario has an ideal time, else the
    /// elapsed (`compare --fail-on-change`: the elapsed).
    Time,
    PeakRss,
}

/// What a series' figures follow one another along.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Along {
    /// Sessions, in the order they started.
    Sessions,
    /// A sweep's releases, oldest first (contestant/releases.rs).
    Releases,
}

/// Where one figure of a series was measured.
#[derive(Debug, Clone, PartialEq, Default)]
pub(crate) struct Place {
    /// When its session started (RFC 3339).
    pub(crate) started: String,
    pub(crate) commit: Option<String>,
    pub(crate) dirty: Option<bool>,
    /// The contestant's version, as the session recorded it.
    pub(crate) version: Option<String>,
    /// Along releases: the release variant (`go@1.24.0`).
    pub(crate) release: Option<String>,
}

/// One case's figures in order.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Series {
    pub(crate) point: Point,
    /// The contestant, or along releases the contestant they are releases of (`go`).
    pub(crate) contestant: String,
    pub(crate) figure: Figure,
    pub(crate) along: Along,
    /// Each figure's place, in the same order.
    pub(crate) places: Vec<Place>,
    pub(crate) values: Vec<f64>,
    /// Each place's processes' figures, where every place has them (a release sweep whose
    /// runs the store kept): the steps are then found among them, between places. Empty
    /// otherwise, and the steps are found among `values`.
    pub(crate) groups: Vec<Vec<f64>>,
}

impl Series {
    /// The figures the steps are found among: its processes' where it has them, else its
    /// places'.
    pub(crate) fn figures(&self) -> usize {
        if self.groups.is_empty() {
            self.values.len()
        } else {
            self.groups.iter().map(Vec::len).sum()
        }
    }
}

/// A change point of a series.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Step {
    /// The index of the first figure after the step.
    pub(crate) index: usize,
    /// The level of the segment after over the level of the segment before (1.42: 42 %
    /// up): each the mean of its figures, or where a series has processes, their median.
    pub(crate) ratio: f64,
    /// The levels of the segments before and after.
    pub(crate) levels: (f64, f64),
    pub(crate) p_value: f64,
    /// Places (sessions, releases) in the segments before and after (up to the
    /// neighbouring change points).
    pub(crate) before: usize,
    pub(crate) after: usize,
}

/// A series and its steps.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct SeriesSteps {
    pub(crate) series: Series,
    pub(crate) steps: Vec<Step>,
}

impl SeriesSteps {
    /// The place where `step` starts: the first figure after it.
    pub(crate) fn at(&self, step: &Step) -> &Place {
        &self.series.places[step.index]
    }

    /// The place of the last figure before `step`.
    pub(crate) fn before(&self, step: &Step) -> &Place {
        &self.series.places[step.index - 1]
    }
}

/// The steps of `series` under `settings`.
pub(crate) fn steps(series: Series, settings: &ChangeSettings) -> SeriesSteps {
    let grouped = !series.groups.is_empty();
    let points = if grouped {
        change_points_between(&series.groups, settings)
    } else {
        change_points(&series.values, settings)
    };
    let mut bounds = vec![0];
    bounds.extend(points.iter().map(|c| c.index));
    bounds.push(series.values.len());
    // Among processes, the medians: a bimodal runtime's mean follows its modes' shares.
    let level = |range: std::ops::Range<usize>| {
        if grouped {
            median(&series.groups[range].concat()).unwrap_or(f64::NAN)
        } else {
            series.values[range.clone()].iter().sum::<f64>() / range.len() as f64
        }
    };
    let steps = points
        .iter()
        .enumerate()
        .map(|(k, c)| {
            let levels = (level(bounds[k]..c.index), level(c.index..bounds[k + 2]));
            Step {
                index: c.index,
                ratio: levels.1 / levels.0,
                levels,
                p_value: c.p_value,
                before: c.index - bounds[k],
                after: bounds[k + 2] - c.index,
            }
        })
        .collect();
    SeriesSteps { series, steps }
}

/// Leaves out of `found` the steps smaller than `share` (0.10: a step of less than 10 %
/// either way, on the log scale as bisect's threshold); a step whose levels give no ratio
/// (an overhead at or below zero) is kept. How many were left out.
pub(crate) fn at_least(found: &mut [SeriesSteps], share: f64) -> usize {
    let mut left_out = 0;
    for series in found {
        let before = series.steps.len();
        series.steps.retain(|s| {
            let comparable = s.levels.0 > 0.0 && s.levels.1 > 0.0;
            !comparable || s.ratio.ln().abs() >= (1.0 + share).ln()
        });
        left_out += before - series.steps.len();
    }
    left_out
}

/// What the change-point gate found for one case: its newest step, where that starts
/// among the newest `recent` figures and passes `threshold` upwards.
pub(crate) fn newest_step(found: &SeriesSteps, recent: usize, threshold: f64) -> Option<&Step> {
    let newest = found.steps.last()?;
    let starts_recently = newest.index + recent >= found.series.values.len();
    (starts_recently && newest.ratio > 1.0 + threshold).then_some(newest)
}

#[cfg(test)]
mod tests;
