//! Runs one command as a fresh process through the launcher (see `launcher`), in its own
//! process group, and collects its `wait4` rusage, its output and its RSS timeline; a
//! timeout kills the whole group.

use super::capture::{Drain, Keep, STDOUT_CAP};
use super::launcher::{LAUNCH_ARG, REPORT_FD, Report};
use super::sampler::Sampler;
use super::{Exit, Measurement, Usage};
use std::io::{BufRead, BufReader};
use std::os::fd::{FromRawFd, OwnedFd};
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver};
use std::time::{Duration, Instant};

/// How long the launcher may take to report that it started the program, or to report
/// after its program was killed.
const LAUNCHER_GRACE: Duration = Duration::from_secs(10);
/// How long stdout and stderr may stay open once the launcher is gone: only a process that
/// escaped both its group and the launcher could hold them; what was read by then is kept.
const DRAIN_GRACE: Duration = Duration::from_secs(2);
/// Bytes of stderr kept for a failed run's status.
const STDERR_TAIL: usize = 2048;

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
    /// The process group is killed when its leader's RSS passes this many bytes.
    pub memory_limit: Option<u64>,
    /// Pinned to this many cores (the first of those the harness may use).
    pub cpus: Option<u32>,
    /// Set in its environment.
    pub env: Vec<(String, String)>,
    /// Its soft open-file limit is raised to this many where it is lower (a socket
    /// scenario's both ends of every connection: `Scenario::open_files`).
    pub open_files: Option<u64>,
    /// How much of its stdout and stderr is kept.
    pub keep: Kept,
}

/// How much of each stream a job keeps.
#[derive(Debug, Clone, Copy)]
pub struct Kept {
    pub stdout: Keep,
    pub stderr: Keep,
}

impl Kept {
    /// A measured process: its result lines from the start, up to the cap, and the end of
    /// its stderr for a failed run's status.
    pub const MEASURED: Kept = Kept {
        stdout: Keep::Head(STDOUT_CAP),
        stderr: Keep::Tail(STDERR_TAIL),
    };
}

/// Why a run was not made, and whose fault that is.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ExecError {
    /// The program could not be started (missing, not executable): its case is not
    /// started, the other cases run.
    #[error("{0}")]
    Program(String),
    /// The harness could not run anything (out of descriptors or processes, the launcher
    /// missing or broken): every further run would fail the same way, so the run stops.
    #[error("the run stops: {0}")]
    Harness(String),
}

/// Out of descriptors, processes or memory: the machine's fault, not the program's.
fn exhausted(errno: i32) -> bool {
    matches!(
        errno,
        libc::EMFILE | libc::ENFILE | libc::ENOMEM | libc::EAGAIN
    )
}

/// Runs `job` to its end through `launcher` (the `taskbench` binary). `Err` only when the
/// program could not be started at all; [`ExecError`] says whose fault that was.
pub fn execute(launcher: &Path, job: &Job) -> Result<Measurement, ExecError> {
    let program = job
        .argv
        .first()
        .ok_or_else(|| ExecError::Program("empty command".into()))?;
    let (report_read, report_write) = pipe().map_err(ExecError::Harness)?;
    let mut child = spawn_launcher(launcher, job, &report_write)?;
    drop(report_write);
    let keep = job.keep;
    let stdout = Drain::start(child.stdout.take().expect("piped"), keep.stdout);
    let stderr = Drain::start(child.stderr.take().expect("piped"), keep.stderr);
    let reports = read_reports(report_read);
    let start = Instant::now();
    let (pid, stderr) = wait_started(&reports, &mut child, program, (stderr, keep.stderr))?;
    let sampler = Sampler::start(pid, start, job.sample_every, job.memory_limit);
    let (done, timed_out) = match reports.recv_timeout(job.timeout) {
        Ok(done) => (Some(done), false),
        Err(_) => {
            kill_group(pid);
            (reports.recv_timeout(LAUNCHER_GRACE).ok(), true)
        }
    };
    // What is left of the group goes at once; the launcher then kills and reaps whatever
    // else the program left running (a daemon that left the group) and exits.
    kill_group(pid);
    if !exits_within(&mut child, LAUNCHER_GRACE) {
        let _ = child.kill();
        let _ = child.wait();
    }
    let stdout = stdout.finish(keep.stdout, DRAIN_GRACE);
    let stderr = stderr.finish(keep.stderr, DRAIN_GRACE);
    let (timeline, sampler_cpu_ns, over_memory) = sampler.finish();
    let Some(Report::Done {
        status,
        wall_ns,
        user_ns,
        sys_ns,
        maxrss_kib,
        nvcsw,
        nivcsw,
    }) = done
    else {
        // After the program started: it may have killed its launcher itself.
        return Err(ExecError::Program(format!("the launcher lost `{program}`")));
    };
    Ok(Measurement {
        exit: exit_of(status, over_memory, timed_out),
        wall: Duration::from_nanos(wall_ns),
        usage: Usage {
            user_ns,
            sys_ns,
            // Linux reports ru_maxrss in KiB.
            peak_rss_bytes: maxrss_kib * 1024,
            voluntary_switches: nvcsw,
            involuntary_switches: nivcsw,
        },
        stdout: stdout.text,
        stdout_bytes: stdout.total_bytes,
        stderr_tail: stderr.text.trim_end().to_string(),
        timeline,
        sampler_cpu_ns,
    })
}

/// Starts the launcher for `job` in a process group of its own, with `report` as its
/// report descriptor, its death tied to the harness's and its cores to `job.cpus`.
fn spawn_launcher(
    launcher: &Path,
    job: &Job,
    report: &OwnedFd,
) -> Result<std::process::Child, ExecError> {
    let write_fd = std::os::fd::AsRawFd::as_raw_fd(report);
    let mut command = Command::new(launcher);
    command
        .arg(LAUNCH_ARG)
        .args(&job.argv)
        .current_dir(&job.cwd)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .envs(job.env.iter().map(|(k, v)| (k, v)))
        .process_group(0);
    let cores =
        (job.cpus.map(super::affinity::first_cores).transpose()).map_err(ExecError::Program)?;
    // SAFETY: getpid has no preconditions.
    let harness = unsafe { libc::getpid() };
    let open_files = job.open_files;
    // SAFETY: the closure runs between fork and exec and makes only async-signal-safe
    // syscalls (dup2, fcntl, prctl, getppid, getrlimit, setrlimit) on plain integers.
    unsafe {
        command.pre_exec(move || {
            let moved = if write_fd == REPORT_FD {
                // dup2 onto itself would keep the close-on-exec flag.
                libc::fcntl(REPORT_FD, libc::F_SETFD, 0)
            } else {
                libc::dup2(write_fd, REPORT_FD)
            };
            // However the harness dies (SIGKILL, the OOM killer), the launcher gets SIGTERM
            // and takes the contestant and all it started down. The signal comes when the
            // thread that spawned the launcher exits, and `execute` runs on the harness's
            // main thread. Checked after, in case the harness died before the call.
            if moved == -1 || libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGTERM) == -1 {
                return Err(std::io::Error::last_os_error());
            }
            if libc::getppid() != harness {
                return Err(std::io::Error::other("the harness is gone"));
            }
            // The launcher, and so the contestant it forks, runs on these cores only.
            if let Some(cores) = &cores
                && libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), cores) != 0
            {
                return Err(std::io::Error::last_os_error());
            }
            // Inherited by the contestant the launcher forks.
            if let Some(needed) = open_files {
                super::limits::raise_open_files(needed)?;
            }
            Ok(())
        });
    }
    command.spawn().map_err(|e| {
        ExecError::Harness(format!(
            "cannot start the launcher {}: {e}",
            launcher.display()
        ))
    })
}

/// Waits for the launcher's word that it started `program`: its pid (and `stderr`, still
/// draining), or why it could not start.
fn wait_started(
    reports: &Receiver<Report>,
    launcher: &mut std::process::Child,
    program: &str,
    (stderr, keep): (Drain, Keep),
) -> Result<(u32, Drain), ExecError> {
    match reports.recv_timeout(LAUNCHER_GRACE) {
        Ok(Report::Started { pid }) => Ok((pid, stderr)),
        Ok(Report::ExecFailed { errno }) => {
            let _ = launcher.wait();
            let reason = format!(
                "cannot start `{program}`: {}",
                std::io::Error::from_raw_os_error(errno)
            );
            Err(if exhausted(errno) {
                ExecError::Harness(reason)
            } else {
                ExecError::Program(reason)
            })
        }
        _ => {
            let _ = launcher.kill();
            let _ = launcher.wait();
            Err(ExecError::Harness(format!(
                "the launcher did not start `{program}`: {}",
                stderr.finish(keep, DRAIN_GRACE).text.replace('\n', " | ")
            )))
        }
    }
}

/// How the program ended, from its wait status and what the harness did to it.
fn exit_of(status: i32, over_memory: bool, timed_out: bool) -> Exit {
    if over_memory {
        Exit::OverMemory
    } else if timed_out {
        Exit::TimedOut
    } else if libc::WIFSIGNALED(status) {
        Exit::Signal(libc::WTERMSIG(status))
    } else {
        Exit::Code(libc::WEXITSTATUS(status))
    }
}

/// Waits for `child` to exit and reaps it; false when `limit` passed first.
fn exits_within(child: &mut std::process::Child, limit: Duration) -> bool {
    let deadline = Instant::now() + limit;
    let mut pause = Duration::from_millis(1);
    while Instant::now() < deadline {
        if !matches!(child.try_wait(), Ok(None)) {
            return true;
        }
        std::thread::sleep(pause);
        pause = (pause * 2).min(Duration::from_millis(20));
    }
    false
}

/// A close-on-exec pipe: (read end, write end).
fn pipe() -> Result<(OwnedFd, OwnedFd), String> {
    let mut fds = [0; 2];
    // SAFETY: `fds` is a valid array of two ints.
    if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } != 0 {
        return Err(format!(
            "cannot create a pipe: {}",
            std::io::Error::last_os_error()
        ));
    }
    // SAFETY: pipe2 just returned these two descriptors, owned by nobody else.
    Ok(unsafe { (OwnedFd::from_raw_fd(fds[0]), OwnedFd::from_raw_fd(fds[1])) })
}

/// The launcher's reports, parsed, as they arrive.
fn read_reports(fd: OwnedFd) -> Receiver<Report> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(std::fs::File::from(fd))
            .lines()
            .map_while(Result::ok)
        {
            if let Some(report) = Report::parse(&line)
                && tx.send(report).is_err()
            {
                break;
            }
        }
    });
    rx
}

fn kill_group(pid: u32) {
    // SAFETY: kill has no memory preconditions; a group that is gone gives ESRCH, ignored.
    unsafe { libc::kill(-(pid as libc::pid_t), libc::SIGKILL) };
}
