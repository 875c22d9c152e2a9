//! The scenarios on std threads, in the shape of the tokio contestant's so that the
//! two read side by side: every task is an OS thread that returns its result through its
//! `JoinHandle`, fake I/O is `thread::sleep`, channels are `std::sync::mpsc`; the socket
//! scenarios are in `sockets`.

use crate::sockets;
use crate::spawn::{plan, spawn};
use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use std::sync::{Arc, mpsc};
use std::thread::{self, JoinHandle};
use std::time::Duration;

/// Runs one iteration of `scenario`; threads express them all.
pub fn run(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    plan(threads(scenario));
    let checksum = match scenario {
        // The one scenario that reports figures besides its checksum: one thread sleeps
        // `step_us` again and again, and kit times each sleep.
        Scenario::Timer { step_us, total_ms } => {
            return join(spawn(move || {
                kit::timed_sleeps_blocking(step_us, total_ms, thread::sleep)
            }));
        }
        Scenario::Spawn { tasks } => spawn_sum(tasks, |i| i),
        Scenario::Sleep { tasks, delay_ms } => spawn_sum(tasks, move |i| sleeper(i, ms(delay_ms))),
        Scenario::Doxbee { requests, io_ms } => spawn_sum(requests, move |i| {
            kit::doxbee::upload_blocking(i, |step, tx| fake_io(step, tx, ms(io_ms)))
        }),
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => spawn_sum(requests, move |i| fan_out(i, fanout, ms(io_ms))),
        Scenario::Skynet { size } => join(spawn(move || skynet(0, size))),
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, move |_| pinger(rounds)),
        Scenario::Chain { length } => chain(length),
        Scenario::Yield { tasks, yields } => spawn_sum(tasks, move |_| {
            kit::yields_blocking(yields, thread::yield_now)
        }),
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(connections, rounds, bytes),
        Scenario::Connections { connections } => sockets::connections(connections),
    };
    Outcome::from(checksum)
}

/// The threads one iteration of `scenario` creates, named if the OS refuses one.
fn threads(scenario: Scenario) -> u64 {
    match scenario {
        Scenario::Spawn { tasks }
        | Scenario::Sleep { tasks, .. }
        | Scenario::Yield { tasks, .. } => tasks,
        Scenario::Timer { .. } => 1,
        Scenario::Doxbee { requests, .. } => requests,
        Scenario::Parallel {
            requests, fanout, ..
        } => requests * (fanout + 1),
        // Every node of the tree, root included: 1 + 10 + … + size.
        Scenario::Skynet { size } => (10 * size - 1) / 9,
        Scenario::Pingpong { pairs, .. } => 2 * pairs,
        Scenario::Chain { length } => length,
        // The acceptor, and a server and a client per connection.
        Scenario::Echo { connections, .. } | Scenario::Connections { connections } => {
            2 * connections + 1
        }
    }
}

/// Waits for a thread and takes its result. A thread that panicked has already ended the
/// run (`fatal::fail_on_panic`), so the `expect` is only there to unwrap.
pub(crate) fn join<T>(handle: JoinHandle<T>) -> T {
    handle.join().expect("a thread panicked")
}

/// Spawns `count` threads, thread `i` running `task(i)`, all before the first is joined;
/// then joins them in spawn order and sums their results.
fn spawn_sum<F>(count: u64, task: F) -> u64
where
    F: Fn(u64) -> u64 + Clone + Send + 'static,
{
    let handles: Vec<_> = (0..count)
        .map(|i| {
            let task = task.clone();
            spawn(move || task(i))
        })
        .collect();
    handles.into_iter().map(join).sum()
}

/// A thread of the sleep scenario: sleeps `delay`, then returns its number.
fn sleeper(i: u64, delay: Duration) -> u64 {
    thread::sleep(delay);
    i
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a `thread::sleep`, the op's completion. Returns 1 so that
/// callers count the operations they really waited for.
fn fake_io(index: u64, tx: Arc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    thread::sleep(io);
    1
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations at once, a
/// thread each, then one commit.
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
/// channel per direction (`mpsc::channel`, the one std users reach for) and returns the
/// replies it received.
fn pinger(rounds: u64) -> u64 {
    let (ping_tx, ping_rx) = mpsc::channel();
    let (pong_tx, pong_rx) = mpsc::channel();
    let ponger = spawn(move || {
        for ball in ping_rx {
            pong_tx.send(ball).expect("the pinger waits for its reply");
        }
    });
    let mut replies = 0;
    for ball in 0..rounds {
        ping_tx
            .send(ball)
            .expect("the ponger serves until the pinger is done");
        pong_rx.recv().expect("the ponger replies to every ball");
        replies += 1;
    }
    drop(ping_tx); // ends the ponger's loop
    join(ponger);
    replies
}

fn chain(length: u64) -> u64 {
    let (done_tx, done_rx) = mpsc::channel();
    spawn(move || link(1, length, 0, done_tx));
    done_rx
        .recv()
        .expect("the last thread of the chain signals")
}

/// Thread `n` of the chain: adds `n` to the sum it was handed, then spawns thread `n + 1`
/// with the new sum and ends (dropping the handle detaches it), or, being the last, signals
/// the sum.
fn link(n: u64, length: u64, sum: u64, done: mpsc::Sender<u64>) {
    let sum = sum + n;
    if n == length {
        done.send(sum).expect("the main thread waits for the chain");
    } else {
        spawn(move || link(n + 1, length, sum, done));
    }
}
