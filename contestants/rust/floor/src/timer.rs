//! floor's timer: a heap of deadlines, each with the waker of the task that sleeps until it.
//! The executor fires the due ones after every round of its run queue and, when no task is
//! ready, first sleeps the thread until the earliest deadline.

use std::cell::RefCell;
use std::cmp::{Ordering, Reverse};
use std::collections::BinaryHeap;
use std::future::poll_fn;
use std::task::{Poll, Waker};
use std::thread;
use std::time::{Duration, Instant};

/// Completes once `duration` has passed, never earlier.
pub async fn sleep(duration: Duration) {
    let deadline = Instant::now() + duration;
    poll_fn(|cx| {
        if Instant::now() >= deadline {
            return Poll::Ready(());
        }
        // Registered on every pending poll, so a changed waker is honoured; a spare entry
        // only wakes the task once more.
        TIMERS.with_borrow_mut(|timers| timers.insert(deadline, cx.waker().clone()));
        Poll::Pending
    })
    .await;
}

/// Wakes the tasks whose deadline has come; if `wait`, first sleeps until the earliest
/// deadline. Returns false when no timer is pending.
pub(crate) fn fire_due(wait: bool) -> bool {
    let Some(earliest) = TIMERS.with_borrow(Timers::earliest) else {
        return false;
    };
    let mut now = Instant::now();
    if wait && earliest > now {
        // `thread::sleep` sleeps at least this long, so the earliest timer is due after it.
        thread::sleep(earliest - now);
        now = Instant::now();
    }
    // Woken one at a time so that the heap is not borrowed while a waker runs.
    while let Some(waker) = TIMERS.with_borrow_mut(|timers| timers.pop_due(now)) {
        waker.wake();
    }
    true
}

/// The earliest pending deadline.
pub(crate) fn earliest() -> Option<Instant> {
    TIMERS.with_borrow(Timers::earliest)
}

/// Forgets every pending timer (their tasks are gone).
pub(crate) fn clear() {
    TIMERS.with_borrow_mut(|timers| timers.heap.clear());
}

thread_local! {
    static TIMERS: RefCell<Timers> = RefCell::new(Timers::default());
}

/// Pending timers, earliest first; equal deadlines fire in the order they were set.
#[derive(Default)]
struct Timers {
    heap: BinaryHeap<Reverse<Timer>>,
    set: u64,
}

struct Timer {
    deadline: Instant,
    order: u64,
    waker: Waker,
}

impl Timers {
    fn insert(&mut self, deadline: Instant, waker: Waker) {
        self.heap.push(Reverse(Timer {
            deadline,
            order: self.set,
            waker,
        }));
        self.set += 1;
    }

    fn earliest(&self) -> Option<Instant> {
        self.heap.peek().map(|Reverse(timer)| timer.deadline)
    }

    /// The earliest timer's waker, if its deadline is not after `now`.
    fn pop_due(&mut self, now: Instant) -> Option<Waker> {
        if self.earliest()? > now {
            return None;
        }
        self.heap.pop().map(|Reverse(timer)| timer.waker)
    }
}

impl Timer {
    fn key(&self) -> (Instant, u64) {
        (self.deadline, self.order)
    }
}

impl Ord for Timer {
    fn cmp(&self, other: &Self) -> Ordering {
        self.key().cmp(&other.key())
    }
}

impl PartialOrd for Timer {
    fn partial_cmp(&self, other: &Self) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl PartialEq for Timer {
    fn eq(&self, other: &Self) -> bool {
        self.key() == other.key()
    }
}

impl Eq for Timer {}

#[cfg(test)]
mod tests;
