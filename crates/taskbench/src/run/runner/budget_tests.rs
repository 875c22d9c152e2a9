//! The runner under a whole-run budget, against a fake executor whose processes cost what
//! each test says: minimums first, then the budget to the case furthest above its target
//! per second, never past the budget, nothing more for a case at its target, and resume.

use super::*;
use crate::measure::{ExecError, Job, Measurement};
use crate::measure::{Exit, Usage};
use catalogue::{Invocation, Scenario};

/// Processes whose wall clock is `wall(subject, tasks)` and whose iterations take
/// `elapsed(subject, process)` ns (the same for every iteration of one process).
struct Costed {
    /// Every process asked for: subject, tasks, iterations.
    ran: Vec<(String, u64, u32)>,
    wall: fn(&str, u64) -> Duration,
    elapsed: fn(&str, usize) -> u64,
}

impl Executor for Costed {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError> {
        let invocation = Invocation::parse(&job.argv[1..]).unwrap();
        let subject = job.argv[0].clone();
        let Scenario::Spawn { tasks } = invocation.scenario else {
            panic!("the budget tests run spawn only");
        };
        let made = self.ran.iter().filter(|(s, ..)| *s == subject).count();
        let elapsed = (self.elapsed)(&subject, made);
        let line = format!(
            "{{\"elapsed_ns\":{elapsed},\"checksum\":{}}}\n",
            invocation.scenario.checksum()
        );
        self.ran
            .push((subject.clone(), tasks, invocation.iterations));
        Ok(Measurement {
            exit: Exit::Code(0),
            // A process lasts as long as its start-up and exit, and the iterations it reports.
            wall: (self.wall)(&subject, tasks)
                + Duration::from_nanos(elapsed * u64::from(invocation.iterations)),
            usage: Usage::default(),
            stdout_bytes: 0,
            stdout: line.repeat(invocation.iterations as usize),
            stderr_tail: String::new(),
            timeline: Vec::new(),
            sampler_cpu_ns: 0,
        })
    }
}

fn spawn(tasks: u64) -> Workload {
    Workload::Scenario {
        scenario: Scenario::new("spawn", &[("tasks", tasks)]).unwrap(),
        inner_warmup: 0,
    }
}

fn subject(name: &str) -> Subject {
    Subject {
        name: name.into(),
        argv: vec![name.into()],
        cwd: "/".into(),
        unsupported: Vec::new(),
        startup: Duration::ZERO,
        warm_up: crate::contestant::WarmUpTable::common(),
        baseline: None,
        cpus: None,
        env: Vec::new(),
    }
}

/// At least 3, at most 1000 time processes, ±5 %, no case cap to speak of, and `budget`.
fn budgeted(budget: Duration) -> Settings<'static> {
    Settings {
        warmup: 0,
        idle_runs: 0,
        stopping: Stopping {
            min_runs: 3,
            max_runs: 1_000,
            precision: 0.05,
            max_time: Duration::from_secs(3_600),
            budget: Some(budget),
        },
        instructions: None,
        seed: 7,
    }
}

/// Spread evenly over 1–11 ms from process to process: within ±5 % only after about a
/// thousand processes, more than any budget here pays for.
fn noisy(_: &str, process: usize) -> u64 {
    1_000_000 + (process as u64 * 7_919_000) % 10_000_000
}

/// As [`noisy`], a thousand times smaller: 1–11 µs, so that a process costs about its
/// start-up and exit, whatever its iterations.
fn faintly_noisy(subject: &str, process: usize) -> u64 {
    noisy(subject, process) / 1_000
}

/// `steady` always 1 ms; the others noisy.
fn steady_or_noisy(subject: &str, process: usize) -> u64 {
    if subject == "steady" {
        1_000_000
    } else {
        noisy(subject, process)
    }
}

/// The runner over `workloads` with `settings`, never stopped, skipping what `done` says
/// (the rounds' tests use it too).
pub(super) fn run(
    executor: &mut dyn Executor,
    subjects: &[Subject],
    workloads: &[Workload],
    settings: Settings,
    done: &dyn Fn(&Step) -> bool,
) -> Vec<RunRecord> {
    Runner {
        executor,
        subjects,
        settings,
        limits: Limits {
            timeout: Duration::from_secs(1),
            sample_every: Duration::from_millis(10),
            memory_limit: None,
            full_warmup: false,
        },
        stop: &|| false,
    }
    .run(
        workloads,
        Hooks {
            done,
            sink: &mut |_| Ok(()),
            progress: &mut |_| {},
        },
    )
    .unwrap()
}

fn spent(records: &[RunRecord]) -> Duration {
    records.iter().map(charge).sum()
}

#[test]
fn minimums_come_first_and_a_case_at_its_target_gets_nothing_more() {
    let mut fake = Costed {
        ran: Vec::new(),
        wall: |_, _| Duration::from_millis(10),
        elapsed: steady_or_noisy,
    };
    let subjects = [subject("steady"), subject("noisy")];
    let budget = Duration::from_secs(5);
    let records = run(
        &mut fake,
        &subjects,
        &[spawn(100), spawn(200)],
        budgeted(budget),
        &|_| false,
    );
    let of = |name: &str, tasks: u64| {
        fake.ran
            .iter()
            .filter(|(s, t, _)| s == name && *t == tasks)
            .count()
    };
    // The steady case stops as soon as it is precise: 3 memory processes and the 6 time
    // processes its interval needs for a 95 % level (stats/order.rs), at both points.
    assert_eq!((of("steady", 100), of("steady", 200)), (9, 9));
    let stops = |name: &str| {
        records
            .iter()
            .filter(|r| r.contestant == name)
            .filter_map(|r| r.stop)
            .collect::<Vec<_>>()
    };
    assert_eq!(stops("steady"), [StopReason::Precision; 2]);
    // Both points' minimums come before any allocated process: the first 12 processes
    // are the first point's minimums (the noisy one's pilot of 20 iterations a process and
    // its restart at 5: within-process noise is nil, and a step is at most 4×), then the
    // second point's begin.
    let first_of_200 = fake.ran.iter().position(|(_, t, _)| *t == 200).unwrap();
    assert!(fake.ran[..first_of_200].iter().all(|(_, t, _)| *t == 100));
    // The rest went to the noisy cases, and only the budget ended them (a case whose last
    // process had room for another when it ended, lost to the other, has no reason).
    assert!(
        of("noisy", 100) + of("noisy", 200) > 2 * 9,
        "{:?}",
        fake.ran
    );
    assert!(stops("noisy").iter().all(|s| *s == StopReason::RunBudget));
    assert_eq!(records.len(), fake.ran.len());
}

#[test]
fn no_process_is_started_that_would_pass_the_budget() {
    for budget_ms in [200, 333, 1_000] {
        let mut fake = Costed {
            ran: Vec::new(),
            wall: |_, _| Duration::from_millis(10),
            elapsed: faintly_noisy,
        };
        let budget = Duration::from_millis(budget_ms);
        let records = run(
            &mut fake,
            &[subject("noisy")],
            &[spawn(100)],
            budgeted(budget),
            &|_| false,
        );
        // The runner also counts its own time around each process (here, the stopping
        // rule's bootstrap), so the charges alone are within the budget: + 5 %, as a process
        // costs what it costs and is priced at the mean of the case's processes before it.
        let spent = spent(&records);
        assert!(spent <= budget.mul_f64(1.05), "{spent:?} of {budget:?}");
        // Nothing but the budget ended the case: it is never precise, and its caps are far.
        // (Before its first time process, a time process is priced at the memory process's
        // iteration time: where that does not fit, the case ends with no steady figure.)
        let stops: Vec<StopReason> = records.iter().filter_map(|r| r.stop).collect();
        assert!(
            stops
                .iter()
                .all(|s| matches!(s, StopReason::RunBudget | StopReason::NotSteady { .. })),
            "{stops:?}"
        );
    }
}

#[test]
fn the_next_process_goes_to_the_case_furthest_above_target_per_second() {
    // Equally noisy at both points, but a process at 200 tasks costs four times as much:
    // after the minimums, the cheaper point's case gets the first allocated processes.
    let mut fake = Costed {
        ran: Vec::new(),
        wall: |_, tasks| Duration::from_millis(if tasks == 100 { 10 } else { 40 }),
        elapsed: faintly_noisy,
    };
    let workloads = [spawn(200), spawn(100)];
    run(
        &mut fake,
        &[subject("noisy")],
        &workloads,
        budgeted(Duration::from_secs(2)),
        &|_| false,
    );
    // Each point's minimum: a pilot of 3 memory and 3 time processes, 3 more time ones at
    // the chosen iterations.
    let minimum = 9;
    let allocated = &fake.ran[2 * minimum..];
    let (first, _, _) = &allocated[0];
    assert_eq!(first, "noisy");
    assert_eq!(allocated[0].1, 100, "{allocated:?}");
    let cheap = allocated.iter().filter(|(_, t, _)| *t == 100).count();
    assert!(cheap > allocated.len() / 2, "{allocated:?}");
}

#[test]
fn a_resumed_budgeted_run_skips_finished_cases() {
    let mut fake = Costed {
        ran: Vec::new(),
        wall: |_, _| Duration::from_millis(10),
        elapsed: steady_or_noisy,
    };
    let subjects = [subject("noisy"), subject("steady")];
    // The noisy case at 100 tasks finished in the interrupted run.
    let done = |step: &Step| {
        step.subject == 0 && step.workload == spawn(100) && step.phase == Phase::Measured
    };
    let budget = Duration::from_millis(500);
    let records = run(
        &mut fake,
        &subjects,
        &[spawn(100), spawn(200)],
        budgeted(budget),
        &done,
    );
    assert!(!fake.ran.iter().any(|(s, t, _)| s == "noisy" && *t == 100));
    assert!(fake.ran.iter().any(|(s, t, _)| s == "noisy" && *t == 200));
    assert!(spent(&records) <= budget);
}
