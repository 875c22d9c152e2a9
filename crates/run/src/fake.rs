//! A fake executor for tests: it answers every job with a canned process ending, so that
//! the runner's tests here and the scheduler's in taskbench drive whole runs without
//! starting a process. Built for this crate's tests and under the `test-support` feature.

use crate::Executor;
use measure::{ExecError, Exit, Job, Measurement, Usage};
use std::time::Duration;

/// Answers every job with a canned process ending; remembers what it was asked to run.
/// The scheduler's tests drive a whole run with it.
pub struct Fake {
    pub ran: Vec<Vec<String>>,
    pub answer: fn(&[String]) -> (Exit, String),
}

impl Executor for Fake {
    fn execute(&mut self, job: &Job) -> Result<Measurement, ExecError> {
        self.ran.push(job.argv.clone());
        if job.argv[0] == "missing" {
            return Err(ExecError::Program("cannot start `missing`".into()));
        }
        let (exit, stdout) = (self.answer)(&job.argv);
        Ok(Measurement {
            exit,
            wall: Duration::from_millis(3) + reported(&stdout),
            usage: Usage {
                user_ns: 1,
                sys_ns: 2,
                peak_rss_bytes: 4096,
                ..Usage::default()
            },
            stdout_bytes: stdout.len() as u64,
            stdout,
            stderr_tail: "the reason".into(),
            timeline: Vec::new(),
            sampler_cpu_ns: 0,
        })
    }
}

/// What the lines of `stdout` report in all: a process lasts at least as long.
fn reported(stdout: &str) -> Duration {
    let elapsed = |line: &str| {
        let value: serde_json::Value = serde_json::from_str(line).ok()?;
        value["elapsed_ns"].as_u64()
    };
    Duration::from_nanos(stdout.lines().filter_map(elapsed).sum())
}
