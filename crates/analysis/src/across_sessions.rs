//! A row's interval with the run-to-run variation taken in, where the store holds earlier
//! sessions of its case on the same machine: one run's interval says how sure that run is,
//! not how far the next run's figure may fall (analysis/run_to_run.rs). The spread of the
//! sessions' ln(median elapsed) widens the row's elapsed interval in quadrature, as the
//! gate's ‡ does, and the headline (the overhead where there is an ideal time) follows it.

use super::CaseSummary;
use super::run_to_run::RunToRun;
use serde::{Deserialize, Serialize};
use stats::Interval;

/// A row's headline interval across sessions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct AcrossSessions {
    /// The store's earlier sessions of the case on this machine.
    pub sessions: usize,
    /// The headline's 95 % interval widened by their spread, ns.
    pub(crate) interval: Interval,
}

impl AcrossSessions {
    /// The row's headline widened by `spread`; `None` without an elapsed interval.
    pub fn of(row: &CaseSummary, spread: RunToRun) -> Option<AcrossSessions> {
        let elapsed = row.elapsed?;
        let ci = elapsed.median_ci?;
        let (m, low, high) = (elapsed.median, ci.low, ci.high);
        if m <= 0.0 || low <= 0.0 {
            return None;
        }
        let between = spread.between(0.975);
        let below = (m / low).ln().max(0.0).hypot(between);
        let above = (high / m).ln().max(0.0).hypot(between);
        let ideal = if row.headline() == row.elapsed.as_ref() {
            0.0
        } else {
            row.ideal_ns as f64
        };
        Some(AcrossSessions {
            sessions: spread.sessions,
            interval: Interval::new(m * (-below).exp() - ideal, m * above.exp() - ideal),
        })
    }

    /// Its half-width relative to the headline median.
    pub fn relative_half_width(&self, median: f64) -> f64 {
        (self.interval.high - self.interval.low) / 2.0 / median.abs().max(f64::MIN_POSITIVE)
    }
}
