//! Run-to-run variation, for comparisons across sessions, and intervals at any level for
//! a gate over many cases. Two `taskbench run`s of the same binary differ by more than
//! either run's processes differ among themselves: a session meets the machine in a state
//! of its own (other tenants, frequency, placement), and a case's rounds all fall within a
//! few seconds of it. One session cannot see that; the store can. The spread of ln(median)
//! over the store's other sessions of a case adds, in quadrature, t(k − 1) · √2 · sd to the
//! bootstrap's half-widths (read as normal ones) on the log scale.

use super::change::{Change, verdict};
use crate::stats::{Interval, normal_quantile, t_quantile};

/// Sessions needed before their spread is used: two give one degree of freedom, and
/// t(1) = 12.7 at 95 % makes any interval useless.
pub const MIN_SESSIONS: usize = 3;

/// A case's spreads; `None` where fewer than three sessions measured it validly.
#[derive(Debug, Clone, Copy, Default, PartialEq)]
pub struct Spreads {
    pub time: Option<RunToRun>,
    pub peak_rss: Option<RunToRun>,
    pub cpu: Option<RunToRun>,
}

/// The spread of a case's session medians.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RunToRun {
    /// Sample standard deviation of ln(median) over the sessions.
    pub sd: f64,
    pub sessions: usize,
}

impl RunToRun {
    /// The run-to-run term of a log-scale half-width at quantile `p`: t(p, k − 1) · √2 · sd.
    pub fn between(&self, p: f64) -> f64 {
        t_quantile(p, (self.sessions - 1) as f64) * std::f64::consts::SQRT_2 * self.sd
    }

    /// The spread of `medians` (one per session); `None` under [`MIN_SESSIONS`].
    pub fn of(medians: &[f64]) -> Option<RunToRun> {
        let logs: Vec<f64> = medians
            .iter()
            .filter(|m| m.is_finite() && **m > 0.0)
            .map(|m| m.ln())
            .collect();
        let n = logs.len();
        if n < MIN_SESSIONS {
            return None;
        }
        let mean = logs.iter().sum::<f64>() / n as f64;
        let variance = logs.iter().map(|l| (l - mean).powi(2)).sum::<f64>() / (n - 1) as f64;
        Some(RunToRun {
            sd: variance.sqrt(),
            sessions: n,
        })
    }
}

/// `change` with the run-to-run `spread` taken into its 95 % interval and verdict.
pub fn with_spread(change: Change, spread: Option<RunToRun>) -> Change {
    let widened = Change { spread, ..change };
    let interval = interval_at(&widened, 0.95);
    Change {
        interval,
        verdict: verdict(interval),
        ..widened
    }
}

/// The interval of NEW / BASE holding with probability `coverage` (two-sided): the
/// bootstrap's 95 % half-widths on the log scale scaled by z(coverage) / z(95 %), and the
/// run-to-run term t(coverage, k − 1) · √2 · sd added in quadrature. At 95 % without a
/// spread it is the bootstrap interval itself; `None` without one.
pub fn interval_at(change: &Change, coverage: f64) -> Option<Interval> {
    let own = change.bootstrap?;
    let p = 0.5 + coverage / 2.0;
    let scale = normal_quantile(p) / normal_quantile(0.975);
    let r = change.ratio.ln();
    let below = (r - own.low.ln()).max(0.0) * scale;
    let above = (own.high.ln() - r).max(0.0) * scale;
    let between = change.spread.map_or(0.0, |s| s.between(p));
    Some(Interval::new(
        (r - below.hypot(between)).exp(),
        (r + above.hypot(between)).exp(),
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::change::Verdict;

    fn slower() -> Change {
        Change {
            ratio: 1.2,
            interval: Some(Interval::new(1.15, 1.25)),
            verdict: Verdict::Higher,
            bootstrap: Some(Interval::new(1.15, 1.25)),
            spread: None,
        }
    }

    #[test]
    fn the_spread_of_sessions_is_worked_by_hand() {
        // ln of 100, 110, 121: 4.6052, 4.7005, 4.7958; mean 4.7005; sd = ln 1.1 = 0.09531.
        let spread = RunToRun::of(&[100.0, 110.0, 121.0]).unwrap();
        assert!((spread.sd - 1.1f64.ln()).abs() < 1e-12);
        assert_eq!(spread.sessions, 3);
        assert!(RunToRun::of(&[100.0, 110.0]).is_none());
        // t(0.975, 2) = 4.3027: 4.3027 × √2 × 0.09531 = 0.5800; below ln(1.2/1.15) = 0.04256,
        // so ln(1.2) − √(0.04256² + 0.5800²) = 0.18232 − 0.58156 = −0.39924: 0.6709.
        let widened = with_spread(slower(), Some(spread));
        let i = widened.interval.unwrap();
        assert!((i.low - 0.6709).abs() < 1e-3, "{i:?}");
        assert_eq!(
            widened.verdict,
            Verdict::NoChange,
            "sessions 10 % apart hold 20 %"
        );
    }

    #[test]
    fn intervals_widen_with_coverage_and_keep_a_real_change() {
        // No spread: at 95 % the bootstrap interval itself.
        assert_eq!(interval_at(&slower(), 0.95), slower().bootstrap);
        // At 1 − 0.05/400 (z = 3.66 against 1.96): ln(1.2/1.15) × 1.868 below.
        let wide = interval_at(&slower(), 1.0 - 0.05 / 400.0).unwrap();
        let z = normal_quantile(1.0 - 0.025 / 400.0) / 1.959_964;
        assert!((wide.low - 1.2 * (-(1.2f64 / 1.15).ln() * z).exp()).abs() < 1e-4);
        // Sessions 0.5 % apart: a 20 % change stands.
        let steady = with_spread(slower(), RunToRun::of(&[100.0, 101.0, 100.5, 99.8]));
        assert_eq!(steady.verdict, Verdict::Higher);
        assert!(steady.interval.unwrap().low < 1.15);
        assert_eq!(with_spread(slower(), None), slower());
    }
}
