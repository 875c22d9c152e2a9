//! Samples from known distributions, for tests that check a statistic by simulation: how
//! often an interval holds the true median, how often a detector finds modes that are not
//! there. Seeded, so a simulation gives the same figures on every machine.

use super::bootstrap::SplitMix64;
use super::{median_interval, normal_quantile, ratio_interval, tight_processes};

/// A distribution of process medians, each with its true median.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Draw {
    /// Normal, mean 100, sd 10.
    Normal,
    /// Log-normal, median 100, σ 0.5 on the log scale: a long right tail.
    LogNormal,
    /// 70 % normal(36, 3), 30 % normal(100, 3): two modes, as tokio's skynet on 2 vCPUs.
    Bimodal,
}

impl Draw {
    pub(crate) const ALL: [Draw; 3] = [Draw::Normal, Draw::LogNormal, Draw::Bimodal];

    /// One value.
    pub(crate) fn sample(self, rng: &mut SplitMix64) -> f64 {
        let z = standard_normal(rng);
        match self {
            Draw::Normal => 100.0 + 10.0 * z,
            Draw::LogNormal => 100.0 * (0.5 * z).exp(),
            Draw::Bimodal if uniform(rng) < 0.7 => 36.0 + 3.0 * z,
            Draw::Bimodal => 100.0 + 3.0 * z,
        }
    }

    /// `n` values.
    pub(crate) fn samples(self, n: usize, rng: &mut SplitMix64) -> Vec<f64> {
        (0..n).map(|_| self.sample(rng)).collect()
    }

    /// The distribution's median: for the mixture, the lower part's quantile at ½ / 0.7.
    pub(crate) fn median(self) -> f64 {
        match self {
            Draw::Normal | Draw::LogNormal => 100.0,
            Draw::Bimodal => 36.0 + 3.0 * normal_quantile(0.5 / 0.7),
        }
    }
}

/// A uniform value in (0, 1).
pub(crate) fn uniform(rng: &mut SplitMix64) -> f64 {
    ((rng.next_u64() >> 11) as f64 + 0.5) / (1u64 << 53) as f64
}

/// A standard normal value (Box–Muller).
pub(crate) fn standard_normal(rng: &mut SplitMix64) -> f64 {
    let (u, v) = (uniform(rng), uniform(rng));
    (-2.0 * u.ln()).sqrt() * (std::f64::consts::TAU * v).cos()
}

/// Trials per simulated coverage: its standard error at 95 % is 1.1 %.
const TRIALS: usize = 400;

/// Resamples of each simulated interval's bootstrap: fewer than the tables' 2,000, to keep
/// the simulation fast; the order-statistic part, which sets the coverage, needs none.
const SIMULATED_RESAMPLES: usize = 100;

/// How often [`median_interval`] over `processes` processes drawn from `draw` holds its true
/// median, and the coverage the intervals state (`None`: the level). Each process is three
/// iterations, its level and ±0.01 % about it, so its median is the drawn value.
pub(crate) fn coverage(draw: Draw, processes: usize) -> (f64, Option<f64>) {
    let mut rng = SplitMix64::new(0x636f_7665_7261_6765 ^ processes as u64);
    let mut held = 0;
    let mut stated = None;
    for _ in 0..TRIALS {
        let groups: Vec<Vec<f64>> = draw
            .samples(processes, &mut rng)
            .into_iter()
            .map(|level| vec![level * 0.9999, level, level * 1.0001])
            .collect();
        let interval = median_interval(&groups, SIMULATED_RESAMPLES).expect("values");
        stated = interval.coverage;
        held += usize::from(interval.contains(draw.median()));
    }
    (held as f64 / TRIALS as f64, stated)
}

/// How often [`ratio_interval`] of two samples of `processes` processes each, both drawn
/// from `draw`, holds their true ratio, 1; and the coverage the intervals state.
pub(crate) fn ratio_coverage(draw: Draw, processes: usize) -> (f64, Option<f64>) {
    let mut rng = SplitMix64::new(0x7261_7469_6f00_0000 ^ processes as u64);
    let mut held = 0;
    let mut stated = None;
    for _ in 0..TRIALS {
        let a = tight_processes(&draw.samples(processes, &mut rng), 1.0);
        let b = tight_processes(&draw.samples(processes, &mut rng), 1.0);
        let interval = ratio_interval(&a, &b, SIMULATED_RESAMPLES).expect("values");
        stated = interval.coverage;
        held += usize::from(interval.contains(1.0));
    }
    (held as f64 / TRIALS as f64, stated)
}
