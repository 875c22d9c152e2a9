//! Executes a schedule: builds each run's command, measures it through an [`Executor`],
//! judges it, and hands every record to a sink as soon as it exists (so that runs.jsonl
//! loses nothing if the harness is interrupted). A case that is n/a, cannot start or
//! timed out is not run again.

use super::plan::{Phase, Step, Subject, Workload};
use super::record::{Figures, RunRecord};
use super::status::{Reported, RunStatus};
use crate::measure::{self, Job, Measurement};
use catalogue::Invocation;
use std::collections::{BTreeMap, HashMap};
use std::path::PathBuf;
use std::time::Duration;

/// Runs one process; the real one spawns it, tests use fixed fake measurements.
pub trait Executor {
    fn execute(&mut self, job: &Job) -> Result<Measurement, String>;
}

/// The real executor: a fresh process per run, started through the launcher.
pub struct ProcessExecutor {
    /// The `taskbench` binary (see `measure::launcher`).
    pub launcher: PathBuf,
}

impl Executor for ProcessExecutor {
    fn execute(&mut self, job: &Job) -> Result<Measurement, String> {
        measure::execute(&self.launcher, job)
    }
}

/// How every run is watched.
#[derive(Debug, Clone, Copy)]
pub struct Limits {
    pub timeout: Duration,
    pub sample_every: Duration,
    pub memory_limit: Option<u64>,
}

/// Runs `steps` in order; `sink` sees each record when it is made, `progress` each step
/// before it runs.
pub fn run_steps(
    executor: &mut dyn Executor,
    subjects: &[Subject],
    steps: &[Step],
    limits: Limits,
    sink: &mut dyn FnMut(&RunRecord) -> anyhow::Result<()>,
    progress: &mut dyn FnMut(&Step),
) -> anyhow::Result<Vec<RunRecord>> {
    let mut records = Vec::new();
    // Cases that will not be run again, with the status that stopped them, and whether
    // the case's measured phase has a record yet.
    let mut stopped: HashMap<(usize, Workload), (RunStatus, bool)> = HashMap::new();
    for step in steps {
        progress(step);
        let subject = &subjects[step.subject];
        let case = (step.subject, step.workload);
        let measured = step.phase == Phase::Measured;
        let record = match stopped.get_mut(&case) {
            // The first measured run of a stopped case says why it was not made, so that
            // every case has a row in the tables.
            Some((status, reported)) if measured && !*reported => {
                *reported = true;
                record(subject, step, status.clone(), None)
            }
            Some(_) => continue,
            None if declares_unsupported(subject, step.workload) => {
                let reason = format!(
                    "{} declares {} unsupported in its manifest",
                    subject.name,
                    step.workload.name()
                );
                let status = RunStatus::NotImplemented { reason };
                stopped.insert(case, (status.clone(), false));
                if !measured {
                    continue;
                }
                stopped.insert(case, (status.clone(), true));
                record(subject, step, status, None)
            }
            None => run_one(executor, subject, step, limits),
        };
        if stops_its_case(&record.status) && !stopped.contains_key(&case) {
            stopped.insert(case, (record.status.clone(), measured));
        }
        sink(&record)?;
        records.push(record);
    }
    Ok(records)
}

fn declares_unsupported(subject: &Subject, workload: Workload) -> bool {
    subject.unsupported.iter().any(|s| s == workload.name())
}

/// Statuses after which running the same case again would only repeat them (or cost a
/// whole timeout again).
fn stops_its_case(status: &RunStatus) -> bool {
    matches!(
        status,
        RunStatus::NotImplemented { .. }
            | RunStatus::NotStarted { .. }
            | RunStatus::Timeout
            | RunStatus::OverMemory
    )
}

fn run_one(
    executor: &mut dyn Executor,
    subject: &Subject,
    step: &Step,
    limits: Limits,
) -> RunRecord {
    let mut argv = subject.argv.clone();
    let (expected, ideal_ns) = match step.workload {
        Workload::Scenario {
            scenario,
            inner_warmup,
        } => {
            argv.extend(
                Invocation {
                    scenario,
                    inner_warmup,
                }
                .to_args(),
            );
            (Some(scenario.checksum()), scenario.ideal_ns())
        }
        Workload::Command => (None, 0),
    };
    let job = Job {
        argv,
        cwd: subject.cwd.clone(),
        timeout: limits.timeout,
        sample_every: limits.sample_every,
        memory_limit: limits.memory_limit,
    };
    let measurement = match executor.execute(&job) {
        Ok(m) => m,
        Err(reason) => return record(subject, step, RunStatus::NotStarted { reason }, None),
    };
    let (status, reported) = RunStatus::judge(&measurement, expected);
    let figures = figures(
        &measurement,
        reported,
        expected,
        ideal_ns,
        &status,
        step.workload,
    );
    record(subject, step, status, Some(figures))
}

fn figures(
    m: &Measurement,
    reported: Reported,
    expected: Option<u64>,
    ideal_ns: u64,
    status: &RunStatus,
    workload: Workload,
) -> Figures {
    let wall_ns = m.wall.as_nanos() as u64;
    let elapsed_ns = match workload {
        Workload::Command if status.is_ok() => Some(wall_ns),
        _ => reported.elapsed_ns,
    };
    Figures {
        elapsed_ns,
        ideal_ns,
        overhead_ns: elapsed_ns.map(|e| e as i64 - ideal_ns as i64),
        wall_ns,
        user_ns: m.usage.user_ns,
        sys_ns: m.usage.sys_ns,
        cpu_ns: m.usage.user_ns + m.usage.sys_ns,
        peak_rss_bytes: m.usage.peak_rss_bytes,
        peak_threads: m.peak_threads(),
        voluntary_switches: m.usage.voluntary_switches,
        involuntary_switches: m.usage.involuntary_switches,
        checksum: reported.checksum,
        expected_checksum: expected,
        extra: reported.extra,
        sampler_cpu_ns: m.sampler_cpu_ns,
        stderr_tail: if status.is_ok() {
            String::new()
        } else {
            m.stderr_tail.clone()
        },
        timeline: m.timeline.clone(),
    }
}

fn record(
    subject: &Subject,
    step: &Step,
    status: RunStatus,
    figures: Option<Figures>,
) -> RunRecord {
    let (params, inner_warmup) = match step.workload {
        Workload::Scenario {
            scenario,
            inner_warmup,
        } => (super::record::record_params(&scenario), inner_warmup),
        Workload::Command => (BTreeMap::new(), 0),
    };
    RunRecord {
        contestant: subject.name.clone(),
        scenario: step.workload.name().to_string(),
        params,
        inner_warmup,
        phase: step.phase,
        run: step.run,
        status,
        figures,
    }
}

/// Whether a record counts in the statistics of its case.
pub fn counts(record: &RunRecord) -> bool {
    record.phase == Phase::Measured && record.status.is_ok()
}

#[cfg(test)]
mod tests;
