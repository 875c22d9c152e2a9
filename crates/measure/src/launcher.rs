//! The launcher: a fresh, tiny process between the harness and each contestant, so that
//! the contestant's peak RSS is its own.
//!
//! Linux counts the memory a process had *before* `exec` in its `ru_maxrss`: a child
//! forked (or vforked) straight from the harness would report the harness's resident
//! pages as its own peak, several MiB that grow as results accumulate. So the harness
//! starts `taskbench __launch PROGRAM ARGS…`, a newly exec'd copy of itself that has
//! touched almost nothing; it forks the contestant (which inherits that tiny footprint),
//! puts it in its own process group, reaps it with `wait4` and reports on fd 3 — exactly
//! what GNU time does. It also gives the contestant a clean start (default SIGPIPE, no
//! blocked signal, no inherited descriptor, death with the launcher) and, once it has
//! exited, kills whatever it left behind.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;
use std::sync::atomic::{AtomicBool, AtomicI32, Ordering};

/// First argument that turns `taskbench` into the launcher.
pub(crate) const LAUNCH_ARG: &str = "__launch";
/// File descriptor the launcher reports on.
pub(crate) const REPORT_FD: i32 = 3;

/// What the launcher reports, one line each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Report {
    /// `pid N`: the contestant runs; N is also its process group.
    Started { pid: u32 },
    /// `exec-failed ERRNO`: the program could not be executed.
    ExecFailed { errno: i32 },
    /// `done STATUS WALL_NS USER_NS SYS_NS MAXRSS_KIB NVCSW NIVCSW`
    Done {
        status: i32,
        wall_ns: u64,
        user_ns: u64,
        sys_ns: u64,
        maxrss_kib: u64,
        nvcsw: u64,
        nivcsw: u64,
    },
}

impl Report {
    pub(crate) fn parse(line: &str) -> Option<Report> {
        let mut words = line.split_whitespace();
        let kind = words.next()?;
        let mut num = || words.next()?.parse::<i64>().ok();
        match kind {
            "pid" => Some(Report::Started {
                pid: u32::try_from(num()?).ok()?,
            }),
            "exec-failed" => Some(Report::ExecFailed {
                errno: i32::try_from(num()?).ok()?,
            }),
            "done" => {
                let status = i32::try_from(num()?).ok()?;
                let mut rest = [0u64; 6];
                for slot in &mut rest {
                    *slot = u64::try_from(num()?).ok()?;
                }
                let [wall_ns, user_ns, sys_ns, maxrss_kib, nvcsw, nivcsw] = rest;
                Some(Report::Done {
                    status,
                    wall_ns,
                    user_ns,
                    sys_ns,
                    maxrss_kib,
                    nvcsw,
                    nivcsw,
                })
            }
            _ => None,
        }
    }
}

/// Becomes the launcher when this process was started as `… __launch PROGRAM ARGS…`, else
/// returns. The contestant crate's command.rs starts every command as `current_exe()
/// __launch …`, so every binary that drives the library is its own launcher: `taskbench`
/// calls this first thing, and a test binary (whose `main` is the test runner's) registers
/// it to run before `main` with [`launch_before_main!`](crate::launch_before_main). This
/// crate's own tests start no process through it.
pub extern "C" fn launch_if_asked() {
    // /proc, not std::env::args: before `main` the standard library may not have read them.
    let Ok(cmdline) = std::fs::read("/proc/self/cmdline") else {
        return;
    };
    let mut args: Vec<OsString> = cmdline
        .split(|&b| b == 0)
        .map(|a| std::ffi::OsStr::from_bytes(a).to_os_string())
        .collect();
    // Each argument ends in a NUL, which leaves one empty piece after the last.
    if args.last().is_some_and(|a| a.is_empty()) {
        args.pop();
    }
    if args.get(1).is_some_and(|a| a == LAUNCH_ARG) {
        main(&args[2..]);
    }
}

/// The launcher process: `args` is PROGRAM ARGS…; never returns.
fn main(args: &[OsString]) -> ! {
    // Everything that allocates happens before the fork.
    let argv: Vec<CString> = args
        .iter()
        .map(|a| {
            CString::new(a.as_bytes()).unwrap_or_else(|_| exit_with("argument holds a NUL byte"))
        })
        .collect();
    let Some(program) = argv.first() else {
        exit_with("usage: taskbench __launch PROGRAM ARGS…");
    };
    let mut pointers: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    pointers.push(std::ptr::null());
    // SAFETY: plain syscalls on valid descriptors and pointers made above.
    unsafe { libc::fcntl(REPORT_FD, libc::F_SETFD, libc::FD_CLOEXEC) };
    let path = match resolve(program) {
        Ok(path) => path,
        Err(errno) => {
            report(&format!("exec-failed {errno}\n"));
            std::process::exit(0);
        }
    };
    adopt_orphans_and_heed_abandonment();
    // SAFETY: plain syscalls on valid pointers; the child runs `child`, see there.
    unsafe {
        let launcher = libc::getpid();
        // A close-on-exec pipe tells the launcher whether exec worked: it reads EOF when it
        // did, the errno when it did not, so "pid" is only reported for a running program.
        let mut exec_pipe = [0; 2];
        if libc::pipe2(exec_pipe.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            exit_with("cannot create a pipe");
        }
        let start = super::clock_ns(libc::CLOCK_MONOTONIC);
        let pid = libc::fork();
        if pid == 0 {
            child(&path, &pointers, launcher, exec_pipe[1]);
        }
        if pid < 0 {
            exit_with("fork failed");
        }
        // The group is also set from this side, before anything is reported, so that it
        // exists whichever process runs first (after the child's exec this fails harmlessly).
        libc::setpgid(pid, pid);
        CONTESTANT.store(pid, Ordering::SeqCst);
        if ABANDONED.load(Ordering::SeqCst) {
            libc::kill(-pid, libc::SIGKILL);
        }
        libc::close(exec_pipe[1]);
        let mut errno = 0i32;
        if libc::read(exec_pipe[0], (&mut errno as *mut i32).cast(), 4) == 4 {
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            report(&format!("exec-failed {errno}\n"));
            std::process::exit(0);
        }
        report(&format!("pid {pid}\n"));
        let mut status = 0;
        let mut usage: libc::rusage = std::mem::zeroed();
        while libc::wait4(pid, &mut status, 0, &mut usage) < 0 {
            if *libc::__errno_location() != libc::EINTR {
                exit_with("wait4 failed");
            }
        }
        let wall = super::clock_ns(libc::CLOCK_MONOTONIC) - start;
        report_done(status, wall, &usage);
    }
    reap_descendants();
    std::process::exit(0);
}

/// The contestant's orphans (a daemon that left its group, say) become the launcher's
/// children rather than init's, so they can be found and killed at the end. The harness's
/// death (or a kill, or an interrupt) arrives as SIGTERM, SIGHUP or SIGINT: the launcher
/// then kills the contestant's group and, at the end, reaps it and kills and reaps
/// everything else the contestant started — it never leaves a zombie for init.
fn adopt_orphans_and_heed_abandonment() {
    // SAFETY: prctl and sigaction with a zeroed sigaction, a valid handler and an empty mask.
    unsafe {
        libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1);
        for signal in [libc::SIGTERM, libc::SIGHUP, libc::SIGINT] {
            let mut action: libc::sigaction = std::mem::zeroed();
            action.sa_sigaction = on_abandoned as extern "C" fn(libc::c_int) as usize;
            libc::sigemptyset(&mut action.sa_mask);
            libc::sigaction(signal, &action, std::ptr::null_mut());
        }
    }
}

/// `done STATUS WALL USER SYS MAXRSS NVCSW NIVCSW`: how the contestant ended, to the harness.
fn report_done(status: i32, wall: u64, usage: &libc::rusage) {
    let tv = |t: libc::timeval| t.tv_sec as u64 * 1_000_000_000 + t.tv_usec as u64 * 1_000;
    report(&format!(
        "done {status} {wall} {} {} {} {} {}\n",
        tv(usage.ru_utime),
        tv(usage.ru_stime),
        usage.ru_maxrss,
        usage.ru_nvcsw,
        usage.ru_nivcsw
    ));
}

/// The contestant's pid (its group), once forked; 0 before.
static CONTESTANT: AtomicI32 = AtomicI32::new(0);
/// Whether SIGTERM or SIGHUP came: the harness is gone, or someone wants the run over.
static ABANDONED: AtomicBool = AtomicBool::new(false);

/// SIGTERM, SIGHUP, SIGINT: kill the contestant's group; `wait4` then returns and the rest of what
/// it started is killed as after any exit.
extern "C" fn on_abandoned(_: libc::c_int) {
    ABANDONED.store(true, Ordering::SeqCst);
    let pid = CONTESTANT.load(Ordering::SeqCst);
    if pid > 0 {
        // SAFETY: kill is async-signal-safe.
        unsafe { libc::kill(-pid, libc::SIGKILL) };
    }
}

/// The forked child, up to its `exec`. The launcher has a single thread, so the child
/// could call anything; it keeps to async-signal-safe calls anyway (signal-safety(7)):
/// `execv` on a path resolved before the fork, not `execvp`, which may allocate.
///
/// # Safety
/// `path` and `argv` (NULL-terminated) point to memory made before the fork.
unsafe fn child(
    path: &CString,
    argv: &[*const libc::c_char],
    launcher: libc::pid_t,
    exec_errors: libc::c_int,
) -> ! {
    // SAFETY: async-signal-safe syscalls on valid pointers; the caller's contract.
    unsafe {
        libc::setpgid(0, 0);
        // The contestant dies with its launcher (should the launcher itself be SIGKILLed;
        // the harness's death reaches the launcher as SIGTERM, which it handles). Checked
        // after, in case the launcher died before the call.
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() != launcher {
            libc::_exit(127);
        }
        // The launcher is a Rust program, which ignores SIGPIPE, and an ignored signal stays
        // ignored across exec: the contestant gets the default back, and no blocked signal.
        let mut default: libc::sigaction = std::mem::zeroed();
        default.sa_sigaction = libc::SIG_DFL;
        libc::sigaction(libc::SIGPIPE, &default, std::ptr::null_mut());
        let mut none: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut none);
        libc::sigprocmask(libc::SIG_SETMASK, &none, std::ptr::null_mut());
        // Only stdin, stdout and stderr are inherited (and the exec pipe, until exec).
        close_from(3, exec_errors);
        libc::execv(path.as_ptr(), argv.as_ptr());
        let errno = *libc::__errno_location();
        libc::write(exec_errors, (&errno as *const i32).cast(), 4);
        libc::_exit(127);
    }
}

/// Closes every descriptor from `first` up except `keep`: `close_range(2)`, or one by one
/// up to the descriptor limit where the kernel has no close_range (before 5.9).
///
/// # Safety
/// Closes descriptors other code may hold: only for a child about to exec.
unsafe fn close_from(first: libc::c_int, keep: libc::c_int) {
    let range = |low: libc::c_int, high: libc::c_int| -> bool {
        // SAFETY: close_range has no memory preconditions.
        low > high
            || unsafe { libc::syscall(libc::SYS_close_range, low as u32, high as u32, 0) } == 0
    };
    if range(first, keep - 1) && range(keep + 1, libc::c_int::MAX) {
        return;
    }
    // SAFETY: sysconf and close have no memory preconditions.
    let limit = unsafe { libc::sysconf(libc::_SC_OPEN_MAX) }.clamp(256, 1 << 16) as libc::c_int;
    for fd in (first..limit).filter(|&fd| fd != keep) {
        // SAFETY: see above.
        unsafe { libc::close(fd) };
    }
}

/// The file `execvp` would run for `program`: itself when it holds a `/`, else the first
/// executable `PATH` entry (`/usr/bin:/bin` when PATH is unset). The errno of a failed
/// search: ENOENT, or EACCES when a match was not executable.
fn resolve(program: &CString) -> Result<CString, i32> {
    let name = program.as_bytes();
    if name.is_empty() {
        return Err(libc::ENOENT);
    }
    if name.contains(&b'/') {
        return Ok(program.clone());
    }
    let path = std::env::var_os("PATH").unwrap_or_else(|| "/usr/bin:/bin".into());
    let mut errno = libc::ENOENT;
    for dir in path.as_bytes().split(|&b| b == b':') {
        let dir = if dir.is_empty() { &b"."[..] } else { dir };
        let candidate = [dir, b"/", name].concat();
        let Ok(candidate) = CString::new(candidate) else {
            continue;
        };
        let file = std::path::Path::new(std::ffi::OsStr::from_bytes(candidate.as_bytes()));
        if !file.is_file() {
            continue;
        }
        // SAFETY: a valid NUL-terminated path.
        if unsafe { libc::access(candidate.as_ptr(), libc::X_OK) } == 0 {
            return Ok(candidate);
        }
        errno = libc::EACCES;
    }
    Err(errno)
}

/// Once the contestant has exited: kills whatever it left running — in its group or not,
/// orphaned (and so, the launcher being a subreaper, the launcher's child) or not — and
/// reaps it, so the harness's pipes close and nothing outlives the run. Gives up after a
/// few seconds (a process stuck in the kernel cannot be reaped).
fn reap_descendants() {
    // SAFETY: getpid has no preconditions.
    let launcher = unsafe { libc::getpid() };
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    loop {
        let alive = super::reap::kill_descendants_of(launcher);
        let mut left;
        loop {
            // SAFETY: reaping any child, its status discarded.
            left = unsafe { libc::waitpid(-1, std::ptr::null_mut(), libc::WNOHANG) };
            if left <= 0 {
                break;
            }
        }
        // -1 (ECHILD): no child left at all.
        if (alive == 0 && left < 0) || std::time::Instant::now() > deadline {
            return;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
}

fn report(line: &str) {
    // SAFETY: writing a valid buffer to a descriptor; errors leave the harness without a
    // report, which it treats as a failed start.
    unsafe { libc::write(REPORT_FD, line.as_ptr().cast(), line.len()) };
}

fn exit_with(message: &str) -> ! {
    eprintln!("taskbench launcher: {message}");
    std::process::exit(126);
}

/// Makes the binary it is written in a launcher before its `main` runs: registers
/// [`launch_if_asked`] in `.init_array`. For test binaries, whose `main` is the test
/// runner's — the unit tests of every crate that starts commands, and the integration tests.
#[macro_export]
macro_rules! launch_before_main {
    () => {
        #[used]
        #[unsafe(link_section = ".init_array")]
        static LAUNCH_IF_ASKED: extern "C" fn() = $crate::launcher::launch_if_asked;
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reports_parse() {
        assert_eq!(Report::parse("pid 42"), Some(Report::Started { pid: 42 }));
        assert_eq!(
            Report::parse("exec-failed 002"),
            Some(Report::ExecFailed { errno: 2 })
        );
        assert_eq!(
            Report::parse("done 256 10 20 30 40 50 60"),
            Some(Report::Done {
                status: 256,
                wall_ns: 10,
                user_ns: 20,
                sys_ns: 30,
                maxrss_kib: 40,
                nvcsw: 50,
                nivcsw: 60
            })
        );
        assert_eq!(Report::parse("done 1 2"), None);
        assert_eq!(Report::parse("nonsense"), None);
    }
}
