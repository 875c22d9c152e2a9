//! The measured rounds against a fake executor: every case once a round, in an order
//! shuffled afresh and repeated by its seed; every time process at its warm-up whatever
//! its measured count; and the budget holding with the minimum phase inside it.

use super::*;
use catalogue::{Invocation, Scenario};
use contestant::WarmUpTable;
use measure::{ExecError, Job, Measurement};
use measure::{Exit, Usage};

/// Processes of `wall`, whose iterations take 1 ms, or `cold_ns` for a process's first.
struct Timed {
    ran: Vec<(String, u64)>,
    wall: Duration,
    cold_ns: u64,
}

impl Executor for Timed {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError> {
        let invocation = Invocation::parse(&job.argv[1..]).unwrap();
        let Scenario::Spawn { tasks } = invocation.scenario else {
            panic!("spawn only");
        };
        self.ran.push((job.argv[0].clone(), tasks));
        let line = |ns: u64| {
            format!(
                "{{\"elapsed_ns\":{ns},\"checksum\":{}}}\n",
                invocation.scenario.checksum()
            )
        };
        let mut stdout = line(self.cold_ns);
        let rest = u64::from(invocation.iterations - 1);
        stdout.push_str(&line(1_000_000).repeat(rest as usize));
        Ok(Measurement {
            exit: Exit::Code(0),
            // A process lasts at least as long as the iterations it reports.
            wall: self.wall + Duration::from_nanos(self.cold_ns + rest * 1_000_000),
            usage: Usage::default(),
            stdout_bytes: stdout.len() as u64,
            stdout,
            stderr_tail: String::new(),
            timeline: Vec::new(),
            sampler_cpu_ns: 0,
        })
    }
}

fn spawn(tasks: u64) -> Workload {
    Workload::Scenario {
        scenario: Scenario::new("spawn", &[("tasks", tasks)]).unwrap(),
        inner_warm_up: 1,
    }
}

fn subject(name: &str, warm_up: u32) -> Subject {
    Subject {
        name: name.into(),
        argv: vec![name.into()],
        cwd: "/".into(),
        unsupported: Vec::new(),
        startup: Duration::ZERO,
        warm_up: WarmUpTable {
            measured: [("spawn".to_string(), warm_up)].into(),
            ..WarmUpTable::common()
        },
        baseline: None,
        cpus: None,
        env: Vec::new(),
    }
}

fn settings(runs: u32, seed: u64, budget: Option<Duration>) -> Settings<'static> {
    Settings {
        warm_up: 0,
        idle_runs: 0,
        stopping: Stopping {
            budget,
            ..Stopping::exactly(runs, Duration::from_secs(3_600))
        },
        instructions: None,
        seed,
    }
}

fn run(
    executor: &mut Timed,
    subjects: &[Subject],
    workloads: &[Workload],
    settings: Settings,
) -> Vec<RunRecord> {
    super::budget_tests::run(executor, subjects, workloads, settings, &|_| false)
}

fn fake(wall_ms: u64) -> Timed {
    Timed {
        ran: Vec::new(),
        wall: Duration::from_millis(wall_ms),
        cold_ns: 1_000_000,
    }
}

/// The measured cases in the order they ran: subject and tasks.
fn order(seed: u64) -> Vec<(String, u64)> {
    let subjects = [subject("a", 1), subject("b", 1), subject("c", 1)];
    let mut executor = fake(5);
    run(
        &mut executor,
        &subjects,
        &[spawn(10), spawn(20)],
        settings(2, seed, None),
    );
    executor.ran
}

#[test]
fn each_round_runs_every_case_once_in_an_order_its_seed_repeats() {
    let first = order(7);
    assert_eq!(first, order(7), "the same seed, the same order");
    assert_ne!(first, order(8), "another seed, another order");
    // 6 cases, each 2 memory and 2 time processes: a round of their first memory
    // processes, one of their first time processes, then one of a time and a memory
    // process each — every case in every round, as often as the round gives it processes.
    assert_eq!(first.len(), 24);
    let (one, rest) = first.split_at(6);
    let (two, three) = rest.split_at(6);
    for (round, each) in [(one, 1), (two, 1), (three, 2)] {
        let mut cases = round.to_vec();
        cases.sort();
        cases.dedup();
        assert_eq!(cases.len(), 6, "every case in every round: {round:?}");
        assert_eq!(round.len(), 6 * each);
    }
    assert_ne!(three[..6], three[6..], "a round is shuffled whole");
    // Points interleave: the first round is not one point and then the other.
    let points: Vec<u64> = first[..6].iter().map(|(_, tasks)| *tasks).collect();
    assert!(points.windows(2).any(|w| w[0] != w[1]) && points != [10, 10, 10, 20, 20, 20]);
}

#[test]
fn every_time_process_runs_its_warm_up_whatever_it_times() {
    // A cold first iteration 50× a steady one: it never enters the steady figure.
    let mut executor = Timed {
        cold_ns: 50_000_000,
        ..fake(40)
    };
    let subjects = [subject("jit", 7)];
    let records = run(&mut executor, &subjects, &[spawn(10)], settings(5, 1, None));
    let time: Vec<&RunRecord> = records.iter().filter(|r| r.timed == Some(true)).collect();
    assert_eq!(time.len(), 5);
    let counts: Vec<u32> = time.iter().map(|r| r.iterations).collect();
    assert!(counts.iter().all(|&m| m >= 1), "{counts:?}");
    for record in &time {
        let figures = record.figures.as_ref().unwrap();
        assert_eq!(
            record.inner_warm_up, 7,
            "the table's warm-up, not one from M"
        );
        assert_eq!(figures.warm_up_ns.len(), 7);
        assert_eq!(
            figures.warm_up_ns[0], 50_000_000,
            "the cold start, kept apart"
        );
        assert!(figures.iterations_ns.iter().all(|&e| e == 1_000_000));
    }
    let memory = records.iter().filter(|r| r.timed == Some(false));
    assert!(
        memory
            .clone()
            .all(|r| r.iterations == 1 && r.inner_warm_up == 1)
    );
    assert_eq!(memory.count(), 2, "two memory processes whose peaks agree");
}

#[test]
fn the_budget_holds_with_the_minimum_phase_inside_it() {
    // 12 cases whose minimum (a memory and 3 time processes of 100 ms) is 4.8 s in all,
    // within a budget of 1.5 s: after the first round (12 memory processes), a few cases
    // get a time process, and those that cannot are ended, each saying what it needs
    // (those with a time process end for the run's budget, with a wide interval); the
    // processes' charges stay within the budget.
    let subjects: Vec<Subject> = (0..6).map(|i| subject(&format!("s{i}"), 3)).collect();
    let mut executor = fake(100);
    let budget = Duration::from_millis(1_500);
    let records = run(
        &mut executor,
        &subjects,
        &[spawn(10), spawn(20)],
        settings(3, 11, Some(budget)),
    );
    let spent: Duration = records.iter().map(charge).sum();
    assert!(spent <= budget + budget / 20, "{spent:?} of {budget:?}");
    let not_steady = records
        .iter()
        .filter(|r| matches!(r.stop, Some(StopReason::NotSteady { needs_ms }) if needs_ms > 0))
        .count();
    assert!(
        not_steady > 0,
        "some cases could not be carried to a steady state"
    );
}
