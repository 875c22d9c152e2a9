//! The runner against a fake executor: what is run, in which order, and what is skipped.

use super::*;
use crate::RunStatus;
use crate::fake::Fake;
use crate::stopping::MIN_MEASURED;
use crate::stopping::StopReason;
use catalogue::{Invocation, Scenario};
use measure::Exit;
use measure::{ExecError, Job, Measurement};

fn subject(name: &str, unsupported: &[&str]) -> Subject {
    Subject {
        name: name.into(),
        argv: vec![name.into()],
        cwd: "/".into(),
        unsupported: unsupported.iter().map(|s| s.to_string()).collect(),
        startup: Duration::ZERO,
        warm_up: contestant::WarmUpTable::common(),
        baseline: None,
        cpus: None,
        env: Vec::new(),
    }
}

fn run(fake: &mut Fake, subjects: &[Subject], workloads: &[Workload], runs: u32) -> Vec<RunRecord> {
    let settings = Settings {
        warm_up: 1,
        idle_runs: runs,
        stopping: Stopping::exactly(runs, Duration::from_secs(60)),
        instructions: None,
        seed: 7,
    };
    run_until(fake, subjects, workloads, settings, &|| false)
}

/// The runner over `workloads`, stopped when `stop` says so.
fn run_until(
    executor: &mut dyn Executor,
    subjects: &[Subject],
    workloads: &[Workload],
    settings: Settings,
    stop: &dyn Fn() -> bool,
) -> Vec<RunRecord> {
    let limits = Limits {
        timeout: Duration::from_secs(1),
        sample_every: Duration::from_millis(10),
        memory_limit: None,
        full_warm_up: false,
    };
    let mut sunk = 0;
    let records = Runner {
        executor,
        subjects,
        settings,
        limits,
        stop,
    }
    .run(
        workloads,
        Hooks {
            done: &|_| false,
            sink: &mut |_| {
                sunk += 1;
                Ok(())
            },
            progress: &mut |_| {},
        },
    )
    .unwrap();
    assert_eq!(sunk, records.len(), "every record reaches the sink");
    records
}

/// One correct line per iteration asked for: 1 µs beyond the scenario's ideal time.
fn correct(argv: &[String]) -> (Exit, String) {
    let invocation = Invocation::parse(&argv[1..]).unwrap();
    let line = format!(
        "{{\"elapsed_ns\":{},\"checksum\":{}}}\n",
        invocation.scenario.ideal_ns() + 1000,
        invocation.scenario.checksum()
    );
    (Exit::Code(0), line.repeat(invocation.iterations as usize))
}

fn timer() -> Workload {
    Workload::Scenario {
        scenario: Scenario::new("timer", &[("total-ms", 5)]).unwrap(),
        inner_warm_up: 2,
    }
}

#[test]
fn passes_the_protocol_arguments_and_judges_the_line() {
    let mut fake = Fake {
        ran: Vec::new(),
        answer: correct,
    };
    let records = run(&mut fake, &[subject("a", &[])], &[timer()], 2);
    assert_eq!(
        fake.ran[0],
        [
            "a",
            "timer",
            "--step-us",
            "1000",
            "--total-ms",
            "5",
            "--inner-warmup",
            "2",
            "--iterations",
            "1"
        ]
    );
    // Exactly two time processes: the warm-up, a memory process, a time one, then a round
    // of a time and a memory process in a shuffled order (two memory processes, the fewest
    // whose peaks can agree). A time process times the least measured time, 20 ms, of the
    // 5 ms iterations: 4.
    let m = (MIN_MEASURED.as_millis() / 5) as u32;
    let asked: Vec<u32> = records.iter().map(|r| r.iterations).collect();
    assert_eq!(asked, [1, 1, m, m, 1]);
    // A time process prints its warm-up iterations (the common minimum here) before the
    // ones it times, and is given no unreported warm-up.
    let warm_up = contestant::warm_up::COMMON;
    assert_eq!(
        fake.ran[2][fake.ran[2].len() - 3..],
        ["0", "--iterations", &(m + warm_up).to_string()]
    );
    let time = &records[2];
    assert_eq!((time.timed, time.inner_warm_up), (Some(true), warm_up));
    let figures = time.figures.as_ref().unwrap();
    assert_eq!(figures.warm_up_ns.len(), warm_up as usize);
    assert_eq!(figures.iterations_ns.len(), m as usize);
    let measured: Vec<_> = records.iter().filter(|r| counts(r)).collect();
    assert_eq!(measured.len(), 4);
    assert_eq!(records.last().unwrap().stop, Some(StopReason::MaxRuns));
    assert!(records[..4].iter().all(|r| r.stop.is_none()));
    let figures = measured[0].figures.as_ref().unwrap();
    assert_eq!(figures.elapsed_ns, Some(5_001_000));
    assert_eq!(figures.ideal_ns, 5_000_000);
    assert_eq!(figures.overhead_ns, Some(1000));
    assert_eq!(figures.cpu_ns, 3);
    assert_eq!(figures.expected_checksum, Some(5));
}

#[test]
fn declared_unsupported_scenarios_are_not_run() {
    let mut fake = Fake {
        ran: Vec::new(),
        answer: correct,
    };
    let records = run(
        &mut fake,
        &[subject("a", &["timer"]), subject("b", &[])],
        &[timer()],
        3,
    );
    assert!(fake.ran.iter().all(|argv| argv[0] == "b"));
    let a: Vec<_> = records.iter().filter(|r| r.contestant == "a").collect();
    assert_eq!(
        a.len(),
        1,
        "one row, in the measured phase, whatever came before"
    );
    assert_eq!(a[0].phase, Phase::Measured);
    assert!(matches!(a[0].status, RunStatus::NotImplemented { .. }));
    assert!(a[0].figures.is_none());
}

#[test]
fn not_implemented_and_timeout_stop_their_case_only() {
    let mut fake = Fake {
        ran: Vec::new(),
        answer: |argv| match argv[0].as_str() {
            "na" => (Exit::Code(69), String::new()),
            "slow" => (Exit::TimedOut, String::new()),
            _ => correct(argv),
        },
    };
    let subjects = [subject("na", &[]), subject("slow", &[]), subject("ok", &[])];
    let records = run(&mut fake, &subjects, &[timer()], 4);
    let ran = |name: &str| fake.ran.iter().filter(|argv| argv[0] == name).count();
    assert_eq!(
        (ran("na"), ran("slow"), ran("ok")),
        (1, 1, 7),
        "asked once, then stopped; the other: a warm-up, two memory and four time processes"
    );
    // The warm-up's answer, then one measured record saying why no run was made.
    for name in ["na", "slow"] {
        let mine: Vec<_> = records.iter().filter(|r| r.contestant == name).collect();
        assert_eq!(mine.len(), 2, "{name}");
        assert_eq!(
            (mine[0].phase, mine[1].phase),
            (Phase::WarmUp, Phase::Measured)
        );
        assert_eq!(mine[0].status, mine[1].status);
        assert!(mine[1].figures.is_none(), "the measured run was not made");
    }
    let na = records.iter().find(|r| r.contestant == "na").unwrap();
    assert_eq!(
        na.status,
        RunStatus::NotImplemented {
            reason: "the reason".into()
        }
    );
}

#[test]
fn a_program_that_cannot_start_is_a_status() {
    let mut fake = Fake {
        ran: Vec::new(),
        answer: correct,
    };
    let records = run(&mut fake, &[subject("missing", &[])], &[timer()], 3);
    assert_eq!(fake.ran.len(), 1, "tried once");
    assert_eq!(
        records.len(),
        2,
        "the warm-up, and the measured phase's row"
    );
    assert!(
        records
            .iter()
            .all(|r| matches!(r.status, RunStatus::NotStarted { .. }))
    );
}

#[test]
fn a_plain_command_is_timed_by_the_wall_clock() {
    let mut fake = Fake {
        ran: Vec::new(),
        answer: |_| (Exit::Code(0), "hello".into()),
    };
    let records = run(&mut fake, &[subject("cmd", &[])], &[Workload::Command], 1);
    assert_eq!(fake.ran[0], ["cmd"]);
    let measured = records.iter().find(|r| counts(r)).unwrap();
    assert_eq!(
        measured.figures.as_ref().unwrap().elapsed_ns,
        Some(3_000_000)
    );
}

/// Counts a million instructions for the first process and half a million more for each
/// one after; wraps nothing, so the fake executor sees the contestant's own command.
struct FakeCounter {
    reads: std::cell::Cell<u64>,
}

impl InstructionCounter for FakeCounter {
    fn name(&self) -> &str {
        "fake counter"
    }

    fn wrap(&self, argv: &[String], out: &std::path::Path) -> Vec<String> {
        assert!(out.is_dir(), "the counter gets a folder of its own");
        argv.to_vec()
    }

    fn read(&self, _: &std::path::Path) -> Result<u64, String> {
        let n = self.reads.get();
        self.reads.set(n + 1);
        Ok(1_000_000 + 500_000 * n)
    }
}

#[test]
fn counted_runs_follow_the_measured_ones_one_iteration_apart() {
    let mut fake = Fake {
        ran: Vec::new(),
        answer: correct,
    };
    let counter = FakeCounter {
        reads: std::cell::Cell::new(0),
    };
    let spawn = Workload::Scenario {
        scenario: Scenario::new("spawn", &[("tasks", 100)]).unwrap(),
        inner_warm_up: 3,
    };
    let settings = Settings {
        warm_up: 0,
        idle_runs: 0,
        stopping: Stopping::exactly(2, Duration::from_secs(60)),
        instructions: Some(&counter),
        seed: 7,
    };
    let subjects = [subject("a", &[]), subject("b", &["spawn"])];
    let records = run_until(&mut fake, &subjects, &[spawn], settings, &|| false);
    let counted: Vec<&RunRecord> = records
        .iter()
        .filter(|r| r.phase == Phase::Counted)
        .collect();
    // a's two counted runs after its measured ones; b (n/a) none.
    assert_eq!(counted.len(), 2, "{records:#?}");
    assert!(
        counted
            .iter()
            .all(|r| r.contestant == "a" && r.status.is_ok())
    );
    assert_eq!(
        counted.iter().map(|r| r.iterations).collect::<Vec<_>>(),
        [1, 2]
    );
    // The same warm-up in both, whatever the iterations: their difference is one iteration.
    assert!(counted.iter().all(|r| r.inner_warm_up == 3));
    let last = fake.ran.last().unwrap();
    assert_eq!(
        &last[last.len() - 4..],
        ["--inner-warmup", "3", "--iterations", "2"]
    );
    let figures: Vec<(Option<u64>, Option<&str>)> = counted
        .iter()
        .map(|r| {
            let f = r.figures.as_ref().unwrap();
            (f.instructions, f.counter.as_deref())
        })
        .collect();
    assert_eq!(
        figures,
        [
            (Some(1_000_000), Some("fake counter")),
            (Some(1_500_000), Some("fake counter"))
        ]
    );
}

/// Makes processes as its fake does, and stops the run during the `after`-th: that one
/// ends killed, as the interrupt's watcher kills it, unless `between` (the stop came after
/// it ended by itself).
struct Interrupting {
    fake: Fake,
    after: usize,
    between: bool,
    stop: std::rc::Rc<std::cell::Cell<bool>>,
}

impl Executor for Interrupting {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError> {
        let mut made = self.fake.execute(job)?;
        if self.fake.ran.len() == self.after {
            self.stop.set(true);
            if !self.between {
                made.exit = Exit::Signal(libc::SIGKILL);
            }
        }
        Ok(made)
    }
}

#[test]
fn a_stop_ends_the_run_with_the_records_made_before_it() {
    let settings = Settings {
        warm_up: 1,
        idle_runs: 0,
        stopping: Stopping::exactly(3, Duration::from_secs(60)),
        instructions: None,
        seed: 7,
    };
    let subjects = [subject("a", &[]), subject("b", &[])];
    let key = |r: &RunRecord| (r.contestant.clone(), r.phase, r.run, r.status.clone());
    let mut whole = Fake {
        ran: Vec::new(),
        answer: correct,
    };
    let all: Vec<_> = run_until(&mut whole, &subjects, &[timer()], settings, &|| false)
        .iter()
        .map(key)
        .collect();
    // A warm-up, two memory processes (their peaks agree) and three time processes a
    // subject.
    assert_eq!(all.len(), 12);
    for (after, between) in [(1, false), (6, false), (12, false), (1, true), (9, true)] {
        let stop = std::rc::Rc::new(std::cell::Cell::new(false));
        let mut executor = Interrupting {
            fake: Fake {
                ran: Vec::new(),
                answer: correct,
            },
            after,
            between,
            stop: stop.clone(),
        };
        let records = run_until(&mut executor, &subjects, &[timer()], settings, &|| {
            stop.get()
        });
        let case = format!("stopped during process {after}, between: {between}");
        assert_eq!(
            executor.fake.ran.len(),
            after,
            "no process after the stop ({case})"
        );
        let kept = if between { after } else { after - 1 };
        let made: Vec<_> = records.iter().map(key).collect();
        assert_eq!(
            made,
            all[..kept],
            "the records before the stop, as made ({case})"
        );
    }
}
