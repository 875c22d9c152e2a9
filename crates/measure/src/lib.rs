//! Measures one run of one command in a fresh process: wall clock, the child's own
//! rusage from `wait4` (peak RSS, user/system CPU, context switches), an RSS/thread
//! timeline sampled from /proc, and what it printed; and the platform it ran on (CPU,
//! memory, kernel, toolchain). Knows nothing of scenarios.
//!
//! A layer of taskbench (issue 47), in a crate of its own under everything that runs a
//! process: it uses the catalogue (the point a load or condition sample names) and nothing
//! of the harness. The launcher it holds runs in whichever binary drives it ([`launcher`]).

pub mod affinity;
pub mod capture;
pub mod condition;
pub mod counter;
pub mod launcher;
pub mod limits;
pub mod machine;
pub mod platform;
mod process;
pub mod reap;
mod sampler;

pub use counter::InstructionCounter;
pub use platform::Platform;
pub use process::{ExecError, Job, Kept, execute};
pub use sampler::Sample;

use serde::{Deserialize, Serialize};
use std::time::Duration;

/// How the process ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", content = "value", rename_all = "snake_case")]
pub enum Exit {
    /// Exited by itself with this status.
    Code(i32),
    /// Killed by this signal (not by the harness).
    Signal(i32),
    /// Outlived the timeout; the harness killed its process group.
    TimedOut,
    /// Its resident memory passed the limit; the harness killed its process group.
    OverMemory,
}

/// Resource use of the reaped child and its reaped descendants (`wait4`'s rusage).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// User CPU time, ns.
    pub user_ns: u64,
    /// System CPU time, ns.
    pub sys_ns: u64,
    /// Peak resident set size (`ru_maxrss`), bytes.
    pub peak_rss_bytes: u64,
    /// Voluntary context switches (the process waited).
    pub voluntary_switches: u64,
    /// Involuntary context switches (the process was preempted).
    pub involuntary_switches: u64,
}

/// Everything observed of one run.
#[derive(Debug, Clone, PartialEq)]
pub struct Measurement {
    pub exit: Exit,
    /// From just before spawning to the return of `wait4`.
    pub wall: Duration,
    pub usage: Usage,
    /// All of stdout, or its first [`capture::STDOUT_CAP`] bytes.
    pub stdout: String,
    /// How many bytes it printed on stdout, kept or not.
    pub stdout_bytes: u64,
    /// The last few lines of stderr.
    pub stderr_tail: String,
    /// RSS and threads over time, from /proc/PID/stat.
    pub timeline: Vec<Sample>,
    /// CPU time the sampler thread itself used during this run, ns.
    pub sampler_cpu_ns: u64,
}

impl Measurement {
    /// The most threads seen in one sample.
    pub fn peak_threads(&self) -> u32 {
        self.timeline.iter().map(|s| s.threads).max().unwrap_or(0)
    }
}

/// The time of `clock` (`CLOCK_MONOTONIC`, `CLOCK_THREAD_CPUTIME_ID`, …) in ns.
fn clock_ns(clock: libc::clockid_t) -> u64 {
    let mut ts = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: `ts` is a valid, writable timespec.
    unsafe { libc::clock_gettime(clock, &mut ts) };
    ts.tv_sec as u64 * 1_000_000_000 + ts.tv_nsec as u64
}
