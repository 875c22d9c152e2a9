//! `compare --fail-on-change`: the gate judging each case's history with NEW's figure last
//! rather than BASE against NEW. A case fails when its newest change point starts among the
//! newest [`RECENT`] figures (NEW's included) and its step is up by more than the threshold
//! (`--fail-if-slower` for time, `--fail-if-bigger` for peak RSS). The cases share the
//! gate's family-wise false-alarm rate, 5 % (Bonferroni), as the comparison's judgements do.

use super::change_points::{Figure, Series, SeriesSteps, Step, newest_step, steps};
use crate::compare::gate::{FAMILY_WISE, Thresholds};
use stats::{CHANGE_SETTINGS, ChangeSettings};

/// A step is news while it starts among this many newest figures: the minimum segment (3)
/// is the earliest it can be seen, and two more runs give a test short of power at its
/// first sight another chance; older, it is history, and the gate no longer fails on it.
pub(crate) const RECENT: usize = 5;

/// What the change-point gate decided.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct ChangeGate {
    /// Series judged (a case's time or peak RSS, with a threshold for it).
    pub(crate) judged: usize,
    /// Of them, too short to show a change point: under twice the minimum segment.
    pub(crate) too_short: usize,
    /// The settings each was judged with: α shared among them.
    pub(crate) settings: ChangeSettings,
    /// Each failing series and its newest step.
    pub(crate) failures: Vec<(SeriesSteps, Step)>,
}

/// Judges every series of `series` that has a threshold in `thresholds`.
pub(crate) fn judge_changes(series: Vec<Series>, thresholds: &Thresholds) -> ChangeGate {
    let threshold = |s: &Series| match s.figure {
        Figure::Time => thresholds.slower,
        Figure::PeakRss => thresholds.bigger,
    };
    let judged: Vec<(Series, f64)> = series
        .into_iter()
        .filter_map(|s| threshold(&s).map(|t| (s, t)))
        .collect();
    let alpha = FAMILY_WISE / judged.len().max(1) as f64;
    let settings = ChangeSettings {
        alpha,
        // p resolved to a tenth of α at least.
        permutations: CHANGE_SETTINGS
            .permutations
            .max((10.0 / alpha).ceil() as usize - 1),
        ..CHANGE_SETTINGS
    };
    let too_short = (judged.iter())
        .filter(|(s, _)| s.values.len() < 2 * settings.min_segment)
        .count();
    let mut failures = Vec::new();
    for (series, threshold) in &judged {
        let found = steps(series.clone(), &settings);
        if let Some(step) = newest_step(&found, RECENT, *threshold).cloned() {
            failures.push((found, step));
        }
    }
    ChangeGate {
        judged: judged.len(),
        too_short,
        settings,
        failures,
    }
}
