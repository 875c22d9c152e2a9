//! floor's executor: one thread, a FIFO run queue of tasks, and the timer heap and the
//! epoll reactor, consulted after every round of the queue. A task (see [`crate::task`]) is
//! one allocation, which is at once the queue's entry, its wakers' target and its join
//! handle's.
//!
//! Everything lives in thread-locals of the thread that calls [`block_on`]: floor is
//! single-threaded by design, so a waker is meant to be woken on that thread (the futures
//! and channels of this crate are `!Send`, so nothing here can take one elsewhere).

use crate::task::{self, TaskRef};
use crate::{reactor, timer};
use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::task::Poll;

pub use crate::task::JoinHandle;

/// Runs `future` as the main task, with every task it spawns, until it completes; tasks
/// still pending then are dropped.
///
/// When a task waits for I/O, the reactor is polled after every round, and waited on (until
/// the earliest timer) instead of sleeping when no task is ready.
///
/// # Panics
/// When every task waits, and no timer is pending and no task waits for I/O: nothing could
/// ever wake them. When
/// called from inside a task (`block_on` does not nest).
pub fn block_on<T: 'static>(future: impl Future<Output = T> + 'static) -> T {
    let _running = Running::enter();
    let mut main = spawn(future);
    loop {
        run_round();
        if let Some(output) = main.try_take() {
            return output;
        }
        let idle = READY.with_borrow(VecDeque::is_empty);
        let io = reactor::wait(idle, timer::earliest());
        if !timer::fire_due(idle && !io) && idle && !io {
            panic!("floor: every task waits, and no timer is pending");
        }
    }
}

/// Spawns `future` as a task at the back of the run queue.
pub fn spawn<T: 'static>(future: impl Future<Output = T> + 'static) -> JoinHandle<T> {
    let (task, handle) = task::new(future);
    push(task);
    handle
}

/// Puts the current task at the back of the run queue, once.
pub async fn yield_now() {
    let mut yielded = false;
    poll_fn(|cx| {
        if yielded {
            return Poll::Ready(());
        }
        yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
    .await;
}

/// Puts a woken or new task at the back of the run queue. A wake that comes as the thread
/// exits, the queue gone, is dropped.
pub(crate) fn push(task: TaskRef) {
    let _ = READY.try_with(|ready| ready.borrow_mut().push_back(task));
}

thread_local! {
    /// The tasks to poll in the next round, in the order they were woken.
    static READY: RefCell<VecDeque<TaskRef>> = const { RefCell::new(VecDeque::new()) };
    /// The tasks of the round being run: [`run_round`] swaps it with the queue. Both stay
    /// on the thread, so that neither buffer regrows.
    static ROUND: RefCell<VecDeque<TaskRef>> = const { RefCell::new(VecDeque::new()) };
    /// A `block_on` is running on the thread.
    static RUNNING: Cell<bool> = const { Cell::new(false) };
}

/// Polls the tasks that are queued when the round starts, each once; tasks they wake or
/// spawn go after them, to the next round.
fn run_round() {
    // The round stays borrowed while its tasks run: only this function and shutdown touch
    // it, and `block_on` does not nest. The queue is not: tasks spawn and wake.
    ROUND.with_borrow_mut(|round| {
        READY.with_borrow_mut(|ready| std::mem::swap(ready, round));
        while let Some(task) = round.pop_front() {
            task.run();
        }
    });
}

/// Marks the thread as running `block_on`, and shuts the executor down as `block_on`
/// returns or unwinds.
struct Running;

impl Running {
    fn enter() -> Self {
        // A nested `block_on` would poll the tasks of the outer one inside one's poll.
        assert!(!RUNNING.replace(true), "floor: block_on inside a task");
        Running
    }
}

impl Drop for Running {
    /// Cancels the tasks left when the main task is done (or a panic unwinds `block_on`):
    /// every live task is on the queue (or in the round, if it unwound) or in the registry.
    /// Cancelling may wake, spawn and drop tasks: repeated until nothing is left. Then
    /// forgets their timers.
    fn drop(&mut self) {
        ROUND.with_borrow_mut(|round| {
            loop {
                READY.with_borrow_mut(|ready| round.append(ready));
                let queued = !round.is_empty();
                while let Some(task) = round.pop_front() {
                    task.cancel();
                }
                if !task::cancel_listed() && !queued {
                    break;
                }
            }
        });
        timer::clear();
        RUNNING.set(false);
    }
}

#[cfg(test)]
mod tests;
