//! The machine's condition, probed: what the host does to timings at one moment of a run.
//! A probe sleeps 1 ms and 20 ms a few times (how late each wakes, the scales the timer
//! scenarios use), times a fixed amount of integer work (the same work takes longer when
//! the hypervisor steals or the host slows the CPU), and is given the steal share since the
//! previous probe by the machine watch. It runs in the harness process while no contestant
//! runs, in about 0.13 s.

use catalogue::Point;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use std::time::{Duration, Instant};

/// How many 1 ms sleeps one probe times.
const SHORT_SLEEPS: usize = 9;
/// How many 20 ms sleeps one probe times.
const LONG_SLEEPS: usize = 5;
/// How many times one probe times the CPU loop.
const CPU_LOOPS: usize = 5;
/// Steps of the CPU loop: about 1.4 ms on this machine's vCPU (a chain of six dependent
/// integer operations a step).
const CPU_LOOP_STEPS: u64 = 1_000_000;

/// One probe of the machine's condition.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ConditionSample {
    /// Milliseconds since the run began.
    pub at_ms: u64,
    /// When in the run it was taken (written `case`: `start`, the point's label or `end`).
    #[serde(rename = "case")]
    pub moment: Moment,
    /// How late a 1 ms sleep woke: median over the probe's sleeps, ns.
    pub timer_1ms_late_ns: f64,
    /// Its 90th percentile, ns.
    pub timer_1ms_late_p90_ns: f64,
    /// How late a 20 ms sleep woke: median over the probe's sleeps, ns.
    pub timer_20ms_late_ns: f64,
    /// Its 90th percentile, ns.
    pub timer_20ms_late_p90_ns: f64,
    /// The fixed CPU loop's time: median over the probe's loops, ns.
    pub cpu_loop_ns: f64,
    /// Share of the machine's CPU time the hypervisor took since the previous probe (none
    /// for the first, or without /proc/stat).
    pub steal: Option<f64>,
}

/// When in a run a probe was taken.
#[derive(Debug, Clone, PartialEq)]
pub enum Moment {
    /// Before the first process.
    Start,
    /// As a point was about to run.
    Before(Point),
    /// After the last process.
    End,
}

/// `start`, the point's label, or `end`, as results files have them.
impl Serialize for Moment {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Moment::Start => serializer.serialize_str("start"),
            Moment::Before(point) => point.serialize(serializer),
            Moment::End => serializer.serialize_str("end"),
        }
    }
}

impl<'de> Deserialize<'de> for Moment {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Moment, D::Error> {
        let text = String::deserialize(deserializer)?;
        match text.as_str() {
            "start" => Ok(Moment::Start),
            "end" => Ok(Moment::End),
            label => label
                .parse()
                .map(Moment::Before)
                .map_err(serde::de::Error::custom),
        }
    }
}

/// The machine's condition through a run: a probe at its start, as each point begins and at
/// its end.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Condition {
    pub samples: Vec<ConditionSample>,
}

/// Probes the machine now, `at_ms` into the run, at `moment`; `steal` is the watch's.
pub(crate) fn probe(at_ms: u64, moment: Moment, steal: Option<f64>) -> ConditionSample {
    let mut short = lateness(Duration::from_millis(1), SHORT_SLEEPS);
    let mut long = lateness(Duration::from_millis(20), LONG_SLEEPS);
    let mut loops: Vec<f64> = (0..CPU_LOOPS).map(|_| cpu_loop_ns()).collect();
    ConditionSample {
        at_ms,
        moment,
        timer_1ms_late_ns: quantile(&mut short, 0.5),
        timer_1ms_late_p90_ns: quantile(&mut short, 0.9),
        timer_20ms_late_ns: quantile(&mut long, 0.5),
        timer_20ms_late_p90_ns: quantile(&mut long, 0.9),
        cpu_loop_ns: quantile(&mut loops, 0.5),
        steal,
    }
}

/// How late each of `count` sleeps of `nominal` woke, ns, sorted.
fn lateness(nominal: Duration, count: usize) -> Vec<f64> {
    let mut late: Vec<f64> = (0..count)
        .map(|_| {
            let start = Instant::now();
            std::thread::sleep(nominal);
            start.elapsed().saturating_sub(nominal).as_nanos() as f64
        })
        .collect();
    late.sort_by(f64::total_cmp);
    late
}

/// The time of a fixed amount of integer work (an xorshift sequence), ns.
fn cpu_loop_ns() -> f64 {
    let start = Instant::now();
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..CPU_LOOP_STEPS {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    std::hint::black_box(x);
    start.elapsed().as_nanos() as f64
}

/// The `q` quantile of `values` (sorted here), the nearest rank at or above it.
fn quantile(values: &mut [f64], q: f64) -> f64 {
    values.sort_by(f64::total_cmp);
    let rank = ((values.len() as f64 * q).ceil() as usize).clamp(1, values.len().max(1));
    values.get(rank - 1).copied().unwrap_or(0.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_probe_reads_sane_figures() {
        let start = Instant::now();
        let sample = probe(12, Moment::Start, Some(0.01));
        let took = start.elapsed();
        assert_eq!((sample.at_ms, &sample.moment), (12, &Moment::Start));
        // Every sleep wakes no earlier than asked: lateness is never negative.
        for late in [
            sample.timer_1ms_late_ns,
            sample.timer_20ms_late_ns,
            sample.timer_1ms_late_p90_ns,
            sample.timer_20ms_late_p90_ns,
        ] {
            assert!(late >= 0.0, "{sample:?}");
        }
        assert!(sample.timer_1ms_late_p90_ns >= sample.timer_1ms_late_ns);
        assert!(sample.timer_20ms_late_p90_ns >= sample.timer_20ms_late_ns);
        assert!(sample.cpu_loop_ns > 0.0, "{sample:?}");
        // The 20 ms lateness is read against 20 ms sleeps: the probe lasted at least all of
        // them and their lateness.
        let slept = 20e6 * LONG_SLEEPS as f64 + 1e6 * SHORT_SLEEPS as f64;
        assert!(took.as_nanos() as f64 >= slept + sample.timer_20ms_late_ns);
        assert_eq!(sample.steal, Some(0.01));
    }

    #[test]
    fn a_moment_is_written_as_results_files_have_it_and_read_back() {
        let sleep = Moment::Before("sleep tasks=10 delay-ms=200".parse().unwrap());
        let written = serde_json::to_string(&[Moment::Start, sleep.clone(), Moment::End]);
        let written = written.unwrap();
        assert_eq!(written, r#"["start","sleep tasks=10 delay-ms=200","end"]"#);
        let read: Vec<Moment> = serde_json::from_str(&written).unwrap();
        assert_eq!(read, [Moment::Start, sleep, Moment::End]);
        assert!(serde_json::from_str::<Moment>(r#""sleep tasks""#).is_err());
    }

    #[test]
    fn quantiles_are_nearest_ranks() {
        let mut values = [5.0, 1.0, 4.0, 2.0, 3.0];
        assert_eq!(quantile(&mut values, 0.5), 3.0);
        assert_eq!(quantile(&mut values, 0.9), 5.0);
        assert_eq!(quantile(&mut values, 0.0), 1.0);
        assert_eq!(quantile(&mut [], 0.5), 0.0);
    }
}
