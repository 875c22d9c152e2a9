//! The machine's condition judged: each gauge of the probe (measure/condition.rs) summed up
//! over a run, and whether two conditions — two runs', or one run's first and second half —
//! differ beyond the probe's own noise. A difference counts only when it passes both the
//! gauge's floor (the probe's repeatability on a quiet machine, docs/MEASUREMENT.md) and
//! three times the two sides' own spread across their probes.

use catalogue::Point;
use measure::condition::{Condition, ConditionSample};
use serde::{Deserialize, Serialize};

/// How many times the two sides' spread (MAD, as a standard deviation) a difference must pass.
const SPREADS: f64 = 3.0;

/// How many probes a run needs before its halves are compared.
pub(crate) const DRIFT_MIN_SAMPLES: usize = 4;

/// One figure of the probe.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Gauge {
    /// How late a 1 ms sleep wakes.
    Timer1ms,
    /// How late a 20 ms sleep wakes.
    Timer20ms,
    /// The fixed CPU loop's time.
    CpuLoop,
    /// The hypervisor's share of CPU time.
    Steal,
}

impl Gauge {
    /// Every gauge, in the order they are shown.
    pub(crate) const ALL: [Gauge; 4] = [
        Gauge::Timer1ms,
        Gauge::Timer20ms,
        Gauge::CpuLoop,
        Gauge::Steal,
    ];

    /// Its value in one probe.
    pub(crate) fn of(self, sample: &ConditionSample) -> Option<f64> {
        match self {
            Gauge::Timer1ms => Some(sample.timer_1ms_late_ns),
            Gauge::Timer20ms => Some(sample.timer_20ms_late_ns),
            Gauge::CpuLoop => Some(sample.cpu_loop_ns),
            Gauge::Steal => sample.steal,
        }
    }

    /// The smallest difference the probe tells apart from its own noise between `a` and
    /// `b`: an absolute floor, or a share of the larger, whichever is more.
    fn floor(self, a: f64, b: f64) -> f64 {
        let (absolute, relative) = match self {
            Gauge::Timer1ms => (50_000.0, 0.5),
            Gauge::Timer20ms => (100_000.0, 0.5),
            Gauge::CpuLoop => (0.0, 0.10),
            Gauge::Steal => (0.02, 0.5),
        };
        f64::max(absolute, relative * a.max(b))
    }

    /// Whether a difference at `point` could come from this gauge: timer lateness where
    /// the scenario waits on timers (it has an ideal time), the CPU loop where it does
    /// not, steal everywhere.
    pub(crate) fn bears_on(self, point: &Point) -> bool {
        match self {
            Gauge::Timer1ms | Gauge::Timer20ms => waits_on_timers(point),
            Gauge::CpuLoop => !waits_on_timers(point),
            Gauge::Steal => true,
        }
    }
}

/// A gauge over a run's probes: their median and spread.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Reading {
    pub(crate) median: f64,
    /// Median absolute deviation × 1.4826: a standard deviation that outliers do not move.
    pub(crate) spread: f64,
}

/// `gauge` over `samples`; `None` when no probe has it.
pub(crate) fn reading(samples: &[ConditionSample], gauge: Gauge) -> Option<Reading> {
    let values: Vec<f64> = samples.iter().filter_map(|s| gauge.of(s)).collect();
    let median = stats::median(&values)?;
    let deviations: Vec<f64> = values.iter().map(|v| (v - median).abs()).collect();
    Some(Reading {
        median,
        spread: 1.4826 * stats::median(&deviations)?,
    })
}

/// One gauge of two conditions side by side.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct GaugeShift {
    pub gauge: Gauge,
    /// The first condition's median (BASE, or the run's first half).
    pub before: Option<f64>,
    /// The second's (NEW, or the second half).
    pub after: Option<f64>,
    /// Whether they differ beyond the probe's own noise.
    pub differs: bool,
}

/// Every gauge of `before` against `after`.
pub(crate) fn shifts(before: &[ConditionSample], after: &[ConditionSample]) -> Vec<GaugeShift> {
    Gauge::ALL
        .into_iter()
        .map(|gauge| {
            let (a, b) = (reading(before, gauge), reading(after, gauge));
            GaugeShift {
                gauge,
                before: a.map(|r| r.median),
                after: b.map(|r| r.median),
                differs: a.zip(b).is_some_and(|(a, b)| beyond_noise(gauge, a, b)),
            }
        })
        .collect()
}

/// Whether two readings of `gauge` differ by more than its floor and than their spreads.
fn beyond_noise(gauge: Gauge, a: Reading, b: Reading) -> bool {
    let spread = SPREADS * a.spread.hypot(b.spread);
    (a.median - b.median).abs() > gauge.floor(a.median, b.median).max(spread)
}

/// The gauges that moved beyond noise between the run's first and second half of probes;
/// nothing with fewer than [`DRIFT_MIN_SAMPLES`] probes.
pub(crate) fn drift(condition: &Condition) -> Vec<GaugeShift> {
    let samples = &condition.samples;
    if samples.len() < DRIFT_MIN_SAMPLES {
        return Vec::new();
    }
    let (first, second) = samples.split_at(samples.len() / 2);
    shifts(first, second)
        .into_iter()
        .filter(|s| s.differs)
        .collect()
}

/// A run's condition summed up: each gauge's median over its probes, and what moved
/// between its halves.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionSummary {
    /// Every gauge in [`Gauge::ALL`]'s order, `None` where no probe has it.
    pub gauges: Vec<(Gauge, Option<f64>)>,
    /// The gauges that moved beyond noise during the run ([`drift`]).
    pub drift: Vec<GaugeShift>,
}

/// `condition` summed up.
pub fn summarize(condition: &Condition) -> ConditionSummary {
    ConditionSummary {
        gauges: Gauge::ALL
            .into_iter()
            .map(|g| (g, reading(&condition.samples, g).map(|r| r.median)))
            .collect(),
        drift: drift(condition),
    }
}

/// Two runs' conditions side by side, for `compare` and the gate.
#[derive(Debug, Clone, PartialEq)]
pub struct ConditionComparison {
    pub gauges: Vec<GaugeShift>,
}

impl ConditionComparison {
    /// BASE's condition against NEW's.
    pub fn between(base: &Condition, new: &Condition) -> ConditionComparison {
        ConditionComparison {
            gauges: shifts(&base.samples, &new.samples),
        }
    }

    /// The gauges that differ beyond noise and bear on `point`: what a difference of that
    /// row could come from.
    pub fn suspects(&self, point: &Point) -> Vec<Gauge> {
        self.gauges
            .iter()
            .filter(|g| g.differs && g.gauge.bears_on(point))
            .map(|g| g.gauge)
            .collect()
    }
}

/// Whether the scenario of `point` has an ideal time: it waits on timers, so a late timer
/// makes it slower.
fn waits_on_timers(point: &Point) -> bool {
    point.to_scenario().is_some_and(|s| s.ideal_ns() > 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn label(text: &str) -> Point {
        text.parse().unwrap()
    }

    /// A probe with these figures (ms of lateness, ms of CPU loop, share of steal).
    fn sample(
        late_1ms: f64,
        late_20ms: f64,
        cpu_loop_ms: f64,
        steal: Option<f64>,
    ) -> ConditionSample {
        ConditionSample {
            at_ms: 0,
            moment: measure::condition::Moment::Start,
            timer_1ms_late_ns: late_1ms * 1e6,
            timer_1ms_late_p90_ns: late_1ms * 1e6,
            timer_20ms_late_ns: late_20ms * 1e6,
            timer_20ms_late_p90_ns: late_20ms * 1e6,
            cpu_loop_ns: cpu_loop_ms * 1e6,
            steal,
        }
    }

    fn differing(shifts: &[GaugeShift]) -> Vec<Gauge> {
        shifts
            .iter()
            .filter(|s| s.differs)
            .map(|s| s.gauge)
            .collect()
    }

    fn quiet() -> Vec<ConditionSample> {
        vec![
            sample(0.060, 0.080, 5.0, Some(0.02)),
            sample(0.062, 0.085, 5.1, Some(0.02)),
            sample(0.058, 0.078, 4.9, Some(0.03)),
        ]
    }

    #[test]
    fn conditions_within_the_probes_noise_do_not_differ() {
        // 30 µs later timers and a 6 % slower CPU loop: inside the floors.
        let a = quiet();
        let b = vec![
            sample(0.090, 0.110, 5.3, Some(0.03)),
            sample(0.092, 0.112, 5.3, Some(0.03)),
        ];
        assert_eq!(differing(&shifts(&a, &b)), []);
        assert_eq!(differing(&shifts(&a, &a)), []);
    }

    #[test]
    fn a_late_timer_or_a_slow_cpu_beyond_the_noise_differs() {
        let a = quiet();
        let late = vec![sample(0.400, 0.090, 5.0, Some(0.02)); 3];
        assert_eq!(differing(&shifts(&a, &late)), [Gauge::Timer1ms]);
        let stolen = vec![sample(0.060, 0.080, 6.5, Some(0.12)); 3];
        assert_eq!(
            differing(&shifts(&a, &stolen)),
            [Gauge::CpuLoop, Gauge::Steal]
        );
        let shift = shifts(&a, &stolen)[2];
        assert_eq!((shift.before, shift.after), (Some(5.0e6), Some(6.5e6)));
    }

    #[test]
    fn a_difference_inside_the_sides_own_spread_does_not_count() {
        // The medians are 40 % apart, but each side's probes scatter more than that.
        let a = vec![
            sample(0.1, 0.1, 3.0, None),
            sample(0.1, 0.1, 5.0, None),
            sample(0.1, 0.1, 8.0, None),
        ];
        let b = vec![
            sample(0.1, 0.1, 4.5, None),
            sample(0.1, 0.1, 7.0, None),
            sample(0.1, 0.1, 10.0, None),
        ];
        assert_eq!(differing(&shifts(&a, &b)), []);
    }

    #[test]
    fn a_gauge_one_side_lacks_is_shown_but_never_differs() {
        let a = vec![sample(0.06, 0.08, 5.0, None)];
        let b = vec![sample(0.06, 0.08, 5.0, Some(0.5))];
        let steal = shifts(&a, &b)[3];
        assert_eq!(
            (steal.before, steal.after, steal.differs),
            (None, Some(0.5), false)
        );
    }

    #[test]
    fn rows_are_suspected_only_for_the_gauges_that_bear_on_them() {
        let base = Condition { samples: quiet() };
        let late = Condition {
            samples: vec![sample(0.400, 0.090, 5.0, Some(0.02)); 3],
        };
        let slow = Condition {
            samples: vec![sample(0.060, 0.080, 6.5, Some(0.02)); 3],
        };
        let timers = ConditionComparison::between(&base, &late);
        assert_eq!(
            timers.suspects(&label("sleep tasks=10 delay-ms=200")),
            [Gauge::Timer1ms]
        );
        assert_eq!(timers.suspects(&label("spawn tasks=10")), []);
        let cpu = ConditionComparison::between(&base, &slow);
        assert_eq!(cpu.suspects(&label("spawn tasks=10")), [Gauge::CpuLoop]);
        assert_eq!(cpu.suspects(&label("sleep tasks=10 delay-ms=200")), []);
        // A sleep of nothing has no ideal time; an unknown point waits on no timer.
        assert!(!waits_on_timers(&label("sleep tasks=0 delay-ms=200")));
        assert!(!waits_on_timers(&label("command")));
        assert!(waits_on_timers(&label("doxbee requests=10 io-ms=1")));
        assert!(!waits_on_timers(&label("nope x=1")));
    }

    #[test]
    fn a_run_whose_condition_moved_between_its_halves_drifted() {
        let mut samples = quiet();
        samples.extend(vec![sample(0.060, 0.080, 5.0, Some(0.20)); 3]);
        let drifted = drift(&Condition { samples });
        assert_eq!(
            drifted.iter().map(|s| s.gauge).collect::<Vec<_>>(),
            [Gauge::Steal]
        );
        let steady = Condition {
            samples: [quiet(), quiet()].concat(),
        };
        assert_eq!(drift(&steady), []);
        let short = Condition {
            samples: vec![
                sample(0.06, 0.08, 5.0, Some(0.0)),
                sample(0.06, 0.08, 5.0, Some(0.9)),
            ],
        };
        assert_eq!(drift(&short), [], "too few probes to tell");
    }
}
