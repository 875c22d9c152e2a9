//! Runs one command as a fresh process in its own process group and reaps it with
//! `wait4`, so that the rusage is this child's alone; a timeout kills the whole group.

use super::capture;
use super::sampler::Sampler;
use super::{Exit, Measurement, Usage};
use std::os::unix::process::CommandExt;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// What to run and how to watch it.
#[derive(Debug, Clone)]
pub struct Job {
    /// Program and arguments.
    pub argv: Vec<String>,
    /// Working directory.
    pub cwd: PathBuf,
    /// The process group is killed after this long.
    pub timeout: Duration,
    /// Interval of the RSS/thread sampler.
    pub sample_every: Duration,
}

/// Runs `job` to its end. `Err` only when the process could not be started at all.
pub fn execute(job: &Job) -> Result<Measurement, String> {
    let (program, args) = job.argv.split_first().ok_or("empty command")?;
    let start = Instant::now();
    let mut child = Command::new(program)
        .args(args)
        .current_dir(&job.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(|e| format!("cannot start `{program}`: {e}"))?;
    let pid = child.id();
    let sampler = Sampler::start(pid, start, job.sample_every);
    let stdout = capture::head(child.stdout.take().expect("piped"));
    let stderr = capture::tail(child.stderr.take().expect("piped"));

    let (reaped_tx, reaped) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = reaped_tx.send(wait4(pid));
    });
    let (status, rusage, timed_out) = match reaped.recv_timeout(job.timeout) {
        Ok(done) => (done.0, done.1, false),
        Err(_) => {
            kill_group(pid);
            let done = reaped.recv().map_err(|_| "lost the child's exit status")?;
            (done.0, done.1, true)
        }
    };
    let wall = start.elapsed();
    // Descendants that outlived the leader would keep the pipes open; the group goes too.
    kill_group(pid);
    let (timeline, sampler_cpu_ns) = sampler.finish();
    let exit = if timed_out {
        Exit::TimedOut
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    };
    Ok(Measurement {
        exit,
        wall,
        usage: usage(&rusage),
        stdout: stdout.join().unwrap_or_default(),
        stderr_tail: stderr.join().unwrap_or_default(),
        timeline,
        sampler_cpu_ns,
    })
}

/// Blocks until `pid` ends; its wait status and rusage.
fn wait4(pid: u32) -> (i32, libc::rusage) {
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value of this plain C struct.
    let mut rusage: libc::rusage = unsafe { std::mem::zeroed() };
    loop {
        // SAFETY: `status` and `rusage` are valid for writes; `pid` is our unreaped child.
        let r = unsafe { libc::wait4(pid as libc::pid_t, &mut status, 0, &mut rusage) };
        if r == pid as libc::pid_t {
            return (status, rusage);
        }
        if std::io::Error::last_os_error().raw_os_error() != Some(libc::EINTR) {
            // Not ours to reap (should not happen): report as killed, with no usage.
            return (libc::SIGKILL, rusage);
        }
    }
}

fn kill_group(pid: u32) {
    // SAFETY: kill has no memory preconditions; a group that is gone gives ESRCH, ignored.
    unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
}

fn usage(r: &libc::rusage) -> Usage {
    let ns = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    Usage {
        user_ns: ns(r.ru_utime),
        sys_ns: ns(r.ru_stime),
        // Linux reports ru_maxrss in KiB.
        peak_rss_bytes: r.ru_maxrss as u64 * 1024,
        voluntary_switches: r.ru_nvcsw as u64,
        involuntary_switches: r.ru_nivcsw as u64,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str, timeout_ms: u64) -> Measurement {
        execute(&Job {
            argv: vec!["sh".into(), "-c".into(), script.into()],
            cwd: std::env::temp_dir(),
            timeout: Duration::from_millis(timeout_ms),
            sample_every: Duration::from_millis(5),
        })
        .unwrap()
    }

    #[test]
    fn captures_exit_code_and_output() {
        let m = sh("echo out; echo err >&2; exit 3", 10_000);
        assert_eq!(m.exit, Exit::Code(3));
        assert_eq!(m.stdout, "out\n");
        assert_eq!(m.stderr_tail, "err");
        assert!(m.usage.peak_rss_bytes > 0);
    }

    #[test]
    fn a_signal_is_not_an_exit_code() {
        assert_eq!(sh("kill -SEGV $$", 10_000).exit, Exit::Signal(libc::SIGSEGV));
    }

    #[test]
    fn timeout_kills_the_whole_group() {
        // The grandchild holds stdout open; without the group kill this would hang.
        let m = sh("sleep 30 & sleep 30", 300);
        assert_eq!(m.exit, Exit::TimedOut);
        assert!(m.wall >= Duration::from_millis(300) && m.wall < Duration::from_secs(20));
    }

    #[test]
    fn wall_covers_the_sleep() {
        let m = sh("sleep 0.2", 10_000);
        assert_eq!(m.exit, Exit::Code(0));
        assert!(m.wall >= Duration::from_millis(200));
    }

    #[test]
    fn a_missing_program_is_an_error() {
        let err = execute(&Job {
            argv: vec!["/nonexistent/program".into()],
            cwd: std::env::temp_dir(),
            timeout: Duration::from_secs(1),
            sample_every: Duration::from_millis(5),
        })
        .unwrap_err();
        assert!(err.contains("/nonexistent/program"), "{err}");
    }
}
