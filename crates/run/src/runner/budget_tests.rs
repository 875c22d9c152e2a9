//! The runner under a whole-run budget, against fake executors whose processes cost what
//! each test says: a simulated field of cheap and dear cases of known spread (the cheapest
//! goals first, a hopeless dear case held at its minimum, the budget never passed, every
//! round shuffled), nothing more for a case at its target, and resume.

use super::*;
use catalogue::{Invocation, Scenario};
use measure::{ExecError, Job, Measurement};
use measure::{Exit, Usage};

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
        inner_warm_up: 0,
    }
}

fn subject(name: &str) -> Subject {
    Subject {
        name: name.into(),
        argv: vec![name.into()],
        cwd: "/".into(),
        unsupported: Vec::new(),
        startup: Duration::ZERO,
        warm_up: contestant::WarmUpTable::common(),
        baseline: None,
        cpus: None,
        env: Vec::new(),
    }
}

/// At least 3, at most 1000 time processes, ±5 %, no case cap to speak of, and `budget`.
fn budgeted(budget: Duration) -> Settings<'static> {
    Settings {
        warm_up: 0,
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
            full_warm_up: false,
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
fn a_case_at_its_target_gets_nothing_more() {
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
    // The steady case stops as soon as it is precise: 2 memory processes whose peaks agree
    // and the 6 time processes its interval needs for a 95 % level (stats/order.rs).
    assert_eq!((of("steady", 100), of("steady", 200)), (8, 8));
    let stops = |name: &str| {
        records
            .iter()
            .filter(|r| r.contestant == name)
            .filter_map(|r| r.stop)
            .collect::<Vec<_>>()
    };
    assert_eq!(stops("steady"), [StopReason::Precision; 2]);
    // Both points are measured in the same rounds from the first: a point's processes do
    // not wait for another's.
    let first_of_200 = fake.ran.iter().position(|(_, t, _)| *t == 200).unwrap();
    assert!(first_of_200 < 4, "{:?}", fake.ran);
    // The rest went to the noisy cases, and only the budget ended them.
    assert!(
        of("noisy", 100) + of("noisy", 200) > 2 * 8,
        "{:?}",
        fake.ran
    );
    assert!(
        stops("noisy")
            .iter()
            .all(|s| *s == StopReason::SessionBudget)
    );
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
                .all(|s| matches!(s, StopReason::SessionBudget | StopReason::NotSteady { .. })),
            "{stops:?}"
        );
    }
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

/// A case of the simulated field: what a process of it costs, and how far its processes'
/// figures spread around 1 ms.
struct Contender {
    name: &'static str,
    process: Duration,
    spread: f64,
}

/// The simulated field: three cheap cases that reach ±5 % (two at six processes, one at
/// about twenty), a dear one that reaches it at six, a cheap one out of reach of any number of
/// processes `max_runs` allows, and a dear one out of reach whose goal (the 95 % level) does
/// not fit in what the others leave.
const FIELD: &[Contender] = &[
    Contender {
        name: "cheap-steady",
        process: Duration::from_millis(10),
        spread: 0.005,
    },
    Contender {
        name: "cheap-steady-too",
        process: Duration::from_millis(12),
        spread: 0.008,
    },
    Contender {
        name: "cheap-noisy",
        process: Duration::from_millis(10),
        spread: 0.04,
    },
    Contender {
        name: "dear-steady",
        process: Duration::from_millis(300),
        spread: 0.005,
    },
    Contender {
        name: "hopeless",
        process: Duration::from_millis(10),
        spread: 0.6,
    },
    Contender {
        name: "dear-hopeless",
        process: Duration::from_millis(900),
        spread: 0.4,
    },
];

/// Processes of the field: each subject's process costs its own, and the j-th of its
/// processes' iterations all take 1 ms × (1 + spread · z_j), z_j a normal quantile of a
/// low-discrepancy sequence (so that its robust spread is its `spread`).
struct Field {
    ran: Vec<(String, u32)>,
}

impl Executor for Field {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError> {
        let invocation = Invocation::parse(&job.argv[1..]).unwrap();
        let contender = FIELD.iter().find(|c| c.name == job.argv[0]).unwrap();
        let made = self.ran.iter().filter(|(s, _)| s == contender.name).count();
        let u = (0.5 + made as f64 * 0.618_034) % 1.0;
        let q = |p: f64| stats::normal_quantile(p.clamp(0.501, 0.99));
        let z = if u < 0.5 { -q(1.0 - u) } else { q(u) };
        let elapsed = (1e6 * (1.0 + contender.spread * z).max(0.05)) as u64;
        let line = format!(
            "{{\"elapsed_ns\":{elapsed},\"checksum\":{}}}\n",
            invocation.scenario.checksum()
        );
        self.ran
            .push((contender.name.to_string(), invocation.iterations));
        Ok(Measurement {
            exit: Exit::Code(0),
            // Start-up and exit, and the iterations it reports.
            wall: contender.process
                + Duration::from_nanos(elapsed * u64::from(invocation.iterations)),
            usage: Usage {
                peak_rss_bytes: 1 << 20,
                ..Usage::default()
            },
            stdout_bytes: 0,
            stdout: line.repeat(invocation.iterations as usize),
            stderr_tail: String::new(),
            timeline: Vec::new(),
            sampler_cpu_ns: 0,
        })
    }
}

/// The field run with `budget`: what the executor ran and the records.
fn field(budget: Duration) -> (Vec<(String, u32)>, Vec<RunRecord>) {
    let mut executor = Field { ran: Vec::new() };
    let subjects: Vec<Subject> = FIELD.iter().map(|c| subject(c.name)).collect();
    let settings = Settings {
        stopping: Stopping {
            max_runs: 60,
            ..budgeted(budget).stopping
        },
        ..budgeted(budget)
    };
    let records = run(&mut executor, &subjects, &[spawn(100)], settings, &|_| {
        false
    });
    (executor.ran, records)
}

fn time_processes(records: &[RunRecord], name: &str) -> usize {
    let mine = records.iter().filter(|r| r.contestant == name);
    mine.filter(|r| r.timed == Some(true)).count()
}

fn stop_of(records: &[RunRecord], name: &str) -> Option<StopReason> {
    let mine = records.iter().filter(|r| r.contestant == name);
    mine.filter_map(|r| r.stop).next_back()
}

#[test]
fn the_field_s_cheapest_goals_come_first_and_a_hopeless_dear_case_keeps_its_minimum() {
    // A time process times about as long as the rest of a memory one: the dear steady
    // case's cost 0.6 s, the dear hopeless one's 1.8 s. Minimums: a memory and three time
    // processes each, about 9 s in all, 6.3 s of them the dear hopeless case's; its 95 %
    // level (three more, and a memory one: 6.3 s) does not fit in the 4.5 s left, while the
    // dear steady case's (2.1 s) and the cheap ones' do.
    let budget = Duration::from_millis(13_500);
    let (ran, records) = field(budget);
    for name in [
        "cheap-steady",
        "cheap-steady-too",
        "cheap-noisy",
        "dear-steady",
    ] {
        assert_eq!(
            stop_of(&records, name),
            Some(StopReason::Precision),
            "{name}: {ran:?}"
        );
    }
    assert!(time_processes(&records, "cheap-noisy") > 6, "{ran:?}");
    assert_eq!(time_processes(&records, "dear-hopeless"), 3, "{ran:?}");
    assert_eq!(
        stop_of(&records, "dear-hopeless"),
        Some(StopReason::SessionBudget)
    );
    // The cheap hopeless case reached the 95 % level, and the budget left went to it, as far
    // as its `max_runs`.
    assert!(time_processes(&records, "hopeless") > 6, "{ran:?}");
    assert!(matches!(
        stop_of(&records, "hopeless"),
        Some(StopReason::SessionBudget | StopReason::MaxRuns)
    ));
    // Never past the budget (the harness's own time around each process aside: + 5 %).
    assert!(
        spent(&records) <= budget.mul_f64(1.05),
        "{:?}",
        spent(&records)
    );
    // With 3 s less, the cheap goals are still bought and the dear steady case's is not: it
    // keeps its minimum too.
    let budget = Duration::from_millis(10_500);
    let (ran, records) = field(budget);
    for name in ["cheap-steady", "cheap-steady-too", "cheap-noisy"] {
        assert_eq!(
            stop_of(&records, name),
            Some(StopReason::Precision),
            "{name}: {ran:?}"
        );
    }
    for name in ["dear-steady", "dear-hopeless"] {
        assert_eq!(time_processes(&records, name), 3, "{name}: {ran:?}");
        assert_eq!(stop_of(&records, name), Some(StopReason::SessionBudget));
    }
    assert!(
        spent(&records) <= budget.mul_f64(1.05),
        "{:?}",
        spent(&records)
    );
}

#[test]
fn the_field_s_rounds_are_each_shuffled() {
    let (ran, _) = field(Duration::from_millis(13_500));
    // The first round is every case's memory process, the second every case's first time
    // process, the third a time process each (and a memory one for those funded): each
    // round holds every case, in an order of its own.
    let names =
        |round: &[(String, u32)]| -> Vec<String> { round.iter().map(|(s, _)| s.clone()).collect() };
    let (one, rest) = ran.split_at(FIELD.len());
    let (two, _) = rest.split_at(FIELD.len());
    assert!(one.iter().all(|(_, m)| *m == 1), "memory processes first");
    let mut sorted = names(two);
    sorted.sort();
    let mut all: Vec<String> = FIELD.iter().map(|c| c.name.to_string()).collect();
    all.sort();
    assert_eq!(sorted, all, "every case once in the second round");
    assert_ne!(names(one), names(two), "each round in an order of its own");
}
