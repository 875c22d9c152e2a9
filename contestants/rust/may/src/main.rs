//! taskbench contestant for may: stackful coroutines on may's work-stealing worker threads,
//! written as a may user writes Go-style code: `go!` to spawn, `coroutine::sleep` for the
//! timer, `sync::mpsc` for channels, `coroutine::yield_now` to yield, may::net for the
//! socket scenarios (`sockets`).
//!
//! may is used with its default configuration (`may::config()` untouched: one worker per
//! core, pinned, 32 KiB stacks with a guard page). Each iteration runs inside one root
//! coroutine, as `main` is a goroutine in Go: may's sleep and yield suspend only a
//! coroutine, and fall back to blocking the thread when called from a plain thread.

mod sockets;

use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use may::sync::mpsc;
use may::{coroutine, go};
use std::sync::Arc;
use std::time::Duration;

fn main() {
    // may starts its scheduler (worker and timer threads) with the first coroutine: start it
    // here, so that start-up stays outside the measured iteration as it does for runtimes
    // that are built explicitly.
    go!(|| ()).join().expect("may's scheduler starts");
    kit::run(|scenario| {
        let root = go!(move || run(scenario));
        Ok(root.join().expect("the root coroutine panicked"))
    })
}

/// One iteration of `scenario`, on a coroutine.
fn run(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    let checksum = match scenario {
        Scenario::Spawn { tasks } => spawn_sum(tasks, |i| i),
        Scenario::Sleep { tasks, delay_ms } => spawn_sum(tasks, move |i| {
            coroutine::sleep(ms(delay_ms));
            i
        }),
        // Sleeps `step_us` again and again on the root coroutine; kit times each sleep.
        Scenario::Timer { step_us, total_ms } => {
            return kit::timed_sleeps_blocking(step_us, total_ms, coroutine::sleep);
        }
        Scenario::Doxbee { requests, io_ms } => spawn_sum(requests, move |i| {
            kit::doxbee::upload_blocking(i, |step, tx| fake_io(step, tx, ms(io_ms)))
        }),
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => spawn_sum(requests, move |i| fan_out(i, fanout, ms(io_ms))),
        Scenario::Skynet { size } => skynet(0, size),
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, move |_| pinger(rounds)),
        Scenario::Chain { length } => chain(length),
        Scenario::Yield { tasks, yields } => spawn_sum(tasks, move |_| {
            kit::yields_blocking(yields, coroutine::yield_now)
        }),
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(connections, rounds, bytes),
        Scenario::Connections { connections } => sockets::connections(connections),
    };
    checksum.into()
}

/// Spawns `count` coroutines, coroutine i running `task(i)`, then joins them all and sums
/// what they return.
fn spawn_sum(count: u64, task: impl Fn(u64) -> u64 + Clone + Send + 'static) -> u64 {
    let handles: Vec<_> = (0..count)
        .map(|i| {
            let task = task.clone();
            go!(move || task(i))
        })
        .collect();
    handles
        .into_iter()
        .map(|handle| handle.join().expect("a coroutine panicked"))
        .sum()
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on may's timer, the op's completion. Returns the
/// number of operations done.
fn fake_io(index: u64, tx: Arc<Transaction>, duration: Duration) -> u64 {
    Query::call(index, tx);
    coroutine::sleep(duration);
    1
}

/// One madeup-parallel request, in one transaction: `fanout` fake I/O coroutines at once,
/// joined, then a commit.
fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Arc::new(Transaction::begin(request));
    let op = move |i| fake_io(i, tx.clone(), io);
    spawn_sum(fanout, op.clone()) + op(fanout)
}

/// A skynet node: a leaf returns its number, an inner node spawns its ten children and sums
/// what they return.
fn skynet(num: u64, size: u64) -> u64 {
    if size == 1 {
        return num;
    }
    let child = size / 10;
    spawn_sum(10, move |k| skynet(num + k * child, child))
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over an `mpsc`
/// channel per direction and returns the replies it received.
fn pinger(rounds: u64) -> u64 {
    let (ping, pings) = mpsc::channel();
    let (pong, pongs) = mpsc::channel();
    let ponger = go!(move || {
        for ball in pings {
            pong.send(ball).expect("the pinger waits for its reply");
        }
    });
    let mut replies = 0;
    for ball in 0..rounds {
        ping.send(ball)
            .expect("the ponger serves until the pinger is done");
        pongs.recv().expect("the ponger replies to every ball");
        replies += 1;
    }
    drop(ping); // ends the ponger's loop
    ponger.join().expect("the ponger panicked");
    replies
}

/// Starts the chain with the sum 0 and waits for the sum the last link signals.
fn chain(length: u64) -> u64 {
    let (done, finished) = mpsc::channel();
    go!(move || link(1, length, 0, done));
    finished.recv().expect("the last link signals")
}

/// Link `n` of the chain: adds n to the sum it was handed, then spawns link n + 1 with the
/// new sum, or, being the last, signals it.
fn link(n: u64, length: u64, sum: u64, done: mpsc::Sender<u64>) {
    let sum = sum + n;
    if n == length {
        done.send(sum).expect("the main coroutine waits");
    } else {
        go!(move || link(n + 1, length, sum, done));
    }
}
