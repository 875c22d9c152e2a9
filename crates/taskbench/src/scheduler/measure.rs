//! The measure step: the runner over every case, with a progress bar over the cases, each
//! record appended to runs.jsonl as it is made, the machine's load sampled as each point
//! begins, and SIGINT, SIGTERM or SIGHUP as the runner's stop. Under a run budget the bar says
//! what is left of it.

/// How often the machine's load is sampled during the measured rounds.
const SAMPLE_EVERY: std::time::Duration = std::time::Duration::from_secs(2);

use super::Built;
use anyhow::Context;
use catalogue::Point;
use indicatif::{ProgressBar, ProgressStyle};
use measure::machine::{MachineLoad, MachineWatch};
use run::{
    Executor, Hooks, Limits, Phase, ProcessExecutor, RunRecord, Runner, Settings, ShardCases, Step,
    Workload, interrupt,
};
use std::collections::HashSet;
use std::time::Duration;
use units::rough_duration;

/// A run whose cases have all been measured (or that was interrupted).
pub(crate) struct Measured<'a> {
    pub(super) built: Built<'a>,
    /// This run's records (a resumed run's earlier ones are the prepared step's).
    pub(super) records: Vec<RunRecord>,
    pub(super) machine: MachineLoad,
}

/// A step already made, by its case and place: (subject, phase, point, run).
type MadeStep = (String, Phase, Point, u32);

impl<'a> Built<'a> {
    /// Runs every case, each in a fresh process started through this taskbench binary's
    /// launcher; on a harness fault, writes what finished and says where.
    pub(crate) fn measure(self) -> anyhow::Result<Measured<'a>> {
        let launcher =
            std::env::current_exe().context("cannot find the taskbench binary to launch runs")?;
        self.measure_with(&mut ProcessExecutor { launcher })
    }

    /// Runs every case through `executor` (a test's fake answers without processes).
    pub(crate) fn measure_with(self, executor: &mut dyn Executor) -> anyhow::Result<Measured<'a>> {
        let mut watch = MachineWatch::start();
        let records = self.execute(executor, &mut watch).map_err(|fault| {
            // The run stops (the harness cannot start processes, runs.jsonl cannot be
            // written): what finished is written as results if it can be, marked interrupted.
            let out = &self.prepared.out;
            match export::rebuild(out) {
                Ok(runs) => anyhow::anyhow!(
                    "{fault:#}; the {runs} finished runs are in {dir} \
                     (`taskbench run --resume {dir}` runs the rest)",
                    dir = out.display()
                ),
                Err(_) => fault,
            }
        })?;
        Ok(Measured {
            built: self,
            records,
            machine: watch.finish(),
        })
    }

    /// How every run is made and watched.
    fn limits(&self) -> Limits {
        let limits = self.prepared.scheduler.options.limits;
        Limits {
            timeout: limits.timeout,
            sample_every: Duration::from_millis(limits.sample_ms),
            memory_limit: limits.memory_limit.or_else(default_memory_limit),
            full_warm_up: limits.full_warm_up,
        }
    }

    /// Runs the plan with a progress bar over its cases, appending each record to
    /// runs.jsonl as it is made; `watch` samples the load average as each point begins.
    fn execute(
        &self,
        executor: &mut dyn Executor,
        watch: &mut MachineWatch,
    ) -> anyhow::Result<Vec<RunRecord>> {
        let scheduler = &self.prepared.scheduler;
        let plan = &scheduler.plan;
        let log_path = self.prepared.out.join("runs.jsonl");
        let mut log = append_to(&log_path)?;
        let made: HashSet<MadeStep> = (self.prepared.earlier.iter())
            .map(|r| (r.contestant.clone(), r.phase, r.point(), r.run))
            .collect();
        let shard = self.shard.as_ref().map(|(_, chosen)| chosen);
        let done = |step: &Step| {
            let subject = &self.subjects[step.subject].name;
            let key = (subject.clone(), step.phase, step.workload.point(), step.run);
            made.contains(&key) || theirs(shard, subject, &step.workload)
        };
        let bar = self.progress_bar(&made, shard);
        let started = std::time::Instant::now();
        let mut sink = |record: &RunRecord| -> anyhow::Result<()> {
            export::append(&mut log, &log_path, record)?;
            if record.phase == Phase::Measured && record.stop.is_some() {
                bar.inc(1);
            }
            if let Some(budget) = plan.stopping.budget {
                let left = budget.saturating_sub(started.elapsed());
                bar.set_prefix(format!("{} of the budget left", rough_duration(left)));
            }
            Ok(())
        };
        // Rounds interleave every point: the machine's load is sampled as each point first
        // begins, then at most every SAMPLE_EVERY, named by the case then starting.
        let mut sampled: Option<std::time::Instant> = None;
        let mut begun: Vec<Workload> = Vec::new();
        let mut progress = |step: &Step| {
            let subject = &self.subjects[step.subject].name;
            let point = step.workload.point();
            let first = !begun.contains(&step.workload);
            if first || sampled.is_none_or(|at| at.elapsed() >= SAMPLE_EVERY) {
                watch.sample(&point);
                sampled = Some(std::time::Instant::now());
            }
            if first {
                begun.push(step.workload);
            }
            bar.set_message(format!(
                "{subject} · {point} · {:?} {} × {}",
                step.phase, step.run, step.iterations
            ));
        };
        let records = Runner {
            executor,
            subjects: &self.subjects,
            settings: Settings {
                warm_up: plan.warm_up,
                idle_runs: plan.idle_runs,
                stopping: plan.stopping,
                instructions: scheduler.counter.as_deref(),
                seed: plan.seed,
            },
            limits: self.limits(),
            stop: &interrupt::requested,
        }
        .run(
            &plan.workloads,
            Hooks {
                done: &done,
                sink: &mut sink,
                progress: &mut progress,
            },
        );
        bar.finish_and_clear();
        records
    }

    /// A bar over the cases this run still has to measure.
    fn progress_bar(&self, made: &HashSet<MadeStep>, shard: Option<&ShardCases>) -> ProgressBar {
        let finished = made
            .iter()
            .filter(|(_, phase, _, run)| *phase == Phase::Measured && *run == 1)
            .count();
        let ours = self
            .prepared
            .scheduler
            .plan
            .workloads
            .iter()
            .flat_map(|w| {
                self.subjects
                    .iter()
                    .filter(move |s| !theirs(shard, &s.name, w))
            })
            .count();
        let cases = ours.saturating_sub(finished) as u64;
        let bar = if self.prepared.scheduler.options.show.quiet {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(cases)
        };
        // Under a run budget the cases' rate says nothing of the end: the budget left does.
        let budget = self.prepared.scheduler.plan.stopping.budget;
        let template = match budget {
            Some(_) => "{bar:30} {pos}/{len} cases · {prefix} · {msg}",
            None => "{bar:30} {pos}/{len} cases · ETA {eta} · {msg}",
        };
        bar.set_style(ProgressStyle::with_template(template).expect("valid template"));
        if let Some(budget) = budget {
            bar.set_prefix(format!("{} of the budget left", rough_duration(budget)));
        }
        bar
    }
}

/// runs.jsonl, opened to append each record as it is made (a resumed run's after the
/// earlier ones).
fn append_to(path: &std::path::Path) -> anyhow::Result<std::fs::File> {
    (std::fs::OpenOptions::new().create(true).append(true))
        .open(path)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Whether a case belongs to another shard.
fn theirs(shard: Option<&ShardCases>, subject: &str, workload: &Workload) -> bool {
    shard.is_some_and(|s| !s.takes(subject, workload))
}

/// Half the machine's memory: room for the harness and the rest of the machine when a
/// contestant runs away.
fn default_memory_limit() -> Option<u64> {
    Some(measure::Platform::probe_memory_bytes() / 2).filter(|&limit| limit > 0)
}
