//! Executes a plan point by point: the idle and warm-up runs, then measured rounds across
//! the subjects until every case has stopped (run/stopping.rs). Each run's command is
//! built, measured through an [`Executor`] and judged, and every record goes to a sink as
//! soon as it exists (so that runs.jsonl loses nothing if the harness is interrupted). A
//! case that is n/a, cannot start or timed out is not run again. Between processes the
//! runner asks its stop condition (SIGINT, SIGTERM or SIGHUP, in `taskbench run`) and,
//! when it says stop, returns the records made so far; a run the stop cut short is not among them.
//!
//! Each measured round gives every case that wants more its next processes (run/progress.rs:
//! a time process and, by need, a memory one), in an order shuffled afresh. With a
//! whole-run budget (`Stopping::budget`), run/allocate.rs chooses each round's cases: every
//! minimum first, then the goals cheapest first, then the cases most short of their target
//! per second. A process the budget has no room for is not started (its cost is predicted
//! from the case's own processes), and a case the budget leaves short says so on its last
//! record.

use super::allocate;
use super::attempt::{COUNTED_ITERATIONS, Stopped, attempt, count_one, with_stop};
use super::executor::{Executor, Limits};
use super::plan::{Phase, Step, Subject, Workload, before_measuring};
use super::progress::CaseProgress;
use super::record::RunRecord;
use super::stopping::{HARNESS_PER_PROCESS, Next, StopReason, Stopping};
use measure::InstructionCounter;
use stats::SplitMix64;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

/// How many runs each case gets.
#[derive(Clone, Copy)]
pub struct Settings<'a> {
    /// Warm-up processes per case.
    pub warm_up: u32,
    /// Idle-footprint processes per scenario and subject.
    pub idle_runs: u32,
    pub stopping: Stopping,
    /// `--instructions`: after its measured runs, each case's counted runs, under this.
    pub instructions: Option<&'a dyn InstructionCounter>,
    /// Seeds the order of every measured round (`--seed`; results.json keeps it).
    pub seed: u64,
}

/// Runs a plan's points over its subjects: the executor that makes each process, how many
/// runs each case gets and how each is made, and when to stop early.
pub struct Runner<'a> {
    pub executor: &'a mut dyn Executor,
    pub subjects: &'a [Subject],
    pub settings: Settings<'a>,
    pub limits: Limits,
    /// Asked before every process and after every failed one: `true` ends the run with
    /// what it has (`run::interrupt::requested` in `taskbench run`).
    pub stop: &'a dyn Fn() -> bool,
}

/// What the runner tells its caller, and asks it.
pub struct Hooks<'h> {
    /// Steps made already by an earlier, interrupted run (`taskbench run --resume`) or
    /// left to another shard: an idle or warm-up step is skipped by itself, a case whose
    /// first measured step is done is skipped whole.
    pub done: &'h dyn Fn(&Step) -> bool,
    /// Sees each record when it is made; an error stops the run.
    pub sink: &'h mut dyn FnMut(&RunRecord) -> anyhow::Result<()>,
    /// Sees each step before it runs.
    pub progress: &'h mut dyn FnMut(&Step),
}

/// Whether the run goes on.
type Flow = ControlFlow<()>;

impl Runner<'_> {
    /// Runs every point of `workloads` over the subjects, point by point (then, with a
    /// budget, the allocation rounds); the records made, in order.
    pub fn run(&mut self, workloads: &[Workload], hooks: Hooks) -> anyhow::Result<Vec<RunRecord>> {
        let budget = self.settings.stopping.budget;
        let seed = self.settings.seed;
        let mut pass = Pass {
            runner: self,
            hooks,
            records: Vec::new(),
            idle_done: Vec::new(),
            stopped: Stopped::new(),
            spent: Duration::ZERO,
            beyond: Duration::ZERO,
            kept: 0,
            started: None,
            order: SplitMix64::new(seed),
        };
        let mut points = Vec::new();
        if pass.points(workloads, &mut points)?.is_continue() && budget.is_some() {
            pass.end_short(&mut points);
        }
        Ok(pass.records)
    }
}

/// What a process cost the run: its wall clock and the harness's share.
pub(crate) fn charge(record: &RunRecord) -> Duration {
    record.figures.as_ref().map_or(Duration::ZERO, |f| {
        Duration::from_nanos(f.wall_ns) + HARNESS_PER_PROCESS
    })
}

/// One run of the runner, and what it has made so far.
struct Pass<'r, 'a, 'h> {
    runner: &'r mut Runner<'a>,
    hooks: Hooks<'h>,
    records: Vec<RunRecord>,
    /// Idle footprints are measured once per idle scenario.
    idle_done: Vec<catalogue::Scenario>,
    stopped: Stopped,
    /// What the steps made so far took: each its [`charge`], or the harness's own clock
    /// around it (launch, judging, the stopping rule's bootstrap) where that is longer.
    spent: Duration,
    /// Of `spent`, what the harness's clock saw beyond the charges, and over how many
    /// records: each next process is predicted to cost as much more on average.
    beyond: Duration,
    kept: u32,
    /// When the step being made began.
    started: Option<Instant>,
    /// Shuffles each measured round.
    order: SplitMix64,
}

/// The measured cases of one point, by subject, and the runs each has made.
struct PointProgress {
    workload: Workload,
    cases: Vec<CaseProgress>,
    runs: Vec<u32>,
}

/// What came of a step.
enum Made {
    /// The run was stopped before it.
    Stopped,
    /// Not run, and nothing to say (its case stopped and said so already).
    Nothing,
    Record(Box<RunRecord>),
}

impl Pass<'_, '_, '_> {
    fn stop(&self) -> bool {
        (self.runner.stop)()
    }

    fn subjects(&self) -> usize {
        self.runner.subjects.len()
    }

    /// Keeps a record, unless the run was stopped and the record is of a run the stop
    /// cut short: then the run ends.
    fn keep(&mut self, record: RunRecord) -> anyhow::Result<Flow> {
        if self.stop() && !record.status.is_ok() {
            return Ok(Flow::Break(()));
        }
        let charged = charge(&record);
        let took = self.started.take().map_or(charged, |start| start.elapsed());
        self.spent += charged.max(took);
        self.beyond += took.saturating_sub(charged);
        self.kept += 1;
        (self.hooks.sink)(&record)?;
        self.records.push(record);
        Ok(Flow::Continue(()))
    }

    /// Makes `step`, unless the run is stopped.
    fn attempt(&mut self, step: &Step) -> anyhow::Result<Made> {
        if self.stop() {
            return Ok(Made::Stopped);
        }
        (self.hooks.progress)(step);
        self.started = Some(Instant::now());
        let runner = &mut *self.runner;
        let made = attempt(
            runner.executor,
            runner.subjects,
            step,
            runner.limits,
            &mut self.stopped,
            runner.stop,
        )?;
        Ok(made.map_or(Made::Nothing, |record| Made::Record(Box::new(record))))
    }

    /// The idle-footprint and warm-up runs of a point.
    fn before_measuring(&mut self, workload: Workload) -> anyhow::Result<Flow> {
        let settings = self.runner.settings;
        let steps = before_measuring(
            self.subjects(),
            workload,
            settings.idle_runs,
            settings.warm_up,
            &mut self.idle_done,
        );
        for step in steps.iter().filter(|step| !(self.hooks.done)(step)) {
            match self.attempt(step)? {
                Made::Stopped => return Ok(Flow::Break(())),
                Made::Nothing => {}
                Made::Record(record) => {
                    if self.keep(*record)?.is_break() {
                        return Ok(Flow::Break(()));
                    }
                }
            }
        }
        Ok(Flow::Continue(()))
    }

    /// Every point's idle and warm-up runs, then measured rounds across every case of
    /// every point, each round in a fresh random order (with a budget, until every case has
    /// its minimum), then the counted runs; each point's cases kept in `points`.
    fn points(
        &mut self,
        workloads: &[Workload],
        points: &mut Vec<PointProgress>,
    ) -> anyhow::Result<Flow> {
        for &workload in workloads {
            if self.before_measuring(workload)?.is_break() {
                return Ok(Flow::Break(()));
            }
            points.push(self.start(workload));
        }
        if self.rounds(points)?.is_break() {
            return Ok(Flow::Break(()));
        }
        for &workload in workloads {
            if self.count(workload)?.is_break() {
                return Ok(Flow::Break(()));
            }
        }
        Ok(Flow::Continue(()))
    }

    /// Measured rounds until no case wants more, or the budget buys no more: each round
    /// gives its cases what they want of it (with a budget, what run/allocate.rs grants), in
    /// an order shuffled afresh (Abedi and Brecht's randomized multiple interleaved trials),
    /// so that no case and no point is measured in one stretch of the run and drift hits
    /// every case alike.
    fn rounds(&mut self, points: &mut [PointProgress]) -> anyhow::Result<Flow> {
        let budget = self.runner.settings.stopping.budget;
        loop {
            let mut order = self.round(points, budget);
            if order.is_empty() {
                return Ok(Flow::Continue(()));
            }
            shuffle(&mut order, &mut self.order);
            for (p, subject, next) in order {
                if !wanted(&points[p].cases[subject], next) {
                    continue;
                }
                if let Some(budget) = budget
                    && !self.affords(&points[p].cases[subject], next, budget)
                {
                    let case = &mut points[p].cases[subject];
                    case.end_for_budget();
                    let reason = case.stopped();
                    self.amend_stop(subject, points[p].workload, reason);
                    continue;
                }
                if self.measure(&mut points[p], subject, next)?.is_break() {
                    return Ok(Flow::Break(()));
                }
                if let Some(budget) = budget {
                    self.shed(points, budget);
                }
            }
        }
    }

    /// The processes of the next round, by point, case and kind: every case's wants, or
    /// with a budget those the allocator grants.
    fn round(
        &self,
        points: &[PointProgress],
        budget: Option<Duration>,
    ) -> Vec<(usize, usize, Next)> {
        let index: Vec<(usize, usize)> = points
            .iter()
            .enumerate()
            .flat_map(|(p, point)| (0..point.cases.len()).map(move |s| (p, s)))
            .collect();
        let cases: Vec<&CaseProgress> = index.iter().map(|&(p, s)| &points[p].cases[s]).collect();
        let granted = match budget {
            Some(budget) => allocate::round(&cases, self.left(budget)),
            None => (cases.iter().enumerate())
                .map(|(i, c)| (i, c.wants()))
                .collect(),
        };
        granted
            .into_iter()
            .flat_map(|(i, wants)| {
                let (p, s) = index[i];
                wants.processes().map(move |next| (p, s, next))
            })
            .collect()
    }

    /// Whether the budget has room for a process of a case: one that does not fit is not
    /// started, and the case ends for the budget.
    fn affords(&self, case: &CaseProgress, next: Next, budget: Duration) -> bool {
        self.cost(case, next)
            .is_none_or(|cost| cost <= self.left(budget))
    }

    /// When the cases' remaining minimums no longer fit in what is left of the budget, ends
    /// the dearest of them (each then has no steady figure and says what it would have
    /// cost), until they fit: so that the budget holds, minimum phase included, and as many
    /// cases as it can carry get their figures. A case is priced only once it has made a
    /// time process: before, a time process's cost is a guess from a memory process's
    /// iteration, which for a JIT is a cold one (up to 100× a steady one).
    fn shed(&mut self, points: &mut [PointProgress], budget: Duration) {
        loop {
            let mut committed = Duration::ZERO;
            let mut dearest: Option<(Duration, usize, usize)> = None;
            for (p, point) in points.iter().enumerate() {
                for (s, case) in point.cases.iter().enumerate() {
                    let Some(cost) = (case.in_minimum() && case.timed())
                        .then(|| Some(case.price()?.minimum))
                        .flatten()
                    else {
                        continue;
                    };
                    committed += cost;
                    if dearest.is_none_or(|(most, _, _)| cost > most) {
                        dearest = Some((cost, p, s));
                    }
                }
            }
            match dearest {
                Some((_, p, s)) if committed > self.left(budget) => {
                    let case = &mut points[p].cases[s];
                    case.end_for_budget();
                    let reason = case.stopped();
                    self.amend_stop(s, points[p].workload, reason);
                }
                _ => return,
            }
        }
    }

    /// Ends every case the budget left short of what it wants, its last record saying so.
    fn end_short(&mut self, points: &mut [PointProgress]) {
        for point in points.iter_mut() {
            for (s, case) in point.cases.iter_mut().enumerate() {
                if case.stopped().is_none() && case.timed() {
                    case.end_for_budget();
                    let reason = case.stopped();
                    self.amend_stop(s, point.workload, reason);
                }
            }
        }
    }

    /// Puts why a case stopped on its last record (results.json's; runs.jsonl keeps the
    /// record as it was made, and a resumed run measures the case again).
    fn amend_stop(&mut self, subject: usize, workload: Workload, reason: Option<StopReason>) {
        let name = &self.runner.subjects[subject].name;
        let point = workload.point();
        let last =
            self.records.iter_mut().rev().find(|r| {
                r.phase == Phase::Measured && &r.contestant == name && r.point() == point
            });
        if let Some(record) = last {
            record.stop = reason;
        }
    }

    /// A point's cases at the start of its measured phase: a case whose first measured
    /// step is done already (resume, another shard) asks for nothing.
    fn start(&self, workload: Workload) -> PointProgress {
        let stopping = self.runner.settings.stopping;
        let cases: Vec<CaseProgress> = (0..self.subjects())
            .map(|subject| {
                let first = Step {
                    subject,
                    workload,
                    phase: Phase::Measured,
                    run: 1,
                    iterations: 1,
                    timed: false,
                };
                if (self.hooks.done)(&first) {
                    CaseProgress::done(stopping)
                } else {
                    fresh(stopping, workload, &self.runner.subjects[subject])
                }
            })
            .collect();
        PointProgress {
            workload,
            runs: vec![0; cases.len()],
            cases,
        }
    }

    /// What is left of `budget`.
    fn left(&self, budget: Duration) -> Duration {
        budget.saturating_sub(self.spent)
    }

    /// What a process of a case will cost the run: its own prediction, and what the
    /// harness has taken beyond the charges per process so far.
    fn cost(&self, case: &CaseProgress, next: Next) -> Option<Duration> {
        let beyond = self.beyond.checked_div(self.kept).unwrap_or_default();
        Some(case.cost(next)? + beyond)
    }

    /// One measured process of a point's case, counted in its progress and kept.
    fn measure(
        &mut self,
        point: &mut PointProgress,
        subject: usize,
        next: Next,
    ) -> anyhow::Result<Flow> {
        let stopping = self.runner.settings.stopping;
        point.runs[subject] += 1;
        let workload = point.workload;
        let step = Step {
            subject,
            workload,
            phase: Phase::Measured,
            run: point.runs[subject],
            iterations: next.iterations,
            timed: next.timed,
        };
        let record = match self.attempt(&step)? {
            Made::Stopped => return Ok(Flow::Break(())),
            Made::Nothing => {
                point.cases[subject] = CaseProgress::done(stopping);
                return Ok(Flow::Continue(()));
            }
            Made::Record(record) => *record,
        };
        let case = &mut point.cases[subject];
        let reason = judge_run(case, next, &record);
        let stops = self.stopped.contains_key(&(subject, workload));
        if self.keep(with_stop(record, reason, stops))?.is_break() {
            return Ok(Flow::Break(()));
        }
        if stops {
            point.cases[subject] = CaseProgress::done(stopping);
        }
        Ok(Flow::Continue(()))
    }

    /// The counted runs of a point (`--instructions`), after its measured ones.
    fn count(&mut self, workload: Workload) -> anyhow::Result<Flow> {
        // Commands are not counted: `run` refuses --instructions with --command.
        let Some(counter) = self
            .runner
            .settings
            .instructions
            .filter(|_| workload != Workload::Command)
        else {
            return Ok(Flow::Continue(()));
        };
        // A case stopped for good (n/a, timeout, not started) is not counted either.
        let counted: Vec<usize> = (0..self.subjects())
            .filter(|&s| !self.stopped.contains_key(&(s, workload)))
            .collect();
        for subject in counted {
            for iterations in COUNTED_ITERATIONS {
                let step = Step {
                    subject,
                    workload,
                    phase: Phase::Counted,
                    run: iterations,
                    iterations,
                    timed: false,
                };
                if self.stop() {
                    return Ok(Flow::Break(()));
                }
                if (self.hooks.done)(&step) {
                    continue;
                }
                (self.hooks.progress)(&step);
                let runner = &mut *self.runner;
                let subject = &runner.subjects[subject];
                let record = count_one(
                    runner.executor,
                    counter,
                    subject,
                    &step,
                    runner.limits,
                    runner.stop,
                )?;
                if self.keep(record)?.is_break() {
                    return Ok(Flow::Break(()));
                }
            }
        }
        Ok(Flow::Continue(()))
    }
}

/// A case's progress at the start of its measured phase.
fn fresh(stopping: Stopping, workload: Workload, subject: &Subject) -> CaseProgress {
    match workload {
        Workload::Scenario { scenario, .. } => CaseProgress::new(
            stopping,
            scenario.ideal_ns(),
            subject.warm_up.at(&scenario).iterations,
        ),
        Workload::Command => CaseProgress::single(stopping),
    }
}

/// Whether a case still wants a process of `next`'s kind (an earlier process of its round
/// may have ended it).
fn wanted(case: &CaseProgress, next: Next) -> bool {
    let wants = case.wants();
    if next.timed || wants.time == Some(next) {
        wants.time == Some(next)
    } else {
        wants.memory
    }
}

/// Shuffles `items` in place (Fisher–Yates) with `rng`.
pub(crate) fn shuffle<T>(items: &mut [T], rng: &mut SplitMix64) {
    for i in (1..items.len()).rev() {
        items.swap(i, rng.below(i + 1));
    }
}

/// Counts a measured run in its case's progress: why the case stops now, if it does.
fn judge_run(case: &mut CaseProgress, next: Next, record: &RunRecord) -> Option<StopReason> {
    let figures = record.figures.as_ref();
    let wall = figures.map_or(Duration::ZERO, |f| Duration::from_nanos(f.wall_ns));
    let peak = figures.map_or(0, |f| f.peak_rss_bytes);
    let valid = record
        .status
        .is_ok()
        .then(|| figures.map_or(&[][..], |f| f.iterations_ns.as_slice()));
    case.record(next, wall, peak, valid)
}

/// Whether a record counts in the statistics of its case.
pub fn counts(record: &RunRecord) -> bool {
    record.phase == Phase::Measured && record.status.is_ok()
}

#[cfg(test)]
mod budget_tests;
#[cfg(test)]
mod rounds_tests;
#[cfg(test)]
mod tests;
