//! How a run of this contestant fails: one line on stderr and exit status 1, whichever
//! thread fails and however, never a hang or an abort with a backtrace.
//!
//! Past the OS's limits (pid_max, vm.max_map_count, `ulimit -u`) more than the spawn itself
//! fails. A thread the OS did create maps a signal stack as it starts, and if no mapping is
//! left std panics there, where the panic cannot unwind; a thread that needs a new malloc
//! arena gets no memory, and std's allocation-failure handler aborts. Both print a
//! backtrace by default. The panic hook and the allocator below route them to [`fail`].
//!
//! A failure can strike a thread that holds one of std's locks (an allocation inside
//! std's thread start does) and that then waits for its turn to report. So [`fail`] ends
//! the process with `_exit`: `exit` would first run the reporting thread's TLS destructors,
//! and std's take that same lock (a deadlock seen in testing).

use crate::spawn::progress;
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::ffi::c_int;
use std::fmt::Display;
use std::sync::Mutex;

unsafe extern "C" {
    /// POSIX `_exit`: ends the process at once, without exit handlers or TLS destructors.
    safe fn _exit(status: c_int) -> !;
}

/// Prints `message` and exits with status 1.
pub fn fail(message: impl Display) -> ! {
    // Printing can allocate, and so fail again on this thread: then exit without the line.
    thread_local! { static FAILING: Cell<bool> = const { Cell::new(false) }; }
    if FAILING.replace(true) {
        _exit(1);
    }
    // Threads failing at the same moment must not print a line each: the first one keeps
    // the lock until the process is gone.
    static REPORT: Mutex<()> = Mutex::new(());
    let _report = REPORT.lock();
    eprintln!("{message}"); // stderr is unbuffered: the line is out before `_exit`
    _exit(1);
}

/// Makes a panic on any thread end the run through [`fail`].
pub fn fail_on_panic() {
    std::panic::set_hook(Box::new(|info| {
        let reason = info.payload_as_str().unwrap_or("a thread panicked");
        let (spawned, planned) = progress();
        fail(format_args!(
            "a thread failed after {spawned} of {planned} spawns: {reason}"
        ))
    }));
}

/// std's `System` allocator, except that an allocation it cannot satisfy ends the run
/// through [`fail`] instead of std's abort with a backtrace. Every call is `System`'s.
pub struct FailCleanly;

// SAFETY: every method hands its arguments to `System` under the caller's own guarantees;
// the only change is that a null result never comes back.
unsafe impl GlobalAlloc for FailCleanly {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        satisfied(unsafe { System.alloc(layout) }, layout.size())
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        satisfied(unsafe { System.alloc_zeroed(layout) }, layout.size())
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        satisfied(unsafe { System.realloc(ptr, layout, new_size) }, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

fn satisfied(ptr: *mut u8, size: usize) -> *mut u8 {
    if ptr.is_null() {
        let (spawned, planned) = progress();
        fail(format_args!(
            "out of memory for {size} bytes after {spawned} of {planned} spawns"
        ));
    }
    ptr
}
