//! The `futures-joinall` contestant: the "Rust futures" variant of the 2024 async-runtimes
//! benchmark (docs/SEEDS.md#async-runtimes-2024). There is one task, the future handed to
//! `block_on` on tokio's current-thread runtime; it holds every other future and drives
//! them with `futures::future::join_all`. Nothing is spawned, so beside `tokio-current`
//! (the same runtime, a task per unit of work) it shows what spawning itself costs.
//!
//! tokio's own timer, channels and yield: `tokio::time::sleep`, `tokio::sync::mpsc` and
//! `tokio::task::yield_now`.

use futures::future::{BoxFuture, FutureExt, join, join_all};
use kit::doxbee::{Query, Transaction};
use kit::{NotImplemented, Outcome, Scenario};
use std::rc::Rc;
use std::time::Duration;
use tokio::sync::mpsc;
use tokio::task::coop::unconstrained;
use tokio::task::yield_now;
use tokio::time::sleep;

fn main() {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("building the tokio current-thread runtime");
    // The one task runs outside tokio's cooperative budget (128 steps per poll). tokio now
    // defers the wake-up of a task that ran out of budget, so `join_all`'s
    // `FuturesUnordered` cannot tell and polls every other ready future in vain, round after
    // round (futures-rs#2053): a burst of N wake-ups costs about N²/128 polls, and parallel
    // at its default size took 36 s instead of 0.2 s here. On tokio 1.41, which the 2024
    // benchmark used, the wake-up was immediate and `FuturesUnordered` yielded at once. The
    // budget exists to protect other tasks, and here there are none.
    kit::run(|scenario| runtime.block_on(unconstrained(run(scenario))))
}

/// Runs one iteration of `scenario` inside the one task.
async fn run(scenario: Scenario) -> Result<Outcome, NotImplemented> {
    let ms = Duration::from_millis;
    Ok(match scenario {
        Scenario::Spawn { tasks } => spawn_all(tasks).await.into(),
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
        Scenario::Chain { .. } => {
            return Err(NotImplemented(
                "chain measures spawn latency; without spawns, starting the next link is \
                 only a nested await",
            ));
        }
        Scenario::Yield { tasks, yields } => yield_all(tasks, yields).await.into(),
        Scenario::Echo { .. } | Scenario::Connections { .. } => {
            return Err(NotImplemented(
                "futures has no reactor and no socket types; tokio's runtime here only drives \
                 the one task and its timer, and tokio::net on it would measure tokio-current",
            ));
        }
    })
}

/// Polls every future together until all are done, then sums what they returned.
async fn join_sum(futures: impl IntoIterator<Item = impl Future<Output = u64>>) -> u64 {
    join_all(futures).await.into_iter().sum()
}

async fn spawn_all(tasks: u64) -> u64 {
    join_sum((0..tasks).map(|i| async move { i })).await
}

async fn sleep_all(tasks: u64, delay: Duration) -> u64 {
    let sleeper = |i| async move {
        sleep(delay).await;
        i
    };
    join_sum((0..tasks).map(sleeper)).await
}

/// The one task sleeps `step_us` again and again on tokio's timer, and kit times each
/// sleep.
async fn timer(step_us: u64, total_ms: u64) -> Outcome {
    kit::timed_sleeps(step_us, total_ms, sleep).await
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on tokio's timer, the op's completion. Returns 1 so
/// that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Rc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    sleep(io).await;
    1
}

async fn doxbee(requests: u64, io: Duration) -> u64 {
    join_sum((0..requests).map(|i| kit::doxbee::upload(i, move |step, tx| fake_io(step, tx, io))))
        .await
}

async fn parallel(requests: u64, fanout: u64, io: Duration) -> u64 {
    join_sum((0..requests).map(|i| fan_out(i, fanout, io))).await
}

/// One madeup-parallel request, in one transaction: `fanout` I/O operations joined at once,
/// then one commit.
async fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Rc::new(Transaction::begin(request));
    let op = |i| fake_io(i, tx.clone(), io);
    join_sum((0..fanout).map(op)).await + op(fanout).await
}

/// A skynet node as a future: a leaf returns its number, an inner node joins its ten
/// children and sums their results. Boxed, because a future cannot contain itself.
fn skynet(num: u64, size: u64) -> BoxFuture<'static, u64> {
    async move {
        if size == 1 {
            return num;
        }
        let child = size / 10;
        join_sum((0..10).map(|k| skynet(num + k * child, child))).await
    }
    .boxed()
}

async fn pingpong(pairs: u64, rounds: u64) -> u64 {
    join_sum((0..pairs).map(|_| pair(rounds))).await
}

/// One pair: a pinger and a ponger future joined, playing `rounds` round trips over a
/// bounded `mpsc` channel per direction; returns the replies the pinger received.
async fn pair(rounds: u64) -> u64 {
    let (ping_tx, mut ping_rx) = mpsc::channel(1);
    let (pong_tx, mut pong_rx) = mpsc::channel(1);
    let ponger = async move {
        while let Some(ball) = ping_rx.recv().await {
            pong_tx
                .send(ball)
                .await
                .expect("the pinger waits for its reply");
        }
    };
    let pinger = async move {
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
        replies
    };
    join(pinger, ponger).await.0
}

async fn yield_all(tasks: u64, yields: u64) -> u64 {
    join_sum((0..tasks).map(|_| kit::yields(yields, yield_now))).await
}
