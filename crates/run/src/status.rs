//! What became of a run: the statuses of docs/PROTOCOL.md §3, decided from the process's
//! exit and output. A run counts in the statistics only when its status is `Ok`.

use super::{plausible, protocol};
use measure::{Exit, Measurement};
use serde::{Deserialize, Serialize};
use std::collections::BTreeMap;
use std::fmt;

/// The status of one run.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "status", rename_all = "snake_case")]
pub enum RunStatus {
    /// Exited 0 with a valid line and the right checksum.
    Ok,
    /// Exited 0 but reported the wrong checksum: invalid, never averaged in.
    WrongChecksum { expected: u64, got: u64 },
    /// The contestant does not implement the scenario (exit 69 or the manifest says so).
    NotImplemented { reason: String },
    /// Exited with a non-zero status.
    Failed { code: i32 },
    /// Killed by a signal it did not get from the harness.
    Crashed { signal: i32 },
    /// Outlived `--timeout` and was killed with its process group.
    Timeout,
    /// Passed `--memory-limit` and was killed with its process group.
    OverMemory,
    /// Exited 0 without exactly one parsable result line.
    BadOutput { reason: String },
    /// Exited 0 with the right checksums, but times that cannot be true (run/plausible.rs):
    /// invalid, never averaged in.
    Implausible { reason: String },
    /// The program could not be started.
    NotStarted { reason: String },
}

/// What a protocol run must report: how many lines, the checksum on each, and what bounds
/// its times.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Expected {
    pub(crate) checksum: u64,
    pub(crate) iterations: u32,
    /// The least an iteration can take (the scenario's ideal time; 0: none).
    pub(crate) ideal_ns: u64,
    /// Cores the process may run on.
    pub(crate) cores: u32,
}

/// The contestant's own figures, when its lines were read: one entry per measured
/// iteration, in order.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct Reported {
    pub(crate) elapsed_ns: Vec<u64>,
    /// Each iteration's process CPU time, ns; empty unless every line carried it.
    pub(crate) cpu_ns: Vec<u64>,
    /// The checksum every line reported (the first wrong one when they differ).
    pub(crate) checksum: Option<u64>,
    pub(crate) extra: Vec<BTreeMap<String, f64>>,
}

impl RunStatus {
    /// Judges a finished process. `expected` is what a protocol run must print, and `None`
    /// for plain commands, which succeed by exiting 0.
    pub(crate) fn judge(m: &Measurement, expected: Option<Expected>) -> (RunStatus, Reported) {
        let none = Reported::default();
        match (m.exit, expected) {
            (Exit::TimedOut, _) => (RunStatus::Timeout, none),
            (Exit::OverMemory, _) => (RunStatus::OverMemory, none),
            (Exit::Signal(signal), _) => (RunStatus::Crashed { signal }, none),
            (Exit::Code(catalogue::EXIT_NOT_IMPLEMENTED), Some(_)) => {
                let reason = m
                    .stderr_tail
                    .lines()
                    .last()
                    .unwrap_or("no reason given")
                    .trim();
                (
                    RunStatus::NotImplemented {
                        reason: reason.to_string(),
                    },
                    none,
                )
            }
            (Exit::Code(0), None) => (RunStatus::Ok, none),
            // What was cut could hold anything: more lines, a broken line.
            (Exit::Code(0), Some(_)) if m.stdout_bytes > m.stdout.len() as u64 => {
                let reason = format!(
                    "printed {} on stdout, more than the {} kept of a run",
                    units::bytes(m.stdout_bytes as f64),
                    units::bytes(m.stdout.len() as f64)
                );
                (RunStatus::BadOutput { reason }, none)
            }
            (Exit::Code(0), Some(expected)) => {
                match protocol::parse(&m.stdout, expected.iterations) {
                    Err(reason) => (RunStatus::BadOutput { reason }, none),
                    Ok(lines) => {
                        // Every line's checksum is checked: one wrong iteration is a wrong run.
                        let wrong = lines
                            .iter()
                            .find(|l| l.checksum != expected.checksum)
                            .map(|l| l.checksum);
                        let checksum = wrong.unwrap_or(lines[0].checksum);
                        let reported = Reported {
                            elapsed_ns: lines.iter().map(|l| l.elapsed_ns).collect(),
                            cpu_ns: lines
                                .iter()
                                .map(|l| l.cpu_ns)
                                .collect::<Option<_>>()
                                .unwrap_or_default(),
                            checksum: Some(checksum),
                            extra: lines.into_iter().map(|l| l.extra).collect(),
                        };
                        let status = match wrong {
                            None => believe(m, expected, &reported),
                            Some(got) => RunStatus::WrongChecksum {
                                expected: expected.checksum,
                                got,
                            },
                        };
                        (status, reported)
                    }
                }
            }
            (Exit::Code(code), _) => (RunStatus::Failed { code }, none),
        }
    }

    pub fn is_ok(&self) -> bool {
        *self == RunStatus::Ok
    }

    /// Short label for tables: `ok`, `n/a`, `timeout`, `crashed (SIGSEGV)` …
    pub fn label(&self) -> String {
        match self {
            RunStatus::Ok => "ok".into(),
            RunStatus::WrongChecksum { .. } => "invalid checksum".into(),
            RunStatus::NotImplemented { .. } => "n/a".into(),
            RunStatus::Failed { code } => format!("failed (exit {code})"),
            RunStatus::Crashed { signal } => format!("crashed ({})", signal_name(*signal)),
            RunStatus::Timeout => "timeout".into(),
            RunStatus::OverMemory => "over memory limit".into(),
            RunStatus::BadOutput { .. } => "bad output".into(),
            RunStatus::Implausible { .. } => "implausible time".into(),
            RunStatus::NotStarted { .. } => "not started".into(),
        }
    }
}

impl fmt::Display for RunStatus {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunStatus::WrongChecksum { expected, got } => {
                write!(f, "invalid checksum: expected {expected}, got {got}")
            }
            RunStatus::NotImplemented { reason }
            | RunStatus::BadOutput { reason }
            | RunStatus::Implausible { reason }
            | RunStatus::NotStarted { reason } => write!(f, "{}: {reason}", self.label()),
            _ => f.write_str(&self.label()),
        }
    }
}

/// `Ok`, unless the reported times cannot be true of the process the harness measured.
fn believe(m: &Measurement, expected: Expected, reported: &Reported) -> RunStatus {
    let bounds = plausible::Bounds {
        wall: m.wall,
        ideal_ns: expected.ideal_ns,
        cores: expected.cores,
    };
    match plausible::check(bounds, &reported.elapsed_ns, &reported.cpu_ns) {
        None => RunStatus::Ok,
        Some(reason) => RunStatus::Implausible { reason },
    }
}

fn signal_name(signal: i32) -> String {
    let name = match signal {
        libc::SIGSEGV => "SIGSEGV",
        libc::SIGABRT => "SIGABRT",
        libc::SIGKILL => "SIGKILL",
        libc::SIGBUS => "SIGBUS",
        libc::SIGILL => "SIGILL",
        libc::SIGFPE => "SIGFPE",
        libc::SIGTERM => "SIGTERM",
        libc::SIGINT => "SIGINT",
        _ => return format!("signal {signal}"),
    };
    name.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use measure::Usage;
    use std::time::Duration;

    fn finished(exit: Exit, stdout: &str, stderr: &str) -> Measurement {
        Measurement {
            exit,
            wall: Duration::from_millis(1),
            usage: Usage::default(),
            stdout: stdout.into(),
            stdout_bytes: stdout.len() as u64,
            stderr_tail: stderr.into(),
            timeline: Vec::new(),
            sampler_cpu_ns: 0,
        }
    }

    #[test]
    fn each_way_of_ending_has_its_status() {
        let line = "{\"elapsed_ns\":7,\"checksum\":45}";
        let once = Some(Expected {
            checksum: 45,
            iterations: 1,
            ideal_ns: 0,
            cores: 1,
        });
        let judge =
            |exit, out: &str, err: &str| RunStatus::judge(&finished(exit, out, err), once).0;
        assert_eq!(judge(Exit::Code(0), line, ""), RunStatus::Ok);
        assert_eq!(
            judge(Exit::Code(0), "{\"elapsed_ns\":7,\"checksum\":44}", ""),
            RunStatus::WrongChecksum {
                expected: 45,
                got: 44
            }
        );
        assert_eq!(
            judge(Exit::Code(69), "", "log\nno timer here"),
            RunStatus::NotImplemented {
                reason: "no timer here".into()
            }
        );
        assert_eq!(
            judge(Exit::Code(1), line, ""),
            RunStatus::Failed { code: 1 }
        );
        assert_eq!(
            judge(Exit::Signal(11), "", ""),
            RunStatus::Crashed { signal: 11 }
        );
        assert_eq!(judge(Exit::TimedOut, line, ""), RunStatus::Timeout);
        assert_eq!(judge(Exit::OverMemory, line, ""), RunStatus::OverMemory);
        assert!(matches!(
            judge(Exit::Code(0), "garbage", ""),
            RunStatus::BadOutput { .. }
        ));
    }

    #[test]
    fn the_reported_figures_are_kept() {
        let m = finished(
            Exit::Code(0),
            "{\"elapsed_ns\":7,\"checksum\":45,\"extra\":{\"a\":1}}",
            "",
        );
        let once = Expected {
            checksum: 45,
            iterations: 1,
            ideal_ns: 0,
            cores: 1,
        };
        let (_, reported) = RunStatus::judge(&m, Some(once));
        assert_eq!(reported.elapsed_ns, [7]);
        assert_eq!(reported.extra[0]["a"], 1.0);
    }

    #[test]
    fn every_iterations_checksum_is_checked() {
        let twice = Some(Expected {
            checksum: 45,
            iterations: 2,
            ideal_ns: 0,
            cores: 1,
        });
        let good = "{\"elapsed_ns\":7,\"checksum\":45}\n{\"elapsed_ns\":8,\"checksum\":45}";
        let (status, reported) = RunStatus::judge(&finished(Exit::Code(0), good, ""), twice);
        assert_eq!((status, reported.elapsed_ns), (RunStatus::Ok, vec![7, 8]));
        let second_wrong = "{\"elapsed_ns\":7,\"checksum\":45}\n{\"elapsed_ns\":8,\"checksum\":4}";
        assert_eq!(
            RunStatus::judge(&finished(Exit::Code(0), second_wrong, ""), twice).0,
            RunStatus::WrongChecksum {
                expected: 45,
                got: 4
            }
        );
        assert!(matches!(
            RunStatus::judge(&finished(Exit::Code(0), line_once(), ""), twice).0,
            RunStatus::BadOutput { .. }
        ));
    }

    fn line_once() -> &'static str {
        "{\"elapsed_ns\":7,\"checksum\":45}"
    }

    #[test]
    fn a_plain_command_succeeds_by_exiting_zero() {
        assert_eq!(
            RunStatus::judge(&finished(Exit::Code(0), "anything", ""), None).0,
            RunStatus::Ok
        );
        assert_eq!(
            RunStatus::judge(&finished(Exit::Code(69), "", ""), None).0,
            RunStatus::Failed { code: 69 }
        );
    }

    #[test]
    fn labels_are_short() {
        assert_eq!(
            RunStatus::Crashed {
                signal: libc::SIGSEGV
            }
            .label(),
            "crashed (SIGSEGV)"
        );
        assert_eq!(
            RunStatus::NotImplemented { reason: "x".into() }.label(),
            "n/a"
        );
    }
}
