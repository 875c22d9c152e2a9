//! taskbench contestant "floor": a minimal single-threaded executor written for taskbench,
//! with no runtime crate. Each task is one heap allocation (its future, then its output in
//! the same bytes, with its state, reference count and join waker), which is at once the
//! entry on a FIFO run queue, the target of its wakers (a hand-written `RawWaker` over that
//! count) and what its join handle reads; a waker puts its task back on the queue, sleeps
//! wait in a heap of deadlines that one `thread::sleep` drives when nothing is ready, and
//! channels are `Rc<RefCell<…>>` with a stored waker. No work-stealing, no I/O driver, no
//! thread pool, nothing atomic: it is the floor under the async runtimes, the
//! callbacks-baseline row of the bluebird tables, with each task still its own separately
//! scheduled unit and each sleep waiting for its deadline.

mod executor;
mod mpsc;
mod oneshot;
mod scenarios;
mod task;
mod timer;

fn main() {
    kit::run(|scenario| Ok(executor::block_on(scenarios::run(scenario))))
}
