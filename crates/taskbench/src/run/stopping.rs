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
//!
//! Once its first `min_runs` time processes (the pilot) are in and the case is not precise
//! yet, the case's variance components (run/variance.rs) choose the iterations of its
//! later time processes; when that count is far from the pilot's (a factor of
//! [`RECHOOSE_FACTOR`]), the time sample starts again at the new count.

use super::variance::{self, Variance};
use crate::stats::{Interval, RESAMPLES, median_interval, pooled_median};
use serde::{Deserialize, Serialize};
use std::time::Duration;

/// Memory processes per case (at most; fewer when `max_runs` is lower).
pub const MEMORY_RUNS: u32 = 3;

/// The least measured time of a time process: below it, timer and scheduler granularity
/// dominate what one process sees.
pub const MIN_MEASURED: Duration = Duration::from_millis(20);

/// The relative half-width a case counts as while its interval has no 95 % level yet
/// (fewer than six processes, stats/order.rs): ±100 %, as needy as any case, so that the
/// budget gives the cheapest such cases their processes first.
pub const UNKNOWN_WIDTH: f64 = 1.0;

/// Most iterations in one process.
pub const MAX_ITERATIONS: u32 = 1_000;

/// Resamples of the interval checked after each process: enough to tell ±2 % from ±3 %,
/// and cheap between two processes; a pass is confirmed with the tables' full count.
pub const CHECK_RESAMPLES: usize = 400;

/// Below this share of the elapsed time, an overhead is judged against the elapsed time:
/// ±2 % of an overhead of nearly nothing is noise no run count can beat.
pub const OVERHEAD_FLOOR: f64 = 0.01;

/// How far the variance's choice of iterations must be from the pilot's before the time
/// sample starts again at it: near the optimum the cost of a precision changes little
/// (Kalibera and Jones's cost is flat there), and starting again costs `min_runs` processes.
pub const RECHOOSE_FACTOR: f64 = 2.0;

/// The most the variance's choice may move a case's iterations from the pilot's, either way:
/// three processes estimate S_b² roughly (0 is a common estimate, and would ask for the
/// cap), and a step too far makes processes far longer or more than the run can pay for.
pub const MAX_RECHOOSE_STEP: u32 = 4;

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
    /// minimum, each next process goes where the noise is (run/runner.rs). `None`: each
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
    /// The whole run's budget (`--budget`) had no room for its next process.
    RunBudget,
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
            StopReason::TimeBudget => "time budget".into(),
            StopReason::RunBudget => "run budget".into(),
            StopReason::NoValidRun => "no valid run".into(),
            StopReason::NotSteady { needs_ms } => format!(
                "steady state not reached: needs ~{}",
                crate::units::rough_duration(Duration::from_millis(*needs_ms))
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
    /// Wall ns of the same processes, for what a process costs beyond its iterations.
    walls: Vec<f64>,
    /// Wall clock of every process made, by its kind and size: what the next costs.
    made: Vec<(Next, Duration)>,
    /// Warm-up iterations of a time process (contestant/warm_up.rs), for its cost.
    warm_up: u32,
    /// A memory process's measured iteration, ns: the guess at a time process's
    /// iterations before one is made.
    first_ns: Option<u64>,
    /// The relative half-width of the time sample's interval after the last process.
    width: Option<f64>,
    /// The components measured on the pilot, once it is in.
    variance: Option<Variance>,
    /// Iterations of a time process, once calibrated.
    iterations: Option<u32>,
    /// Whether a process can run more than one iteration (a plain command cannot).
    repeatable: bool,
    spent: Duration,
    stop: Option<StopReason>,
}

impl CaseProgress {
    /// A case whose scenario waits `ideal_ns` per iteration (0: none) and whose time
    /// processes warm up `warm_up` iterations.
    pub fn new(stopping: Stopping, ideal_ns: u64, warm_up: u32) -> CaseProgress {
        CaseProgress::with(stopping, ideal_ns, true, warm_up)
    }

    /// A case of whole processes, one iteration each (`--command`): each serves both kinds.
    pub fn single(stopping: Stopping) -> CaseProgress {
        CaseProgress::with(stopping, 0, false, 0)
    }

    fn with(stopping: Stopping, ideal_ns: u64, repeatable: bool, warm_up: u32) -> CaseProgress {
        CaseProgress {
            warm_up,
            first_ns: None,
            stopping,
            ideal_ns: ideal_ns as f64,
            runs: 0,
            valid: 0,
            memory: 0,
            time: Vec::new(),
            elapsed: Vec::new(),
            walls: Vec::new(),
            made: Vec::new(),
            width: None,
            variance: None,
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
            ..CaseProgress::new(stopping, 0, 0)
        }
    }

    /// The next process, or `None` when the case is done: a memory process first (it
    /// calibrates), then memory and time processes alternate until the memory ones are
    /// done. A plain command's processes are single, and serve both kinds.
    pub fn next(&self) -> Option<Next> {
        if self.stop.is_some() {
            return None;
        }
        match self.iterations {
            None => Some(Next::MEMORY),
            Some(_) if !self.repeatable => Some(Next::MEMORY),
            Some(m) if self.memory < self.stopping.memory_runs() => {
                Some(if self.time.len() as u32 >= self.memory {
                    Next::MEMORY
                } else {
                    Next::time(m)
                })
            }
            Some(m) => Some(Next::time(m)),
        }
    }

    /// Takes the outcome of a process made as `next`: its wall clock and, when it was
    /// valid, the elapsed time of each measured iteration. Returns why the case stops, once.
    pub fn record(
        &mut self,
        next: Next,
        wall: Duration,
        elapsed_ns: Option<&[u64]>,
    ) -> Option<StopReason> {
        self.runs += 1;
        self.spent += wall;
        self.made.push((next, wall));
        if let Some(elapsed) = elapsed_ns.filter(|e| !e.is_empty()) {
            self.take_valid(next, wall, elapsed);
        }
        if self.stop.is_some() {
            return None;
        }
        self.width = self
            .enough()
            .then(|| self.interval_width(CHECK_RESAMPLES))
            .flatten();
        self.stop = self.decide();
        if self.stop.is_none() {
            self.rechoose_iterations();
        }
        self.stop
    }

    /// Counts a valid process: calibrates from the first memory process, keeps a time
    /// process's figures (a single process's too: it is both kinds).
    fn take_valid(&mut self, next: Next, wall: Duration, elapsed: &[u64]) {
        self.valid += 1;
        if !next.timed {
            self.memory += 1;
            self.first_ns.get_or_insert(elapsed[0]);
        }
        if self.iterations.is_none() {
            self.iterations = Some(if self.repeatable {
                calibrate(wall, elapsed[0], self.stopping.max_time).max(self.least_measured())
            } else {
                1
            });
        }
        let timed = next.timed || !self.repeatable;
        if timed && Some(next.iterations) == self.iterations {
            let values: Vec<f64> = elapsed.iter().map(|&e| e as f64).collect();
            self.time
                .push(values.iter().map(|e| e - self.ideal_ns).collect());
            self.elapsed.push(values);
            self.walls.push(wall.as_nanos() as f64);
        }
    }

    /// The fewest iterations a time process times: as many as it warmed up (at most
    /// [`MAX_ITERATIONS`]). The measured part then lasts about as long as the warm-up before
    /// it — calibrate's own balance, counting the warm-up as the rest of the process — and a
    /// case whose warm-up is long (a JIT's) times the same window, iterations W+1 … 2W,
    /// in every run, instead of as many as a cold first iteration happened to suggest.
    fn least_measured(&self) -> u32 {
        self.warm_up.clamp(1, MAX_ITERATIONS)
    }

    /// At the end of the pilot, the variance components; when they ask for an iteration
    /// count far from the pilot's, the time sample starts again at it. A time process keeps
    /// at least two iterations, so that it still tells within from between.
    fn rechoose_iterations(&mut self) {
        let s = self.stopping;
        let pilot = s.min_runs.max(2);
        let Some(m) = self.iterations.filter(|&m| m > 1) else {
            return;
        };
        if self.variance.is_some()
            || s.precision <= 0.0
            || (self.time.len() as u32) < pilot
            || 2 * pilot > s.max_runs
        {
            return;
        }
        let iteration_ns = pooled_median(&self.elapsed).unwrap_or(1.0);
        let cap = iteration_cap(s.max_time, iteration_ns);
        self.variance = variance::components(&self.elapsed, &self.walls, cap);
        // A pilot already within the target at the level its processes allow (below six,
        // their range) keeps its count: it only lacks processes for a 95 % interval.
        let steady = median_interval(&self.time, CHECK_RESAMPLES)
            .and_then(|ci| relative_half_width(ci, &self.time, &self.elapsed))
            .is_some_and(|width| width <= s.precision);
        if steady {
            return;
        }
        let Some(chosen) = self.variance.map(|v| {
            v.iterations_per_process
                .clamp(2, m.saturating_mul(MAX_RECHOOSE_STEP))
                .max(m / MAX_RECHOOSE_STEP)
                .max(self.least_measured())
        }) else {
            return;
        };
        let ratio = f64::from(chosen) / f64::from(m);
        if ratio >= RECHOOSE_FACTOR || ratio <= 1.0 / RECHOOSE_FACTOR {
            self.iterations = Some(chosen);
            self.time.clear();
            self.elapsed.clear();
            self.walls.clear();
            self.width = None;
        }
    }

    /// Why the case stopped, if it has.
    pub fn stopped(&self) -> Option<StopReason> {
        self.stop
    }

    /// The variance components of the pilot, once measured.
    pub fn variance(&self) -> Option<Variance> {
        self.variance
    }

    /// Whether the case still lacks its minimum: `min_runs` time processes and its memory
    /// processes (a stopped case lacks nothing).
    pub fn in_minimum(&self) -> bool {
        self.stop.is_none() && !self.enough()
    }

    /// How far the case's interval is above its target (relative half-width less the
    /// target), once it has its minimum and while it asks for more; `None` otherwise.
    pub fn shortfall(&self) -> Option<f64> {
        if self.stop.is_some() || !self.enough() {
            return None;
        }
        Some(self.width.unwrap_or(UNKNOWN_WIDTH) - self.stopping.precision)
    }

    /// What the next process will cost the run, plus the harness's share: the mean wall
    /// clock of the case's processes that ran as many iterations; before the first at a
    /// count the variance chose, the pilot's process cost and that many of its iterations;
    /// else the mean of all its processes. `None` before its first process.
    pub fn next_cost(&self) -> Option<Duration> {
        Some(self.cost_of(self.next()?)? + HARNESS_PER_PROCESS)
    }

    /// What a process made as `next` costs the run, from the case's processes so far.
    fn cost_of(&self, next: Next) -> Option<Duration> {
        let mean = |walls: Vec<Duration>| {
            let count = u32::try_from(walls.len()).ok().filter(|&n| n > 0)?;
            Some(walls.iter().sum::<Duration>() / count)
        };
        let kind = |want: Next| {
            let walls = self.made.iter().filter(|(n, _)| *n == want);
            mean(walls.map(|(_, wall)| *wall).collect())
        };
        let predicted = self.variance.filter(|_| next.timed).map(|v| {
            Duration::from_nanos(
                (v.process_cost_ns + f64::from(next.iterations) * v.iteration_cost_ns) as u64,
            )
        });
        // Before a time process is made: a memory process's and its warm-up and measured
        // iterations at the memory process's iteration time (a JIT's cold one: an
        // overestimate, so the budget is not overrun).
        let from_memory = || {
            let memory = kind(Next::MEMORY)?;
            let extra = u64::from(self.warm_up + next.iterations);
            Some(memory + Duration::from_nanos(self.first_ns? * extra))
        };
        kind(next)
            .or(predicted)
            .or_else(|| next.timed.then(from_memory).flatten())
            .or_else(|| mean(self.made.iter().map(|(_, wall)| *wall).collect()))
    }

    /// What the rest of the case's minimum will cost — its memory and time processes still
    /// to make — once a time process of it has been made: before, a time process's cost is
    /// only guessed from a memory process's iteration, which for a JIT is a cold one (up to
    /// 100× a steady one), and the run does not shed cases on such a guess.
    pub fn minimum_cost(&self) -> Option<Duration> {
        let timed = self.made.iter().any(|(next, _)| next.timed) || !self.repeatable;
        timed.then(|| self.remaining_minimum()).flatten()
    }

    /// What the rest of the case's minimum would cost, guessed where not yet known; `None`
    /// before its first process.
    fn remaining_minimum(&self) -> Option<Duration> {
        let s = &self.stopping;
        let m = self.iterations?;
        let time = s.min_runs.saturating_sub(self.time.len() as u32);
        let memory = s.memory_runs().min(s.min_runs).saturating_sub(self.memory);
        let time_cost = if self.repeatable {
            self.cost_of(Next::time(m))?
        } else {
            Duration::ZERO
        };
        let memory_cost = self.cost_of(Next::MEMORY)?;
        Some(
            (time_cost + HARNESS_PER_PROCESS) * time + (memory_cost + HARNESS_PER_PROCESS) * memory,
        )
    }

    /// Ends the case because the run's budget has no room for it: a case that has made no
    /// time process has no steady figure, and says what its minimum would have cost.
    pub fn end_for_budget(&mut self) {
        let timed = self.made.iter().any(|(next, _)| next.timed);
        let reason = if !timed && self.repeatable {
            let needs = self.remaining_minimum().unwrap_or_default();
            StopReason::NotSteady {
                needs_ms: needs.as_millis() as u64,
            }
        } else {
            StopReason::RunBudget
        };
        self.stop.get_or_insert(reason);
    }

    fn enough(&self) -> bool {
        let s = &self.stopping;
        self.time.len() as u32 >= s.min_runs && self.memory >= s.memory_runs().min(s.min_runs)
    }

    /// The relative half-width of the time sample's interval, with `resamples`.
    fn interval_width(&self, resamples: usize) -> Option<f64> {
        precision(&self.time, &self.elapsed, resamples)
    }

    fn decide(&self) -> Option<StopReason> {
        let s = &self.stopping;
        let time_runs = self.time.len() as u32;
        if self.valid == 0 && self.runs >= s.min_runs.max(1) {
            return Some(StopReason::NoValidRun);
        }
        if !self.enough() {
            // Failed processes count too, so that a case failing half the time still ends.
            return (self.runs >= 2 * s.max_runs + s.memory_runs()).then_some(StopReason::MaxRuns);
        }
        if time_runs >= s.max_runs {
            return Some(StopReason::MaxRuns);
        }
        // The cheap check first; a pass is confirmed with the tables' own resample count,
        // so that a row never says "precise" with a wider interval than the target.
        let within = |width: Option<f64>| width.is_some_and(|p| p <= s.precision);
        if within(self.width) && within(self.interval_width(RESAMPLES)) {
            return Some(StopReason::Precision);
        }
        (self.spent >= s.max_time).then_some(StopReason::TimeBudget)
    }
}

/// The most iterations a time process may run: [`MAX_ITERATIONS`], and a tenth of the case's
/// budget.
fn iteration_cap(max_time: Duration, iteration_ns: f64) -> u32 {
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
pub fn precision(quantity: &[Vec<f64>], elapsed: &[Vec<f64>], resamples: usize) -> Option<f64> {
    let ci = median_interval(quantity, resamples).filter(Interval::is_at_level)?;
    relative_half_width(ci, quantity, elapsed)
}

/// `ci`'s half-width relative to the pooled median of `quantity`, or of `elapsed` where the
/// quantity is an overhead below [`OVERHEAD_FLOOR`] of it.
fn relative_half_width(ci: Interval, quantity: &[Vec<f64>], elapsed: &[Vec<f64>]) -> Option<f64> {
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
