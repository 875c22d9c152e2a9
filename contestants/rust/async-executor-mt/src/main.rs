//! The `async-executor-mt` contestant: the `smol` contestant's scenarios on one
//! async-executor `Executor` run by one thread per core, the multi-threaded set-up
//! async-executor's docs show. The main thread only waits for each iteration's result.

use async_executor::Executor;
use contestant_smol::{run, start_reactor};
use std::future::pending;
use std::num::NonZero;
use std::thread;

static EX: Executor<'static> = Executor::new();

fn main() {
    let threads = thread::available_parallelism().map_or(1, NonZero::get);
    for n in 0..threads {
        // async_io::block_on, not a plain block_on: an idle executor thread drives the
        // reactor, so timers fire without a hop through the "async-io" thread.
        let started = thread::Builder::new()
            .name(format!("executor-{n}"))
            .spawn(|| async_io::block_on(EX.run(pending::<()>())));
        if let Err(err) = started {
            eprintln!("cannot start executor thread {n}: {err}");
            std::process::exit(1);
        }
    }
    start_reactor();
    kit::run(|scenario| Ok(async_io::block_on(run(&EX, scenario))))
}
