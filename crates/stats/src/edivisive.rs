//! E-divisive means (Matteson & James, "A nonparametric approach for multiple change point
//! analysis of multivariate data", JASA 109(505), 2014), as Hunter (Fleming et al., ICPE
//! 2023) and Apache Otava use it on benchmark histories: the split of a series that
//! maximises the energy-distance statistic Q̂, tested by permuting the series, then each side
//! again. Numbers in, indices and p-values out; analysis/change_points.rs decides what the
//! steps mean.
//!
//! As M&J define it, a split τ is searched over every end κ of the right side too, so that
//! a step and its undoing (Node 24 slower, Node 26 as before) are a block that stands out.

use super::bootstrap::{SEED, SplitMix64};

/// How change points are found.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangeSettings {
    /// Significance level of each split's permutation test.
    pub alpha: f64,
    /// Fewest values on either side of a change point: a level held this long is a step,
    /// shorter is an outlier.
    pub min_segment: usize,
    /// Permutations of one test, at most (a test stops as soon as it cannot be significant).
    pub permutations: usize,
}

/// The defaults. α = 1 % rather than Hunter's 0.1 %: a taskbench history holds tens of
/// sessions, not thousands of commits, and a permutation test over n values with k after a
/// step cannot go below about 2 / C(n, k) (0.1 % needs 20 sessions around a step of three);
/// a case's false-change rate is then 1 %. Three values a side: one or two sessions apart
/// are outliers as often as steps. 999 permutations resolve p to 0.001.
pub const CHANGE_SETTINGS: ChangeSettings = ChangeSettings {
    alpha: 0.01,
    min_segment: 3,
    permutations: 999,
};

/// A change point: the series' level changes from `values[index - 1]` to `values[index]`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    /// The first index of the segment after the change.
    pub index: usize,
    /// The permutation test's p-value of the split.
    pub p_value: f64,
}

/// Every significant change point of `values`, in index order. Deterministic: each test
/// permutes with a generator seeded from the fixed seed and the segment's place.
pub fn change_points(values: &[f64], settings: &ChangeSettings) -> Vec<ChangePoint> {
    let groups: Vec<Vec<f64>> = values.iter().map(|&v| vec![v]).collect();
    change_points_between(&groups, settings)
}

/// Every significant change point between `groups` — each group the figures of one place
/// (a release's processes), a change only ever between two groups — its `index` the first
/// group after it. The groups' figures are searched and permuted as one series, so a
/// place's several figures weigh as several and `min_segment` counts figures: one release
/// of ten processes is a segment, as a session's one figure is not.
pub fn change_points_between(groups: &[Vec<f64>], settings: &ChangeSettings) -> Vec<ChangePoint> {
    let values: Vec<f64> = groups.iter().flatten().copied().collect();
    let mut starts = vec![0];
    for group in groups {
        starts.push(starts[starts.len() - 1] + group.len());
    }
    let mut cuts = vec![false; values.len() + 1];
    for &start in &starts {
        cuts[start] = true;
    }
    let mut found = Vec::new();
    divide(&values, &cuts, 0, settings, &mut found);
    let mut found: Vec<ChangePoint> = (found.into_iter())
        .map(|c| ChangePoint {
            index: starts.partition_point(|&s| s < c.index),
            ..c
        })
        .collect();
    found.sort_by_key(|c| c.index);
    found
}

/// Splits `values` (which begin at `offset` in the whole series) where Q̂ is largest, if the
/// split is significant, and each side again; `cuts[i]`: a split may fall before `values[i]`.
fn divide(
    values: &[f64],
    cuts: &[bool],
    offset: usize,
    settings: &ChangeSettings,
    found: &mut Vec<ChangePoint>,
) {
    let Some((at, observed)) = best_split_at(values, settings.min_segment, cuts) else {
        return;
    };
    let seed = SEED ^ ((offset as u64) << 32) ^ values.len() as u64;
    let p_value = permutation_p(values, cuts, observed, settings, seed);
    if p_value > settings.alpha {
        return;
    }
    found.push(ChangePoint {
        index: offset + at,
        p_value,
    });
    divide(&values[..at], &cuts[..=at], offset, settings, found);
    divide(&values[at..], &cuts[at..], offset + at, settings, found);
}

/// [`best_split_at`] with a split allowed anywhere.
#[cfg(test)]
pub(crate) fn best_split(values: &[f64], min: usize) -> Option<(usize, f64)> {
    best_split_at(values, min, &vec![true; values.len() + 1])
}

/// The split τ (the first index of the right side) that maximises, over every end κ,
/// Q̂(X, Y) = mn/(m+n) · [2/(mn) Σ|X−Y| − C(m,2)⁻¹ Σ|X−X'| − C(n,2)⁻¹ Σ|Y−Y'|] for
/// X = values[..τ], Y = values[τ..κ] (M&J's exponent 1), over sides of at least `min`
/// values; `None` when the series is too short. Searching κ lets a step that is undone
/// later (a block) stand out against what precedes it; τ and κ only where `cuts` allows
/// (`cuts[i]`: before `values[i]`). O(n²): each sum is carried along.
pub(crate) fn best_split_at(values: &[f64], min: usize, cuts: &[bool]) -> Option<(usize, f64)> {
    let n = values.len();
    let min = min.max(1);
    if n < 2 * min {
        return None;
    }
    // above[c][t]: Σ |values[i] − values[c]| for i < t.
    let above: Vec<Vec<f64>> = (0..n)
        .map(|c| {
            let mut sums = Vec::with_capacity(c + 1);
            let mut sum = 0.0;
            sums.push(0.0);
            for i in 0..c {
                sum += (values[i] - values[c]).abs();
                sums.push(sum);
            }
            sums
        })
        .collect();
    let pairs = |k: usize| (k * (k - 1)) as f64 / 2.0;
    let mut best: Option<(usize, f64)> = None;
    let mut within_left = (0..min).map(|c| above[c][c]).sum::<f64>();
    for tau in min..=n - min {
        let (mut between, mut within_right) = (0.0, 0.0);
        for end in (tau + 1..=n).take_while(|_| cuts[tau]) {
            let c = end - 1;
            between += above[c][tau];
            within_right += above[c][c] - above[c][tau];
            let k = end - tau;
            if k < min || !cuts[end] {
                continue;
            }
            let energy = 2.0 * between / (tau * k) as f64
                - if tau > 1 {
                    within_left / pairs(tau)
                } else {
                    0.0
                }
                - if k > 1 { within_right / pairs(k) } else { 0.0 };
            let q = (tau * k) as f64 / end as f64 * energy;
            if best.is_none_or(|(_, b)| q > b) {
                best = Some((tau, q));
            }
        }
        within_left += above[tau][tau];
    }
    best
}

/// The permutation p-value of `observed`, the largest Q̂ of `values`: (1 + b) / (1 + r) for
/// b of r shuffles reaching it, each shuffle split only where `cuts` allows (the groups keep
/// their sizes, their figures are exchanged). The test stops early once b is too many for p ≤ α (its p
/// is then the estimate so far: above α either way).
fn permutation_p(
    values: &[f64],
    cuts: &[bool],
    observed: f64,
    settings: &ChangeSettings,
    seed: u64,
) -> f64 {
    let mut rng = SplitMix64::new(seed);
    let mut shuffled = values.to_vec();
    let limit = settings.alpha * (settings.permutations + 1) as f64 - 1.0;
    let mut reached = 0usize;
    for done in 1..=settings.permutations {
        for i in (1..shuffled.len()).rev() {
            shuffled.swap(i, rng.below(i + 1));
        }
        let q = best_split_at(&shuffled, settings.min_segment, cuts).map_or(0.0, |(_, q)| q);
        // Equal up to rounding counts as reaching it: a flat series is no change.
        if q >= observed - 1e-9 * observed.abs() {
            reached += 1;
            if reached as f64 > limit {
                return (1 + reached) as f64 / (1 + done) as f64;
            }
        }
    }
    (1 + reached) as f64 / (1 + settings.permutations) as f64
}

#[cfg(test)]
mod tests;
