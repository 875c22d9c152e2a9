//! The ratio of two cases' pooled medians with their processes paired by the round they ran
//! in: the runner measures every case once a round, in a shuffled order (run/runner.rs), so
//! the j-th process of one case and of another met the machine in the same stretch of the
//! run, and a resample that draws round j draws both — what drifted between rounds cancels
//! in the ratio instead of widening it.

use super::bootstrap::{Interval, SEED, SplitMix64, percentile_interval};
use super::pooled::Drawn;

/// The 95 % two-level bootstrap interval of pooled-median(`a`) / pooled-median(`b`), one
/// group per process in the order they ran: the rounds both have are drawn as pairs, the
/// processes only one of them has (a case given more by the budget) on their own; within
/// each drawn process, its iterations with replacement. `None` when either has no value or
/// a resampled median of `b` is 0.
pub(crate) fn paired_ratio_ci(
    a: &[Vec<f64>],
    b: &[Vec<f64>],
    resamples: usize,
) -> Option<Interval> {
    if a.iter().all(Vec::is_empty) || b.iter().all(Vec::is_empty) {
        return None;
    }
    let common = a.len().min(b.len());
    let mut rng = SplitMix64::new(SEED);
    let (mut left, mut right) = (Drawn::default(), Drawn::default());
    let mut ratios = Vec::with_capacity(resamples);
    for _ in 0..resamples {
        left.clear();
        right.clear();
        for _ in 0..common {
            let round = rng.below(common);
            left.draw(&a[round], &mut rng);
            right.draw(&b[round], &mut rng);
        }
        extra(&a[common..], &mut left, &mut rng);
        extra(&b[common..], &mut right, &mut rng);
        if left.is_empty() || right.is_empty() {
            continue;
        }
        let (Some(numerator), Some(denominator)) = (left.median(), right.median()) else {
            continue;
        };
        if denominator == 0.0 {
            return None;
        }
        ratios.push(numerator / denominator);
    }
    (!ratios.is_empty()).then(|| percentile_interval(ratios))
}

/// The processes of rounds the other case lacks, drawn among themselves.
fn extra(groups: &[Vec<f64>], out: &mut Drawn, rng: &mut SplitMix64) {
    for _ in 0..groups.len() {
        out.draw(&groups[rng.below(groups.len())], rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Processes whose level drifts from round to round, alike for both cases.
    fn drifting(base: f64) -> Vec<Vec<f64>> {
        (0..12)
            .map(|round| {
                let drift = 1.0 + 0.2 * ((round * 5 % 7) as f64 / 6.0);
                (0..20)
                    .map(|i| base * drift * (1.0 + 0.001 * (i % 3) as f64))
                    .collect()
            })
            .collect()
    }

    #[test]
    fn drift_both_cases_share_cancels_in_the_paired_ratio() {
        let (a, b) = (drifting(2.0), drifting(1.0));
        let paired = paired_ratio_ci(&a, &b, 2_000).unwrap();
        let unpaired = crate::nested_ratio_ci(&a, &b, 2_000).unwrap();
        assert!(paired.contains(2.0), "{paired:?}");
        assert!(paired.high - paired.low < (unpaired.high - unpaired.low) / 5.0);
        // A case with more processes keeps them: the ratio still brackets 2.
        let mut more = drifting(2.0);
        more.extend(drifting(2.0).into_iter().take(4));
        assert!(paired_ratio_ci(&more, &b, 2_000).unwrap().contains(2.0));
        assert_eq!(paired_ratio_ci(&[], &b, 100), None);
    }
}
