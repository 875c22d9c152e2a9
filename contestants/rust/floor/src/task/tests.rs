//! The task's promises: one allocation per task, freed when its last reference goes; the
//! output reaches the handle, or drops if nobody wants it; wakers of finished or cancelled
//! tasks are harmless; every task left at shutdown is dropped.
//!
//! A counting allocator (this test binary's global allocator) counts each thread's
//! allocations and live bytes, so a test sees only its own.

use super::*;
use crate::executor::{block_on, spawn, yield_now};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::RefCell;
use std::future::{pending, poll_fn};
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::rc::Rc;

struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static LIVE_BYTES: Cell<isize> = const { Cell::new(0) };
}

fn count(allocations: u64, bytes: isize) {
    // `try_with`: the allocator also runs while the thread's locals are torn down.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + allocations));
    let _ = LIVE_BYTES.try_with(|n| n.set(n.get() + bytes));
}

fn bytes(layout: Layout) -> isize {
    isize::try_from(layout.size()).expect("an allocation fits isize")
}

// SAFETY: every call is forwarded to `System` unchanged; only counters are kept besides.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count(1, bytes(layout));
        // SAFETY: forwarded as is.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        count(0, -bytes(layout));
        // SAFETY: forwarded as is.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count(1, isize::try_from(new_size).expect("fits") - bytes(layout));
        // SAFETY: forwarded as is.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static COUNTING: Counting = Counting;

/// (allocations so far, live bytes) on this thread.
fn allocated() -> (u64, isize) {
    (ALLOCATIONS.get(), LIVE_BYTES.get())
}

/// Runs `run` twice and returns the bytes that its second run left allocated: the first
/// grows the run queue's buffers and the registry, which stay on the thread.
fn left_allocated(run: impl Fn()) -> isize {
    run();
    let before = allocated().1;
    run();
    allocated().1 - before
}

/// Counts its drops.
struct Token(Rc<Cell<u32>>);

impl Drop for Token {
    fn drop(&mut self) {
        self.0.set(self.0.get() + 1);
    }
}

#[test]
fn the_header_is_four_words() {
    assert_eq!(size_of::<Header>(), 4 * size_of::<usize>());
}

#[test]
fn a_spawn_allocates_once_and_everything_is_freed() {
    const TASKS: u64 = 1_000;
    let run = || {
        block_on(async {
            let handles: Vec<_> = (0..TASKS).map(|i| spawn(async move { i })).collect();
            let mut sum = 0;
            for handle in handles {
                sum += handle.await.expect("it ran");
            }
            sum
        })
    };
    // Grows the queue's two buffers and the registry, which stay on the thread.
    run();
    run();
    let before = allocated();
    assert_eq!(run(), TASKS * (TASKS - 1) / 2);
    let after = allocated();
    // One per task, the main task's, and the vector of handles.
    assert_eq!(after.0 - before.0, TASKS + 2);
    assert_eq!(after.1, before.1, "every byte is freed");
}

#[test]
fn an_output_reaches_its_handle_after_the_task_waited() {
    let output = block_on(async {
        let task = spawn(async {
            yield_now().await;
            String::from("late")
        });
        task.await
    });
    assert_eq!(output.as_deref(), Some("late"));
}

#[test]
fn an_output_is_dropped_once_whether_taken_or_not() {
    let drops = Rc::new(Cell::new(0));
    let (early, late) = (drops.clone(), drops.clone());
    block_on(async move {
        // Nobody will want this one: it drops as the task finishes.
        drop(spawn(async move { Token(early) }));
        // This one is finished but never awaited: it drops with its handle.
        let unread = spawn(async move { Token(late) });
        yield_now().await;
        yield_now().await;
        drop(unread);
    });
    assert_eq!(drops.get(), 2);
}

#[test]
fn a_handle_dropped_while_its_joiner_waits_is_fine() {
    let left = left_allocated(a_handle_dropped_while_its_joiner_waits);
    assert_eq!(left, 0, "the task and the joiner's waker are freed");
}

fn a_handle_dropped_while_its_joiner_waits() {
    let ran = Rc::new(Cell::new(false));
    let flag = ran.clone();
    block_on(async move {
        let mut task = spawn(async move {
            yield_now().await;
            yield_now().await;
            flag.set(true);
            7
        });
        // Polled once, so that the handle holds the main task's waker, then given up.
        let pending = poll_fn(|cx| Poll::Ready(Pin::new(&mut task).poll(cx).is_pending())).await;
        assert!(pending);
        drop(task);
        for _ in 0..3 {
            yield_now().await;
        }
    });
    assert!(ran.get());
}

#[test]
fn a_waker_woken_after_its_task_finished_is_harmless() {
    let left = left_allocated(a_waker_woken_after_its_task_finished);
    assert_eq!(left, 0, "the last waker frees the task");
}

fn a_waker_woken_after_its_task_finished() {
    let polls = Rc::new(Cell::new(0));
    let kept = Rc::new(RefCell::new(None::<Waker>));
    let (counter, stash) = (polls.clone(), kept.clone());
    block_on(async move {
        drop(spawn(poll_fn(move |cx| {
            counter.set(counter.get() + 1);
            *stash.borrow_mut() = Some(cx.waker().clone());
            Poll::Ready(())
        })));
        yield_now().await;
        let waker = kept.borrow_mut().take().expect("the task ran");
        for _ in 0..3 {
            // A clone woken by value, the waker woken by reference.
            let clone = waker.clone();
            clone.wake();
            waker.wake_by_ref();
        }
        yield_now().await;
        // The last reference: the task is freed here.
        waker.wake();
        yield_now().await;
    });
    assert_eq!(polls.get(), 1);
}

#[test]
fn a_waker_that_outlives_block_on_is_harmless() {
    let kept = Rc::new(RefCell::new(None::<Waker>));
    let stash = kept.clone();
    block_on(async move {
        drop(spawn(poll_fn(move |cx| {
            *stash.borrow_mut() = Some(cx.waker().clone());
            Poll::<()>::Pending
        })));
        yield_now().await;
    });
    // The task was cancelled with the run; waking it queues nothing for the next run.
    let waker = kept.borrow_mut().take().expect("the task ran");
    waker.wake_by_ref();
    assert_eq!(block_on(async { 5 }), 5);
    waker.wake();
}

#[test]
fn wakes_before_a_poll_poll_it_once() {
    let polls = Rc::new(Cell::new(0));
    let kept = Rc::new(RefCell::new(None::<Waker>));
    let (counter, stash) = (polls.clone(), kept.clone());
    block_on(async move {
        let task = spawn(poll_fn(move |cx| {
            counter.set(counter.get() + 1);
            *stash.borrow_mut() = Some(cx.waker().clone());
            if counter.get() == 2 {
                Poll::Ready(())
            } else {
                Poll::Pending
            }
        }));
        yield_now().await;
        let waker = kept.borrow_mut().take().expect("the task ran");
        for _ in 0..10 {
            waker.wake_by_ref();
        }
        waker.wake();
        task.await;
        yield_now().await;
    });
    assert_eq!(polls.get(), 2);
}

#[test]
fn many_tasks_spawning_tasks_all_report() {
    let sum = block_on(async {
        let parents: Vec<_> = (0..100u64)
            .map(|p| {
                spawn(async move {
                    let children: Vec<_> = (0..100u64)
                        .map(|c| spawn(async move { p * 100 + c }))
                        .collect();
                    let mut sum = 0;
                    for child in children {
                        sum += child.await.expect("it ran");
                    }
                    sum
                })
            })
            .collect();
        let mut sum = 0;
        for parent in parents {
            sum += parent.await.expect("it ran");
        }
        sum
    });
    assert_eq!(sum, (0..10_000u64).sum());
}

#[test]
fn every_task_left_at_shutdown_is_dropped() {
    let left = left_allocated(every_task_left_at_shutdown);
    assert_eq!(left, 0, "every task is freed");
}

fn every_task_left_at_shutdown() {
    let drops = Rc::new(Cell::new(0));
    let tokens = drops.clone();
    block_on(async move {
        // One waits (it is in the registry), one never runs (it is only queued), one waits
        // and has just been woken (both).
        let token = || Token(tokens.clone());
        let (waiting, queued, woken) = (token(), token(), token());
        drop(spawn(async move {
            let _token = waiting;
            pending::<()>().await;
        }));
        let kept = Rc::new(RefCell::new(None::<Waker>));
        let stash = kept.clone();
        drop(spawn(async move {
            let _token = woken;
            poll_fn(|cx| {
                *stash.borrow_mut() = Some(cx.waker().clone());
                Poll::<()>::Pending
            })
            .await;
        }));
        yield_now().await;
        kept.borrow_mut().take().expect("it ran").wake();
        drop(spawn(async move {
            let _token = queued;
        }));
    });
    assert_eq!(drops.get(), 3);
}

#[test]
fn a_handle_to_a_cancelled_task_yields_none() {
    // Kept out of the run that cancels its task.
    let kept = Rc::new(Cell::new(None));
    let stash = kept.clone();
    block_on(async move {
        stash.set(Some(spawn(pending::<u32>())));
        yield_now().await;
    });
    let handle = kept.take().expect("spawned");
    assert_eq!(block_on(handle), None);
}

#[test]
fn dropping_a_cancelled_future_may_spawn_and_wake() {
    struct SpawnsOnDrop(Rc<Cell<u32>>);
    impl Drop for SpawnsOnDrop {
        fn drop(&mut self) {
            let token = Token(self.0.clone());
            drop(spawn(async move {
                let _token = token;
                pending::<()>().await;
            }));
        }
    }
    let drops = Rc::new(Cell::new(0));
    let tokens = drops.clone();
    block_on(async move {
        let guard = SpawnsOnDrop(tokens);
        drop(spawn(async move {
            let _guard = guard;
            pending::<()>().await;
        }));
        yield_now().await;
    });
    // The task spawned during shutdown was dropped too, with its token.
    assert_eq!(drops.get(), 1);
}

#[test]
fn block_on_does_not_nest() {
    let nested = catch_unwind(|| block_on(async { block_on(async {}) }));
    assert!(nested.is_err());
    // The outer run shut down as it unwound; the thread can run again.
    assert_eq!(block_on(async { spawn(async { 3 }).await }), Some(3));
}

#[test]
fn a_panicking_run_drops_its_tasks() {
    let drops = Rc::new(Cell::new(0));
    let tokens = drops.clone();
    let run = catch_unwind(AssertUnwindSafe(|| {
        block_on(async move {
            let token = Token(tokens);
            drop(spawn(async move {
                let _token = token;
                pending::<()>().await;
            }));
            yield_now().await;
            panic!("the main task fails");
        })
    }));
    assert!(run.is_err());
    assert_eq!(drops.get(), 1);
}

#[test]
fn a_task_whose_first_poll_panics_is_dropped_at_shutdown() {
    let drops = Rc::new(Cell::new(0));
    let token = Token(drops.clone());
    let run = catch_unwind(AssertUnwindSafe(|| {
        block_on(async move {
            // The closure owns the token: the unwinding does not drop it, a cancel does.
            let failing = poll_fn(move |_| -> Poll<()> {
                let _held = &token;
                panic!("the task fails")
            });
            spawn(failing).await;
        })
    }));
    assert!(run.is_err());
    assert_eq!(drops.get(), 1);
}
