//! floor's executor: one thread, a FIFO run queue of task ids, a waker that puts its task
//! back on the queue, and the timer heap, consulted after every round of the queue.
//!
//! Everything lives in thread-locals of the thread that calls [`block_on`]: floor is
//! single-threaded by design, so a waker is meant to be woken on that thread (the futures
//! and channels of this crate are `!Send`, so nothing here can take one elsewhere).

use crate::oneshot;
use crate::timer;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, Wake, Waker};

/// A spawned task's result; `None` if the task was dropped unfinished (when `block_on`
/// returned before it).
pub type JoinHandle<T> = oneshot::Receiver<T>;

/// Runs `future` as the main task, with every task it spawns, until it completes; tasks
/// still pending then are dropped.
///
/// # Panics
/// When every task waits and no timer is pending: nothing could ever wake them.
pub fn block_on<T: 'static>(future: impl Future<Output = T> + 'static) -> T {
    let mut main = spawn(future);
    let output = loop {
        run_round();
        if let Some(output) = main.try_recv() {
            break output;
        }
        let idle = SCHEDULER.with_borrow(|s| s.ready.is_empty());
        if !timer::fire_due(idle) && idle {
            panic!("floor: every task waits, and no timer is pending");
        }
    };
    shut_down();
    output
}

/// Spawns `future` as a task at the back of the run queue.
pub fn spawn<T: 'static>(future: impl Future<Output = T> + 'static) -> JoinHandle<T> {
    let (result, handle) = oneshot::channel();
    let task = Box::pin(async move { result.send(future.await) });
    SCHEDULER.with_borrow_mut(|s| s.insert(task));
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

thread_local! {
    static SCHEDULER: RefCell<Scheduler> = RefCell::new(Scheduler::default());
}

type BoxedFuture = Pin<Box<dyn Future<Output = ()>>>;

/// A task's slot, and its serial number (unique on the thread), so that the waker of a
/// finished task cannot wake the next task in that slot.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct TaskId {
    index: usize,
    serial: u64,
}

struct Task {
    future: BoxedFuture,
    /// Made once at spawn, so a poll allocates nothing.
    waker: Waker,
}

struct Slot {
    /// Serial of the task in the slot; `None` once it has finished.
    occupant: Option<u64>,
    /// On the run queue already: a second wake before the poll adds nothing.
    queued: bool,
    /// `None` while the task is being polled, and once it has finished.
    task: Option<Task>,
}

#[derive(Default)]
struct Scheduler {
    slots: Vec<Slot>,
    free: Vec<usize>,
    ready: VecDeque<TaskId>,
    spawned: u64,
}

impl Scheduler {
    fn insert(&mut self, future: BoxedFuture) {
        let index = self.free.pop().unwrap_or_else(|| {
            self.slots.push(Slot {
                occupant: None,
                queued: false,
                task: None,
            });
            self.slots.len() - 1
        });
        let id = TaskId {
            index,
            serial: self.spawned,
        };
        self.spawned += 1;
        let waker = Waker::from(Arc::new(TaskWaker(id)));
        self.slots[index] = Slot {
            occupant: Some(id.serial),
            queued: true,
            task: Some(Task { future, waker }),
        };
        self.ready.push_back(id);
    }

    fn wake(&mut self, id: TaskId) {
        if let Some(slot) = self.slots.get_mut(id.index)
            && slot.occupant == Some(id.serial)
            && !slot.queued
        {
            slot.queued = true;
            self.ready.push_back(id);
        }
    }

    /// Takes the next queued task out of its slot for polling; `None` for a stale entry,
    /// left by a task that woke itself and then finished.
    fn take_next(&mut self) -> Option<(TaskId, Task)> {
        let id = self.ready.pop_front()?;
        let slot = &mut self.slots[id.index];
        if slot.occupant != Some(id.serial) {
            return None;
        }
        slot.queued = false;
        Some((id, slot.task.take().expect("a queued task is in its slot")))
    }

    fn put_back(&mut self, id: TaskId, task: Task) {
        self.slots[id.index].task = Some(task);
    }

    fn release(&mut self, id: TaskId) {
        let slot = &mut self.slots[id.index];
        slot.occupant = None;
        slot.queued = false;
        self.free.push(id.index);
    }
}

/// Polls the tasks that are queued when the round starts, each once; tasks they wake or
/// spawn go after them, to the next round.
fn run_round() {
    let queued = SCHEDULER.with_borrow(|s| s.ready.len());
    for _ in 0..queued {
        let Some((id, mut task)) = SCHEDULER.with_borrow_mut(Scheduler::take_next) else {
            continue;
        };
        // The scheduler is not borrowed while the task runs: it spawns and wakes.
        match task
            .future
            .as_mut()
            .poll(&mut Context::from_waker(&task.waker))
        {
            Poll::Pending => SCHEDULER.with_borrow_mut(|s| s.put_back(id, task)),
            Poll::Ready(()) => {
                // Dropping a task may wake others (a channel closes), so not under a borrow.
                drop(task);
                SCHEDULER.with_borrow_mut(|s| s.release(id));
            }
        }
    }
}

/// Drops the tasks left when the main task is done, and their timers.
fn shut_down() {
    let slots = SCHEDULER.with_borrow_mut(|s| {
        s.ready.clear();
        s.free.clear();
        std::mem::take(&mut s.slots)
    });
    // Dropping them may wake others; those wakes find no slot and are ignored.
    drop(slots);
    timer::clear();
}

/// The waker of one task: puts it back on the run queue.
struct TaskWaker(TaskId);

impl Wake for TaskWaker {
    fn wake(self: Arc<Self>) {
        self.wake_by_ref();
    }

    fn wake_by_ref(self: &Arc<Self>) {
        SCHEDULER.with_borrow_mut(|s| s.wake(self.0));
    }
}

#[cfg(test)]
mod tests;
