//! Ctrl-C, SIGTERM and SIGHUP (a closed terminal or ssh session) during `taskbench run`:
//! nothing lost, nothing left behind.
//!
//! The handler does only what is async-signal-safe: it records the signal in an atomic and
//! wakes a watcher thread through a pipe. The watcher kills the process group of every
//! process descended from the harness (the launcher and the contestant it forked, which is
//! in a group of its own), so the run in progress ends at once; the runner sees
//! [`requested`] between processes and returns the records it has, and `taskbench run`
//! writes them, marked interrupted, and exits 128 + the signal (130 for INT, 143 for TERM, 129 for HUP).
//! A second signal exits at once.

use crate::measure::reap::kill_descendants_of;
use std::sync::Once;
use std::sync::atomic::{AtomicI32, Ordering};

/// The first signal received, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Write end of the watcher's pipe (-1 until installed).
static WAKE: AtomicI32 = AtomicI32::new(-1);

static INSTALL: Once = Once::new();

/// Installs the SIGINT, SIGTERM and SIGHUP handlers and the watcher thread (once per process).
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
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
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

/// `SIGINT`, `SIGTERM`, `SIGHUP`.
pub fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        other => format!("signal {other}"),
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    // SAFETY: write and _exit are async-signal-safe; nothing here allocates.
    unsafe {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_codes() {
        assert_eq!(signal_name(libc::SIGTERM), "SIGTERM");
        assert_eq!(signal_name(libc::SIGHUP), "SIGHUP");
        assert!(!requested() && exit_code().is_none());
    }
}
