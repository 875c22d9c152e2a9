//! The launcher: a fresh, tiny process between the harness and each contestant, so that
//! the contestant's peak RSS is its own.
//!
//! Linux counts the memory a process had *before* `exec` in its `ru_maxrss`: a child
//! forked (or vforked) straight from the harness would report the harness's resident
//! pages as its own peak, several MiB that grow as results accumulate. So the harness
//! starts `taskbench __launch PROGRAM ARGS…`, a newly exec'd copy of itself that has
//! touched almost nothing; it forks the contestant (which inherits that tiny footprint),
//! puts it in its own process group, reaps it with `wait4` and reports on fd 3 — exactly
//! what GNU time does.

use std::ffi::{CString, OsString};
use std::os::unix::ffi::OsStrExt;

/// First argument that turns `taskbench` into the launcher.
pub const LAUNCH_ARG: &str = "__launch";
/// File descriptor the launcher reports on.
pub const REPORT_FD: i32 = 3;

/// What the launcher reports, one line each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Report {
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
    pub fn parse(line: &str) -> Option<Report> {
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

/// The launcher process: `args` is PROGRAM ARGS…; never returns.
pub fn main(args: &[OsString]) -> ! {
    // Everything that allocates happens before the fork.
    let argv: Vec<CString> = args
        .iter()
        .map(|a| {
            CString::new(a.as_bytes()).unwrap_or_else(|_| exit_with("argument holds a NUL byte"))
        })
        .collect();
    if argv.is_empty() {
        exit_with("usage: taskbench __launch PROGRAM ARGS…");
    }
    let mut pointers: Vec<*const libc::c_char> = argv.iter().map(|a| a.as_ptr()).collect();
    pointers.push(std::ptr::null());
    // SAFETY: plain syscalls on valid pointers; between fork and exec the child only calls
    // async-signal-safe functions (setpgid, execvp, write, _exit) on memory made before.
    unsafe {
        libc::fcntl(REPORT_FD, libc::F_SETFD, libc::FD_CLOEXEC);
        // A close-on-exec pipe tells the launcher whether exec worked: it reads EOF when it
        // did, the errno when it did not, so "pid" is only reported for a running program.
        let mut exec_pipe = [0; 2];
        if libc::pipe2(exec_pipe.as_mut_ptr(), libc::O_CLOEXEC) != 0 {
            exit_with("cannot create a pipe");
        }
        let start = super::clock_ns(libc::CLOCK_MONOTONIC);
        let pid = libc::fork();
        if pid == 0 {
            libc::setpgid(0, 0);
            libc::execvp(pointers[0], pointers.as_ptr());
            let errno = *libc::__errno_location();
            libc::write(exec_pipe[1], (&errno as *const i32).cast(), 4);
            libc::_exit(127);
        }
        if pid < 0 {
            exit_with("fork failed");
        }
        libc::close(exec_pipe[1]);
        let mut errno = 0i32;
        if libc::read(exec_pipe[0], (&mut errno as *mut i32).cast(), 4) == 4 {
            libc::waitpid(pid, std::ptr::null_mut(), 0);
            report(&format!("exec-failed {errno}\n"));
            std::process::exit(0);
        }
        // The group is set on both sides, so no kill can race the child's own setpgid.
        libc::setpgid(pid, pid);
        report(&format!("pid {pid}\n"));
        let mut status = 0;
        let mut usage: libc::rusage = std::mem::zeroed();
        while libc::wait4(pid, &mut status, 0, &mut usage) < 0 {
            if *libc::__errno_location() != libc::EINTR {
                exit_with("wait4 failed");
            }
        }
        let wall = super::clock_ns(libc::CLOCK_MONOTONIC) - start;
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
    std::process::exit(0);
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
