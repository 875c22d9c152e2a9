//! The monoio contestant: one monoio runtime on its io_uring driver with the timer enabled,
//! on the main thread (monoio's thread-per-core model on a single core), and every scenario
//! written with `monoio::spawn` and monoio's timer; the socket scenarios use monoio::net on
//! the same driver (`sockets`).
//!
//! monoio has no channel and no yield of its own. Channels come from `local-sync`, the
//! monoio authors' thread-local channels for thread-per-core runtimes; the yield is
//! `futures-lite`'s `yield_now`, which wakes the task and returns pending once, so that
//! monoio puts it at the back of its run queue.

mod sockets;

use futures_lite::future::yield_now;
use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario};
use local_sync::{mpsc::bounded as mpsc, oneshot};
use monoio::time::sleep;
use monoio::{IoUringDriver, RuntimeBuilder, spawn};
use std::process::exit;
use std::rc::Rc;
use std::time::Duration;

fn main() {
    // As `#[monoio::main(driver = "io_uring", timer_enabled = true)]` builds it: io_uring named,
    // where the default "fusion" driver would fall back to epoll without a word.
    let mut runtime = RuntimeBuilder::<IoUringDriver>::new()
        .enable_timer()
        .build()
        .unwrap_or_else(|err| {
            eprintln!("contestant-monoio: cannot start monoio (it needs io_uring): {err}");
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
            return spawn(kit::timed_sleeps(step_us, total_ms, sleep)).await;
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
        Scenario::Skynet { size } => spawn(skynet(0, size)).await,
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, |_| pinger(rounds)).await,
        Scenario::Chain { length } => {
            let (tx, rx) = oneshot::channel();
            spawn(link(1, length, 0, tx));
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
        sum += handle.await;
    }
    sum
}

/// A task of the sleep scenario: sleeps `delay` on monoio's timer, then returns its number.
async fn sleeper(i: u64, delay: Duration) -> u64 {
    sleep(delay).await;
    i
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on monoio's timer, the op's completion. Returns 1
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
/// what they return. monoio has no channel of its own, so the results come back by joining.
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
        sum += child.await;
    }
    sum
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over a bounded
/// channel of one message per direction (`local-sync`'s) and returns the replies it
/// received.
async fn pinger(rounds: u64) -> u64 {
    let (ping_tx, mut ping_rx) = mpsc::channel(1);
    let (pong_tx, mut pong_rx) = mpsc::channel(1);
    let ponger = spawn(async move {
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
    ponger.await;
    replies
}

/// Task `n` of the chain: adds `n` to the sum it was handed, then spawns task `n + 1` with
/// the new sum, or, being the last, signals it.
async fn link(n: u64, length: u64, sum: u64, done: oneshot::Sender<u64>) {
    let sum = sum + n;
    if n == length {
        done.send(sum).expect("the main task waits for the chain");
    } else {
        spawn(link(n + 1, length, sum, done));
    }
}
