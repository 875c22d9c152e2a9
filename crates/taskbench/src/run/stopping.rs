//! When a case has been measured enough: hyperfine's min/max runs and criterion's target
//! precision and time budget, applied to processes that each run many iterations.
//!
//! A case's measured processes come in two kinds (docs/MEASUREMENT.md). *Memory* processes
//! run the warm-up and exactly one measured iteration, as the seeds define peak RSS; the
//! first of them also calibrates how many iterations a *time* process runs, so that its
//! measured part lasts about as long as the rest of the process (start-up, warm-up, exit)
//! and at least [`MIN_MEASURED`]. When one iteration is that long already, every process
//! runs one iteration and serves both. The case stops once its time sample has at least
//! `min_runs` processes and the interval of the quantity its row shows — the overhead where
//! the scenario has an ideal time, else the elapsed time — is within `precision`, or when
//! it reaches `max_runs` time processes or spends `max_time`.

use crate::stats::{RESAMPLES, nested_median_ci, pooled_median};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Memory processes per case (at most; fewer when `max_runs` is lower).
pub const MEMORY_RUNS: u32 = 3;

/// The least measured time of a time process: below it, timer and scheduler granularity
/// dominate what one process sees.
pub const MIN_MEASURED: Duration = Duration::from_millis(20);

/// Most iterations in one process.
pub const MAX_ITERATIONS: u32 = 1_000;

/// Resamples of the interval checked after each process: enough to tell ±2 % from ±3 %,
/// and cheap between two processes; a pass is confirmed with the tables' full count.
pub const CHECK_RESAMPLES: usize = 400;

/// Below this share of the elapsed time, an overhead is judged against the elapsed time:
/// ±2 % of an overhead of nearly nothing is noise no run count can beat.
pub const OVERHEAD_FLOOR: f64 = 0.01;

/// How much measuring a case gets.
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
}

impl Stopping {
    /// Exactly `runs` time processes, whatever the precision (`-r`).
    pub fn exactly(runs: u32, max_time: Duration) -> Stopping {
        Stopping {
            min_runs: runs,
            max_runs: runs,
            precision: 0.0,
            max_time,
        }
    }

    fn memory_runs(&self) -> u32 {
        MEMORY_RUNS.min(self.max_runs)
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
    /// It spent `max_time`.
    TimeBudget,
    /// `min_runs` processes gave no valid run.
    NoValidRun,
}

impl StopReason {
    /// How a table says it, after the interval's width: `±7 %, time budget`.
    pub fn describe(&self) -> &'static str {
        match self {
            StopReason::Precision => "precise",
            StopReason::MaxRuns => "max runs",
            StopReason::TimeBudget => "time budget",
            StopReason::NoValidRun => "no valid run",
        }
    }
}

/// What a case has been given so far, and what it asks for next.
#[derive(Debug, Clone)]
pub struct CaseProgress {
    stopping: Stopping,
    ideal_ns: f64,
    /// Measured processes made, valid or not.
    runs: u32,
    valid: u32,
    memory: u32,
    /// The quantity (overhead or elapsed, ns) of each iteration of each valid time process.
    time: Vec<Vec<f64>>,
    /// Elapsed ns of the same iterations, for [`OVERHEAD_FLOOR`].
    elapsed: Vec<Vec<f64>>,
    /// Iterations of a time process, once calibrated.
    iterations: Option<u32>,
    /// Whether a process can run more than one iteration (a plain command cannot).
    repeatable: bool,
    spent: Duration,
    stop: Option<StopReason>,
}

impl CaseProgress {
    /// A case whose scenario waits `ideal_ns` per iteration (0: none).
    pub fn new(stopping: Stopping, ideal_ns: u64) -> CaseProgress {
        CaseProgress::with(stopping, ideal_ns, true)
    }

    /// A case of whole processes, one iteration each (`--command`).
    pub fn single(stopping: Stopping) -> CaseProgress {
        CaseProgress::with(stopping, 0, false)
    }

    fn with(stopping: Stopping, ideal_ns: u64, repeatable: bool) -> CaseProgress {
        CaseProgress {
            stopping,
            ideal_ns: ideal_ns as f64,
            runs: 0,
            valid: 0,
            memory: 0,
            time: Vec::new(),
            elapsed: Vec::new(),
            iterations: None,
            repeatable,
            spent: Duration::ZERO,
            stop: None,
        }
    }

    /// A case that asks for nothing more (it cannot be run again).
    pub fn done(stopping: Stopping) -> CaseProgress {
        CaseProgress {
            stop: Some(StopReason::NoValidRun),
            ..CaseProgress::new(stopping, 0)
        }
    }

    /// Iterations of the next process, or `None` when the case is done.
    pub fn next(&self) -> Option<u32> {
        if self.stop.is_some() {
            return None;
        }
        match self.iterations {
            // Not calibrated yet: a memory process, which calibrates.
            None => Some(1),
            Some(1) => Some(1),
            // Memory and time processes alternate until the memory ones are done.
            Some(m) if self.memory < self.stopping.memory_runs() => {
                Some(if self.time.len() as u32 >= self.memory {
                    1
                } else {
                    m
                })
            }
            Some(m) => Some(m),
        }
    }

    /// Takes the outcome of a process that ran `iterations`: its wall clock and, when it
    /// was valid, the elapsed time of each iteration. Returns why the case stops, once.
    pub fn record(
        &mut self,
        iterations: u32,
        wall: Duration,
        elapsed_ns: Option<&[u64]>,
    ) -> Option<StopReason> {
        self.runs += 1;
        self.spent += wall;
        if let Some(elapsed) = elapsed_ns.filter(|e| !e.is_empty()) {
            self.valid += 1;
            if iterations == 1 {
                self.memory += 1;
            }
            if self.iterations.is_none() {
                self.iterations = Some(match self.repeatable {
                    true => calibrate(wall, elapsed[0], self.stopping.max_time),
                    false => 1,
                });
            }
            if Some(iterations) == self.iterations {
                let values: Vec<f64> = elapsed.iter().map(|&e| e as f64).collect();
                self.time
                    .push(values.iter().map(|e| e - self.ideal_ns).collect());
                self.elapsed.push(values);
            }
        }
        if self.stop.is_none() {
            self.stop = self.decide();
            return self.stop;
        }
        None
    }

    /// Why the case stopped, if it has.
    pub fn stopped(&self) -> Option<StopReason> {
        self.stop
    }

    fn decide(&self) -> Option<StopReason> {
        let s = &self.stopping;
        let time_runs = self.time.len() as u32;
        if self.valid == 0 && self.runs >= s.min_runs.max(1) {
            return Some(StopReason::NoValidRun);
        }
        let enough = time_runs >= s.min_runs && self.memory >= s.memory_runs().min(s.min_runs);
        if !enough {
            // Failed processes count too, so that a case failing half the time still ends.
            return (self.runs >= 2 * s.max_runs + s.memory_runs()).then_some(StopReason::MaxRuns);
        }
        if time_runs >= s.max_runs {
            return Some(StopReason::MaxRuns);
        }
        // The cheap check first; a pass is confirmed with the tables' own resample count,
        // so that a row never says "precise" with a wider interval than the target.
        let within = |resamples| {
            precision(&self.time, &self.elapsed, resamples).is_some_and(|p| p <= s.precision)
        };
        if within(CHECK_RESAMPLES) && within(RESAMPLES) {
            return Some(StopReason::Precision);
        }
        (self.spent >= s.max_time).then_some(StopReason::TimeBudget)
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
/// elapsed per iteration, grouped by process); an overhead below [`OVERHEAD_FLOOR`] of the
/// elapsed median is judged against the elapsed median.
pub fn precision(quantity: &[Vec<f64>], elapsed: &[Vec<f64>], resamples: usize) -> Option<f64> {
    let ci = nested_median_ci(quantity, resamples)?;
    let median = pooled_median(quantity)?;
    let elapsed = pooled_median(elapsed)?;
    let scale = if median.abs() < OVERHEAD_FLOOR * elapsed.abs() {
        elapsed
    } else {
        median
    };
    (scale != 0.0).then(|| (ci.high - ci.low) / 2.0 / scale.abs())
}

#[cfg(test)]
mod tests;
