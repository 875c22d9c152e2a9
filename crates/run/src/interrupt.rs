//! Ctrl-C, SIGTERM and SIGHUP (a closed terminal or ssh session) during `taskbench run`:
//! nothing lost, nothing left behind. A closed stdout (`taskbench run | head`) too: SIGPIPE,
//! which would kill taskbench at its next line before its results were written, is ignored
//! during a run, and a line that meets a closed pipe ([`out!`], [`outln!`], [`errln!`],
//! [`write_stdout`]) stops the run as the signal would, exit 141.
//!
//! The handler does only what is async-signal-safe: it records the signal in an atomic and
//! wakes a watcher thread through a pipe. The watcher kills the process group of every
//! process descended from the harness (the contestant, in a group of its own) and asks each
//! launcher to end (it reaps its contestant, so no zombie is left to init), so the run in
//! progress ends at once; the runner sees
//! [`requested`] between processes and returns the records it has, and `taskbench run`
//! writes them, marked interrupted, and exits 128 + the signal (130 for INT, 143 for TERM,
//! 129 for HUP, 141 for PIPE).
//! A second signal exits at once.

use measure::reap::end_descendants_of_harness;
use std::sync::Once;
use std::sync::atomic::{AtomicI32, Ordering};

/// The first signal received, 0 for none.
static SIGNAL: AtomicI32 = AtomicI32::new(0);
/// Write end of the watcher's pipe (-1 until installed).
static WAKE: AtomicI32 = AtomicI32::new(-1);

static INSTALL: Once = Once::new();

/// Installs the SIGINT, SIGTERM and SIGHUP handlers and the watcher thread, and ignores
/// SIGPIPE (once per process).
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
        // Ignored, a closed stdout is EPIPE at the write, which stops the run; the programs
        // the run starts get SIGPIPE back at its default (Rust's Command resets it).
        // SAFETY: ignoring a signal has no preconditions.
        unsafe { libc::signal(libc::SIGPIPE, libc::SIG_IGN) };
    });
}

/// Writes `bytes` to stdout and flushes it. A closed pipe asks the run to stop, as SIGPIPE,
/// and the bytes are dropped; before [`install`], and in every other command, SIGPIPE is at
/// its default and ends taskbench at the write, quietly, as any Unix tool.
pub fn write_stdout(bytes: &[u8]) -> std::io::Result<()> {
    write_or_stop(std::io::stdout().lock(), bytes)
}

/// [`write_stdout`] to `stream`, stdout or stderr (`taskbench run 2>&1 | head`).
fn write_or_stop(mut stream: impl std::io::Write, bytes: &[u8]) -> std::io::Result<()> {
    match stream.write_all(bytes).and_then(|()| stream.flush()) {
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => {
            request(libc::SIGPIPE);
            Ok(())
        }
        written => written,
    }
}

/// `print!`'s work for [`out!`] and [`outln!`]: [`write_stdout`], and any other failure a
/// panic, as `print!` makes it.
pub fn print(text: std::fmt::Arguments) {
    if let Err(e) = write_stdout(text.to_string().as_bytes()) {
        panic!("failed printing to stdout: {e}");
    }
}

/// `eprint!`'s work for [`errln!`], as [`print`] on stderr.
pub fn eprint(text: std::fmt::Arguments) {
    let stderr = std::io::stderr().lock();
    if let Err(e) = write_or_stop(stderr, text.to_string().as_bytes()) {
        panic!("failed printing to stderr: {e}");
    }
}

/// `print!` for what a run prints: a closed stdout stops the run ([`write_stdout`]).
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::interrupt::print(format_args!($($arg)*))
    };
}

/// `println!` for what a run prints: a closed stdout stops the run ([`write_stdout`]).
#[macro_export]
macro_rules! outln {
    () => {
        $crate::interrupt::print(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::interrupt::print(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprintln!` for what a run says on stderr: a closed stderr stops the run ([`write_stdout`]).
#[macro_export]
macro_rules! errln {
    ($($arg:tt)*) => {
        $crate::interrupt::eprint(format_args!("{}\n", format_args!($($arg)*)))
    };
}

pub use crate::{errln, out, outln};

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

/// `SIGINT`, `SIGTERM`, `SIGHUP`, `SIGPIPE`.
pub fn signal_name(signal: i32) -> String {
    match signal {
        libc::SIGINT => "SIGINT".into(),
        libc::SIGTERM => "SIGTERM".into(),
        libc::SIGHUP => "SIGHUP".into(),
        libc::SIGPIPE => "SIGPIPE (stdout closed)".into(),
        other => format!("signal {other}"),
    }
}

extern "C" fn on_signal(signal: libc::c_int) {
    if SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_err()
    {
        // The second one: at once.
        // SAFETY: _exit is async-signal-safe.
        unsafe { libc::_exit(128 + signal) };
    }
    wake();
}

/// A stop asked for from outside a handler (a closed stdout): the first request's signal
/// is the one the run reports; a later one changes nothing.
fn request(signal: i32) {
    if SIGNAL
        .compare_exchange(0, signal, Ordering::SeqCst, Ordering::SeqCst)
        .is_ok()
    {
        wake();
    }
}

/// Wakes the watcher; async-signal-safe.
fn wake() {
    let fd = WAKE.load(Ordering::SeqCst);
    if fd >= 0 {
        let byte = 1u8;
        // SAFETY: write is async-signal-safe; nothing here allocates.
        unsafe { libc::write(fd, (&byte as *const u8).cast(), 1) };
    }
}

/// The watcher: waits for the handler's byte, then kills every descendant's group but the
/// launchers', which it asks to end (they reap their contestants).
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
        if end_descendants_of_harness(unsafe { libc::getpid() }) == 0 {
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
        assert_eq!(signal_name(libc::SIGPIPE), "SIGPIPE (stdout closed)");
        assert!(!requested() && exit_code().is_none());
    }
}
