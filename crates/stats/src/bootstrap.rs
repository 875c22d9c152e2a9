//! Bootstrap confidence intervals: of a sample's median, and of the ratio of two samples'
//! medians. Deterministic — a fixed-seed SplitMix64 draws the resamples — so the same runs
//! always give the same intervals, in the table, the JSON and a re-rendered report.
//!
//! A taskbench sample is hierarchical: processes, and iterations within each process. The
//! nested functions resample at both levels (Davison & Hinkley, *Bootstrap Methods and their
//! Application*, §3.8: "case resampling" of the groups, then of the values within each
//! chosen group), so the spread between processes — the part that many iterations of one
//! process cannot shrink — is always in the interval. A flat sample is the special case of
//! one value per group.

#[cfg(test)]
use super::median_of_sorted;
use super::pooled::Drawn;
use serde::{Deserialize, Serialize};

/// Resamples per interval. Percentile intervals need about 1,000–2,000 (Efron & Tibshirani,
/// *An Introduction to the Bootstrap*, §13.3); a case has a handful of runs, so this is cheap.
pub const RESAMPLES: usize = 2_000;

/// Confidence level of every interval.
pub const LEVEL: f64 = 0.95;

/// Seed of every resampling: a fixed one, so intervals are reproducible.
pub(super) const SEED: u64 = 0x7461_736b_6265_6e63; // "taskbenc"

/// A closed interval `[low, high]`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Interval {
    pub low: f64,
    pub high: f64,
    /// The probability it holds what it estimates, where that falls short of [`LEVEL`]:
    /// the range of fewer than six processes (stats/order.rs). Absent: at least [`LEVEL`].
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub coverage: Option<f64>,
}

impl Interval {
    /// `[low, high]` at [`LEVEL`].
    pub const fn new(low: f64, high: f64) -> Interval {
        Interval {
            low,
            high,
            coverage: None,
        }
    }

    /// Whether it holds with [`LEVEL`], as an interval a table calls 95 % must.
    pub fn is_at_level(&self) -> bool {
        self.coverage.is_none_or(|c| c >= LEVEL)
    }

    /// Whether the two intervals share at least one point.
    #[cfg(test)]
    pub(crate) fn overlaps(&self, other: &Interval) -> bool {
        self.low <= other.high && other.low <= self.high
    }

    /// Whether `value` lies within the interval, ends included.
    pub fn contains(&self, value: f64) -> bool {
        self.low <= value && value <= self.high
    }
}

/// SplitMix64 (Steele, Lea & Flood 2014; the generator `java.util.SplittableRandom` and
/// xoshiro's seeding use): tiny, fast, and good enough to pick resample indices.
#[derive(Debug, Clone)]
pub struct SplitMix64(u64);

impl SplitMix64 {
    pub fn new(seed: u64) -> SplitMix64 {
        SplitMix64(seed)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform index below `n` (multiply-shift; the bias is below 2⁻⁵⁰ for small `n`).
    pub fn below(&mut self, n: usize) -> usize {
        ((self.next_u64() as u128 * n as u128) >> 64) as usize
    }
}

/// The 95 % percentile-bootstrap interval of the median of `values`; `None` when empty.
/// A single value gives the degenerate interval `[v, v]`. The order of `values` does not
/// matter.
#[cfg(test)]
pub(crate) fn median_ci(values: &[f64]) -> Option<Interval> {
    if values.is_empty() {
        return None;
    }
    let values = &sorted(values);
    let mut rng = SplitMix64::new(SEED);
    let mut scratch = vec![0.0; values.len()];
    let medians: Vec<f64> = (0..RESAMPLES)
        .map(|_| resampled_median(values, &mut scratch, &mut rng))
        .collect();
    Some(percentile_interval(medians))
}

/// The 95 % percentile-bootstrap interval of median(`a`) / median(`b`), each sample
/// resampled independently; `None` when either is empty or a resampled median of `b` is 0.
#[cfg(test)]
pub(crate) fn ratio_of_medians_ci(a: &[f64], b: &[f64]) -> Option<Interval> {
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let (a, b) = (&sorted(a), &sorted(b));
    let mut rng = SplitMix64::new(SEED);
    let (mut scratch_a, mut scratch_b) = (vec![0.0; a.len()], vec![0.0; b.len()]);
    let mut ratios = Vec::with_capacity(RESAMPLES);
    for _ in 0..RESAMPLES {
        let numerator = resampled_median(a, &mut scratch_a, &mut rng);
        let denominator = resampled_median(b, &mut scratch_b, &mut rng);
        if denominator == 0.0 {
            return None;
        }
        ratios.push(numerator / denominator);
    }
    Some(percentile_interval(ratios))
}

/// The 95 % two-level bootstrap interval of the pooled median of `groups` (one group per
/// process, its values the iterations; each process weighing the same, stats/pooled.rs):
/// each resample draws as many groups as there are,
/// with replacement, and within each drawn group as many of its values, with replacement.
/// `None` when there is no value; empty groups are ignored.
pub(crate) fn nested_median_ci(groups: &[Vec<f64>], resamples: usize) -> Option<Interval> {
    let groups = nonempty(groups);
    if groups.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(SEED);
    let mut scratch = Drawn::default();
    let medians: Vec<f64> = (0..resamples)
        .map(|_| nested_resampled_median(&groups, &mut scratch, &mut rng))
        .collect();
    Some(percentile_interval(medians))
}

/// The 95 % two-level bootstrap interval of pooled-median(`a`) / pooled-median(`b`), the two
/// resampled independently as in [`nested_median_ci`]; `None` when either has no value or a
/// resampled median of `b` is 0.
#[cfg(test)]
pub(crate) fn nested_ratio_ci(
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    resamples: usize,
) -> Option<Interval> {
    let (a, b) = (nonempty(a), nonempty(b));
    if a.is_empty() || b.is_empty() {
        return None;
    }
    let mut rng = SplitMix64::new(SEED);
    let mut scratch = Drawn::default();
    let mut ratios = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        let numerator = nested_resampled_median(&a, &mut scratch, &mut rng);
        let denominator = nested_resampled_median(&b, &mut scratch, &mut rng);
        if denominator == 0.0 {
            return None;
        }
        ratios.push(numerator / denominator);
    }
    Some(percentile_interval(ratios))
}

fn nonempty(groups: &[Vec<f64>]) -> Vec<&[f64]> {
    groups
        .iter()
        .filter(|g| !g.is_empty())
        .map(Vec::as_slice)
        .collect()
}

/// The pooled median of a two-level resample of `groups` (not empty): as many groups as
/// there are, drawn with replacement, and within each as many of its values.
fn nested_resampled_median(groups: &[&[f64]], scratch: &mut Drawn, rng: &mut SplitMix64) -> f64 {
    scratch.clear();
    for _ in 0..groups.len() {
        scratch.draw(groups[rng.below(groups.len())], rng);
    }
    scratch.median().expect("groups are not empty")
}

/// The median by selection (O(n)), reordering `values`.
pub(super) fn median_in_place(values: &mut [f64]) -> f64 {
    let n = values.len();
    let (_, &mut upper, _) = values.select_nth_unstable_by(n / 2, f64::total_cmp);
    if n % 2 == 1 {
        upper
    } else {
        let lower = values[..n / 2]
            .iter()
            .copied()
            .fold(f64::NEG_INFINITY, f64::max);
        (lower + upper) / 2.0
    }
}

#[cfg(test)]
fn sorted(values: &[f64]) -> Vec<f64> {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    sorted
}

#[cfg(test)]
fn resampled_median(values: &[f64], scratch: &mut [f64], rng: &mut SplitMix64) -> f64 {
    for slot in scratch.iter_mut() {
        *slot = values[rng.below(values.len())];
    }
    scratch.sort_by(f64::total_cmp);
    median_of_sorted(scratch)
}

/// The central [`LEVEL`] of `estimates` by nearest rank: the ⌈n·α/2⌉-th and ⌈n·(1−α/2)⌉-th
/// smallest (the 50th and 1,950th of 2,000).
pub(super) fn percentile_interval(mut estimates: Vec<f64>) -> Interval {
    estimates.sort_by(f64::total_cmp);
    let n = estimates.len() as f64;
    let tail = (1.0 - LEVEL) / 2.0;
    let rank = |p: f64| ((n * p).ceil() as usize).clamp(1, estimates.len()) - 1;
    Interval::new(estimates[rank(tail)], estimates[rank(1.0 - tail)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::pooled_median;

    #[test]
    fn splitmix_matches_the_reference_sequence() {
        // First outputs for seed 0 of the reference C implementation (prng.di.unimi.it).
        let mut rng = SplitMix64::new(0);
        assert_eq!(rng.next_u64(), 0xe220_a839_7b1d_cdaf);
        assert_eq!(rng.next_u64(), 0x6e78_9e6a_a1b9_65f4);
        assert_eq!(rng.next_u64(), 0x06c4_5d18_8009_454f);
    }

    #[test]
    fn the_median_interval_contains_the_median_and_is_reproducible() {
        let values = [10.2, 9.8, 10.0, 10.5, 9.9, 10.1, 10.3, 9.7, 10.4, 10.0];
        let ci = median_ci(&values).unwrap();
        assert!(ci.contains(10.05), "{ci:?}");
        assert!(
            ci.low >= 9.7 && ci.high <= 10.5,
            "{ci:?} within the sample's range"
        );
        assert!(ci.high - ci.low < 0.8, "{ci:?} narrower than the range");
        assert_eq!(median_ci(&values), Some(ci), "same data, same interval");
        let mut shuffled = values;
        shuffled.reverse();
        assert_eq!(median_ci(&shuffled), Some(ci), "the order does not matter");
    }

    #[test]
    fn five_runs_give_their_range() {
        // With n = 5 the resampled median is the smallest value with probability
        // Σₖ₌₃⁵ C(5,k)(1/5)ᵏ(4/5)⁵⁻ᵏ = 0.058 > 2.5 %, so the interval is exactly [min, max].
        let ci = median_ci(&[3.0, 1.0, 2.0, 5.0, 4.0]).unwrap();
        assert_eq!(ci, Interval::new(1.0, 5.0));
    }

    #[test]
    fn degenerate_samples() {
        assert_eq!(median_ci(&[]), None);
        assert_eq!(median_ci(&[7.0]), Some(Interval::new(7.0, 7.0)));
        assert_eq!(ratio_of_medians_ci(&[1.0], &[0.0]), None);
        assert_eq!(
            ratio_of_medians_ci(&[6.0, 6.0], &[2.0]),
            Some(Interval::new(3.0, 3.0))
        );
    }

    #[test]
    fn the_ratio_interval_brackets_the_ratio_of_medians() {
        let a = [20.0, 21.0, 19.0, 20.5, 19.5, 20.2];
        let b = [10.0, 10.4, 9.6, 10.1, 9.9, 10.0];
        let ci = ratio_of_medians_ci(&a, &b).unwrap();
        // Ratios of resampled medians lie between min(a)/max(b) and max(a)/min(b).
        assert!(ci.low >= 19.0 / 10.4 && ci.high <= 21.0 / 9.6, "{ci:?}");
        assert!(ci.contains(20.1 / 10.0), "{ci:?}");
        assert_eq!(ratio_of_medians_ci(&a, &b), Some(ci));
    }

    #[test]
    fn one_value_per_group_is_the_flat_bootstrap_in_distribution() {
        // Same data as flat and as groups of one: the two-level resample then draws groups
        // (and their only value) exactly as the flat one draws values.
        let values = [3.0, 1.0, 2.0, 5.0, 4.0];
        let groups: Vec<Vec<f64>> = values.iter().map(|&v| vec![v]).collect();
        assert_eq!(
            nested_median_ci(&groups, RESAMPLES),
            Some(Interval::new(1.0, 5.0)),
            "n = 5: the range, as five_runs_give_their_range works out"
        );
    }

    #[test]
    fn between_process_spread_is_never_hidden_by_many_iterations() {
        // docs/STATISTICS.md's worked example: three processes, each very steady within
        // itself (1,000 iterations of level + 0, 0.01, 0.02), at levels 100, 104 and 110.
        // The flat bootstrap of the 3,000 pooled iterations always finds the median in the
        // middle process; the two-level one draws processes, and the middle draw is the
        // first or the last process with probability 7/27 each.
        let process = |level: f64| -> Vec<f64> {
            (0..1_000).map(|i| level + (i % 3) as f64 * 0.01).collect()
        };
        let groups = vec![process(100.0), process(104.0), process(110.0)];
        let flat = median_ci(&groups.concat()).unwrap();
        let nested = nested_median_ci(&groups, RESAMPLES).unwrap();
        assert_eq!(pooled_median(&groups), Some(104.01));
        assert_eq!((flat.low, flat.high), (104.01, 104.01));
        assert_eq!((nested.low, nested.high), (100.01, 110.01));
    }

    #[test]
    fn nested_intervals_are_reproducible_and_bracket_the_pooled_median() {
        let groups = vec![
            vec![10.0, 10.2, 9.9],
            vec![10.4, 10.1],
            vec![9.8, 10.0, 10.3, 10.1],
            vec![],
        ];
        let ci = nested_median_ci(&groups, 500).unwrap();
        let median = pooled_median(&groups).unwrap();
        assert_eq!(
            median, 10.1,
            "each process a third of the weight: 9.8 ¼, 9.9 ⅓, 10 ⅓ + ¼, then 10.1 passes half"
        );
        assert!(
            ci.contains(median) && ci.low >= 9.8 && ci.high <= 10.4,
            "{ci:?}"
        );
        assert_eq!(nested_median_ci(&groups, 500), Some(ci));
        assert_eq!(nested_median_ci(&[vec![]], 500), None);
        let ratio = nested_ratio_ci(&groups, &[vec![5.0, 5.0], vec![5.0]], 500).unwrap();
        assert!(
            ratio.low >= 9.8 / 5.0 && ratio.high <= 10.4 / 5.0,
            "{ratio:?}"
        );
    }

    #[test]
    fn selection_median_matches_the_sorted_one() {
        for values in [
            vec![3.0],
            vec![4.0, 1.0],
            vec![5.0, 1.0, 3.0, 2.0],
            vec![2.0, 2.0, 9.0],
        ] {
            let mut sorted = values.clone();
            sorted.sort_by(f64::total_cmp);
            let mut scratch = values.clone();
            assert_eq!(
                median_in_place(&mut scratch),
                median_of_sorted(&sorted),
                "{values:?}"
            );
        }
    }

    #[test]
    fn intervals_overlap_when_they_share_a_point() {
        let i = Interval::new;
        assert!(i(1.0, 2.0).overlaps(&i(1.5, 3.0)));
        assert!(i(1.0, 2.0).overlaps(&i(2.0, 3.0)), "touching ends overlap");
        assert!(!i(1.0, 2.0).overlaps(&i(2.1, 3.0)));
        assert!(!i(2.1, 3.0).overlaps(&i(1.0, 2.0)));
    }
}
