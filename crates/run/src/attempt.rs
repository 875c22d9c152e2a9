//! One step of a run, made: its process executed through an [`Executor`], judged against
//! the scenario's checksum and the protocol, and recorded — or the reason it is not run
//! (declared n/a, its case stopped). Counted runs (`--instructions`) go the same way under
//! their counter.

use super::executor::{Executor, Limits};
use super::plan::{Phase, Step, Subject, Workload};
use super::record::{Figures, RunRecord};
use super::status::{Expected, Reported, RunStatus};
use super::stopping::StopReason;
use catalogue::Invocation;
use measure::{ExecError, InstructionCounter, Job, Kept, Measurement};
use stats::median;
use std::collections::{BTreeMap, HashMap};

/// Cases that will not be run again, with the status that stopped them, and whether the
/// case's measured phase has a record yet.
pub(super) type Stopped = HashMap<(usize, Workload), (RunStatus, bool)>;

/// The counted runs of a case: one measured iteration, then two with the same warm-up, so
/// that their difference is one iteration without start-up, warm-up or teardown.
pub(crate) const COUNTED_ITERATIONS: [u32; 2] = [1, 2];

/// One run under `counter`: judged like any run (its checksums too), with the count.
pub(super) fn count_one(
    executor: &mut dyn Executor,
    counter: &dyn InstructionCounter,
    subject: &Subject,
    step: &Step,
    limits: Limits,
    stop: &dyn Fn() -> bool,
) -> Result<RunRecord, ExecError> {
    let out = std::env::temp_dir().join(format!(
        "taskbench-count-{}-{}",
        std::process::id(),
        COUNTER_DIRS.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
    ));
    std::fs::create_dir_all(&out).map_err(|e| ExecError::Harness(e.to_string()))?;
    let wrapped = Subject {
        argv: counter.wrap(&subject.argv, &out),
        ..subject.clone()
    };
    // Under valgrind a run takes tens of times as long: its timeout grows to match.
    let limits = Limits {
        timeout: limits.timeout * COUNTED_SLOWDOWN,
        ..limits
    };
    let ran = run_one(executor, &wrapped, step, limits, stop);
    let count = counter.read(&out);
    std::fs::remove_dir_all(&out).ok();
    let mut record = ran?;
    if let Some(figures) = record.figures.as_mut() {
        figures.counter = Some(counter.name().to_string());
        match count {
            Ok(n) => figures.instructions = Some(n),
            Err(reason) if record.status.is_ok() => {
                record.status = RunStatus::BadOutput { reason };
            }
            Err(_) => {}
        }
    }
    Ok(record)
}

/// How many times the usual timeout a counted run may take.
const COUNTED_SLOWDOWN: u32 = 5;

/// Numbers the counters' scratch folders within this process.
static COUNTER_DIRS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);

/// The last record of a case says why the case stopped.
pub(super) fn with_stop(
    mut record: RunRecord,
    reason: Option<StopReason>,
    stopped: bool,
) -> RunRecord {
    record.stop = reason.or(stopped.then_some(StopReason::NoValidRun));
    record
}

/// Makes one step's record: runs it, or says why it is not run (`None`: already said).
/// `Err` when the harness itself cannot run processes: the run stops.
/// `stop` says whether the run was asked to stop (a harness fault that caused is no fault).
pub(super) fn attempt(
    executor: &mut dyn Executor,
    subjects: &[Subject],
    step: &Step,
    limits: Limits,
    stopped: &mut Stopped,
    stop: &dyn Fn() -> bool,
) -> Result<Option<RunRecord>, ExecError> {
    let subject = &subjects[step.subject];
    let case = (step.subject, step.workload);
    let measured = step.phase == Phase::Measured;
    if step.workload == Workload::Command && step.phase == Phase::Idle && subject.baseline.is_none()
    {
        return Ok(None);
    }
    let record = match stopped.get_mut(&case) {
        // The first measured run of a stopped case says why it was not made, so that
        // every case has a row in the tables.
        Some((status, reported)) if measured && !*reported => {
            *reported = true;
            record(subject, step, status.clone(), None)
        }
        Some(_) => return Ok(None),
        None if declares_unsupported(subject, step.workload) => {
            let reason = format!(
                "{} declares {} unsupported in its manifest",
                subject.name,
                step.workload.name()
            );
            let status = RunStatus::NotImplemented { reason };
            stopped.insert(case, (status.clone(), measured));
            if !measured {
                return Ok(None);
            }
            record(subject, step, status, None)
        }
        None => run_one(executor, subject, step, limits, stop)?,
    };
    if stops_its_case(&record.status) && !stopped.contains_key(&case) {
        stopped.insert(case, (record.status.clone(), measured));
    }
    Ok(Some(record))
}

/// The cores a process not pinned with `--cpus` may run on.
fn machine_cores() -> u32 {
    std::thread::available_parallelism().map_or(1, |n| u32::try_from(n.get()).unwrap_or(u32::MAX))
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

pub(super) fn run_one(
    executor: &mut dyn Executor,
    subject: &Subject,
    step: &Step,
    limits: Limits,
    stop: &dyn Fn() -> bool,
) -> Result<RunRecord, ExecError> {
    let mut argv = subject.argv.clone();
    let (expected, ideal_ns) = match step.workload {
        Workload::Scenario { scenario, .. } => {
            argv.extend(
                Invocation {
                    scenario,
                    warm_up: scenario.seed_warm_up().filter(|_| !limits.full_warm_up),
                    inner_warm_up: step.inner_warm_up(),
                    iterations: step.lines(&subject.warm_up),
                }
                .to_args(),
            );
            let expected = Expected {
                checksum: scenario.checksum(),
                iterations: step.lines(&subject.warm_up),
                ideal_ns: scenario.ideal_ns(),
                cores: subject.cpus.unwrap_or_else(machine_cores),
            };
            (Some(expected), scenario.ideal_ns())
        }
        Workload::Command => {
            if step.phase == Phase::Idle {
                argv = subject.baseline.clone().unwrap_or(argv);
            }
            (None, 0)
        }
    };
    let job = Job {
        argv,
        cwd: subject.cwd.clone(),
        timeout: limits.timeout,
        sample_every: limits.sample_every,
        memory_limit: limits.memory_limit,
        cpus: subject.cpus,
        env: subject.env.clone(),
        keep: Kept::MEASURED,
        open_files: match step.workload {
            Workload::Scenario { scenario, .. } => scenario.open_files(),
            Workload::Command => None,
        },
    };
    let measurement = match executor.execute(&job) {
        Ok(m) => m,
        // A harness fault stops the run, unless stopping the run caused it (killing the
        // launcher); the runner then returns what it has.
        Err(fault @ ExecError::Harness(_)) if !stop() => return Err(fault),
        Err(e) => {
            let reason = e.to_string();
            return Ok(record(
                subject,
                step,
                RunStatus::NotStarted { reason },
                None,
            ));
        }
    };
    let (status, mut reported) = RunStatus::judge(&measurement, expected);
    let warm_up_ns = take_warm_up(
        &mut reported,
        step.lines(&subject.warm_up) - step.iterations,
    );
    let mut figures = figures(
        &measurement,
        reported,
        expected.map(|e| e.checksum),
        ideal_ns,
        &status,
        step.workload,
    );
    figures.warm_up_ns = warm_up_ns;
    Ok(record(subject, step, status, Some(figures)))
}

/// Takes a time process's first `warm_up` lines out of what it reported: its warm-up
/// iterations' elapsed times (the first, its cold start), which never enter its measured
/// figures. A process that printed fewer lines keeps what it printed as warm-up.
fn take_warm_up(reported: &mut Reported, warm_up: u32) -> Vec<u64> {
    let warm_up = (warm_up as usize).min(reported.elapsed_ns.len());
    let cpu = (warm_up).min(reported.cpu_ns.len());
    reported.cpu_ns.drain(..cpu);
    let extra = warm_up.min(reported.extra.len());
    reported.extra.drain(..extra);
    reported.elapsed_ns.drain(..warm_up).collect()
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
    let (iterations_ns, iterations_cpu_ns) = match workload {
        Workload::Command if status.is_ok() => (vec![wall_ns], Vec::new()),
        _ => (reported.elapsed_ns, reported.cpu_ns),
    };
    let values: Vec<f64> = iterations_ns.iter().map(|&e| e as f64).collect();
    let elapsed_ns = median(&values).map(|m| m.round() as u64);
    Figures {
        elapsed_ns,
        iterations_ns,
        iterations_cpu_ns,
        warm_up_ns: Vec::new(),
        ideal_ns,
        overhead_ns: elapsed_ns.map(|e| signed(e).saturating_sub(signed(ideal_ns))),
        wall_ns,
        user_ns: m.usage.user_ns,
        sys_ns: m.usage.sys_ns,
        cpu_ns: m.usage.user_ns.saturating_add(m.usage.sys_ns),
        peak_rss_bytes: m.usage.peak_rss_bytes,
        peak_threads: m.peak_threads(),
        voluntary_switches: m.usage.voluntary_switches,
        involuntary_switches: m.usage.involuntary_switches,
        checksum: reported.checksum,
        expected_checksum: expected,
        extra: extra_medians(&reported.extra),
        sampler_cpu_ns: m.sampler_cpu_ns,
        stderr_tail: if status.is_ok() {
            String::new()
        } else {
            m.stderr_tail.clone()
        },
        timeline: m.timeline.clone(),
        instructions: None,
        counter: None,
    }
}

/// The median of each extra figure over a process's iterations.
/// A reported figure as a signed one, saturating: a contestant may print any u64.
fn signed(ns: u64) -> i64 {
    i64::try_from(ns).unwrap_or(i64::MAX)
}

fn extra_medians(lines: &[BTreeMap<String, f64>]) -> BTreeMap<String, f64> {
    let mut by_name: BTreeMap<String, Vec<f64>> = BTreeMap::new();
    for line in lines {
        for (name, value) in line {
            by_name.entry(name.clone()).or_default().push(*value);
        }
    }
    by_name
        .into_iter()
        .filter_map(|(name, values)| median(&values).map(|m| (name, m)))
        .collect()
}

fn record(
    subject: &Subject,
    step: &Step,
    status: RunStatus,
    figures: Option<Figures>,
) -> RunRecord {
    let params = match step.workload {
        Workload::Scenario { scenario, .. } => super::record::record_params(&scenario),
        Workload::Command => BTreeMap::new(),
    };
    let inner_warm_up = step.warm_up(&subject.warm_up);
    RunRecord {
        machine: None,
        contestant: subject.name.clone(),
        scenario: step.workload.name().to_string(),
        params,
        inner_warm_up,
        phase: step.phase,
        run: step.run,
        iterations: step.iterations,
        timed: Some(step.timed),
        status,
        figures,
        stop: None,
    }
}
