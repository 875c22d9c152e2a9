//! taskbench contestant "floor": a minimal single-threaded executor written for taskbench,
//! with no runtime crate. Tasks are boxed futures on a FIFO run queue, a waker puts its
//! task back on the queue, sleeps wait in a heap of deadlines that one `thread::sleep`
//! drives when nothing is ready, and channels are `Rc<RefCell<…>>` with a stored waker. No
//! work-stealing, no I/O driver, no thread pool: it is the floor under the async runtimes,
//! the callbacks-baseline row of the bluebird tables, with each task still its own
//! separately scheduled unit and each sleep waiting for its deadline.

mod executor;
mod mpsc;
mod oneshot;
mod scenarios;
mod timer;

fn main() {
    kit::run(|scenario| Ok(executor::block_on(scenarios::run(scenario))))
}
