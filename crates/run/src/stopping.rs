//! When a case has been measured enough: hyperfine's min/max runs and criterion's target
//! precision and time budget, applied to processes that each run many iterations — the
//! rules, the reasons a case stops, and how a time process is sized. What each case has
//! been given and asks for next is run/progress.rs.
//!
//! A case's time sample stops once it has at least `min_runs` processes and the interval of
//! the quantity its row shows — the overhead where the scenario has an ideal time, else the
//! elapsed time — is within `precision`, or when it reaches `max_runs` time processes or
//! spends `max_time`. A time process's measured part lasts about as long as the rest of a
//! memory process (start-up and exit), and at least [`MIN_MEASURED`]; once its pilot is in,
//! the case's variance components (run/variance.rs) may choose another count, when it is
//! far from the pilot's (a factor of [`RECHOOSE_FACTOR`]).

use serde::{Deserialize, Serialize};
use stats::{Interval, median_interval, pooled_median};
use std::time::Duration;

/// The least measured time of a time process: below it, timer and scheduler granularity
/// dominate what one process sees.
pub(crate) const MIN_MEASURED: Duration = Duration::from_millis(20);

/// Most iterations in one process.
pub const MAX_ITERATIONS: u32 = 1_000;

/// Resamples of the interval checked after each process: enough to tell ±2 % from ±3 %,
/// and cheap between two processes; a pass is confirmed with the tables' full count.
pub(crate) const CHECK_RESAMPLES: usize = 400;

/// Below this share of the elapsed time, an overhead is judged against the elapsed time:
/// ±2 % of an overhead of nearly nothing is noise no run count can beat.
pub const OVERHEAD_FLOOR: f64 = 0.01;

/// How far the variance's choice of iterations must be from the pilot's before the time
/// sample starts again at it: near the optimum the cost of a precision changes little
/// (Kalibera and Jones's cost is flat there), and starting again costs `min_runs` processes.
pub(crate) const RECHOOSE_FACTOR: f64 = 2.0;

/// The most the variance's choice may move a case's iterations from the pilot's, either way:
/// three processes estimate S_b² roughly (0 is a common estimate, and would ask for the
/// cap), and a step too far makes processes far longer or more than the run can pay for.
pub(crate) const MAX_RECHOOSE_STEP: u32 = 4;

/// What the harness adds to each process's wall clock (launcher, sampler, judging), for
/// what a next process will cost the run.
pub const HARNESS_PER_PROCESS: Duration = Duration::from_millis(3);

/// How much measuring a case gets, and the whole run.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Stopping {
    /// Time processes a case always gets.
    pub min_runs: u32,
    /// Time processes a case never exceeds.
    pub max_runs: u32,
    /// Target half-width of the 95 % interval, relative to the median (0.02 = ±2 %).
    pub precision: f64,
    /// Wall-clock budget of a case's measured processes.
    pub max_time: Duration,
    /// Wall-clock budget of the whole run's processes (`--budget`): after every case's
    /// minimum, the cases' goals cheapest first (run/allocate.rs). `None`: each
    /// case is measured by its own rule alone.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub budget: Option<Duration>,
}

impl Stopping {
    /// Exactly `runs` time processes, whatever the precision (`-r`).
    pub fn exactly(runs: u32, max_time: Duration) -> Stopping {
        Stopping {
            min_runs: runs,
            max_runs: runs,
            precision: 0.0,
            max_time,
            budget: None,
        }
    }
}

/// Why a case stopped.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StopReason {
    /// Its interval reached the target precision.
    Precision,
    /// It reached `max_runs`.
    MaxRuns,
    /// It spent `max_time` (`--max-time`, a case's own limit).
    #[serde(rename = "time_budget")]
    MaxTime,
    /// The session's budget (`--budget`) had no room for its next process.
    #[serde(rename = "run_budget")]
    SessionBudget,
    /// `min_runs` processes gave no valid run.
    NoValidRun,
    /// The whole run's budget had no room for a time process of the case, warm-up
    /// included, before it had one: no steady figure, and about what one would have cost.
    NotSteady {
        /// What its minimum of time processes would have cost, ms.
        needs_ms: u64,
    },
}

impl StopReason {
    /// How a table says it, after the interval's width: `±7 %, time budget`.
    pub fn describe(&self) -> String {
        match self {
            StopReason::Precision => "precise".into(),
            StopReason::MaxRuns => "max runs".into(),
            StopReason::MaxTime => "time budget".into(),
            StopReason::SessionBudget => "run budget".into(),
            StopReason::NoValidRun => "no valid run".into(),
            StopReason::NotSteady { needs_ms } => format!(
                "steady state not reached: needs ~{}",
                units::rough_duration(Duration::from_millis(*needs_ms))
            ),
        }
    }
}

/// The kind and size of a case's next process.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Next {
    /// Measured iterations.
    pub iterations: u32,
    /// A time process (its warm-up reported, then `iterations` timed); else a memory
    /// process (the scenario's own warm-up, then one iteration).
    pub timed: bool,
}

impl Next {
    /// A memory process: the seeds' shape.
    pub const MEMORY: Next = Next {
        iterations: 1,
        timed: false,
    };

    /// A time process of `iterations` measured iterations.
    pub const fn time(iterations: u32) -> Next {
        Next {
            iterations,
            timed: true,
        }
    }
}

/// The most iterations a time process may run: [`MAX_ITERATIONS`], and a tenth of the case's
/// budget.
pub(super) fn iteration_cap(max_time: Duration, iteration_ns: f64) -> u32 {
    let fits = max_time.as_nanos() as f64 / 10.0 / iteration_ns.max(1.0);
    if fits >= f64::from(MAX_ITERATIONS) {
        MAX_ITERATIONS
    } else {
        (fits as u32).max(1)
    }
}

/// Iterations for a time process, from a memory process's wall clock and its one measured
/// iteration: the measured part about as long as the rest of the process, at least
/// [`MIN_MEASURED`], at most a tenth of the budget.
pub fn calibrate(wall: Duration, first_ns: u64, max_time: Duration) -> u32 {
    let iteration = first_ns.max(1) as f64;
    let rest = (wall.as_nanos() as f64 - iteration).max(0.0);
    let target = rest
        .max(MIN_MEASURED.as_nanos() as f64)
        .min(max_time.as_nanos() as f64 / 10.0);
    ((target / iteration).round() as u32).clamp(1, MAX_ITERATIONS)
}

/// The relative half-width of the interval of the pooled median of `quantity` (overhead or
/// elapsed per iteration, grouped by process) — the one the tables show, and only once it
/// holds with 95 % (six processes; stats/order.rs); an overhead below [`OVERHEAD_FLOOR`] of
/// the elapsed median is judged against the elapsed median.
pub(crate) fn precision(
    quantity: &[Vec<f64>],
    elapsed: &[Vec<f64>],
    resamples: usize,
) -> Option<f64> {
    let ci = median_interval(quantity, resamples).filter(Interval::is_at_level)?;
    relative_half_width(ci, quantity, elapsed)
}

/// `ci`'s half-width relative to the pooled median of `quantity`, or of `elapsed` where the
/// quantity is an overhead below [`OVERHEAD_FLOOR`] of it.
pub(super) fn relative_half_width(
    ci: Interval,
    quantity: &[Vec<f64>],
    elapsed: &[Vec<f64>],
) -> Option<f64> {
    let scale = scale(quantity, elapsed)?;
    (scale != 0.0).then(|| (ci.high - ci.low) / 2.0 / scale.abs())
}

/// What a case's precision is relative to: the pooled median of `quantity`, or of `elapsed`
/// where the quantity is an overhead below [`OVERHEAD_FLOOR`] of it.
pub(super) fn scale(quantity: &[Vec<f64>], elapsed: &[Vec<f64>]) -> Option<f64> {
    let median = pooled_median(quantity)?;
    let elapsed = pooled_median(elapsed)?;
    Some(if median.abs() < OVERHEAD_FLOOR * elapsed.abs() {
        elapsed
    } else {
        median
    })
}
