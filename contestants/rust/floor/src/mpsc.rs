//! A single-threaded unbounded multi-producer channel: a queue, a count of senders, and the
//! waker of the receiver waiting on it. Skynet nodes and ping-pong pairs talk over it.

use std::cell::RefCell;
use std::collections::VecDeque;
use std::future::{Future, poll_fn};
use std::rc::Rc;
use std::task::{Poll, Waker};

struct Shared<T> {
    queue: VecDeque<T>,
    senders: usize,
    receiver: Option<Waker>,
}

pub struct Sender<T>(Rc<RefCell<Shared<T>>>);

pub struct Receiver<T>(Rc<RefCell<Shared<T>>>);

pub fn channel<T>() -> (Sender<T>, Receiver<T>) {
    let shared = Rc::new(RefCell::new(Shared {
        queue: VecDeque::new(),
        senders: 1,
        receiver: None,
    }));
    (Sender(shared.clone()), Receiver(shared))
}

impl<T> Sender<T> {
    /// Queues `value` and wakes the receiver if it waits. Values sent after the receiver is
    /// gone are dropped with the channel.
    pub fn send(&self, value: T) {
        let receiver = {
            let mut shared = self.0.borrow_mut();
            shared.queue.push_back(value);
            shared.receiver.take()
        };
        if let Some(receiver) = receiver {
            receiver.wake();
        }
    }
}

impl<T> Clone for Sender<T> {
    fn clone(&self) -> Self {
        self.0.borrow_mut().senders += 1;
        Sender(self.0.clone())
    }
}

impl<T> Drop for Sender<T> {
    fn drop(&mut self) {
        let receiver = {
            let mut shared = self.0.borrow_mut();
            shared.senders -= 1;
            // The last sender gone: a waiting receiver learns that nothing more will come.
            if shared.senders == 0 {
                shared.receiver.take()
            } else {
                None
            }
        };
        if let Some(receiver) = receiver {
            receiver.wake();
        }
    }
}

impl<T> Receiver<T> {
    /// The next value, or `None` once it is queued no more and every sender is gone.
    pub fn recv(&mut self) -> impl Future<Output = Option<T>> + '_ {
        poll_fn(|cx| {
            let mut shared = self.0.borrow_mut();
            if let Some(value) = shared.queue.pop_front() {
                return Poll::Ready(Some(value));
            }
            if shared.senders == 0 {
                return Poll::Ready(None);
            }
            shared.receiver = Some(cx.waker().clone());
            Poll::Pending
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::executor::{block_on, spawn};

    #[test]
    fn the_receiver_drains_the_queue_then_learns_every_sender_is_gone() {
        let received = block_on(async {
            let (sender, mut receiver) = channel();
            for sender in [sender.clone(), sender] {
                drop(spawn(async move { sender.send(1) }));
            }
            let mut received = Vec::new();
            while let Some(value) = receiver.recv().await {
                received.push(value);
            }
            received
        });
        assert_eq!(received, [1, 1]);
    }
}
