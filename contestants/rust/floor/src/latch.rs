//! A single-threaded latch: shut until it is opened once, then open for good; every task
//! waiting on it wakes when it opens. It is the `connections` scenario's "go", the one
//! signal every client waits for.

use std::cell::RefCell;
use std::future::poll_fn;
use std::rc::Rc;
use std::task::{Poll, Waker};

/// A handle on the latch; clones share it.
#[derive(Clone, Default)]
pub struct Latch(Rc<RefCell<State>>);

#[derive(Default)]
struct State {
    open: bool,
    waiting: Vec<Waker>,
}

impl Latch {
    /// Opens the latch and wakes every task waiting on it.
    pub fn open(&self) {
        let waiting = {
            let mut state = self.0.borrow_mut();
            state.open = true;
            std::mem::take(&mut state.waiting)
        };
        waiting.into_iter().for_each(Waker::wake);
    }

    /// Completes once the latch is open.
    pub async fn wait(&self) {
        let mut queued = false;
        poll_fn(|cx| {
            let mut state = self.0.borrow_mut();
            if state.open {
                return Poll::Ready(());
            }
            // Woken only by `open`: a task waits here once, so its first waker is kept.
            if !queued {
                state.waiting.push(cx.waker().clone());
                queued = true;
            }
            Poll::Pending
        })
        .await;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::{block_on, spawn, yield_now};

    #[test]
    fn opening_wakes_every_waiting_task() {
        let woken = block_on(async {
            let latch = Latch::default();
            let waiters: Vec<_> = (0..3)
                .map(|i| {
                    let latch = latch.clone();
                    spawn(async move {
                        latch.wait().await;
                        i
                    })
                })
                .collect();
            yield_now().await; // every waiter now waits
            latch.open();
            let mut sum = 0;
            for waiter in waiters {
                sum += waiter.await.expect("a waiter runs to its end");
            }
            sum
        });
        assert_eq!(woken, 3);
    }
}
