//! Fake records for tests: one spawn process at a given size, status, time and peak RSS, and
//! a case's measured processes; this crate's tests and (feature `test-support`, which
//! taskbench's dev-dependency turns on) those of the crates above it.

use run::{Figures, Phase, RunRecord, RunStatus};
use std::collections::BTreeMap;

/// One spawn process of `contestant` at `tasks` tasks.
pub fn record(
    contestant: &str,
    tasks: u64,
    phase: Phase,
    status: RunStatus,
    elapsed: u64,
    rss: u64,
) -> RunRecord {
    RunRecord {
        machine: None,
        contestant: contestant.into(),
        scenario: "spawn".into(),
        params: BTreeMap::from([("tasks".into(), tasks)]),
        inner_warm_up: 0,
        timed: None,
        phase,
        run: 1,
        iterations: 1,
        stop: None,
        figures: Some(Figures {
            elapsed_ns: status.is_ok().then_some(elapsed),
            iterations_ns: if status.is_ok() {
                vec![elapsed]
            } else {
                Vec::new()
            },
            iterations_cpu_ns: Vec::new(),
            warm_up_ns: Vec::new(),
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
            instructions: None,
            counter: None,
        }),
        status,
    }
}

/// Measured `spawn` processes of one contestant at `tasks`, numbered from 1, with these
/// elapsed times (ns) and peak RSS.
pub fn runs(contestant: &str, tasks: u64, elapsed: &[u64], rss: u64) -> Vec<RunRecord> {
    elapsed
        .iter()
        .enumerate()
        .map(|(i, &e)| {
            let mut r = record(contestant, tasks, Phase::Measured, RunStatus::Ok, e, rss);
            r.run = i as u32 + 1;
            r
        })
        .collect()
}
