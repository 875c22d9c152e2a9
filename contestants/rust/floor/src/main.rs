//! taskbench contestant "floor": a minimal single-threaded executor written for taskbench,
//! with no runtime crate. Each task is one heap allocation (its future, then its output in
//! the same bytes, with its state, reference count and join waker), which is at once the
//! entry on a FIFO run queue, the target of its wakers (a hand-written `RawWaker` over that
//! count) and what its join handle reads; a waker puts its task back on the queue, sleeps
//! wait in a heap of deadlines that one `thread::sleep` drives when nothing is ready, and
//! channels are `Rc<RefCell<…>>` with a stored waker. No work-stealing, no thread pool,
//! nothing atomic: it is the floor under the async runtimes, the callbacks-baseline row of
//! the bluebird tables, with each task still its own separately scheduled unit and each
//! sleep waiting for its deadline. Its I/O driver, for the socket scenarios only, is the
//! least one: one edge-triggered epoll, waited on when nothing is ready (`reactor`, `net`).

mod executor;
mod latch;
mod mpsc;
mod net;
mod oneshot;
mod reactor;
mod scenarios;
mod sockets;
mod task;
mod timer;

fn main() {
    kit::run(|scenario| Ok(executor::block_on(scenarios::run(scenario))))
}
