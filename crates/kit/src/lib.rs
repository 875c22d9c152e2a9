//! Protocol plumbing for Rust contestants, so that each contestant is only its scenarios.
//!
//! A contestant's `main` builds its runtime once and hands [`run`] a closure that executes
//! one iteration of a [`Scenario`]. `run` reads the command line (docs/PROTOCOL.md, v2),
//! runs the unmeasured warm-up iterations, then the measured ones, timing each with the
//! monotonic clock and the process CPU clock and printing its JSON line, and exits. It
//! never touches the runtime, so what is measured is the contestant's own code.

mod cpu_clock;
pub mod doxbee;
mod line;
pub mod sockets;
mod timer;
mod yielding;

pub use catalogue::{DOXBEE_STEPS, EXIT_NOT_IMPLEMENTED, Invocation, Scenario, pattern_byte};
pub use cpu_clock::process_cpu_ns;
pub(crate) use line::ResultLine;
pub use timer::oversleep_outcome;
pub use timer::{timed_sleeps, timed_sleeps_blocking};
pub use yielding::{yields, yields_blocking};

use std::io::Write;
use std::process::exit;
use std::time::Instant;

/// What one iteration produced: the checksum and optional scenario-specific figures.
#[derive(Debug, Clone, PartialEq)]
pub struct Outcome {
    pub checksum: u64,
    /// Named figures for the `extra` object of the result line (timer oversleep, …).
    pub extra: Vec<(&'static str, f64)>,
}

impl From<u64> for Outcome {
    fn from(checksum: u64) -> Outcome {
        Outcome {
            checksum,
            extra: Vec::new(),
        }
    }
}

/// Returned by a contestant for a scenario its runtime cannot express; the reason is shown
/// by the harness beside "n/a".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotImplemented(pub &'static str);

/// Runs the protocol around `iteration` and exits the process. A panic anywhere exits with
/// status 101 at once (may, for one, would otherwise hang with a coroutine that died).
pub fn run<F>(mut iteration: F) -> !
where
    F: FnMut(Scenario) -> Result<Outcome, NotImplemented>,
{
    // A panic anywhere ends the process: a runtime that catches a task's panic could
    // otherwise leave the measured iteration waiting forever for that task.
    let report = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        report(info);
        exit(101);
    }));
    let invocation = match Invocation::parse(std::env::args().skip(1)) {
        Ok(invocation) => invocation,
        Err(err) => {
            eprintln!("{}: {err}", program());
            exit(2);
        }
    };
    let mut once = |scenario| match iteration(scenario) {
        Ok(outcome) => outcome,
        Err(NotImplemented(reason)) => {
            eprintln!(
                "{}: {} not implemented: {reason}",
                program(),
                scenario.name()
            );
            exit(EXIT_NOT_IMPLEMENTED);
        }
    };
    let warm_up = invocation.warm_up.unwrap_or(invocation.scenario);
    for _ in 0..invocation.inner_warm_up {
        once(warm_up);
    }
    let mut stdout = std::io::stdout().lock();
    for _ in 0..invocation.iterations {
        let cpu_start = cpu_clock::process_cpu_ns();
        let start = Instant::now();
        let outcome = once(invocation.scenario);
        let elapsed = start.elapsed();
        let cpu_ns = cpu_clock::process_cpu_ns().saturating_sub(cpu_start);
        let line = ResultLine {
            elapsed_ns: elapsed.as_nanos() as u64,
            cpu_ns,
            outcome,
        };
        // Printed (and flushed) after the clock stopped, before the next iteration starts.
        if writeln!(stdout, "{line}")
            .and_then(|()| stdout.flush())
            .is_err()
        {
            exit(1);
        }
    }
    // Exit here rather than return: tearing the runtime down is not part of the workload.
    exit(0);
}

fn program() -> String {
    std::env::args()
        .next()
        .unwrap_or_else(|| "contestant".into())
}
