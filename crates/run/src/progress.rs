//! What a case has been given so far, and what it asks for in its next round.
//!
//! A case's measured processes come in two kinds (docs/MEASUREMENT.md), each a stream of its
//! own. *Memory* processes run the scenario's own warm-up and exactly one measured
//! iteration, as the seeds define peak RSS: the first calibrates how many iterations a time
//! process runs; then they go on by need — two at least, more while their peaks differ by
//! more than the case's precision, at most [`MEMORY_MOST`]. *Time* processes run the
//! contestant's warm-up and then M timed iterations; they go on until the interval of the
//! figure the row shows is within the precision, or `max_runs`, or `max_time`
//! (run/stopping.rs). A round gives a case at most one process of each kind, so that a case's
//! j-th time process ran in the j-th round it had one. The case is done when both streams are.
//!
//! M is chosen for precision per second, never from the warm-up: first so that the measured
//! part lasts about as long as the rest of a memory process (start-up and exit), at least
//! 20 ms (run/stopping.rs); then, after its first [`PILOT_RUNS`] time processes (the pilot), from its
//! variance components (run/variance.rs) — where the spread lies between processes, shorter
//! processes and more of them. The pilot's processes are kept: every time process measures
//! the same steady state after the same warm-up, whatever its M.

use super::price::{LEVEL_RUNS, PRIOR_PROCESSES, resampled_processes};
use super::stopping::{
    CHECK_RESAMPLES, HARNESS_PER_PROCESS, MAX_RECHOOSE_STEP, Next, RECHOOSE_FACTOR, StopReason,
    Stopping, calibrate, iteration_cap, precision, relative_half_width, scale,
};
use super::variance::{self, Variance};
use stats::{RESAMPLES, median, median_interval, pooled_median};
use std::time::Duration;

/// The fewest memory processes whose peaks can agree.
pub const MEMORY_LEAST: u32 = 2;

/// The most memory processes a case makes, however its peaks differ.
pub(crate) const MEMORY_MOST: u32 = 5;

/// How far apart a case's memory peaks may lie (their range over their median) and still
/// agree, where the run asks for no precision (`-r N`): the ±5 % the tables are judged at.
pub(crate) const MEMORY_AGREEMENT: f64 = 0.05;

/// Time processes whose variance components may choose the iterations of the rest: three,
/// or `min_runs` where that is more.
pub(crate) const PILOT_RUNS: u32 = 3;

/// What a case makes in its next round.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub(crate) struct Wants {
    /// A time process (a plain command's single process), if its time sample wants one.
    pub(crate) time: Option<Next>,
    /// A memory process.
    pub(crate) memory: bool,
}

impl Wants {
    /// Each process wanted, memory first.
    pub(crate) fn processes(self) -> impl Iterator<Item = Next> {
        let memory = self.memory.then_some(Next::MEMORY);
        memory.into_iter().chain(self.time)
    }

    /// Whether it wants nothing.
    pub(crate) fn is_empty(self) -> bool {
        self.time.is_none() && !self.memory
    }
}

/// What a case's minimum, its 95 % level and its target still cost.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct Price {
    /// The rest of its minimum (`min_runs` time processes and a memory one): zero once it
    /// has it.
    pub(crate) minimum: Duration,
    /// The rest of its 95 % level: [`LEVEL_RUNS`] time processes (at most `max_runs`) and
    /// its memory processes by need.
    pub(crate) level: Duration,
    /// The rest of its target: as many time processes as its spread asks for, and its
    /// memory processes by need; `None` where that is more than `max_runs`.
    pub target: Option<Duration>,
}

/// What a case has been given so far, and what it asks for next.
#[derive(Debug, Clone)]
pub(crate) struct CaseProgress {
    stopping: Stopping,
    ideal_ns: f64,
    /// Measured processes made, valid or not.
    runs: u32,
    valid: u32,
    memory_made: u32,
    time_made: u32,
    /// Peak RSS of each valid memory process, bytes.
    peaks: Vec<f64>,
    /// The quantity (overhead or elapsed, ns) of each iteration of each valid time process.
    time: Vec<Vec<f64>>,
    /// Elapsed ns of the same iterations, for the overhead floor (run/stopping.rs).
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
    /// The relative half-width of the time sample's 95 % interval after the last process.
    width: Option<f64>,
    /// The components measured on the pilot, once it is in.
    variance: Option<Variance>,
    /// Time processes its target needs, as last worked out.
    needed: u64,
    /// Iterations of a time process, once calibrated.
    iterations: Option<u32>,
    /// Whether a process can run more than one iteration (a plain command cannot).
    repeatable: bool,
    spent: Duration,
    /// Why the time sample stopped, once it has: the case's reason.
    time_done: Option<StopReason>,
    memory_done: bool,
    stop: Option<StopReason>,
}

impl CaseProgress {
    /// A case whose scenario waits `ideal_ns` per iteration (0: none) and whose time
    /// processes warm up `warm_up` iterations.
    pub(crate) fn new(stopping: Stopping, ideal_ns: u64, warm_up: u32) -> CaseProgress {
        CaseProgress::with(stopping, ideal_ns, true, warm_up)
    }

    /// A case of whole processes, one iteration each (`--command`): each serves both kinds.
    pub(crate) fn single(stopping: Stopping) -> CaseProgress {
        CaseProgress::with(stopping, 0, false, 0)
    }

    fn with(stopping: Stopping, ideal_ns: u64, repeatable: bool, warm_up: u32) -> CaseProgress {
        CaseProgress {
            stopping,
            ideal_ns: ideal_ns as f64,
            runs: 0,
            valid: 0,
            memory_made: 0,
            time_made: 0,
            peaks: Vec::new(),
            time: Vec::new(),
            elapsed: Vec::new(),
            walls: Vec::new(),
            made: Vec::new(),
            warm_up,
            first_ns: None,
            width: None,
            variance: None,
            needed: u64::from(PRIOR_PROCESSES),
            iterations: None,
            repeatable,
            spent: Duration::ZERO,
            time_done: None,
            memory_done: !repeatable,
            stop: None,
        }
    }

    /// A case that asks for nothing more (it cannot be run again).
    pub(crate) fn done(stopping: Stopping) -> CaseProgress {
        CaseProgress {
            stop: Some(StopReason::NoValidRun),
            ..CaseProgress::new(stopping, 0, 0)
        }
    }

    /// Everything the case makes in its next round: before a valid memory process, a
    /// memory process alone (it calibrates); then its time process while its time sample
    /// wants more, and its memory process while its peaks want more — never more than one
    /// memory process ahead of its time ones. A plain command's processes are single.
    pub(crate) fn wants(&self) -> Wants {
        if self.stop.is_some() {
            return Wants::default();
        }
        if !self.repeatable {
            return Wants {
                time: Some(Next::MEMORY),
                memory: false,
            };
        }
        let Some(m) = self.iterations else {
            return Wants {
                time: None,
                memory: true,
            };
        };
        Wants {
            time: self.time_done.is_none().then_some(Next::time(m)),
            memory: !self.memory_done && self.memory_made <= self.time_made,
        }
    }

    /// What the case's minimum still wants this round: `min_runs` time processes and one
    /// memory process, within [`CaseProgress::wants`].
    pub(crate) fn minimum_wants(&self) -> Wants {
        let wants = self.wants();
        Wants {
            time: wants
                .time
                .filter(|_| self.time_valid() < self.time_minimum()),
            memory: wants.memory && self.memory_valid() < 1,
        }
    }

    /// Takes the outcome of a process made as `next`: its wall clock, its peak RSS and,
    /// when it was valid, the elapsed time of each measured iteration. Returns why the case
    /// stops, once.
    pub(crate) fn record(
        &mut self,
        next: Next,
        wall: Duration,
        peak_rss: u64,
        elapsed_ns: Option<&[u64]>,
    ) -> Option<StopReason> {
        self.runs += 1;
        self.spent += wall;
        self.made.push((next, wall));
        let timed = next.timed || !self.repeatable;
        if timed {
            self.time_made += 1;
        } else {
            self.memory_made += 1;
        }
        if let Some(elapsed) = elapsed_ns.filter(|e| !e.is_empty()) {
            self.take_valid(next, wall, peak_rss, elapsed);
        }
        if self.stop.is_some() {
            return None;
        }
        self.width = self
            .enough_time()
            .then(|| self.interval_width(CHECK_RESAMPLES))
            .flatten();
        self.decide();
        if self.time_done.is_none() {
            self.rechoose_iterations();
        }
        self.needed = self.work_out_needed();
        self.stop
    }

    /// Counts a valid process: calibrates from the first memory process, keeps a memory
    /// process's peak and a time process's figures (a single process's both).
    fn take_valid(&mut self, next: Next, wall: Duration, peak_rss: u64, elapsed: &[u64]) {
        self.valid += 1;
        if !next.timed {
            self.peaks.push(peak_rss as f64);
            self.first_ns.get_or_insert(elapsed[0]);
        }
        if self.iterations.is_none() {
            self.iterations = Some(if self.repeatable {
                calibrate(wall, elapsed[0], self.stopping.max_time)
            } else {
                1
            });
        }
        if next.timed || !self.repeatable {
            let values: Vec<f64> = elapsed.iter().map(|&e| e as f64).collect();
            self.time
                .push(values.iter().map(|e| e - self.ideal_ns).collect());
            self.elapsed.push(values);
            self.walls.push(wall.as_nanos() as f64);
        }
    }

    /// After each process: whether the time sample is done and why, whether the memory one
    /// is, and the case's reason once both are.
    fn decide(&mut self) {
        let s = &self.stopping;
        if self.valid == 0 && self.runs >= s.min_runs.max(1) {
            self.stop = Some(StopReason::NoValidRun);
            return;
        }
        if self.time_done.is_none() {
            self.time_done = self.decide_time();
        }
        if !self.memory_done {
            // Past its time budget a case still makes the fewest memory processes whose peaks
            // can agree, and no more.
            let least = MEMORY_LEAST.min(s.max_runs.max(1));
            let spent = self.spent >= s.max_time && self.memory_valid() >= least;
            self.memory_done = spent || self.memory_enough();
        }
        if self.time_done.is_some() && self.memory_done {
            self.stop = self.time_done;
        } else if self.runs >= 2 * s.max_runs + MEMORY_MOST {
            // Failed processes count too, so that a case failing half the time still ends.
            self.stop = Some(self.time_done.unwrap_or(StopReason::MaxRuns));
        }
    }

    /// Why the time sample stops now, if it does.
    fn decide_time(&self) -> Option<StopReason> {
        let s = &self.stopping;
        if !self.enough_time() {
            return None;
        }
        if self.time.len() as u32 >= s.max_runs {
            return Some(StopReason::MaxRuns);
        }
        // The cheap check first; a pass is confirmed with the tables' own resample count,
        // so that a row never says "precise" with a wider interval than the target.
        let within = |width: Option<f64>| width.is_some_and(|p| p <= s.precision);
        if within(self.width) && within(self.interval_width(RESAMPLES)) {
            return Some(StopReason::Precision);
        }
        (self.spent >= s.max_time).then_some(StopReason::MaxTime)
    }

    /// Whether the memory processes are enough: as many as `max_runs` allows of
    /// [`MEMORY_LEAST`], agreeing within the precision (their range over their median); or
    /// [`MEMORY_MOST`] (at most `max_runs`) whatever they say.
    fn memory_enough(&self) -> bool {
        let s = &self.stopping;
        let most = MEMORY_MOST.min(s.max_runs.max(1));
        let least = MEMORY_LEAST.min(most);
        if self.memory_made >= most {
            return true;
        }
        if self.memory_valid() < least {
            return false;
        }
        let agreement = if s.precision > 0.0 {
            s.precision
        } else {
            MEMORY_AGREEMENT
        };
        memory_spread(&self.peaks).is_some_and(|spread| spread <= agreement)
    }

    /// At the end of the pilot, the variance components; when they ask for an iteration
    /// count far from the pilot's, later time processes run it (the pilot's are kept). A
    /// time process keeps at least two iterations, so that it still tells within from
    /// between.
    fn rechoose_iterations(&mut self) {
        let s = self.stopping;
        let pilot = PILOT_RUNS.max(s.min_runs);
        let Some(m) = self.iterations.filter(|&m| m > 1 && self.repeatable) else {
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
        }) else {
            return;
        };
        let ratio = f64::from(chosen) / f64::from(m);
        if ratio >= RECHOOSE_FACTOR || ratio <= 1.0 / RECHOOSE_FACTOR {
            self.iterations = Some(chosen);
        }
    }

    /// Why the case stopped, if it has.
    pub(crate) fn stopped(&self) -> Option<StopReason> {
        self.stop
    }

    /// The variance components of the pilot, once measured.
    #[cfg(test)]
    pub(crate) fn variance(&self) -> Option<Variance> {
        self.variance
    }

    /// Whether the case still lacks its minimum: `min_runs` valid time processes and a
    /// valid memory process (a stopped case, or a time sample done early, lacks nothing).
    pub(crate) fn in_minimum(&self) -> bool {
        !self.minimum_wants().is_empty()
    }

    /// Whether the case wants more than its minimum.
    pub(crate) fn wants_more(&self) -> bool {
        !self.wants().is_empty()
    }

    /// How far the case's interval is above its target (relative half-width less the
    /// target), while its time sample wants more; `None` otherwise. A case with no 95 %
    /// interval yet counts as ±100 %.
    pub(crate) fn shortfall(&self) -> Option<f64> {
        self.time_done.is_none().then_some(())?;
        self.stop.is_none().then_some(())?;
        Some(self.width.unwrap_or(1.0) - self.stopping.precision)
    }

    /// What a process made as `next` costs the run, plus the harness's share: the mean wall
    /// clock of the case's processes of that kind and size; before the first of a size the
    /// variance chose, the pilot's process cost and that many of its iterations; before any
    /// time process, a memory process's and its warm-up and measured iterations at the
    /// memory one's iteration time (a JIT's cold one: an overestimate, so the budget is not
    /// overrun); else the mean of all its processes. `None` before its first process.
    pub(crate) fn cost(&self, next: Next) -> Option<Duration> {
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
        let from_memory = || {
            let memory = kind(Next::MEMORY)?;
            let extra = u64::from(self.warm_up + next.iterations);
            Some(memory + Duration::from_nanos(self.first_ns?.saturating_mul(extra)))
        };
        let cost = kind(next)
            .or(predicted)
            .or_else(|| next.timed.then(from_memory).flatten())
            .or_else(|| mean(self.made.iter().map(|(_, wall)| *wall).collect()))?;
        Some(cost + HARNESS_PER_PROCESS)
    }

    /// What the case's next round costs: each process it wants.
    pub(crate) fn round_cost(&self, wants: Wants) -> Option<Duration> {
        wants.processes().map(|next| self.cost(next)).sum()
    }

    /// What the case's minimum, its 95 % level and its target still cost, from its
    /// processes so far; `None` before its first process.
    pub(crate) fn price(&self) -> Option<Price> {
        let m = self.iterations?;
        let time = self
            .cost(Next::time(m))
            .filter(|_| self.repeatable)
            .unwrap_or_default();
        let memory = self.cost(Next::MEMORY)?;
        let have = u64::from(self.time_valid());
        let time_more = |runs: u64| match self.time_done {
            Some(_) => Duration::ZERO,
            None => time * u32::try_from(runs.saturating_sub(have)).unwrap_or(u32::MAX),
        };
        let minimum_runs = u64::from(self.time_minimum());
        let minimum = if self.in_minimum() {
            time_more(minimum_runs) + memory * u32::from(self.memory_valid() < 1)
        } else {
            Duration::ZERO
        };
        let memory_more = if self.memory_done {
            0
        } else {
            MEMORY_LEAST.saturating_sub(self.memory_valid()).max(1)
        };
        let goal = |runs: u64| time_more(runs.max(minimum_runs)) + memory * memory_more;
        let level = u64::from(LEVEL_RUNS.min(self.stopping.max_runs));
        let needed = self.processes_needed();
        Some(Price {
            minimum,
            level: goal(level),
            target: (needed <= u64::from(self.stopping.max_runs)).then(|| goal(needed)),
        })
    }

    /// Time processes the case needs for its target: [`PRIOR_PROCESSES`] until its pilot
    /// is in; then what its own processes' figures ask for, resampled (run/price.rs:
    /// their tails and modes included), or more than `max_runs` can give; and one more than
    /// it has while its interval is still wider than the target.
    pub(crate) fn processes_needed(&self) -> u64 {
        self.needed
    }

    /// [`CaseProgress::processes_needed`], worked out after a process.
    fn work_out_needed(&self) -> u64 {
        let have = self.time_valid();
        let target = self.stopping.precision;
        if have < PILOT_RUNS {
            return u64::from(PRIOR_PROCESSES.max(have));
        }
        let figures: Vec<f64> = self.time.iter().filter_map(|g| median(g)).collect();
        let most = self.stopping.max_runs;
        let needed = scale(&self.time, &self.elapsed)
            .and_then(|scale| resampled_processes(&figures, scale, target, most))
            .map_or(u64::MAX, u64::from);
        let short = self.width.is_none_or(|w| w > target);
        if short && needed <= u64::from(have) {
            u64::from(have) + 1
        } else {
            needed
        }
    }

    /// Ends the case because the run's budget has no room for it: a case that has made no
    /// time process has no steady figure, and says what its minimum would have cost.
    pub(crate) fn end_for_budget(&mut self) {
        let timed = self.made.iter().any(|(next, _)| next.timed);
        let reason = if !timed && self.repeatable {
            let needs = self.price().map(|p| p.minimum).unwrap_or_default();
            StopReason::NotSteady {
                needs_ms: needs.as_millis() as u64,
            }
        } else {
            StopReason::SessionBudget
        };
        self.stop.get_or_insert(reason);
    }

    /// Whether a time process of the case has been made (its price is then more than a
    /// guess from a memory process's cold iteration).
    pub(crate) fn timed(&self) -> bool {
        self.made.iter().any(|(next, _)| next.timed) || !self.repeatable
    }

    /// Whether the case is past its minimum and short of the 95 % level, its time sample
    /// still going.
    pub(crate) fn on_the_way_to_level(&self) -> bool {
        let have = self.time_valid();
        self.time_done.is_none()
            && self.stop.is_none()
            && have > self.time_minimum()
            && have < LEVEL_RUNS.min(self.stopping.max_runs)
    }

    /// Valid time processes made.
    pub(crate) fn time_processes(&self) -> u32 {
        self.time_valid()
    }

    fn time_valid(&self) -> u32 {
        self.time.len() as u32
    }

    fn memory_valid(&self) -> u32 {
        if self.repeatable {
            self.peaks.len() as u32
        } else {
            self.time_valid()
        }
    }

    /// Time processes the case always gets: `min_runs`, within `max_runs`.
    fn time_minimum(&self) -> u32 {
        self.stopping.min_runs.min(self.stopping.max_runs)
    }

    fn enough_time(&self) -> bool {
        self.time_valid() >= self.time_minimum()
    }

    /// The relative half-width of the time sample's interval, with `resamples`.
    fn interval_width(&self, resamples: usize) -> Option<f64> {
        precision(&self.time, &self.elapsed, resamples)
    }
}

/// The range of memory `peaks` over their median (0 where they are alike); `None` when
/// empty.
fn memory_spread(peaks: &[f64]) -> Option<f64> {
    let center = median(peaks)?;
    let (low, high) = peaks
        .iter()
        .fold((f64::INFINITY, f64::NEG_INFINITY), |(l, h), &p| {
            (l.min(p), h.max(p))
        });
    if high == low {
        return Some(0.0);
    }
    Some((high - low) / center.abs().max(f64::MIN_POSITIVE))
}

#[cfg(test)]
mod tests;
