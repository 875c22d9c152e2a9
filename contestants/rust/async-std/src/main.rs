//! The `async-std` contestant: the scenarios on async-std's global executor, run from
//! `task::block_on` as the body of `#[async_std::main]` is. async-std is discontinued
//! upstream in favour of smol; it stays here because many programs still run on it.
//!
//! async-std's own primitives throughout: `task::spawn`, `task::sleep`,
//! `async_std::channel`, `task::yield_now` and, for the socket scenarios, async_std::net
//! (`sockets`). Tasks are joined by awaiting their `JoinHandle`s in spawn order, as in the
//! other Rust contestants.

mod sockets;

use async_std::channel::{self, Sender};
use async_std::task::{self, JoinHandle, sleep, yield_now};
use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use std::sync::Arc;
use std::time::Duration;

fn main() {
    start_runtime();
    kit::run(|scenario| Ok(task::block_on(run(scenario))))
}

/// async-std starts its executor threads (one per core) and async-io's reactor on the
/// first spawn and sleep; start them here so that runtime start-up stays outside the
/// measured iteration (docs/PROTOCOL.md §2).
fn start_runtime() {
    task::block_on(task::spawn(sleep(Duration::from_millis(1))));
}

/// Runs one iteration of `scenario`; async-std expresses them all.
async fn run(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    match scenario {
        Scenario::Spawn { tasks } => spawn(tasks).await.into(),
        Scenario::Sleep { tasks, delay_ms } => sleep_all(tasks, ms(delay_ms)).await.into(),
        Scenario::Timer { step_us, total_ms } => timer(step_us, total_ms).await,
        Scenario::Doxbee { requests, io_ms } => doxbee(requests, ms(io_ms)).await.into(),
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => parallel(requests, fanout, ms(io_ms)).await.into(),
        Scenario::Skynet { size } => skynet(0, size).await.into(),
        Scenario::Pingpong { pairs, rounds } => pingpong(pairs, rounds).await.into(),
        Scenario::Chain { length } => chain(length).await.into(),
        Scenario::Yield { tasks, yields } => yield_all(tasks, yields).await.into(),
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(connections, rounds, bytes).await.into(),
        Scenario::Connections { connections } => sockets::connections(connections).await.into(),
    }
}

/// Waits for every task in spawn order and sums what they returned.
async fn join_sum(handles: Vec<JoinHandle<u64>>) -> u64 {
    let mut sum = 0;
    for handle in handles {
        sum += handle.await;
    }
    sum
}

async fn spawn(tasks: u64) -> u64 {
    join_sum((0..tasks).map(|i| task::spawn(async move { i })).collect()).await
}

async fn sleep_all(tasks: u64, delay: Duration) -> u64 {
    let sleeper = |i| async move {
        sleep(delay).await;
        i
    };
    join_sum((0..tasks).map(|i| task::spawn(sleeper(i))).collect()).await
}

/// One task sleeps `step_us` again and again on async-std's timer, and kit times each
/// sleep.
async fn timer(step_us: u64, total_ms: u64) -> Outcome {
    task::spawn(kit::timed_sleeps(step_us, total_ms, sleep)).await
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on async-std's timer, the op's completion. Returns
/// 1 so that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Arc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    sleep(io).await;
    1
}

async fn doxbee(requests: u64, io: Duration) -> u64 {
    join_sum(
        (0..requests)
            .map(|i| {
                task::spawn(kit::doxbee::upload(i, move |step, tx| {
                    fake_io(step, tx, io)
                }))
            })
            .collect(),
    )
    .await
}

async fn parallel(requests: u64, fanout: u64, io: Duration) -> u64 {
    join_sum(
        (0..requests)
            .map(|i| task::spawn(fan_out(i, fanout, io)))
            .collect(),
    )
    .await
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations at once, each
/// its own task as in every contestant whose unit of concurrency is a task, then one
/// commit.
async fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Arc::new(Transaction::begin(request));
    let op = |i| fake_io(i, tx.clone(), io);
    let ops = (0..fanout).map(|i| task::spawn(op(i))).collect();
    join_sum(ops).await + op(fanout).await
}

/// A skynet node as a task: a leaf returns its number, an inner node spawns its ten
/// children and sums their results.
fn skynet(num: u64, size: u64) -> JoinHandle<u64> {
    task::spawn(async move {
        if size == 1 {
            return num;
        }
        let child = size / 10;
        join_sum((0..10).map(|k| skynet(num + k * child, child)).collect()).await
    })
}

async fn pingpong(pairs: u64, rounds: u64) -> u64 {
    join_sum((0..pairs).map(|_| task::spawn(pinger(rounds))).collect()).await
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a one-slot
/// channel per direction and returns the replies it received.
async fn pinger(rounds: u64) -> u64 {
    let (ping_tx, ping_rx) = channel::bounded(1);
    let (pong_tx, pong_rx) = channel::bounded(1);
    let ponger = task::spawn(async move {
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
    ponger.await;
    replies
}

/// async-std's channel has no oneshot; a channel of one slot carries the last task's sum.
async fn chain(length: u64) -> u64 {
    let (done_tx, done_rx) = channel::bounded(1);
    link(1, length, 0, done_tx);
    done_rx
        .recv()
        .await
        .expect("the last task of the chain signals")
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
/// Dropping the `JoinHandle` lets the task run on, detached.
fn link(n: u64, length: u64, sum: u64, done: Sender<u64>) {
    task::spawn(async move {
        let sum = sum + n;
        if n == length {
            done.send(sum)
                .await
                .expect("the main task waits for the chain");
        } else {
            link(n + 1, length, sum, done);
        }
    });
}

async fn yield_all(tasks: u64, yields: u64) -> u64 {
    let yielder = || kit::yields(yields, yield_now);
    join_sum((0..tasks).map(|_| task::spawn(yielder())).collect()).await
}
