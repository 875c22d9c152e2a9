//! NEW / BASE of one figure: its ratio of pooled medians, its bootstrap interval, widened
//! by the store's run-to-run spread where it has one, and what it says. Every comparison
//! (compare/change.rs, compare/mode_shift.rs, the gate) is made of these.

use analysis::run_to_run::RunToRun;
use stats::{Interval, RESAMPLES, normal_quantile, pooled_median, ratio_interval};

/// What a ratio says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Verdict {
    /// NEW is lower (faster, smaller): the interval lies below 1.
    Lower,
    /// NEW is higher (slower, bigger): the interval lies above 1.
    Higher,
    /// The interval holds 1: these runs cannot tell the two apart.
    NoChange,
}

/// NEW / BASE of one figure.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Change {
    pub(crate) ratio: f64,
    pub(crate) interval: Option<Interval>,
    pub(crate) verdict: Verdict,
    /// The bootstrap interval of these two runs' processes alone.
    pub(crate) bootstrap: Option<Interval>,
    /// The run-to-run spread of the store's other sessions, when the interval takes it in
    /// (analysis/run_to_run.rs).
    pub(crate) spread: Option<RunToRun>,
}

/// Processes each side needs before a verdict: one process's spread says nothing of the
/// next one's, and a bootstrap of one group gives an interval of no width.
pub(crate) const MIN_PROCESSES: usize = 2;

/// NEW / BASE of pooled medians with its interval; `None` without values on both sides.
pub(crate) fn change(base: &[Vec<f64>], new: &[Vec<f64>]) -> Option<Change> {
    let (b, n) = (pooled_median(base)?, pooled_median(new)?);
    if b <= 0.0 {
        return None;
    }
    let enough =
        |groups: &[Vec<f64>]| groups.iter().filter(|g| !g.is_empty()).count() >= MIN_PROCESSES;
    let interval = if enough(base) && enough(new) {
        ratio_interval(new, base, RESAMPLES)
    } else {
        None
    };
    let verdict = verdict(interval);
    Some(Change {
        ratio: n / b,
        interval,
        verdict,
        bootstrap: interval,
        spread: None,
    })
}

/// Higher or lower when the interval excludes 1.
pub(crate) fn verdict(interval: Option<Interval>) -> Verdict {
    match interval {
        Some(i) if i.low > 1.0 => Verdict::Higher,
        Some(i) if i.high < 1.0 => Verdict::Lower,
        _ => Verdict::NoChange,
    }
}

/// `change` with the run-to-run `spread` taken into its 95 % interval and verdict.
pub(crate) fn with_spread(change: Change, spread: Option<RunToRun>) -> Change {
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
pub(crate) fn interval_at(change: &Change, coverage: f64) -> Option<Interval> {
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
    fn a_spread_of_sessions_is_worked_into_the_interval_by_hand() {
        let spread = RunToRun::of(&[100.0, 110.0, 121.0]).unwrap();
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
