//! A single-threaded oneshot channel: one value from one sender to one receiver. It is the
//! chain's completion signal (join handles are the tasks themselves, see `crate::task`).

use std::cell::RefCell;
use std::future::Future;
use std::pin::Pin;
use std::rc::Rc;
use std::task::{Context, Poll, Waker};

struct Shared<T> {
    value: Option<T>,
    /// The sender is gone, having sent or not.
    closed: bool,
    receiver: Option<Waker>,
}

pub struct Sender<T>(Rc<RefCell<Shared<T>>>);

/// Completes with the value, or `None` if the sender was dropped without sending.
pub struct Receiver<T>(Rc<RefCell<Shared<T>>>);

pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let shared = Rc::new(RefCell::new(Shared {
        value: None,
        closed: false,
        receiver: None,
    }));
    (Sender(shared.clone()), Receiver(shared))
}

impl<T> Sender<T> {
    /// Hands `value` over; the receiver is woken as the sender drops.
    pub fn send(self, value: T) {
        self.0.borrow_mut().value = Some(value);
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let receiver = {
            let mut shared = self.0.borrow_mut();
            shared.closed = true;
            shared.receiver.take()
        };
        if let Some(receiver) = receiver {
            receiver.wake();
        }
    }
}

impl<T> Future for Receiver<T> {
    type Output = Option<T>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Option<T>> {
        let mut shared = self.0.borrow_mut();
        if shared.value.is_some() || shared.closed {
            return Poll::Ready(shared.value.take());
        }
        shared.receiver = Some(cx.waker().clone());
        Poll::Pending
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::{block_on, spawn};

    #[test]
    fn a_dropped_sender_closes_the_channel() {
        let received = block_on(async {
            let (sender, receiver) = channel::<u64>();
            drop(spawn(async move { drop(sender) }));
            receiver.await
        });
        assert_eq!(received, None);
    }
}
