//! `std::thread::spawn` that counts the threads of an iteration, so that a refused spawn
//! names the thread the OS would not create and the run ends at once (see `fatal`).

use crate::fatal::fail;
use std::sync::atomic::{AtomicU64, Ordering};
use std::thread::{self, JoinHandle};

/// Threads the current iteration creates in all, for the failure message.
static PLANNED: AtomicU64 = AtomicU64::new(0);
/// Threads the current iteration has asked for so far.
static SPAWNED: AtomicU64 = AtomicU64::new(0);

/// Starts counting the threads of an iteration that will create `threads` of them.
/// Relaxed is enough: the threads that read the counters are spawned after this store.
pub fn plan(threads: u64) {
    PLANNED.store(threads, Ordering::Relaxed);
    SPAWNED.store(0, Ordering::Relaxed);
}

/// How far the current iteration got: threads asked for so far, threads it needs in all.
pub fn progress() -> (u64, u64) {
    (
        SPAWNED.load(Ordering::Relaxed),
        PLANNED.load(Ordering::Relaxed),
    )
}

/// `std::thread::spawn` with std's defaults (no name, 2 MiB stack), through
/// `thread::Builder` so that a refusal is reported instead of panicking.
pub fn spawn<T, F>(f: F) -> JoinHandle<T>
where
    F: FnOnce() -> T + Send + 'static,
    T: Send + 'static,
{
    let number = SPAWNED.fetch_add(1, Ordering::Relaxed) + 1;
    thread::Builder::new().spawn(f).unwrap_or_else(|err| {
        let planned = PLANNED.load(Ordering::Relaxed);
        fail(format_args!(
            "cannot spawn thread {number} of {planned}: {err}"
        ))
    })
}
