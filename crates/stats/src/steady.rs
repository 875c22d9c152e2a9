//! Whether one process's iterations settled: a median over iterations that were still
//! warming up, or that slowed down, describes neither level. Following Barrett et al.,
//! "Virtual Machine Warmup Blows Hot and Cold" (OOPSLA 2017), this finds the change points
//! of a process's series of iteration times and names what the series did: flat, warmed up,
//! slowed down, or never steady. Numbers only.
//!
//! The method, on ln(time) (a ratio is what matters; times are clamped to at least 1 ns):
//!
//! 1. Noise scale σ from the median absolute deviation of successive differences, divided by
//!    0.6745·√2 (the MAD of a normal's differences), so that a step — one large difference —
//!    does not inflate it; at least `SIGMA_FLOOR`, so identical values divide by no zero.
//! 2. Each value is clipped to within `CLIP`·σ of a running median of
//!    2·[`MIN_SEGMENT`] − 1 values. A running median keeps steps but not a run of outliers
//!    shorter than [`MIN_SEGMENT`], so a GC pause in one iteration cannot pay for a
//!    segment of its own: under a squared cost a single 3× spike would otherwise outweigh
//!    any penalty.
//! 3. The segmentation of least cost plus penalty (optimal partitioning, Jackson et al.
//!    2005, the optimum that PELT — Killick, Fearnhead & Eckley 2012 — reaches with pruning;
//!    at ~1,000 values the O(n²) search is cheap and simpler to hold exact with a shortest
//!    segment). The cost of a segment is its sum of squared deviations from its mean ÷ σ²
//!    (a normal-mean cost); each change point costs β = 15·ln n, the penalty Barrett et al.
//!    used, which keeps a noisy flat series whole.
//! 4. Adjacent segments whose medians differ by less than [`TOLERANCE`] are merged, as
//!    Barrett et al. treat segments within a tolerance as equivalent.
//! 5. The class ([`SeriesClass`]), checked in this order: no change point is flat; a change
//!    point at or after `steady_from` is no steady state; otherwise the last segment is
//!    warmed up if it is within [`TOLERANCE`] of the fastest segment, else a slowdown.

use super::median;
use serde::{Deserialize, Serialize};
use std::fmt;

/// Segments whose medians differ by less than this fraction are the same level (merged),
/// and a last segment within it of the fastest is the fastest. 5 %: a step of a few percent
/// is too small to call a warm-up or a slowdown, and one that small is as likely a shift in
/// the machine's load as in the process.
pub(crate) const TOLERANCE: f64 = 0.05;

/// Shortest segment: three iterations, so that one or two outlying iterations (a GC pause)
/// never form a level of their own.
pub(crate) const MIN_SEGMENT: usize = 3;

/// Shortest series that is segmented: two shortest segments. Shorter ones are flat.
pub(crate) const MIN_SERIES: usize = 2 * MIN_SEGMENT;

/// Penalty per change point, times ln n (Barrett et al.'s 15·log n).
const PENALTY_PER_LN_N: f64 = 15.0;

/// How many σ a value may lie from its running median before it is clipped: normal noise
/// passes nearly untouched (0.3 % lie beyond), a 3× spike (ln 3 ≈ 1.1) is cut to a few σ.
const CLIP: f64 = 3.0;

/// The least noise scale on the log scale (0.1 %): a series of identical values has σ = 0,
/// and this keeps its cost finite while a real step in it is still hundreds of σ.
const SIGMA_FLOOR: f64 = 1e-3;

/// MAD of the differences of a normal series ÷ its σ: 0.6745 (the MAD of a standard normal)
/// × √2 (a difference of two values has √2 the spread of one).
const MAD_TO_SIGMA: f64 = 0.6745 * std::f64::consts::SQRT_2;

/// How a process's series behaved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum SeriesClass {
    /// No change point: the same level from the first iteration.
    Flat,
    /// Faster after one or more change points, and the last segment is (within tolerance)
    /// the fastest: a warm-up that ended.
    WarmedUp,
    /// The last segment is slower than an earlier one (beyond tolerance).
    Slowdown,
    /// A change point falls inside the part that was meant to be steady (at or after
    /// `steady_from`), so the process had not settled by then.
    NoSteadyState,
}

impl SeriesClass {
    /// The class in words, for tables and reports.
    pub fn label(&self) -> &'static str {
        match self {
            SeriesClass::Flat => "flat",
            SeriesClass::WarmedUp => "warmed up",
            SeriesClass::Slowdown => "slowdown",
            SeriesClass::NoSteadyState => "no steady state",
        }
    }

    /// Whether the process reached a level it kept: flat or warmed up.
    #[cfg(test)]
    pub(crate) fn is_steady(&self) -> bool {
        matches!(self, SeriesClass::Flat | SeriesClass::WarmedUp)
    }
}

impl fmt::Display for SeriesClass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.label())
    }
}

/// A classified series.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Classified {
    pub class: SeriesClass,
    /// 0-based indices where a new segment starts (sorted, each in 1..len), after merging
    /// segments within [`TOLERANCE`].
    pub change_points: Vec<usize>,
    /// The index from which the series is at its final level: the last change point, or 0
    /// when flat. (The warm-up this process needed.)
    pub settled_at: usize,
    /// Median of the last segment ÷ median of the first segment.
    pub(crate) last_over_first: f64,
}

impl Classified {
    /// One level throughout.
    fn flat() -> Classified {
        Classified {
            class: SeriesClass::Flat,
            change_points: Vec::new(),
            settled_at: 0,
            last_over_first: 1.0,
        }
    }
}

/// Change points of `series` (iteration times in ns, in order), by a penalised segmentation
/// on the logarithm of the times (times are positive; a ratio is what matters): each split
/// must reduce the within-segment cost by more than a penalty that keeps a noisy flat series
/// from being split. Before merging segments within [`TOLERANCE`] ([`classify`] merges);
/// none for a series shorter than [`MIN_SERIES`].
pub(crate) fn change_points(series: &[f64]) -> Vec<usize> {
    if series.len() < MIN_SERIES {
        return Vec::new();
    }
    let logs: Vec<f64> = clamped(series).iter().map(|t| t.ln()).collect();
    let sigma = noise_scale(&logs);
    segmentation(&clipped(&logs, sigma), sigma)
}

/// Classifies `series`, whose iterations from index `steady_from` on were meant to be
/// steady (the warm-up before it). A series shorter than [`MIN_SERIES`] is Flat with no
/// change points.
pub fn classify(series: &[f64], steady_from: usize) -> Classified {
    if series.len() < MIN_SERIES {
        return Classified::flat();
    }
    let times = clamped(series);
    let change_points = merged(&times, change_points(series));
    let medians = segment_medians(&times, &change_points);
    let (first, last) = (medians[0], medians[medians.len() - 1]);
    // A steady part that starts at or past the end holds no change point to judge.
    let unsettled = change_points
        .iter()
        .any(|&c| steady_from < series.len() && c >= steady_from);
    Classified {
        class: class_of(&medians, unsettled),
        settled_at: change_points.last().copied().unwrap_or(0),
        last_over_first: last / first,
        change_points,
    }
}

/// The class from the segments' medians (in order) and whether a change point fell in the
/// steady part; the order of the checks is the one the module doc gives.
fn class_of(medians: &[f64], unsettled: bool) -> SeriesClass {
    let fastest = medians.iter().copied().fold(f64::INFINITY, f64::min);
    let last = medians[medians.len() - 1];
    if medians.len() == 1 {
        SeriesClass::Flat
    } else if unsettled {
        SeriesClass::NoSteadyState
    } else if last <= fastest * (1.0 + TOLERANCE) {
        SeriesClass::WarmedUp
    } else {
        SeriesClass::Slowdown
    }
}

/// Times at least 1 ns, so that their logarithms and ratios are finite.
fn clamped(series: &[f64]) -> Vec<f64> {
    series.iter().map(|&t| t.max(1.0)).collect()
}

/// σ of the noise of `logs`, from the MAD of successive differences (a step is one large
/// difference, which the median ignores), at least `SIGMA_FLOOR`.
fn noise_scale(logs: &[f64]) -> f64 {
    let diffs: Vec<f64> = logs.windows(2).map(|w| w[1] - w[0]).collect();
    let Some(centre) = median(&diffs) else {
        return SIGMA_FLOOR;
    };
    let deviations: Vec<f64> = diffs.iter().map(|d| (d - centre).abs()).collect();
    let mad = median(&deviations).unwrap_or(0.0);
    (mad / MAD_TO_SIGMA).max(SIGMA_FLOOR)
}

/// `logs` with each value moved to within [`CLIP`]·σ of its running median.
fn clipped(logs: &[f64], sigma: f64) -> Vec<f64> {
    let reach = CLIP * sigma;
    running_median(logs)
        .iter()
        .zip(logs)
        .map(|(&centre, &y)| y.clamp(centre - reach, centre + reach))
        .collect()
}

/// The median of the 2·[`MIN_SEGMENT`] − 1 values around each value. Near the ends the
/// window shifts inwards rather than shrinking, so that two outliers among the first values
/// are still a minority of it.
fn running_median(logs: &[f64]) -> Vec<f64> {
    let width = (2 * MIN_SEGMENT - 1).min(logs.len());
    let half = width / 2;
    (0..logs.len())
        .map(|i| {
            let start = i.saturating_sub(half).min(logs.len() - width);
            median(&logs[start..start + width]).unwrap_or(logs[i])
        })
        .collect()
}

/// Prefix sums of values and their squares, for any segment's cost in O(1).
struct Prefix {
    sums: Vec<f64>,
    squares: Vec<f64>,
}

impl Prefix {
    /// Of `values` less their mean: centred values keep the sum of squares from cancelling.
    fn new(values: &[f64]) -> Prefix {
        let mean = values.iter().sum::<f64>() / values.len() as f64;
        let (mut sums, mut squares) = (vec![0.0], vec![0.0]);
        for v in values {
            let v = v - mean;
            sums.push(sums[sums.len() - 1] + v);
            squares.push(squares[squares.len() - 1] + v * v);
        }
        Prefix { sums, squares }
    }

    /// Sum of squared deviations from the mean of values `start..end`.
    fn cost(&self, start: usize, end: usize) -> f64 {
        let sum = self.sums[end] - self.sums[start];
        let squares = self.squares[end] - self.squares[start];
        (squares - sum * sum / (end - start) as f64).max(0.0)
    }
}

/// The change points minimising Σ cost/σ² + β·(change points), every segment at least
/// [`MIN_SEGMENT`] long: best[t] is the least penalised cost of `logs[..t]`, from the best
/// start of its last segment (Jackson et al. 2005).
fn segmentation(logs: &[f64], sigma: f64) -> Vec<usize> {
    let n = logs.len();
    let prefix = Prefix::new(logs);
    let penalty = PENALTY_PER_LN_N * (n as f64).ln();
    let scale = 1.0 / (sigma * sigma);
    // best[0] = −β so that the first segment pays no change point.
    let mut best = vec![f64::INFINITY; n + 1];
    let mut start_of_last = vec![0; n + 1];
    best[0] = -penalty;
    for end in MIN_SEGMENT..=n {
        // A last segment starts at 0, or after a prefix long enough to be segmented.
        let starts = std::iter::once(0).chain(MIN_SEGMENT..=end - MIN_SEGMENT);
        for start in starts {
            let total = best[start] + prefix.cost(start, end) * scale + penalty;
            // Strictly less: among equal segmentations the earliest start wins, always.
            if total < best[end] {
                best[end] = total;
                start_of_last[end] = start;
            }
        }
    }
    backtrack(&start_of_last, n)
}

/// The change points of the best segmentation of `..n`, in order.
fn backtrack(start_of_last: &[usize], n: usize) -> Vec<usize> {
    let mut points = Vec::new();
    let mut end = n;
    while start_of_last[end] > 0 {
        end = start_of_last[end];
        points.push(end);
    }
    points.reverse();
    points
}

/// `change_points` less those between segments whose medians (of `times`) differ by less
/// than [`TOLERANCE`], the closest pair merged first until no pair is that close.
fn merged(times: &[f64], mut change_points: Vec<usize>) -> Vec<usize> {
    loop {
        let medians = segment_medians(times, &change_points);
        let closest = medians
            .windows(2)
            .map(|pair| (pair[0] - pair[1]).abs() / pair[0].min(pair[1]))
            .enumerate()
            .filter(|&(_, gap)| gap < TOLERANCE)
            .min_by(|a, b| a.1.total_cmp(&b.1));
        // Segment i ends where change point i is; merging i with i + 1 removes it.
        let Some((i, _)) = closest else {
            return change_points;
        };
        change_points.remove(i);
    }
}

/// The median of each segment of `times` that `change_points` delimit (one for none).
fn segment_medians(times: &[f64], change_points: &[usize]) -> Vec<f64> {
    let bounds: Vec<usize> = std::iter::once(0)
        .chain(change_points.iter().copied())
        .chain(std::iter::once(times.len()))
        .collect();
    bounds
        .windows(2)
        .map(|w| median(&times[w[0]..w[1]]).unwrap_or(1.0))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bootstrap::SplitMix64;
    use crate::simulate::uniform;

    /// Iteration times of `levels` (iterations, multiple of 1 µs) in turn, each with ±`noise`
    /// uniform multiplicative noise.
    fn series(levels: &[(usize, f64)], noise: f64, seed: u64) -> Vec<f64> {
        let mut rng = SplitMix64::new(seed);
        levels
            .iter()
            .flat_map(|&(count, level)| std::iter::repeat_n(level, count))
            .map(|level| 1_000.0 * level * (1.0 + noise * (2.0 * uniform(&mut rng) - 1.0)))
            .collect()
    }

    /// `series` with ±3 % noise.
    fn noisy(levels: &[(usize, f64)], seed: u64) -> Vec<f64> {
        series(levels, 0.03, seed)
    }

    /// 200 flat iterations, ±3 %, with three 3× one-off spikes (GC pauses) at random places.
    fn flat_with_spikes(seed: u64) -> Vec<f64> {
        let mut times = noisy(&[(200, 1.0)], seed);
        let mut rng = SplitMix64::new(seed ^ 0x5eed);
        for _ in 0..3 {
            let at = rng.below(times.len());
            times[at] *= 3.0;
        }
        times
    }

    #[test]
    fn flat_noisy_series_with_spikes_is_flat() {
        // Measured: 0 of these 200 seeds split, before merging or after; over seeds 0–999,
        // 2 (0.2 %), both where all three spikes fell within five iterations, alternating
        // with normal ones: three iterations mostly 3× slower, a level by MIN_SEGMENT's
        // rule. With normal rather than uniform noise, 0 of 1,000. At most 2 % may split.
        let seeds = 200;
        let (mut raw, mut merged) = (0, 0);
        for seed in 0..seeds {
            let times = flat_with_spikes(seed);
            raw += usize::from(!change_points(&times).is_empty());
            let classified = classify(&times, 20);
            merged += usize::from(classified.class != SeriesClass::Flat);
            if classified.class == SeriesClass::Flat {
                assert_eq!(
                    (classified.settled_at, classified.last_over_first),
                    (0, 1.0)
                );
            }
        }
        assert!(
            raw * 50 <= seeds as usize,
            "{raw} of {seeds} flat series split"
        );
        assert!(
            merged * 50 <= seeds as usize,
            "{merged} of {seeds} not flat"
        );
    }

    #[test]
    fn outliers_make_no_segment() {
        // Without clipping to the running median each spike would pay for two change points
        // many times over: ln 3 ≈ 1.1 is ~60 σ of ±3 % noise. Spikes at both ends, a pair
        // of them, and a fast outlier too.
        let mut times = noisy(&[(100, 1.0)], 7);
        for (at, factor) in [
            (0, 3.0),
            (1, 3.0),
            (40, 3.0),
            (41, 5.0),
            (70, 0.3),
            (99, 3.0),
        ] {
            times[at] *= factor;
        }
        assert_eq!(change_points(&times), Vec::<usize>::new());
        assert_eq!(classify(&times, 10).class, SeriesClass::Flat);
    }

    #[test]
    fn warm_up_then_flat_is_warmed_up() {
        for seed in 0..20 {
            let times = noisy(&[(20, 10.0), (180, 1.0)], seed);
            let classified = classify(&times, 40);
            assert_eq!(classified.class, SeriesClass::WarmedUp, "seed {seed}");
            assert!((18..=22).contains(&classified.settled_at), "{classified:?}");
            assert!((classified.last_over_first - 0.1).abs() < 0.01);
            // The warm-up allowed ended before the process settled.
            assert_eq!(classify(&times, 10).class, SeriesClass::NoSteadyState);
        }
    }

    #[test]
    fn gradual_jit_curve_is_warmed_up_where_it_flattens() {
        // One iteration at each tier, then flat from index 6.
        let curve = [30.0, 15.0, 8.0, 4.0, 2.0, 1.5];
        let mut levels: Vec<(usize, f64)> = curve.iter().map(|&level| (1, level)).collect();
        levels.push((194, 1.0));
        for seed in 0..20 {
            let classified = classify(&noisy(&levels, seed), 50);
            assert_eq!(classified.class, SeriesClass::WarmedUp, "seed {seed}");
            assert!((5..=8).contains(&classified.settled_at), "{classified:?}");
        }
    }

    #[test]
    fn slower_last_level_is_a_slowdown() {
        let times = noisy(&[(100, 1.0), (100, 1.5)], 3);
        let classified = classify(&times, 150);
        assert_eq!(classified.class, SeriesClass::Slowdown);
        assert!(
            (98..=102).contains(&classified.settled_at),
            "{classified:?}"
        );
        assert!((classified.last_over_first - 1.5).abs() < 0.05);
        assert!(!classified.class.is_steady());
        // A change point inside the steady part is checked first: no steady state.
        assert_eq!(classify(&times, 0).class, SeriesClass::NoSteadyState);
    }

    #[test]
    fn two_steps_are_two_change_points() {
        let times = noisy(&[(30, 10.0), (30, 3.0), (140, 1.0)], 11);
        let classified = classify(&times, 100);
        assert_eq!(classified.change_points.len(), 2, "{classified:?}");
        let [first, second] = [classified.change_points[0], classified.change_points[1]];
        assert!((28..=32).contains(&first) && (58..=62).contains(&second));
        assert_eq!(classified.class, SeriesClass::WarmedUp);
    }

    #[test]
    fn short_series_is_flat() {
        let times = [100.0, 1.0, 50.0, 3.0, 900.0];
        assert!(times.len() < MIN_SERIES);
        assert_eq!(classify(&times, 0), Classified::flat());
        assert!(change_points(&times).is_empty());
        assert!(classify(&[], 0).change_points.is_empty());
        // The shortest series that is segmented holds two shortest segments.
        let step = [10.0, 10.0, 10.0, 1.0, 1.0, 1.0];
        assert_eq!(classify(&step, 6).change_points, vec![3]);
    }

    #[test]
    fn identical_values_divide_by_no_zero() {
        assert_eq!(classify(&[5.0; 100], 0), Classified::flat());
        let mut step = vec![5.0; 50];
        step.extend([6.0; 50]);
        assert_eq!(change_points(&step), vec![50]);
        // Times of 0 (below the clock's resolution) are 1 ns.
        assert_eq!(classify(&[0.0; 10], 0), Classified::flat());
    }

    #[test]
    fn step_within_tolerance_is_merged() {
        // ±0.5 % noise, so that the segmentation does find the 2 % step: merging removes it.
        let times = series(&[(100, 1.0), (100, 1.02)], 0.005, 5);
        assert!(!change_points(&times).is_empty());
        let classified = classify(&times, 0);
        assert_eq!(classified, Classified::flat());
    }

    #[test]
    fn labels_and_steadiness() {
        let classes = [
            SeriesClass::Flat,
            SeriesClass::WarmedUp,
            SeriesClass::Slowdown,
            SeriesClass::NoSteadyState,
        ];
        let labels: Vec<String> = classes.iter().map(ToString::to_string).collect();
        assert_eq!(labels, ["flat", "warmed up", "slowdown", "no steady state"]);
        let steady: Vec<bool> = classes.iter().map(SeriesClass::is_steady).collect();
        assert_eq!(steady, [true, true, false, false]);
    }
}
