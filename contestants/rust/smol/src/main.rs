//! The `smol` contestant: an async-executor `Executor` run on the main thread by
//! `smol::block_on`, which also drives async-io's reactor (the timers) whenever the
//! executor has nothing to run.

use contestant_smol::{run, start_reactor};
use smol::Executor;

/// An executor of our own rather than the global one behind `smol::spawn`: smol's docs keep
/// that one for tests and small programs, and it runs on a background thread.
static EX: Executor<'static> = Executor::new();

fn main() {
    start_reactor();
    kit::run(|scenario| Ok(smol::block_on(EX.run(run(&EX, scenario)))))
}
