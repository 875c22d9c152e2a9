//! What a target precision costs a case: how spread its processes are, and how many it
//! needs for a 95 % interval within the target — the figure the budget's allocator orders
//! cases by (run/allocate.rs) and the one a row's price and a run's bound are stated with
//! (analysis/budget.rs).

use stats::{median, ranks};

/// The fewest time processes that give a 95 % interval of a median without assuming a
/// distribution (stats/order.rs: [x₍₁₎, x₍₆₎] holds it with 96.9 %).
pub const LEVEL_RUNS: u32 = 6;

/// The least spread a case is taken to have: three processes that happen to agree say
/// little of the fourth.
pub(crate) const LEAST_SPREAD: f64 = 0.01;

/// z(97.5 %) × the median's efficiency against the mean under a normal distribution
/// (√(π/2)): a median of n values varies as 1.2533 σ / √n.
const MEDIAN_Z: f64 = 1.96 * 1.253_3;

/// Time processes a case is taken to need for its target before three of its own say
/// otherwise: what the median case of the default run needed for ±5 % on this project's
/// machine (15 and 17 in two runs of 2026-12-07, each case's need read from its own
/// processes' figures by resampling them).
pub(crate) const PRIOR_PROCESSES: u32 = 15;

/// The spread between a case's processes, relative to `scale` (the figure its target is
/// judged against): the median absolute deviation of `figures` (one per process) as a
/// standard deviation, or with two processes their difference (E|a − b| = 1.128 σ: a
/// little more than σ, on the safe side); at least [`LEAST_SPREAD`]. `None` with fewer than
/// two figures or a scale of 0.
pub fn spread(figures: &[f64], scale: f64) -> Option<f64> {
    if figures.len() < 2 || scale == 0.0 {
        return None;
    }
    let deviation = if let [a, b] = figures {
        (a - b).abs()
    } else {
        let center = median(figures)?;
        let deviations: Vec<f64> = figures.iter().map(|f| (f - center).abs()).collect();
        median(&deviations)? * 1.4826
    };
    Some((deviation / scale.abs()).max(LEAST_SPREAD))
}

/// Time processes a case of relative `spread` needs for a 95 % interval within ±`target`:
/// (1.96 · 1.2533 · spread / target)², and at least [`LEVEL_RUNS`].
pub fn processes_needed(spread: f64, target: f64) -> u64 {
    if target <= 0.0 {
        return u64::MAX;
    }
    let n = (MEDIAN_Z * spread / target).powi(2).ceil();
    if n >= u64::MAX as f64 {
        u64::MAX
    } else {
        (n as u64).max(u64::from(LEVEL_RUNS))
    }
}

/// Resamples a case's need is judged on, at each count of processes tried.
const TRIALS: usize = 48;

/// Time processes for a 95 % interval within ±`target` of `scale`, read from the case's own
/// process `figures` (one per process) by resampling them: the fewest, at least
/// [`LEVEL_RUNS`] and at most `most`, whose interval — between the order statistics the row
/// shows at that count (stats/order.rs) — is within the target in at least half of the
/// resamples. An outlying process keeps its share of the draws, as it will of the
/// processes to come: the answer is what the case's own spread, tails and modes ask for,
/// not what a normal distribution with its deviation would. Deterministic. `None` when no
/// count up to `most` is enough, or with fewer than two figures.
pub fn resampled_processes(figures: &[f64], scale: f64, target: f64, most: u32) -> Option<u32> {
    if figures.len() < 2 || scale == 0.0 {
        return None;
    }
    let mut rng = stats::SplitMix64::new(0x0070_7269_6365); // "price"
    let mut drawn = vec![0.0; 0];
    counts(most).find(|&n| {
        let (k, _) = ranks(n as usize);
        let within = (0..TRIALS)
            .filter(|_| {
                drawn.clear();
                drawn.extend((0..n).map(|_| figures[rng.below(figures.len())]));
                drawn.sort_by(f64::total_cmp);
                let half = (drawn[n as usize - k] - drawn[k - 1]) / 2.0;
                half <= target * scale.abs()
            })
            .count();
        2 * within >= TRIALS
    })
}

/// The counts of processes [`resampled_processes`] tries: every one from six to twelve,
/// then by steps of about a seventh, up to `most`.
fn counts(most: u32) -> impl Iterator<Item = u32> {
    let mut next = LEVEL_RUNS;
    std::iter::from_fn(move || {
        let n = next;
        next = if n < 12 { n + 1 } else { n + n.div_ceil(7) };
        (n <= most).then_some(n)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_is_robust_and_relative() {
        // Deviations from 10: 1, 0, 1, 9 → median 1 → 1.4826 relative to 10.
        let s = spread(&[9.0, 10.0, 11.0, 19.0, 10.0], 10.0).unwrap();
        assert!((s - 0.148_26).abs() < 1e-9, "{s}");
        // Two processes: their difference.
        let two = spread(&[10.0, 11.0], 10.0).unwrap();
        assert!((two - 0.1).abs() < 1e-9, "{two}");
        assert_eq!(spread(&[5.0, 5.0, 5.0], 5.0), Some(LEAST_SPREAD));
        assert_eq!(spread(&[5.0], 5.0), None);
        assert_eq!(spread(&[5.0, 6.0], 0.0), None);
    }

    #[test]
    fn a_case_s_own_processes_say_how_many_it_needs() {
        // Tight processes: six.
        let tight = [100.0, 101.0, 99.0, 100.5, 99.5, 100.2];
        assert_eq!(resampled_processes(&tight, 100.0, 0.05, 60), Some(6));
        // ±10 % between processes: a few dozen.
        let spread: Vec<f64> = (0..12).map(|i| 90.0 + 20.0 * f64::from(i) / 11.0).collect();
        let n = resampled_processes(&spread, 100.0, 0.05, 200).unwrap();
        assert!((15..=40).contains(&n), "{n}");
        // One slow process in seven: the count at which the interval drops it.
        let outlier = [100.0, 101.0, 99.0, 100.5, 99.5, 100.2, 170.0];
        let n = resampled_processes(&outlier, 100.0, 0.05, 60).unwrap();
        assert!((9..=20).contains(&n), "{n}");
        // Half the processes slow: no count is enough.
        let modes = [100.0, 101.0, 99.0, 170.0, 171.0, 169.0];
        assert_eq!(resampled_processes(&modes, 100.0, 0.05, 60), None);
        assert_eq!(resampled_processes(&[1.0], 1.0, 0.05, 60), None);
        let tried: Vec<u32> = counts(30).collect();
        assert_eq!(tried, [6, 7, 8, 9, 10, 11, 12, 14, 16, 19, 22, 26, 30]);
    }

    #[test]
    fn processes_needed_grow_with_the_square_of_the_spread() {
        // 1.96 · 1.2533 · 0.04 / 0.05 = 1.965 → 3.9 → 4, but never fewer than six.
        assert_eq!(processes_needed(0.04, 0.05), 6);
        // 0.1 / 0.05: 4.913² = 24.1 → 25.
        assert_eq!(processes_needed(0.1, 0.05), 25);
        assert_eq!(processes_needed(0.2, 0.05), 97);
        assert_eq!(processes_needed(0.1, 0.0), u64::MAX);
        assert_eq!(processes_needed(f64::INFINITY, 0.05), u64::MAX);
    }
}
