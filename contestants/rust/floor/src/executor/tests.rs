//! The executor's promises: join handles, wake-ups, fair turns, and the end of a run.

use super::*;
use crate::mpsc;
use std::cell::Cell;
use std::future::pending;
use std::rc::Rc;

#[test]
fn a_join_handle_yields_the_task_output() {
    assert_eq!(block_on(async { spawn(async { 7 }).await }), Some(7));
}

#[test]
fn a_task_whose_handle_is_dropped_still_runs() {
    let ran = Rc::new(Cell::new(false));
    let flag = ran.clone();
    block_on(async move {
        drop(spawn(async move { flag.set(true) }));
        yield_now().await;
    });
    assert!(ran.get());
}

#[test]
fn a_task_woken_by_a_channel_runs() {
    let received = block_on(async {
        let (sender, mut receiver) = mpsc::channel();
        let waiter = spawn(async move { receiver.recv().await });
        yield_now().await; // the waiter now waits on the empty channel
        sender.send(5);
        waiter.await
    });
    assert_eq!(received, Some(Some(5)));
}

#[test]
fn a_task_not_woken_is_not_polled_again() {
    let polls = Rc::new(Cell::new(0));
    let counter = polls.clone();
    block_on(async move {
        drop(spawn(poll_fn(move |_| {
            counter.set(counter.get() + 1);
            Poll::<()>::Pending
        })));
        for _ in 0..10 {
            yield_now().await;
        }
    });
    assert_eq!(polls.get(), 1);
}

#[test]
fn a_stale_wake_polls_nothing() {
    let polls = Rc::new(Cell::new(0));
    let counter = polls.clone();
    block_on(async move {
        // Wakes itself as it finishes, leaving its id on the run queue.
        drop(spawn(poll_fn(|cx| {
            cx.waker().wake_by_ref();
            Poll::Ready(())
        })));
        yield_now().await;
        // Spawned while the stale entry is still queued: it must be polled once, and the
        // stale entry must poll nothing.
        drop(spawn(poll_fn(move |_| {
            counter.set(counter.get() + 1);
            Poll::<()>::Pending
        })));
        for _ in 0..10 {
            yield_now().await;
        }
    });
    assert_eq!(polls.get(), 1);
}

#[test]
fn yielding_tasks_take_turns() {
    let turns = Rc::new(RefCell::new(Vec::new()));
    let log = turns.clone();
    block_on(async move {
        let handles: Vec<_> = (0..3)
            .map(|task| {
                let log = log.clone();
                spawn(async move {
                    for _ in 0..3 {
                        log.borrow_mut().push(task);
                        yield_now().await;
                    }
                })
            })
            .collect();
        for handle in handles {
            handle.await;
        }
    });
    assert_eq!(*turns.borrow(), [0, 1, 2, 0, 1, 2, 0, 1, 2]);
}

#[test]
fn tasks_left_when_main_ends_are_dropped() {
    let token = Rc::new(());
    let held = token.clone();
    block_on(async move {
        drop(spawn(async move {
            let _held = held;
            pending::<()>().await;
        }));
        yield_now().await;
    });
    assert_eq!(Rc::strong_count(&token), 1);
}

#[test]
#[should_panic(expected = "no timer is pending")]
fn waiting_with_nothing_to_wake_is_reported() {
    block_on(pending::<()>());
}
