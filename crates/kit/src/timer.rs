//! The timer scenario's loop and its extra figures: how much later than asked each sleep
//! woke up. Contestants pass only how they sleep, as they do for `kit::doxbee`.

use crate::{Outcome, Scenario};
use std::time::{Duration, Instant};

/// The timer scenario on the calling task: awaits `sleep(step)` for a `step_us` µs step
/// [`Scenario::timer_count`] times in sequence, times each sleep with the monotonic clock
/// and returns [`oversleep_outcome`] of them. `sleep` is the runtime's own timer
/// (`tokio::time::sleep`, `smol::Timer::after`, …); whatever its future returns (async-io's
/// `Timer` gives the `Instant` it fired at) is dropped. [`timed_sleeps_blocking`] is the
/// same loop for tasks that block.
pub async fn timed_sleeps<S, F>(step_us: u64, total_ms: u64, mut sleep: S) -> Outcome
where
    S: FnMut(Duration) -> F,
    F: Future,
{
    let step = Duration::from_micros(step_us);
    let mut slept = Vec::new();
    for _ in 0..Scenario::timer_count(step_us, total_ms) {
        let start = Instant::now();
        sleep(step).await;
        slept.push(start.elapsed());
    }
    oversleep_outcome(&slept, step)
}

/// [`timed_sleeps`] for runtimes whose tasks block (OS threads, stackful coroutines):
/// `sleep(step)` blocks for each step, line for line as `timed_sleeps` awaits it.
pub fn timed_sleeps_blocking(
    step_us: u64,
    total_ms: u64,
    mut sleep: impl FnMut(Duration),
) -> Outcome {
    let step = Duration::from_micros(step_us);
    let mut slept = Vec::new();
    for _ in 0..Scenario::timer_count(step_us, total_ms) {
        let start = Instant::now();
        sleep(step);
        slept.push(start.elapsed());
    }
    oversleep_outcome(&slept, step)
}

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
    use std::cell::RefCell;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    /// A fake sleep that records the step it was asked for and then blocks twice as long, so
    /// that every sleep oversleeps by at least one step.
    fn oversleeping(asked: &RefCell<Vec<Duration>>, step: Duration) {
        asked.borrow_mut().push(step);
        std::thread::sleep(2 * step);
    }

    /// Checks an outcome of 5 sleeps of 200 µs that each took at least 400 µs.
    fn assert_five_oversleeps(outcome: &Outcome, asked: &RefCell<Vec<Duration>>) {
        let step = Duration::from_micros(200);
        assert_eq!(*asked.borrow(), vec![step; 5]);
        assert_eq!(outcome.checksum, 5);
        let figures: Vec<f64> = outcome.extra.iter().map(|&(_, ns)| ns).collect();
        assert!(figures.iter().all(|&ns| ns >= step.as_nanos() as f64));
        assert!(figures.is_sorted(), "p50 <= p99 <= max: {figures:?}");
    }

    #[test]
    fn timed_sleeps_sleeps_timer_count_steps_and_reports_the_oversleep() {
        let asked = RefCell::new(Vec::new());
        // The fake blocks when polled, not when called, so the oversleep shows that every
        // sleep was awaited.
        let timer = timed_sleeps(200, 1, |step| {
            let asked = &asked;
            async move { oversleeping(asked, step) }
        });
        let outcome = match pin!(timer).poll(&mut Context::from_waker(Waker::noop())) {
            Poll::Ready(outcome) => outcome,
            Poll::Pending => panic!("no fake sleep is pending"),
        };
        assert_five_oversleeps(&outcome, &asked);
    }

    #[test]
    fn timed_sleeps_blocking_sleeps_timer_count_steps_and_reports_the_oversleep() {
        let asked = RefCell::new(Vec::new());
        let outcome = timed_sleeps_blocking(200, 1, |step| oversleeping(&asked, step));
        assert_five_oversleeps(&outcome, &asked);
    }

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
