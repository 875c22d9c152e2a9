//! Numbers only: summary statistics of a sample, bootstrap and order-statistic intervals,
//! modes, change points (E-divisive means), robust outlier scores, least squares, and normal and t quantiles. Nothing here
//! formats or decides.
//!
//! A leaf of taskbench's layers (issue 47), in a crate of its own: it uses serde (its
//! summaries and intervals are stored in the results) and nothing of the harness.

mod bootstrap;
mod edivisive;
mod modes;
mod order;
mod outliers;
mod paired;
mod pooled;
#[cfg(test)]
mod proptests;
mod quantiles;
mod regression;
/// Samples from known distributions, for this crate's tests.
#[cfg(test)]
mod simulate;
pub mod steady;
#[cfg(any(test, feature = "test-support"))]
mod tight;
#[cfg(any(test, feature = "test-support"))]
pub use tight::tight_processes;

pub(crate) use bootstrap::nested_median_ci;
#[cfg(test)]
pub(crate) use bootstrap::nested_ratio_ci;
pub use bootstrap::{Interval, LEVEL, RESAMPLES, SplitMix64};
#[cfg(test)]
pub(crate) use edivisive::best_split;
pub use edivisive::{
    CHANGE_SETTINGS, ChangePoint, ChangeSettings, change_points, change_points_between,
};
pub use modes::{MIN_DISTANCE, MIN_PROCESSES, MIN_SHARE, Mode, SEPARATION, by_share, modes, split};
pub use order::{median_interval, order_interval, ranks, ratio_interval};
pub use outliers::modified_z_scores;
pub(crate) use paired::paired_ratio_ci;
pub use pooled::pooled_median;
pub use quantiles::{normal_quantile, t_quantile};
pub use regression::LinearFit;

use serde::{Deserialize, Serialize};

/// Location and spread of a sample.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    pub n: usize,
    pub median: f64,
    pub min: f64,
    pub max: f64,
    pub(crate) mean: f64,
    /// Sample standard deviation (n − 1); 0 for a single value.
    pub(crate) stddev: f64,
    /// Median absolute deviation from the median (unscaled).
    pub(crate) mad: f64,
    /// 95 % confidence interval of the median: the wider of the bootstrap and the
    /// order-statistic interval (stats/order.rs), its `coverage` set where fewer than six
    /// processes cannot give 95 % (absent in results written before it existed).
    #[serde(default)]
    pub median_ci: Option<Interval>,
    /// The processes' two modes, lower first, where they fall into clearly separated
    /// groups (stats/modes.rs); absent otherwise, and in results written before.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub modes: Option<[Mode; 2]>,
}

impl Summary {
    /// `None` for an empty sample. Each value is one process's.
    pub fn of(values: &[f64]) -> Option<Summary> {
        let mut summary = Summary::describe(values)?;
        let processes: Vec<Vec<f64>> = values.iter().map(|&v| vec![v]).collect();
        summary.median_ci = median_interval(&processes, RESAMPLES);
        Some(summary)
    }

    /// Everything but the interval.
    fn describe(values: &[f64]) -> Option<Summary> {
        if values.is_empty() {
            return None;
        }
        let mut sorted = values.to_vec();
        sorted.sort_by(f64::total_cmp);
        let n = sorted.len();
        let mean = sorted.iter().sum::<f64>() / n as f64;
        let variance = if n > 1 {
            sorted.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1) as f64
        } else {
            0.0
        };
        let median = median_of_sorted(&sorted);
        Some(Summary {
            n,
            median,
            min: sorted[0],
            max: sorted[n - 1],
            mean,
            stddev: variance.sqrt(),
            mad: mad(&sorted, median),
            median_ci: None,
            modes: None,
        })
    }

    /// The summary of the pooled values of `groups` (processes × iterations), its median
    /// each process weighing the same ([`pooled_median`]), with the interval of the median
    /// honest at the processes it has ([`median_interval`]) and the processes' modes; `None`
    /// when there is no value.
    pub fn nested(groups: &[Vec<f64>]) -> Option<Summary> {
        let pooled: Vec<f64> = groups.iter().flatten().copied().collect();
        let mut summary = Summary::describe(&pooled)?;
        summary.median = pooled_median(groups)?;
        summary.median_ci = median_interval(groups, RESAMPLES);
        summary.modes = modes(groups);
        Some(summary)
    }

    /// Half the width of the median's interval relative to `scale` (the median, or another
    /// figure it is read against); `None` without an interval or with a scale of 0.
    pub fn relative_half_width(&self, scale: f64) -> Option<f64> {
        let ci = self.median_ci?;
        (scale != 0.0).then(|| (ci.high - ci.low) / 2.0 / scale.abs())
    }

    #[cfg(test)]
    /// Coefficient of variation (stddev / mean); 0 when the mean is 0.
    pub(crate) fn cv(&self) -> f64 {
        if self.mean == 0.0 {
            0.0
        } else {
            self.stddev / self.mean.abs()
        }
    }
}

/// The median of a sample; `None` when empty.
pub fn median(values: &[f64]) -> Option<f64> {
    if values.is_empty() {
        return None;
    }
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    Some(median_of_sorted(&sorted))
}

/// Median absolute deviation of a sample about `median`.
fn mad(values: &[f64], median: f64) -> f64 {
    let mut deviations: Vec<f64> = values.iter().map(|v| (v - median).abs()).collect();
    deviations.sort_by(f64::total_cmp);
    median_of_sorted(&deviations)
}

fn median_of_sorted(sorted: &[f64]) -> f64 {
    let n = sorted.len();
    if n % 2 == 1 {
        sorted[n / 2]
    } else {
        (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_values() {
        // Worked by hand: mean 5, deviations² sum 32 → variance 32/7.
        let s = Summary::of(&[2.0, 4.0, 4.0, 4.0, 5.0, 5.0, 7.0, 9.0]).unwrap();
        assert_eq!((s.n, s.min, s.max, s.mean), (8, 2.0, 9.0, 5.0));
        assert_eq!(s.median, 4.5);
        assert!((s.stddev - (32.0f64 / 7.0).sqrt()).abs() < 1e-12);
        // |x − 4.5| = 2.5 .5 .5 .5 .5 .5 2.5 4.5 → sorted median (.5 + .5)/2.
        assert_eq!(s.mad, 0.5);
        assert!(s.median_ci.unwrap().contains(4.5));
    }

    #[test]
    fn odd_count_single_value_and_empty() {
        let s = Summary::of(&[3.0, 1.0, 2.0]).unwrap();
        assert_eq!((s.median, s.mad), (2.0, 1.0));
        let one = Summary::of(&[7.0]).unwrap();
        assert_eq!(
            (one.median, one.stddev, one.mad, one.cv()),
            (7.0, 0.0, 0.0, 0.0)
        );
        assert_eq!(Summary::of(&[]), None);
    }
}
