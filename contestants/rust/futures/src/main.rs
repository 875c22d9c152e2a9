//! The `futures` contestant: futures 0.3's own executor, used as a program that depends on
//! nothing else would use it. Tasks go to a `ThreadPool`, the executor futures offers for
//! spawning many `Send` tasks, which runs them on every core like the default runtimes it
//! is compared with (`LocalPool` is a `FuturesUnordered` polled on one thread, close to
//! what the `futures-joinall` contestant measures). They are joined through
//! `RemoteHandle`s from `executor::block_on`. futures has no timer, so sleeps are
//! futures-timer's `Delay`, and no `yield_now`, so [`yield_now`] is written here.

use futures::channel::{mpsc, oneshot};
use futures::executor::{ThreadPool, block_on};
use futures::future::{RemoteHandle, poll_fn};
use futures::task::{Poll, SpawnExt};
use futures::{SinkExt, StreamExt};
use futures_timer::Delay;
use kit::doxbee::{Query, Transaction};
use kit::{NotImplemented, Outcome, Scenario};
use std::sync::{Arc, LazyLock};
use std::time::Duration;

/// One pool for the whole process, with as many threads as cores (`ThreadPool::new`).
static POOL: LazyLock<ThreadPool> =
    LazyLock::new(|| ThreadPool::new().expect("cannot start the thread pool"));

fn main() {
    start_runtime();
    kit::run(|scenario| block_on(run(scenario)))
}

/// Starts the pool's threads and futures-timer's timer thread (created on the first
/// `Delay`) so that runtime start-up stays outside the measured iteration
/// (docs/PROTOCOL.md §2).
fn start_runtime() {
    LazyLock::force(&POOL);
    block_on(Delay::new(Duration::from_millis(1)));
}

/// Spawns `task` on the pool; dropping the handle would cancel it.
fn spawn<T: Send + 'static>(task: impl Future<Output = T> + Send + 'static) -> RemoteHandle<T> {
    POOL.spawn_with_handle(task)
        .expect("the pool is never shut down")
}

/// Runs one iteration of `scenario`; futures (with futures-timer) expresses every one but
/// the socket scenarios.
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
        Scenario::Chain { length } => chain(length).await.into(),
        Scenario::Yield { tasks, yields } => yield_all(tasks, yields).await.into(),
        Scenario::Echo { .. } | Scenario::Connections { .. } => {
            return Err(NotImplemented(
                "futures has no reactor and no socket types: its ThreadPool only polls \
                 futures, and futures-timer is a timer thread, so a socket could only be \
                 waited on through another runtime's reactor",
            ));
        }
    })
}

/// Waits for every task in spawn order and sums what they returned.
async fn join_sum(handles: Vec<RemoteHandle<u64>>) -> u64 {
    let mut sum = 0;
    for handle in handles {
        sum += handle.await;
    }
    sum
}

async fn spawn_all(tasks: u64) -> u64 {
    join_sum((0..tasks).map(|i| spawn(async move { i })).collect()).await
}

async fn sleep_all(tasks: u64, delay: Duration) -> u64 {
    let sleeper = |i| async move {
        Delay::new(delay).await;
        i
    };
    join_sum((0..tasks).map(|i| spawn(sleeper(i))).collect()).await
}

/// One task sleeps `step_us` again and again on futures-timer, and kit times each sleep.
async fn timer(step_us: u64, total_ms: u64) -> Outcome {
    spawn(kit::timed_sleeps(step_us, total_ms, Delay::new)).await
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on futures-timer, the op's completion. Returns 1 so
/// that callers count the operations they really awaited.
async fn fake_io(index: u64, tx: Arc<Transaction>, io: Duration) -> u64 {
    Query::call(index, tx);
    Delay::new(io).await;
    1
}

async fn doxbee(requests: u64, io: Duration) -> u64 {
    join_sum(
        (0..requests)
            .map(|i| {
                spawn(kit::doxbee::upload(i, move |step, tx| {
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
            .map(|i| spawn(fan_out(i, fanout, io)))
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
    let ops = (0..fanout).map(|i| spawn(op(i))).collect();
    join_sum(ops).await + op(fanout).await
}

/// A skynet node as a task: a leaf returns its number, an inner node spawns its ten
/// children and sums their results.
fn skynet(num: u64, size: u64) -> RemoteHandle<u64> {
    spawn(async move {
        if size == 1 {
            return num;
        }
        let child = size / 10;
        join_sum((0..10).map(|k| skynet(num + k * child, child)).collect()).await
    })
}

async fn pingpong(pairs: u64, rounds: u64) -> u64 {
    join_sum((0..pairs).map(|_| spawn(pinger(rounds))).collect()).await
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a one-slot
/// channel per direction (an mpsc channel holds `buffer` + one message per sender) and
/// returns the replies it received.
async fn pinger(rounds: u64) -> u64 {
    let (mut ping_tx, mut ping_rx) = mpsc::channel(0);
    let (mut pong_tx, mut pong_rx) = mpsc::channel(0);
    let ponger = spawn(async move {
        while let Some(ball) = ping_rx.next().await {
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
            .next()
            .await
            .expect("the ponger replies to every ball");
        replies += 1;
    }
    drop(ping_tx); // ends the ponger's loop
    ponger.await;
    replies
}

async fn chain(length: u64) -> u64 {
    let (done_tx, done_rx) = oneshot::channel();
    link(1, length, 0, done_tx);
    done_rx.await.expect("the last task of the chain signals")
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
/// `spawn_ok` spawns without a handle, so nothing waits for the task.
fn link(n: u64, length: u64, sum: u64, done: oneshot::Sender<u64>) {
    POOL.spawn_ok(async move {
        let sum = sum + n;
        if n == length {
            done.send(sum).expect("the main task waits for the chain");
        } else {
            link(n + 1, length, sum, done);
        }
    });
}

async fn yield_all(tasks: u64, yields: u64) -> u64 {
    let yielder = || kit::yields(yields, yield_now);
    join_sum((0..tasks).map(|_| spawn(yielder())).collect()).await
}

/// Returns `Pending` once, having woken its own task: the usual yield-once future, as
/// futures has no `yield_now`. The pool polls a task that woke itself again at once, on the
/// same thread, without queueing it behind the others.
async fn yield_now() {
    let mut yielded = false;
    poll_fn(|cx| {
        if yielded {
            return Poll::Ready(());
        }
        yielded = true;
        cx.waker().wake_by_ref();
        Poll::Pending
    })
    .await
}
