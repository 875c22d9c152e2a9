//! The one way a contestant's own commands run (`detect`, `build`, `version` and the idle
//! probe): through the launcher, as a measured process runs (measure/launcher.rs), so that
//! what a command starts stays the launcher's to kill — in the command's process group or
//! not, a `setsid` daemon included — and is killed and reaped once the command exits or its
//! deadline passes: nothing a contestant's command starts outlives it. stdout and stderr are
//! drained on two threads so a chatty command never blocks on a full pipe, and only the last
//! bytes of each are kept.

use measure::capture::Keep;
use measure::{ExecError, Exit, Job, Kept};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;
use std::process::ExitStatus;
use std::time::Duration;

/// Bytes kept of each stream: the end, from a line start.
const TAIL: usize = 16 * 1024;
const KEEP: Kept = Kept {
    stdout: Keep::Tail(TAIL),
    stderr: Keep::Tail(TAIL),
};

/// A command that ran to its end (whatever its status).
#[derive(Debug, Clone)]
pub struct Finished {
    pub(crate) status: ExitStatus,
    /// The end of its stdout.
    pub stdout: String,
    /// The end of its stderr.
    pub(crate) stderr: String,
}

impl Finished {
    pub fn success(&self) -> bool {
        self.status.success()
    }

    /// What it printed: stdout, or stderr when stdout is blank (`ghc --version` style).
    pub(crate) fn text(&self) -> &str {
        if self.stdout.trim().is_empty() {
            &self.stderr
        } else {
            &self.stdout
        }
    }

    /// The last `n` non-blank lines of stderr, then stdout, joined by ` | `.
    pub(crate) fn last_lines(&self, n: usize) -> String {
        let lines: Vec<&str> = self
            .stderr
            .lines()
            .chain(self.stdout.lines())
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        lines[lines.len().saturating_sub(n)..].join(" | ")
    }
}

/// Why a command did not run to its end.
#[derive(Debug, thiserror::Error)]
pub enum CommandError {
    #[error("empty command")]
    Empty,
    /// The program is missing or cannot be executed, or the harness is out of processes
    /// or descriptors ([`CommandError::is_harness_fault`]).
    #[error("{reason}")]
    CannotStart { reason: String, harness: bool },
    /// The deadline passed; the command and all it started were killed.
    #[error("`{command}` did not finish in {}{}", humantime::format_duration(*.limit), tail_suffix(.tail))]
    TimedOut {
        command: String,
        limit: Duration,
        /// Its last lines before it was killed.
        tail: String,
    },
}

impl CommandError {
    /// Whether the fault is the harness's (no processes, descriptors or memory left, or no
    /// launcher) rather than the command's: every further command would fail the same way.
    pub(crate) fn is_harness_fault(&self) -> bool {
        matches!(self, CommandError::CannotStart { harness: true, .. })
    }
}

fn tail_suffix(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!(": {tail}")
    }
}

/// Runs `argv` in `dir` with stdin empty until it exits or `limit` passes, through the
/// launcher that is this program (`taskbench __launch`).
pub fn run(argv: &[String], dir: &Path, limit: Duration) -> Result<Finished, CommandError> {
    if argv.is_empty() {
        return Err(CommandError::Empty);
    }
    let launcher = std::env::current_exe().map_err(|e| CommandError::CannotStart {
        reason: format!(
            "cannot find the taskbench binary to launch `{}`: {e}",
            argv[0]
        ),
        harness: true,
    })?;
    let job = Job {
        argv: argv.to_vec(),
        cwd: dir.to_path_buf(),
        timeout: limit,
        // One sample at the start is all the sampler takes: no figure is wanted.
        sample_every: limit,
        memory_limit: None,
        cpus: None,
        env: Vec::new(),
        keep: KEEP,
        open_files: None,
    };
    let measured = measure::execute(&launcher, &job).map_err(|e| match e {
        ExecError::Program(reason) => CommandError::CannotStart {
            reason,
            harness: false,
        },
        ExecError::Harness(reason) => CommandError::CannotStart {
            reason,
            harness: true,
        },
    })?;
    let finished = Finished {
        status: ExitStatus::from_raw(match measured.exit {
            Exit::Code(code) => code << 8,
            Exit::Signal(signal) => signal,
            Exit::TimedOut | Exit::OverMemory => libc::SIGKILL,
        }),
        stdout: measured.stdout,
        stderr: measured.stderr_tail,
    };
    if measured.exit == Exit::TimedOut {
        return Err(CommandError::TimedOut {
            command: argv.join(" "),
            limit,
            tail: finished.last_lines(3),
        });
    }
    Ok(finished)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Instant;

    fn sh(script: &str, limit: Duration) -> Result<Finished, CommandError> {
        let argv = ["sh", "-c", script].map(String::from);
        run(&argv, Path::new("/"), limit)
    }

    #[test]
    fn output_and_status_are_kept() {
        let done = sh("echo out; echo err >&2; exit 3", Duration::from_secs(30)).unwrap();
        assert_eq!(done.status.code(), Some(3));
        assert_eq!(
            (done.stdout.as_str(), done.stderr.as_str()),
            ("out\n", "err")
        );
        assert_eq!(done.last_lines(3), "err | out");
        assert!(sh("true", Duration::from_secs(30)).unwrap().success());
    }

    #[test]
    fn a_flood_on_both_streams_neither_blocks_nor_is_kept_whole() {
        // Far more than a pipe holds, on both streams at once.
        let script = "head -c 2000000 /dev/zero | tr '\\0' 'e' >&2; \
                      head -c 2000000 /dev/zero | tr '\\0' 'o'; echo; echo last";
        let done = sh(script, Duration::from_secs(60)).unwrap();
        assert!(done.success());
        assert!(done.stdout.len() <= TAIL && done.stderr.len() <= TAIL);
        assert!(done.stdout.ends_with("last\n"), "{:?}", &done.stdout[..20]);
    }

    #[test]
    fn a_hung_command_is_killed_with_its_group_at_the_deadline() {
        let start = Instant::now();
        // The background sleep holds the pipes open: only the group kill ends it.
        let err = sh(
            "echo started; sleep 60 & sleep 60",
            Duration::from_millis(300),
        )
        .unwrap_err();
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        let text = err.to_string();
        assert!(
            text.contains("did not finish in 300ms") && text.contains("started"),
            "{text}"
        );
    }

    #[test]
    fn what_the_leader_leaves_running_is_killed() {
        let dir = tempfile::tempdir().unwrap();
        let pidfile = dir.path().join("pid");
        let script = format!("sleep 60 >/dev/null 2>&1 & echo $! > {}", pidfile.display());
        assert!(sh(&script, Duration::from_secs(30)).unwrap().success());
        let pid: libc::pid_t = std::fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(10);
        // SAFETY: signal 0 only checks that the process exists.
        while unsafe { libc::kill(pid, 0) } == 0 {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).unwrap_or_default();
            if stat
                .rsplit(')')
                .next()
                .is_some_and(|s| s.trim_start().starts_with('Z'))
            {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "the background sleep outlived it"
            );
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    #[test]
    fn a_missing_program_is_not_a_harness_fault() {
        let err = run(
            &["/nonexistent/program".to_string()],
            Path::new("/"),
            Duration::from_secs(5),
        )
        .unwrap_err();
        assert!(!err.is_harness_fault());
        assert!(err.to_string().contains("/nonexistent/program"), "{err}");
        assert!(matches!(
            run(&[], Path::new("/"), Duration::from_secs(1)),
            Err(CommandError::Empty)
        ));
    }
}
