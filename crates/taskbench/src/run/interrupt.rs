//! Ctrl-C and SIGTERM during `taskbench run`: nothing lost, nothing left behind.
//!
//! The handler does only what is async-signal-safe: it records the signal in an atomic,
//! kills the process group in [`RUNNING_GROUP`] (if the measuring code reported one) and
//! wakes a watcher thread through a pipe. The watcher kills the process group of every
//! process descended from the harness (the launcher and the contestant it forked, which is
//! in a group of its own), so the run in progress ends at once; the runner sees
//! [`requested`] between processes and returns the records it has, and `taskbench run`
//! writes them, marked interrupted, and exits 128 + the signal (130 for INT, 143 for TERM).
//! A second signal exits at once.

use std::sync::Once;
use std::sync::atomic::{AtomicI32, Ordering};

/// The first signal received, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// The process group of the run in progress (0: none known), killed by the handler itself.
static RUNNING_GROUP: AtomicI32 = AtomicI32::new(0);
/// Write end of the watcher's pipe (-1 until installed).
static WAKE: AtomicI32 = AtomicI32::new(-1);

static INSTALL: Once = Once::new();

/// Installs the SIGINT and SIGTERM handlers and the watcher thread (once per process).
pub fn install() {
    INSTALL.call_once(|| {
        let mut fds = [0; 2];
        // SAFETY: `fds` is a valid array of two ints.
        if unsafe { libc::pipe2(fds.as_mut_ptr(), libc::O_CLOEXEC) } == 0 {
            WAKE.store(fds[1], Ordering::SeqCst);
            let read = fds[0];
            std::thread::Builder::new()
                .name("interrupt".into())
                .spawn(move || watch(read))
                .ok();
        }
        for signal in [libc::SIGINT, libc::SIGTERM] {
            // SAFETY: a zeroed sigaction with a valid handler and an empty mask.
            unsafe {
                let mut action: libc::sigaction = std::mem::zeroed();
                action.sa_sigaction = on_signal as extern "C" fn(libc::c_int) as usize;
                action.sa_flags = libc::SA_RESTART;
                libc::sigemptyset(&mut action.sa_mask);
                libc::sigaction(signal, &action, std::ptr::null_mut());
            }
        }
    });
}

/// Whether a signal asked the run to stop.
pub fn requested() -> bool {
    SIGNAL.load(Ordering::SeqCst) != 0
}

/// The signal that stopped the run, if one did.
pub fn received() -> Option<i32> {
    Some(SIGNAL.load(Ordering::SeqCst)).filter(|&s| s != 0)
}

/// The exit status of an interrupted harness: 128 + the signal.
pub fn exit_code() -> Option<u8> {
    received().map(|s| (128 + s) as u8)
}

/// `SIGINT`, `SIGTERM`.
pub fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        other => format!("signal {other}"),
    }
}

/// The process group of the run in progress, for the handler to kill (0: none).
pub fn set_running_group(group: u32) {
    RUNNING_GROUP.store(group as i32, Ordering::SeqCst);
}

extern "C" fn on_signal(signal: libc::c_int) {
    let group = RUNNING_GROUP.load(Ordering::SeqCst);
    // SAFETY: kill, write and _exit are async-signal-safe; nothing here allocates.
    unsafe {
        if group > 0 {
            libc::kill(-group, libc::SIGKILL);
        }
        if SIGNAL
            .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
            .is_err()
        {
            // The second one: at once.
            libc::_exit(128 + signal);
        }
        let fd = WAKE.load(Ordering::SeqCst);
        if fd >= 0 {
            let byte = 1u8;
            libc::write(fd, (&byte as *const u8).cast(), 1);
        }
    }
}

/// The watcher: waits for the handler's byte, then kills every descendant's group.
fn watch(read: i32) {
    let mut byte = 0u8;
    // SAFETY: reading one byte into a valid buffer.
    while unsafe { libc::read(read, (&mut byte as *mut u8).cast(), 1) } != 1 {
        if std::io::Error::last_os_error().kind() != std::io::ErrorKind::Interrupted {
            return;
        }
    }
    // A launcher caught between spawn and fork shows its child only on a later scan.
    for _ in 0..40 {
        // SAFETY: getpid has no preconditions.
        if kill_descendants_of(unsafe { libc::getpid() }) == 0 {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(25));
    }
}

/// Kills every process descended from `root` — its whole process group when that is not
/// ours; returns how many it found.
pub fn kill_descendants_of(root: i32) -> usize {
    // SAFETY: getpgrp has no preconditions.
    let own_group = unsafe { libc::getpgrp() };
    let processes = processes();
    let mut descendants = vec![root];
    let mut index = 0;
    while index < descendants.len() {
        let parent = descendants[index];
        descendants.extend(
            processes
                .iter()
                .filter(|p| p.1 == parent)
                .map(|p| p.0)
                .filter(|pid| *pid != root),
        );
        index += 1;
    }
    let found = &descendants[1..];
    for pid in found {
        let group = processes.iter().find(|p| p.0 == *pid).map_or(0, |p| p.2);
        // SAFETY: kill has no memory preconditions; a process gone already gives ESRCH.
        unsafe {
            if group > 0 && group != own_group {
                libc::kill(-group, libc::SIGKILL);
            } else {
                libc::kill(*pid, libc::SIGKILL);
            }
        }
    }
    found.len()
}

/// (pid, parent, process group) of every process in /proc.
fn processes() -> Vec<(i32, i32, i32)> {
    let Ok(entries) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    entries
        .filter_map(Result::ok)
        .filter_map(|e| e.file_name().to_str()?.parse::<i32>().ok())
        .filter_map(|pid| {
            let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
            // The command may hold spaces and parentheses: the fields follow the last ')'.
            let rest = &stat[stat.rfind(')')? + 1..];
            let mut fields = rest.split_whitespace();
            // A zombie is dead already; its parent is about to reap it.
            fields.next().filter(|state| *state != "Z")?;
            let parent = fields.next()?.parse().ok()?;
            let group = fields.next()?.parse().ok()?;
            Some((pid, parent, group))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn descendants_in_their_own_groups_are_killed() {
        use std::os::unix::process::CommandExt;
        let mut child = std::process::Command::new("sh")
            .args(["-c", "sleep 30 & sleep 30 & wait"])
            .process_group(0)
            .spawn()
            .unwrap();
        let pid = child.id() as i32;
        let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
        while processes().iter().filter(|p| p.1 == pid).count() < 2 {
            assert!(
                std::time::Instant::now() < deadline,
                "the sleeps never started"
            );
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        assert_eq!(kill_descendants_of(pid), 2);
        let status = child.wait().unwrap();
        use std::os::unix::process::ExitStatusExt;
        assert_eq!(status.signal(), Some(libc::SIGKILL));
        assert_eq!(signal_name(libc::SIGTERM), "SIGTERM");
        assert!(!requested() && exit_code().is_none());
    }
}
