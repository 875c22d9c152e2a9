//! Run-to-run variation, for comparisons across sessions, and intervals at any level for
//! a gate over many cases. Two `taskbench run`s of the same binary differ by more than
//! either run's processes differ among themselves: a session meets the machine in a state
//! of its own (other tenants, frequency, placement), and a case's rounds all fall within a
//! few seconds of it. One session cannot see that; the store can. The spread of ln(median)
//! over the store's other sessions of a case adds, in quadrature, t(k − 1) · √2 · sd to the
//! bootstrap's half-widths (read as normal ones) on the log scale.

use stats::t_quantile;

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
    pub(crate) sd: f64,
    pub(crate) sessions: usize,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_spread_of_sessions_is_worked_by_hand() {
        // ln of 100, 110, 121: 4.6052, 4.7005, 4.7958; mean 4.7005; sd = ln 1.1 = 0.09531.
        let spread = RunToRun::of(&[100.0, 110.0, 121.0]).unwrap();
        assert!((spread.sd - 1.1f64.ln()).abs() < 1e-12);
        assert_eq!(spread.sessions, 3);
        assert!(RunToRun::of(&[100.0, 110.0]).is_none());
    }
}
