//! The scenarios on smol's `Executor` (async-executor), written once for two
//! contestants: `smol` runs the executor on the main thread, `async-executor-mt` on one
//! thread per core. Only who runs the executor differs, so only their `main`s differ.
//!
//! smol's own primitives throughout: `Executor::spawn`, async-io's `Timer`, async-channel,
//! futures-lite's `yield_now` and, for the socket scenarios, smol::net (`sockets`). Tasks
//! are joined by awaiting their `Task` handles in spawn order, as in the other Rust
//! contestants.

mod sockets;

use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use smol::channel::{self, Sender};
use smol::future::yield_now;
use smol::{Executor, Task, Timer};
use std::sync::Arc;
use std::time::Duration;

/// The executor every task goes to; `'static` so that a task can spawn tasks.
pub type Ex = &'static Executor<'static>;

/// Runs one iteration of `scenario` with every task spawned on `ex`; smol expresses them
/// all.
pub async fn run(ex: Ex, scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    match scenario {
        Scenario::Spawn { tasks } => spawn(ex, tasks).await.into(),
        Scenario::Sleep { tasks, delay_ms } => sleep_all(ex, tasks, ms(delay_ms)).await.into(),
        Scenario::Timer { step_us, total_ms } => timer(ex, step_us, total_ms).await,
        Scenario::Doxbee { requests, io_ms } => doxbee(ex, requests, ms(io_ms)).await.into(),
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => parallel(ex, requests, fanout, ms(io_ms)).await.into(),
        Scenario::Skynet { size } => skynet(ex, 0, size).await.into(),
        Scenario::Pingpong { pairs, rounds } => pingpong(ex, pairs, rounds).await.into(),
        Scenario::Chain { length } => chain(ex, length).await.into(),
        Scenario::Yield { tasks, yields } => yield_all(ex, tasks, yields).await.into(),
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(ex, connections, rounds, bytes).await.into(),
        Scenario::Connections { connections } => sockets::connections(ex, connections).await.into(),
    }
}

/// Starts async-io's reactor and its "async-io" thread, which are created on first use, so
/// that runtime start-up stays outside the measured iteration (docs/PROTOCOL.md §2).
pub fn start_reactor() {
    smol::block_on(Timer::after(Duration::from_millis(1)));
}

/// Waits for every task in spawn order and sums what they returned.
async fn join_sum(tasks: Vec<Task<u64>>) -> u64 {
    let mut sum = 0;
    for task in tasks {
        sum += task.await;
    }
    sum
}

async fn spawn(ex: Ex, tasks: u64) -> u64 {
    join_sum((0..tasks).map(|i| ex.spawn(async move { i })).collect()).await
}

async fn sleep_all(ex: Ex, tasks: u64, delay: Duration) -> u64 {
    let sleeper = |i| async move {
        Timer::after(delay).await;
        i
    };
    join_sum((0..tasks).map(|i| ex.spawn(sleeper(i))).collect()).await
}

/// One task sleeps `step_us` again and again on async-io's timer, and kit times each sleep.
async fn timer(ex: Ex, step_us: u64, total_ms: u64) -> Outcome {
    ex.spawn(kit::timed_sleeps(step_us, total_ms, Timer::after))
        .await
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on async-io's timer, the op's completion. Returns 1
/// so that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Arc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    Timer::after(io).await;
    1
}

async fn doxbee(ex: Ex, requests: u64, io: Duration) -> u64 {
    join_sum(
        (0..requests)
            .map(|i| {
                ex.spawn(kit::doxbee::upload(i, move |step, tx| {
                    fake_io(step, tx, io)
                }))
            })
            .collect(),
    )
    .await
}

async fn parallel(ex: Ex, requests: u64, fanout: u64, io: Duration) -> u64 {
    join_sum(
        (0..requests)
            .map(|i| ex.spawn(fan_out(ex, i, fanout, io)))
            .collect(),
    )
    .await
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations at once, each
/// its own task as in every contestant whose unit of concurrency is a task, then one
/// commit.
async fn fan_out(ex: Ex, request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Arc::new(Transaction::begin(request));
    let op = |i| fake_io(i, tx.clone(), io);
    let ops = (0..fanout).map(|i| ex.spawn(op(i))).collect();
    join_sum(ops).await + op(fanout).await
}

/// A skynet node as a task: a leaf returns its number, an inner node spawns its ten
/// children and sums their results.
fn skynet(ex: Ex, num: u64, size: u64) -> Task<u64> {
    ex.spawn(async move {
        if size == 1 {
            return num;
        }
        let child = size / 10;
        join_sum(
            (0..10)
                .map(|k| skynet(ex, num + k * child, child))
                .collect(),
        )
        .await
    })
}

async fn pingpong(ex: Ex, pairs: u64, rounds: u64) -> u64 {
    join_sum((0..pairs).map(|_| ex.spawn(pinger(ex, rounds))).collect()).await
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a one-slot
/// channel per direction and returns the replies it received.
async fn pinger(ex: Ex, rounds: u64) -> u64 {
    let (ping_tx, ping_rx) = channel::bounded(1);
    let (pong_tx, pong_rx) = channel::bounded(1);
    let ponger = ex.spawn(async move {
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

/// async-channel has no oneshot; a channel of one slot carries the last task's sum.
async fn chain(ex: Ex, length: u64) -> u64 {
    let (done_tx, done_rx) = channel::bounded(1);
    link(ex, 1, length, 0, done_tx);
    done_rx
        .recv()
        .await
        .expect("the last task of the chain signals")
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
/// Each task is detached: dropping a smol `Task` would cancel it.
fn link(ex: Ex, n: u64, length: u64, sum: u64, done: Sender<u64>) {
    ex.spawn(async move {
        let sum = sum + n;
        if n == length {
            done.send(sum)
                .await
                .expect("the main task waits for the chain");
        } else {
            link(ex, n + 1, length, sum, done);
        }
    })
    .detach();
}

async fn yield_all(ex: Ex, tasks: u64, yields: u64) -> u64 {
    let yielder = || kit::yields(yields, yield_now);
    join_sum((0..tasks).map(|_| ex.spawn(yielder())).collect()).await
}
