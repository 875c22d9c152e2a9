//! Timers fire in deadline order and never before their deadline.

use super::*;
use crate::executor::{block_on, spawn};
use std::rc::Rc;

#[test]
fn only_due_timers_pop_earliest_first() {
    let start = Instant::now();
    let at = |ms| start + Duration::from_millis(ms);
    let mut timers = Timers::default();
    for ms in [30, 10, 20] {
        timers.insert(at(ms), Waker::noop().clone());
    }
    assert!(timers.pop_due(at(9)).is_none());
    assert!(timers.pop_due(at(10)).is_some());
    assert_eq!(timers.earliest(), Some(at(20)));
    assert!(timers.pop_due(at(25)).is_some());
    assert!(timers.pop_due(at(25)).is_none());
    assert_eq!(timers.earliest(), Some(at(30)));
}

#[test]
fn equal_deadlines_fire_in_the_order_they_were_set() {
    let deadline = Instant::now();
    let mut timers = Timers::default();
    for _ in 0..3 {
        timers.insert(deadline, Waker::noop().clone());
    }
    let order: Vec<u64> =
        std::iter::from_fn(|| timers.heap.pop().map(|Reverse(timer)| timer.order)).collect();
    assert_eq!(order, [0, 1, 2]);
}

#[test]
fn sleepers_wake_in_deadline_order_and_never_early() {
    const DELAYS_MS: [u64; 4] = [30, 10, 20, 15];
    let woken = Rc::new(RefCell::new(Vec::new()));
    let log = woken.clone();
    block_on(async move {
        let handles: Vec<_> = DELAYS_MS
            .into_iter()
            .map(|ms| {
                let log = log.clone();
                spawn(async move {
                    let delay = Duration::from_millis(ms);
                    let start = Instant::now();
                    sleep(delay).await;
                    log.borrow_mut().push((ms, start.elapsed() >= delay));
                })
            })
            .collect();
        for handle in handles {
            handle.await;
        }
    });
    assert_eq!(
        *woken.borrow(),
        [(10, true), (15, true), (20, true), (30, true)]
    );
}

#[test]
fn a_zero_sleep_completes_at_once() {
    block_on(sleep(Duration::ZERO));
}
