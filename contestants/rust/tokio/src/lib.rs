//! The scenarios written once for tokio, so that its two flavours run the same code:
//! the `contestant-tokio` binary hands them the multi-thread runtime and
//! `contestant-tokio-current` the current-thread one.
//!
//! Every scenario runs inside `block_on`, as the body of `#[tokio::main]` does, with
//! tokio's own primitives: `tokio::spawn`, `tokio::time::sleep`, `tokio::sync` channels,
//! `tokio::task::yield_now` and, for the socket scenarios, tokio::net (`sockets`). Tasks
//! are joined by awaiting their `JoinHandle`s in spawn order, as the 2023/2024
//! async-runtimes benchmarks do (docs/SEEDS.md#async-runtimes): each task hands its result
//! back through its own handle, with no shared set to keep up to date.
//!
//! On the multi-thread runtime the body of `block_on` is not a worker (tokio's docs,
//! "Non-worker future"): its spawns go through the runtime's inject queue and it is woken
//! from a worker. [`Body::Worker`] spawns the body as a task instead, so that what it
//! spawns lands on that worker's local queue; it is the measured alternative, not the
//! default (docs/FAIRNESS.md#tokio).

mod sockets;

use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use std::sync::Arc;
use std::time::Duration;
use tokio::runtime::Runtime;
use tokio::sync::{mpsc, oneshot};
use tokio::task::{JoinHandle, yield_now};
use tokio::time::sleep;

/// Where the body of an iteration runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Body {
    /// The body is the future of `block_on` itself, as `#[tokio::main]` and tokio's
    /// tutorial run `main`: the default.
    BlockOn,
    /// The body is spawned, `block_on` awaiting its `JoinHandle`: on the multi-thread
    /// runtime it then runs on a worker.
    Worker,
}

impl Body {
    /// The variable that picks the body's place: unset or `block_on` for [`Body::BlockOn`],
    /// `worker` for [`Body::Worker`].
    pub const VAR: &str = "TASKBENCH_TOKIO_BODY";

    /// Reads [`Body::VAR`]; a value it does not know is a mistake in the run's set-up.
    pub fn from_env() -> Result<Body, String> {
        match std::env::var(Self::VAR).as_deref() {
            Err(std::env::VarError::NotPresent) | Ok("block_on") => Ok(Body::BlockOn),
            Ok("worker") => Ok(Body::Worker),
            Ok(other) => Err(format!(
                "{}={other:?}: expected \"block_on\" or \"worker\"",
                Self::VAR
            )),
            Err(err) => Err(format!("{}: {err}", Self::VAR)),
        }
    }
}

/// Runs one iteration of `scenario` on `runtime`, its body where `body` says; tokio
/// expresses them all.
pub fn run(runtime: &Runtime, body: Body, scenario: Scenario) -> Outcome {
    match body {
        Body::BlockOn => runtime.block_on(iteration(scenario)),
        Body::Worker => runtime.block_on(join(runtime.spawn(iteration(scenario)))),
    }
}

/// The body of one iteration of `scenario`.
async fn iteration(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    let checksum = match scenario {
        // The one scenario that reports figures besides its checksum: one task sleeps
        // `step_us` again and again, and kit times each sleep.
        Scenario::Timer { step_us, total_ms } => {
            return join(tokio::spawn(kit::timed_sleeps(step_us, total_ms, sleep))).await;
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
        Scenario::Skynet { size } => join(spawn_node(0, size)).await,
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, |_| pinger(rounds)).await,
        Scenario::Chain { length } => chain(length).await,
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

/// Waits for a task; a panic in it is a bug in this contestant, so it ends the run.
async fn join<T>(handle: JoinHandle<T>) -> T {
    handle.await.expect("a task panicked")
}

/// Waits for every task in spawn order and sums what they returned.
async fn join_sum(handles: Vec<JoinHandle<u64>>) -> u64 {
    let mut sum = 0;
    for handle in handles {
        sum += join(handle).await;
    }
    sum
}

/// Spawns `count` tasks, task `i` running `task(i)`, all before the first is awaited; then
/// joins them and sums their results.
async fn spawn_sum<F, T>(count: u64, task: F) -> u64
where
    F: Fn(u64) -> T,
    T: Future<Output = u64> + Send + 'static,
{
    let handles = (0..count).map(|i| tokio::spawn(task(i))).collect();
    join_sum(handles).await
}

/// A task of the sleep scenario: sleeps `delay` on tokio's timer, then returns its number.
async fn sleeper(i: u64, delay: Duration) -> u64 {
    sleep(delay).await;
    i
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on tokio's timer, the op's completion. Returns 1 so
/// that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Arc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    sleep(io).await;
    1
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations at once, each
/// its own task as in every contestant whose unit of concurrency is a task, then one
/// commit.
async fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Arc::new(Transaction::begin(request));
    let op = |i| fake_io(i, tx.clone(), io);
    spawn_sum(fanout, op).await + op(fanout).await
}

/// A skynet node: a leaf returns its number, an inner node spawns its ten children and sums
/// what they return.
async fn skynet(num: u64, size: u64) -> u64 {
    if size == 1 {
        return num;
    }
    let child = size / 10;
    let children = (0..10).map(|k| spawn_node(num + k * child, child));
    join_sum(children.collect()).await
}

/// Spawns a skynet node. A function of its own, with its return type spelled out, because
/// `skynet` spawns itself: the compiler cannot prove a future `Send` from inside the body
/// that defines it.
fn spawn_node(num: u64, size: u64) -> JoinHandle<u64> {
    tokio::spawn(skynet(num, size))
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a bounded
/// `mpsc` channel per direction and returns the replies it received. A channel per
/// direction for the whole game is how two long-lived tokio tasks talk, and it makes each
/// round one send and one receive each way, as in the other contestants; a `oneshot` per
/// round (tokio's own ping_pong bench) would also measure creating a channel every round.
async fn pinger(rounds: u64) -> u64 {
    let (ping_tx, mut ping_rx) = mpsc::channel(1);
    let (pong_tx, mut pong_rx) = mpsc::channel(1);
    let ponger = tokio::spawn(async move {
        while let Some(ball) = ping_rx.recv().await {
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

async fn chain(length: u64) -> u64 {
    let (done_tx, done_rx) = oneshot::channel();
    spawn_link(1, length, 0, done_tx);
    done_rx.await.expect("the last task of the chain signals")
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
async fn link(n: u64, length: u64, sum: u64, done: oneshot::Sender<u64>) {
    let sum = sum + n;
    if n == length {
        done.send(sum).expect("the main task waits for the chain");
    } else {
        spawn_link(n + 1, length, sum, done);
    }
}

/// Spawns a link of the chain; a function of its own for the reason given at [`spawn_node`].
fn spawn_link(n: u64, length: u64, sum: u64, done: oneshot::Sender<u64>) {
    tokio::spawn(link(n, length, sum, done));
}
