//! Modes: when a case's processes fall into clearly separated groups (tokio's skynet on two
//! vCPUs: 3.5–4.7 ms in nine processes, 9.7–10.4 ms in three), a median and its interval
//! describe neither group. This finds such a split in the process medians, numbers only;
//! docs/STATISTICS.md gives the rule and why.

use super::{Interval, RESAMPLES, median, median_interval, pooled_median};
use serde::{Deserialize, Serialize};

/// The least share of the processes a mode holds: a fifth, so that a slow process or two
/// among a dozen is an outlier, not a mode.
pub const MIN_SHARE: f64 = 0.2;

/// The least processes a mode holds, whatever its share: two slow processes are two
/// outliers, and two tight ones side by side happen by chance in any sample.
pub const MIN_PROCESSES: usize = 3;

/// How many times the wider group's width (largest less smallest, on the log scale) the
/// gap between the groups must span: the empty space between them twice as wide as either.
pub const SEPARATION: f64 = 2.0;

/// How far apart the groups' medians must be, relative to the larger: closer modes only
/// widen the interval a little, and the interval says so already.
pub const MIN_DISTANCE: f64 = 0.1;

/// One mode of a figure: its share of the processes, and the median of its processes'
/// iterations with their interval.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Mode {
    /// Processes in the mode / processes of the case.
    pub share: f64,
    pub processes: usize,
    pub median: f64,
    pub median_ci: Option<Interval>,
}

impl Mode {
    /// The mode of the processes `members` of `groups` (one group per process).
    fn of(groups: &[Vec<f64>], members: &[usize]) -> Option<Mode> {
        let mine: Vec<Vec<f64>> = members.iter().map(|&i| groups[i].clone()).collect();
        let processes = groups.iter().filter(|g| !g.is_empty()).count();
        Some(Mode {
            share: members.len() as f64 / processes as f64,
            processes: members.len(),
            median: pooled_median(&mine)?,
            median_ci: median_interval(&mine, RESAMPLES),
        })
    }
}

/// The two modes of `groups` (one per process, its values the iterations), lower first;
/// `None` when the processes form one group.
pub fn modes(groups: &[Vec<f64>]) -> Option<[Mode; 2]> {
    let [lower, upper] = split(groups)?;
    Some([Mode::of(groups, &lower)?, Mode::of(groups, &upper)?])
}

/// `modes` the one holding more processes first (the lower of two equal ones).
pub fn by_share([lower, upper]: [Mode; 2]) -> [Mode; 2] {
    if upper.processes > lower.processes {
        [upper, lower]
    } else {
        [lower, upper]
    }
}

/// The processes (indices into `groups`) of the lower and of the upper mode, when their
/// medians split into two: sorted on a log scale (linear when one is 0 or below), at the
/// widest gap that leaves each side [`MIN_PROCESSES`] and [`MIN_SHARE`]; a split when that
/// gap spans [`SEPARATION`] times the wider side's width and the sides' medians lie
/// [`MIN_DISTANCE`] apart.
pub fn split(groups: &[Vec<f64>]) -> Option<[Vec<usize>; 2]> {
    let mut processes: Vec<(usize, f64)> = groups
        .iter()
        .enumerate()
        .filter_map(|(i, g)| Some((i, median(g)?)))
        .collect();
    processes.sort_by(|a, b| a.1.total_cmp(&b.1));
    let values: Vec<f64> = processes.iter().map(|p| p.1).collect();
    let at = widest_gap(&scaled(&values))?;
    separated(&values, at).then(|| {
        let (lower, upper) = processes.split_at(at);
        [
            lower.iter().map(|p| p.0).collect(),
            upper.iter().map(|p| p.0).collect(),
        ]
    })
}

/// The logarithms of `sorted`, or the values themselves when one is not positive.
fn scaled(sorted: &[f64]) -> Vec<f64> {
    if sorted.iter().all(|v| *v > 0.0) {
        sorted.iter().map(|v| v.ln()).collect()
    } else {
        sorted.to_vec()
    }
}

/// The split index (the lower side's size) of the widest gap in `sorted` that leaves
/// enough processes each side; `None` when there is no such split.
fn widest_gap(sorted: &[f64]) -> Option<usize> {
    let n = sorted.len();
    let least = MIN_PROCESSES.max((MIN_SHARE * n as f64).ceil() as usize);
    (least..=n.saturating_sub(least)).max_by(|&a, &b| {
        let gap = |at: usize| sorted[at] - sorted[at - 1];
        gap(a).total_cmp(&gap(b))
    })
}

/// Whether `sorted` split at `at` is two modes: the gap against both sides' widths, and
/// the distance of their medians.
fn separated(sorted: &[f64], at: usize) -> bool {
    let scaled = scaled(sorted);
    let (lower, upper) = scaled.split_at(at);
    let gap = upper[0] - lower[lower.len() - 1];
    let widest = width(lower).max(width(upper));
    let (low, high) = (
        median(&sorted[..at]).unwrap_or(0.0),
        median(&sorted[at..]).unwrap_or(0.0),
    );
    let distance = (high - low) / low.abs().max(high.abs());
    gap > SEPARATION * widest && distance >= MIN_DISTANCE
}

/// The width of a sorted group: its largest value less its smallest.
fn width(sorted: &[f64]) -> f64 {
    sorted
        .last()
        .zip(sorted.first())
        .map_or(0.0, |(high, low)| high - low)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bootstrap::SplitMix64;
    use crate::simulate::Draw;

    fn processes(medians: &[f64]) -> Vec<Vec<f64>> {
        crate::tight_processes(medians, 1.0)
    }

    #[test]
    fn tokio_skynet_on_two_vcpus_is_two_modes() {
        // The figures: nine processes at 3.5–4.7 ms, three at 9.7–10.4 ms.
        let ms = [3.5, 3.6, 3.7, 3.8, 3.9, 4.0, 4.2, 4.5, 4.7, 9.7, 10.0, 10.4];
        let groups = processes(&ms);
        let [lower, upper] = modes(&groups).expect("two modes");
        assert_eq!((lower.processes, upper.processes), (9, 3));
        assert_eq!((lower.share, upper.share), (0.75, 0.25));
        assert_eq!((lower.median, upper.median), (3.9, 10.0));
        let ci = upper.median_ci.unwrap();
        assert!(ci.contains(10.0) && ci.low >= 9.7 * 0.999 && ci.high <= 10.4 * 1.001);
        assert_eq!(
            ci.coverage,
            Some(0.75),
            "three processes: their range, at 75 %"
        );
        assert_eq!(split(&groups).unwrap()[1], [9, 10, 11]);
    }

    #[test]
    fn one_mode_is_one_mode() {
        // Go's spawn: 2.5–8.3 ms, spread out but one group.
        let ms = [2.5, 2.9, 3.2, 3.4, 3.9, 4.1, 4.8, 5.5, 6.2, 8.3];
        assert_eq!(modes(&processes(&ms)), None);
        // Steady processes: nothing to split.
        assert_eq!(modes(&processes(&[5.0; 8])), None);
        assert_eq!(modes(&processes(&[5.0])), None);
        assert_eq!(modes(&[]), None);
    }

    #[test]
    fn a_long_tail_is_not_a_mode() {
        // Tokio's spawn: processes 2.3–5.9 ms, a tail towards slow, no gap of its own.
        let ms = [2.3, 3.0, 3.0, 3.1, 3.5, 3.8, 3.9, 4.3, 5.5, 5.6, 5.9];
        assert_eq!(modes(&processes(&ms)), None);
        // One or two slow processes are outliers: too few for a mode.
        let ms = [3.0, 3.1, 3.0, 3.2, 3.1, 3.0, 3.1, 3.2, 3.0, 9.0];
        assert_eq!(modes(&processes(&ms)), None);
    }

    #[test]
    fn near_groups_are_not_modes() {
        // Two tight groups 5 % apart: separated, but too close to matter.
        let ms = [10.0, 10.01, 10.02, 10.0, 10.5, 10.51, 10.52, 10.5];
        assert_eq!(modes(&processes(&ms)), None);
        // 20 % apart: modes.
        let ms = [10.0, 10.01, 10.02, 10.0, 12.0, 12.01, 12.02, 12.0];
        assert!(modes(&processes(&ms)).is_some());
    }

    #[test]
    fn negative_figures_split_on_a_linear_scale() {
        // Overheads around zero (a timer that fires early): no logarithm to take.
        let ms = [-0.2, -0.21, -0.19, -0.2, 3.0, 3.1, 2.9, 3.0];
        let [lower, upper] = split(&processes(&ms)).expect("two modes");
        assert_eq!((lower.len(), upper.len()), (4, 4));
    }

    #[test]
    fn simulated_samples_of_one_mode_seldom_show_two() {
        let mut rng = SplitMix64::new(0x006d_6f64_6573);
        for draw in [Draw::Normal, Draw::LogNormal] {
            for (n, most) in [(6, 8), (8, 4), (12, 4), (20, 4), (40, 4)] {
                let false_modes = (0..400)
                    .filter(|_| split(&processes(&draw.samples(n, &mut rng))).is_some())
                    .count();
                assert!(false_modes <= most, "{draw:?} × {n}: {false_modes} of 400");
            }
        }
    }

    #[test]
    fn simulated_samples_of_two_modes_show_them() {
        // The 70/30 mixture at a dozen processes, where each part holds three or more.
        let mut rng = SplitMix64::new(0x006d_6f64_6573);
        let (mut eligible, mut found) = (0, 0);
        for _ in 0..400 {
            let sample = Draw::Bimodal.samples(12, &mut rng);
            let upper = sample.iter().filter(|v| **v > 68.0).count();
            if (3..=9).contains(&upper) {
                eligible += 1;
                found += usize::from(split(&processes(&sample)).is_some());
            }
        }
        assert!(eligible > 250, "{eligible}");
        assert!(
            found as f64 >= 0.95 * eligible as f64,
            "{found} of {eligible}"
        );
    }
}
