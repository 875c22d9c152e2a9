//! The compio contestant: one compio `Runtime` on the main thread, built as
//! `#[compio::main]` builds it (io_uring driver, timer enabled), and every scenario written
//! with `compio::runtime::spawn` and compio's timer; the socket scenarios use compio::net
//! on the same driver (`sockets`).
//!
//! compio has no channel and no yield of its own. Channels come from `futures-channel`,
//! which compio's own tests use; the yield is `futures-lite`'s `yield_now`, which wakes the
//! task and returns pending once, so that compio puts it at the back of its run queue.

mod sockets;

use compio::runtime::{JoinHandle, ResumeUnwind, Runtime, spawn};
use compio::time::sleep;
use futures_channel::{mpsc, oneshot};
use futures_lite::future::yield_now;
use futures_util::SinkExt;
use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use std::process::exit;
use std::rc::Rc;
use std::time::Duration;

fn main() {
    // Only compio's io-uring driver is compiled in (its default features), so the runtime
    // either runs on io_uring or does not start.
    let runtime = Runtime::new().unwrap_or_else(|err| {
        eprintln!("contestant-compio: cannot start compio (it needs io_uring): {err}");
        exit(1);
    });
    kit::run(|scenario| Ok(runtime.block_on(iteration(scenario))))
}

async fn iteration(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    let checksum = match scenario {
        // The one scenario that reports figures besides its checksum: one task sleeps
        // `step_us` again and again, and kit times each sleep.
        Scenario::Timer { step_us, total_ms } => {
            return join(spawn(kit::timed_sleeps(step_us, total_ms, sleep))).await;
        }
        Scenario::Spawn { tasks } => spawn_sum(tasks, |i| async move { i }).await,
        Scenario::Sleep { tasks, delay_ms } => spawn_sum(tasks, |i| sleeper(i, ms(delay_ms))).await,
        Scenario::Doxbee { requests, io_ms } => {
            spawn_sum(requests, |i| {
                kit::doxbee::upload(i, move |step, tx| fake_io(step, tx, ms(io_ms)))
            })
            .await
        }
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => spawn_sum(requests, |i| fan_out(i, fanout, ms(io_ms))).await,
        Scenario::Skynet { size } => join(spawn(skynet(0, size))).await,
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, |_| pinger(rounds)).await,
        Scenario::Chain { length } => {
            let (tx, rx) = oneshot::channel();
            // Dropping a compio `JoinHandle` cancels its task; a link runs detached.
            spawn(link(1, length, 0, tx)).detach();
            rx.await.expect("the last task of the chain signals")
        }
        Scenario::Yield { tasks, yields } => {
            spawn_sum(tasks, |_| kit::yields(yields, yield_now)).await
        }
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(connections, rounds, bytes).await,
        Scenario::Connections { connections } => sockets::connections(connections).await,
    };
    Outcome::from(checksum)
}

/// Spawns `count` tasks, task `i` running `task(i)`, all before the first is awaited; then
/// joins them in spawn order and sums their results.
async fn spawn_sum<F>(count: u64, task: impl Fn(u64) -> F) -> u64
where
    F: Future<Output = u64> + 'static,
{
    let handles: Vec<_> = (0..count).map(|i| spawn(task(i))).collect();
    let mut sum = 0;
    for handle in handles {
        sum += join(handle).await;
    }
    sum
}

/// Waits for a task as compio's docs do: a panic in it resumes here and ends the run.
async fn join<T>(handle: JoinHandle<T>) -> T {
    handle.await.resume_unwind().expect("no task is cancelled")
}

/// A task of the sleep scenario: sleeps `delay` on compio's timer, then returns its number.
async fn sleeper(i: u64, delay: Duration) -> u64 {
    sleep(delay).await;
    i
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on compio's timer, the op's completion. Returns 1
/// so that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Rc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    sleep(io).await;
    1
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations at once, each
/// its own task, then one commit.
async fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Rc::new(Transaction::begin(request));
    let op = |i| fake_io(i, tx.clone(), io);
    spawn_sum(fanout, op).await + op(fanout).await
}

/// A skynet node: a leaf returns its number, an inner node spawns its ten children and sums
/// what they return. compio has no channel of its own, so the results come back by joining.
async fn skynet(num: u64, size: u64) -> u64 {
    if size == 1 {
        return num;
    }
    let child = size / 10;
    let children: Vec<_> = (0..10)
        .map(|k| spawn(skynet(num + k * child, child)))
        .collect();
    let mut sum = 0;
    for child in children {
        sum += join(child).await;
    }
    sum
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a bounded
/// channel of one message per direction and returns the replies it received. A
/// `futures-channel` sender waits once more than `buffer` messages are queued, so
/// `channel(1)` lets a send complete as soon as its message is queued, as the other
/// contestants' `bounded(1)` does.
async fn pinger(rounds: u64) -> u64 {
    let (mut ping_tx, mut ping_rx) = mpsc::channel(1);
    let (mut pong_tx, mut pong_rx) = mpsc::channel(1);
    let ponger = spawn(async move {
        while let Ok(ball) = ping_rx.recv().await {
            pong_tx
                .send(ball)
                .await
                .expect("the pinger waits for its reply");
        }
    });
    let mut replies = 0;
    for ball in 0..rounds {
        ping_tx
            .send(ball)
            .await
            .expect("the ponger serves until the pinger is done");
        pong_rx
            .recv()
            .await
            .expect("the ponger replies to every ball");
        replies += 1;
    }
    drop(ping_tx); // ends the ponger's loop
    join(ponger).await;
    replies
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
async fn link(n: u64, length: u64, sum: u64, done: oneshot::Sender<u64>) {
    let sum = sum + n;
    if n == length {
        done.send(sum).expect("the main task waits for the chain");
    } else {
        spawn(link(n + 1, length, sum, done)).detach();
    }
}
