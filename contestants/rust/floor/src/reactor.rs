//! floor's I/O reactor, the least a socket scenario needs: one epoll instance for the
//! thread, each socket registered once, edge-triggered, for reading and writing, with a
//! [`Source`] that holds, per direction, whether the socket may be ready and the waker of
//! the task waiting for it. A call is tried while the socket may be ready; when it would
//! block (or a read came back short, having emptied the socket), the direction is marked
//! not ready, and the next call stores its waker for the next edge without a system call.
//! A socket starts as not readable (an edge comes at registration if data is already
//! there) and writable. The executor waits in `epoll_wait` when it has nothing to run and
//! a task waits for I/O (see [`wait`]). tokio's readiness works the same way.
//!
//! Single-threaded like the rest of floor: events are only read in [`wait`], on the thread
//! of `block_on`, so a readiness edge that comes after a call would have blocked and before
//! its waker is stored is still in epoll's ready list at the next [`wait`].

use std::cell::Cell;
use std::io;
use std::os::fd::RawFd;
use std::task::{Context, Poll, Waker};
use std::time::Instant;

thread_local! {
    /// The thread's epoll descriptor, made at the first registration and kept to the end.
    static EPOLL: Cell<Option<RawFd>> = const { Cell::new(None) };
    /// Wakers stored in sources: tasks that wait for I/O.
    static WAITING: Cell<usize> = const { Cell::new(0) };
}

/// Which readiness a call waits for.
#[derive(Clone, Copy)]
pub(crate) enum Interest {
    Read,
    Write,
}

/// A registered socket's wakers. Boxed by its owner, so that its address, epoll's data for
/// the socket, stays put; the owner closes the socket as it drops it, which takes it out of
/// epoll.
pub(crate) struct Source {
    reader: Direction,
    writer: Direction,
}

/// One direction of a socket: whether it may be ready, and the task waiting for it.
struct Direction {
    ready: Cell<bool>,
    waker: Cell<Option<Waker>>,
}

impl Direction {
    fn new(ready: bool) -> Direction {
        Direction {
            ready: Cell::new(ready),
            waker: Cell::new(None),
        }
    }

    /// Marks the direction ready and wakes its task, if one waits.
    fn wake(&self) {
        self.ready.set(true);
        if let Some(waker) = self.waker.take() {
            WAITING.set(WAITING.get() - 1);
            waker.wake();
        }
    }
}

impl Source {
    /// Registers `fd` (nonblocking) for read and write edges.
    pub(crate) fn register(fd: RawFd) -> io::Result<Box<Source>> {
        let source = Box::new(Source {
            reader: Direction::new(false),
            writer: Direction::new(true),
        });
        let mut event = libc::epoll_event {
            events: (libc::EPOLLIN | libc::EPOLLOUT | libc::EPOLLRDHUP | libc::EPOLLET) as u32,
            u64: &raw const *source as u64,
        };
        // SAFETY: `event` is a valid epoll_event for the call; `fd` is the caller's socket.
        check(unsafe { libc::epoll_ctl(epoll()?, libc::EPOLL_CTL_ADD, fd, &mut event) })?;
        Ok(source)
    }

    /// Runs `call` if the socket may be ready for `interest`; if it is not, or the call
    /// would block, marks it not ready, stores the task's waker and returns pending, to be
    /// woken by the next edge.
    pub(crate) fn poll<T>(
        &self,
        cx: &Context<'_>,
        interest: Interest,
        call: impl FnOnce() -> io::Result<T>,
    ) -> Poll<io::Result<T>> {
        let direction = self.direction(interest);
        if direction.ready.get() {
            match call() {
                Err(err) if err.kind() == io::ErrorKind::WouldBlock => {}
                done => return Poll::Ready(done),
            }
        }
        direction.ready.set(false);
        if direction.waker.replace(Some(cx.waker().clone())).is_none() {
            WAITING.set(WAITING.get() + 1);
        }
        Poll::Pending
    }

    /// Marks the socket not ready for `interest` (a read that came back short emptied it),
    /// so that the next call waits for an edge instead of failing.
    pub(crate) fn clear(&self, interest: Interest) {
        self.direction(interest).ready.set(false);
    }

    fn direction(&self, interest: Interest) -> &Direction {
        match interest {
            Interest::Read => &self.reader,
            Interest::Write => &self.writer,
        }
    }
}

impl Drop for Source {
    fn drop(&mut self) {
        let stored = [self.reader.waker.take(), self.writer.waker.take()];
        WAITING.set(WAITING.get() - stored.iter().flatten().count());
    }
}

/// If a task waits for I/O: waits for events, at most until `deadline` (the earliest timer,
/// if any) when `block`, not at all otherwise, and wakes the tasks whose socket is ready.
/// Returns false, without a system call, when no task waits for I/O.
pub(crate) fn wait(block: bool, deadline: Option<Instant>) -> bool {
    if WAITING.get() == 0 {
        return false;
    }
    let timeout = match (block, deadline) {
        (false, _) => 0,
        (true, None) => -1,
        // Rounded up to whole milliseconds, so that the deadline has passed on waking.
        (true, Some(deadline)) => {
            let left = deadline.saturating_duration_since(Instant::now());
            i32::try_from(left.as_micros().div_ceil(1_000)).unwrap_or(i32::MAX)
        }
    };
    let mut events = [libc::epoll_event { events: 0, u64: 0 }; 256];
    let epoll = epoll().expect("the epoll descriptor exists once a task waits for I/O");
    // SAFETY: `events` has room for the count passed.
    let ready = unsafe { libc::epoll_wait(epoll, events.as_mut_ptr(), 256, timeout) };
    if ready < 0 && io::Error::last_os_error().kind() != io::ErrorKind::Interrupted {
        panic!("floor: epoll_wait: {}", io::Error::last_os_error());
    }
    for event in &events[..usize::try_from(ready).unwrap_or(0)] {
        let flags = event.events as i32;
        // SAFETY: the data is the address of a registered `Source`; a source's socket is
        // closed as it is dropped, which takes it out of epoll, and nothing runs between
        // `epoll_wait` and here that could drop one.
        let source = unsafe { &*(event.u64 as *const Source) };
        if flags & (libc::EPOLLIN | libc::EPOLLRDHUP | libc::EPOLLHUP | libc::EPOLLERR) != 0 {
            source.reader.wake();
        }
        if flags & (libc::EPOLLOUT | libc::EPOLLHUP | libc::EPOLLERR) != 0 {
            source.writer.wake();
        }
    }
    true
}

/// The thread's epoll descriptor, made on first use.
fn epoll() -> io::Result<RawFd> {
    if let Some(fd) = EPOLL.get() {
        return Ok(fd);
    }
    // SAFETY: no pointers; the result is checked.
    let fd = check(unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) })?;
    EPOLL.set(Some(fd));
    Ok(fd)
}

/// A libc call's result, or the error it set.
pub(crate) fn check(result: i32) -> io::Result<i32> {
    if result < 0 {
        Err(io::Error::last_os_error())
    } else {
        Ok(result)
    }
}
