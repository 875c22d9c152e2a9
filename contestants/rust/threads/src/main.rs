//! The `threads` contestant: the scenarios on plain `std` OS threads, one thread per task,
//! as a Rust program without an async runtime would write them: `thread::Builder::spawn`,
//! `thread::sleep`, `std::sync::mpsc`, `thread::yield_now`, and joining `JoinHandle`s.
//! Threads keep std's default stack size (2 MiB), which is what std users get.

mod fatal;
mod scenarios;
mod sockets;
mod spawn;

#[global_allocator]
static ALLOCATOR: fatal::FailCleanly = fatal::FailCleanly;

fn main() {
    fatal::fail_on_panic();
    kit::run(|scenario| Ok(scenarios::run(scenario)))
}
