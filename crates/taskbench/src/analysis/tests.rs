//! Summaries from fixed fake runs, checked against figures worked out by hand.

use super::*;
use crate::run::Figures;

fn record(
    contestant: &str,
    tasks: u64,
    phase: Phase,
    status: RunStatus,
    elapsed: u64,
    rss: u64,
) -> RunRecord {
    RunRecord {
        contestant: contestant.into(),
        scenario: "spawn".into(),
        params: BTreeMap::from([("tasks".into(), tasks)]),
        inner_warmup: 0,
        phase,
        run: 1,
        figures: Some(Figures {
            elapsed_ns: status.is_ok().then_some(elapsed),
            ideal_ns: 0,
            overhead_ns: status.is_ok().then_some(elapsed as i64),
            wall_ns: elapsed + 1_000,
            user_ns: 5,
            sys_ns: 5,
            cpu_ns: 10,
            peak_rss_bytes: rss,
            peak_threads: 3,
            voluntary_switches: 0,
            involuntary_switches: 0,
            checksum: None,
            expected_checksum: None,
            extra: BTreeMap::new(),
            sampler_cpu_ns: 0,
            stderr_tail: if status.is_ok() {
                String::new()
            } else {
                "boom".into()
            },
            timeline: Vec::new(),
        }),
        status,
    }
}

fn records() -> Vec<RunRecord> {
    use Phase::*;
    let ok = || RunStatus::Ok;
    vec![
        record("a", 0, Idle, ok(), 1, 500),
        record("a", 0, Idle, ok(), 1, 700),
        record("a", 100, Warmup, ok(), 999, 99_999),
        record("a", 100, Measured, ok(), 30, 1_600),
        record("a", 100, Measured, ok(), 10, 1_400),
        record("a", 100, Measured, ok(), 20, 1_500),
        record(
            "a",
            100,
            Measured,
            RunStatus::WrongChecksum {
                expected: 4950,
                got: 1,
            },
            1,
            1,
        ),
        record("b", 100, Measured, ok(), 40, 2_000),
        record(
            "c",
            100,
            Measured,
            RunStatus::NotImplemented {
                reason: "no".into(),
            },
            0,
            0,
        ),
        record("d", 100, Measured, RunStatus::Crashed { signal: 11 }, 0, 0),
        record("d", 100, Measured, RunStatus::Crashed { signal: 11 }, 0, 0),
    ]
}

#[test]
fn rows_come_best_first_with_ratios() {
    let points = summarize(&records());
    assert_eq!(points.len(), 1, "idle and warm-up runs are not points");
    let rows = &points[0].rows;
    let names: Vec<&str> = rows.iter().map(|r| r.contestant.as_str()).collect();
    assert_eq!(names, ["a", "b", "d", "c"]);
    assert_eq!(rows[0].ratio_to_best, Some(1.0));
    assert_eq!(rows[1].ratio_to_best, Some(2.0));
    assert_eq!(
        rows[2].outcome,
        Outcome::Failed {
            status: "crashed (SIGSEGV)".into()
        }
    );
    assert_eq!(
        rows[3].outcome,
        Outcome::NotImplemented {
            reason: "no".into()
        }
    );
}

#[test]
fn invalid_runs_are_counted_but_never_averaged() {
    let a = &summarize(&records())[0].rows[0];
    assert_eq!((a.runs_ok, a.runs), (3, 4));
    let elapsed = a.elapsed.unwrap();
    assert_eq!(
        (elapsed.median, elapsed.min, elapsed.max),
        (20.0, 10.0, 30.0)
    );
    assert_eq!(
        a.problems,
        ["1× invalid checksum: expected 4950, got 1 — boom"]
    );
}

#[test]
fn per_task_figures_are_above_the_idle_footprint() {
    let a = &summarize(&records())[0].rows[0];
    assert_eq!(a.idle_rss_bytes, Some(600.0));
    assert_eq!(a.bytes_per_task, Some((1_500.0 - 600.0) / 100.0));
    assert_eq!(a.ns_per_task, Some(20.0 / 100.0));
    let b = &summarize(&records())[0].rows[1];
    assert_eq!(b.bytes_per_task, None, "b has no idle runs");
}

#[test]
fn repeated_failures_are_reported_once_with_their_count() {
    let d = &summarize(&records())[0].rows[2];
    assert_eq!(d.problems, ["2× crashed (SIGSEGV) — boom"]);
}
