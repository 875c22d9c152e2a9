//! The timer scenario's extra figures: how much later than asked each sleep woke up.

use crate::Outcome;
use std::time::Duration;

/// Outcome of the timer scenario from the measured length of every sleep: the checksum is
/// the number of sleeps, the extras the oversleep percentiles in nanoseconds (nearest rank).
pub fn oversleep_outcome(slept: &[Duration], step: Duration) -> Outcome {
    let mut over: Vec<u64> = slept
        .iter()
        .map(|d| d.saturating_sub(step).as_nanos() as u64)
        .collect();
    over.sort_unstable();
    let rank = |q: f64| -> f64 {
        if over.is_empty() {
            return 0.0;
        }
        let index = ((q * over.len() as f64).ceil() as usize).clamp(1, over.len()) - 1;
        over[index] as f64
    };
    Outcome {
        checksum: slept.len() as u64,
        extra: vec![
            ("oversleep_p50_ns", rank(0.50)),
            ("oversleep_p99_ns", rank(0.99)),
            ("oversleep_max_ns", rank(1.0)),
        ],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn percentiles_use_nearest_rank() {
        let step = Duration::from_micros(100);
        let slept: Vec<Duration> = (1..=100).map(|i| step + Duration::from_nanos(i)).collect();
        let outcome = oversleep_outcome(&slept, step);
        assert_eq!(outcome.checksum, 100);
        assert_eq!(
            outcome.extra,
            vec![
                ("oversleep_p50_ns", 50.0),
                ("oversleep_p99_ns", 99.0),
                ("oversleep_max_ns", 100.0)
            ]
        );
    }

    #[test]
    fn an_early_wake_counts_as_no_oversleep() {
        let step = Duration::from_millis(1);
        let outcome = oversleep_outcome(&[Duration::from_micros(900)], step);
        assert_eq!(outcome.extra[2], ("oversleep_max_ns", 0.0));
    }
}
