//! The yield scenario's per-task loop, shared by the Rust contestants so that each one only
//! says how it yields; spawning and joining the tasks stays in the contestant.

/// One task of the yield scenario: awaits `yield_now()` `yields` times and returns how
/// often it did, the task's share of the checksum. `yield_now` is the runtime's own yield
/// (`tokio::task::yield_now`, `smol::future::yield_now`, …); [`yields_blocking`] is the
/// same loop for tasks that block.
pub async fn yields<Y, F>(yields: u64, mut yield_now: Y) -> u64
where
    Y: FnMut() -> F,
    F: Future<Output = ()>,
{
    let mut count = 0;
    for _ in 0..yields {
        yield_now().await;
        count += 1;
    }
    count
}

/// [`yields`] for runtimes whose tasks block (OS threads, stackful coroutines): each
/// `yield_now()` gives up the processor and returns when the task runs again.
pub fn yields_blocking(yields: u64, mut yield_now: impl FnMut()) -> u64 {
    let mut count = 0;
    for _ in 0..yields {
        yield_now();
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::cell::Cell;
    use std::future::poll_fn;
    use std::pin::pin;
    use std::task::{Context, Poll, Waker};

    #[test]
    fn yields_blocking_yields_exactly_the_count_and_returns_it() {
        let mut calls = 0;
        assert_eq!(yields_blocking(7, || calls += 1), 7);
        assert_eq!(calls, 7);
        assert_eq!(yields_blocking(0, || panic!("no yield was asked for")), 0);
    }

    #[test]
    fn yields_awaits_each_yield_exactly_once() {
        // The usual yield-once future: pending once, having woken its task, then ready. Each
        // yield the loop awaits thus hands back one `Pending` to whoever polls the task.
        let calls = Cell::new(0);
        let task = yields(7, || {
            calls.set(calls.get() + 1);
            let mut yielded = false;
            poll_fn(move |cx| {
                if yielded {
                    return Poll::Ready(());
                }
                yielded = true;
                cx.waker().wake_by_ref();
                Poll::Pending
            })
        });
        let mut task = pin!(task);
        let mut pending = 0;
        let count = loop {
            match task.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
                Poll::Ready(count) => break count,
                Poll::Pending => pending += 1,
            }
        };
        assert_eq!((count, pending, calls.get()), (7, 7, 7));
    }
}
