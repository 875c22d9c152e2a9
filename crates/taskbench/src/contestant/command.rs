//! The one way a contestant's own commands run (`detect`, `build`, `version` and the idle
//! probe): in a process group of their own, stdout and stderr drained on two threads so a
//! chatty command never blocks on a full pipe, only the last bytes of each kept, and a
//! deadline after which the whole group is killed. What is left of the group when its
//! leader exits is killed too: nothing a contestant's command starts outlives it.

use crate::measure::capture::{Drain, Keep};
use std::os::unix::process::{CommandExt, ExitStatusExt};
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

/// Bytes kept of each stream: the end, from a line start.
const TAIL: usize = 16 * 1024;
const KEEP: Keep = Keep::Tail(TAIL);
/// How long the readers may take to see the end of the pipes once the group is gone (a
/// daemon that left the group may hold them open; what was read by then is kept).
const DRAIN_GRACE: Duration = Duration::from_secs(2);

/// A command that ran to its end (whatever its status).
#[derive(Debug, Clone)]
pub struct Finished {
    pub status: ExitStatus,
    /// The end of its stdout.
    pub stdout: String,
    /// The end of its stderr.
    pub stderr: String,
}

impl Finished {
    pub fn success(&self) -> bool {
        self.status.success()
    }

    /// What it printed: stdout, or stderr when stdout is blank (`ghc --version` style).
    pub fn text(&self) -> &str {
        if self.stdout.trim().is_empty() {
            &self.stderr
        } else {
            &self.stdout
        }
    }

    /// The last `n` non-blank lines of stderr, then stdout, joined by ` | `.
    pub fn last_lines(&self, n: usize) -> String {
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
    // The reason is in the message, not a `source`: `{:#}` would print it twice.
    #[error("`{program}` could not be started ({error})")]
    CannotStart {
        program: String,
        error: std::io::Error,
    },
    /// The deadline passed; the group was killed.
    #[error("`{command}` did not finish in {}{}", humantime::format_duration(*.limit), tail_suffix(.tail))]
    TimedOut {
        command: String,
        limit: Duration,
        /// Its last lines before it was killed.
        tail: String,
    },
}

impl CommandError {
    /// Whether the fault is the harness's (no processes, descriptors or memory left)
    /// rather than the command's: every further command would fail the same way.
    pub fn is_harness_fault(&self) -> bool {
        match self {
            CommandError::CannotStart { error, .. } => exhausted(error),
            _ => false,
        }
    }
}

/// Out of descriptors, processes or memory.
fn exhausted(error: &std::io::Error) -> bool {
    matches!(
        error.raw_os_error(),
        Some(libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EAGAIN)
    )
}

fn tail_suffix(tail: &str) -> String {
    if tail.is_empty() {
        String::new()
    } else {
        format!(": {tail}")
    }
}

/// Runs `argv` in `dir` with stdin empty until it exits or `limit` passes.
pub fn run(argv: &[String], dir: &Path, limit: Duration) -> Result<Finished, CommandError> {
    let (program, args) = argv.split_first().ok_or(CommandError::Empty)?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|error| CommandError::CannotStart {
            program: program.clone(),
            error,
        })?;
    let pid = child.id() as libc::pid_t;
    let stdout = Drain::start(child.stdout.take().expect("piped"), KEEP);
    let stderr = Drain::start(child.stderr.take().expect("piped"), KEEP);
    let deadline = Instant::now() + limit;
    let exited = wait_exited(pid, deadline);
    // The leader is a zombie until reaped, so its group id cannot have been reused yet:
    // killing the group reaches only what the command left running (or all of it).
    kill_group(pid);
    let status = child.wait().unwrap_or_else(|_| ExitStatus::from_raw(-1));
    let stdout = stdout.finish(KEEP, DRAIN_GRACE).text;
    let stderr = stderr.finish(KEEP, DRAIN_GRACE).text;
    if !exited {
        let finished = Finished {
            status,
            stdout,
            stderr,
        };
        return Err(CommandError::TimedOut {
            command: argv.join(" "),
            limit,
            tail: finished.last_lines(3),
        });
    }
    Ok(Finished {
        status,
        stdout,
        stderr,
    })
}

/// Waits until `pid` has exited (left unreaped) or `deadline` passes; whether it exited.
fn wait_exited(pid: libc::pid_t, deadline: Instant) -> bool {
    let mut pause = Duration::from_millis(1);
    loop {
        // SAFETY: `info` is a valid, writable siginfo_t; WNOWAIT leaves the child unreaped.
        let ready = unsafe {
            let mut info: libc::siginfo_t = std::mem::zeroed();
            let r = libc::waitid(
                libc::P_PID,
                pid as libc::id_t,
                &mut info,
                libc::WEXITED | libc::WNOWAIT | libc::WNOHANG,
            );
            // With WNOHANG, si_pid stays 0 while the child runs; an error (ECHILD: reaped
            // elsewhere) means there is nothing left to wait for.
            r != 0 || info.si_pid() != 0
        };
        if ready {
            return true;
        }
        let now = Instant::now();
        if now >= deadline {
            return false;
        }
        std::thread::sleep(pause.min(deadline - now));
        pause = (pause * 2).min(Duration::from_millis(20));
    }
}

fn kill_group(pid: libc::pid_t) {
    // SAFETY: kill has no memory preconditions; an empty group gives ESRCH, ignored.
    unsafe { libc::kill(-pid, libc::SIGKILL) };
}

#[cfg(test)]
mod tests {
    use super::*;

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
            ("out\n", "err\n")
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
