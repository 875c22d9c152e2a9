//! The scenarios on floor: the same shapes as the other contestants, written with floor's
//! spawn, sleep, channels and yield, and its TCP for the socket scenarios (`sockets`).

use crate::executor::{spawn, yield_now};
use crate::sockets;
use crate::timer::sleep;
use crate::{mpsc, oneshot};
use kit::doxbee::{Query, Transaction};
use kit::{Outcome, Scenario, oversleep_outcome};
use std::future::Future;
use std::rc::Rc;
use std::time::{Duration, Instant};

/// One iteration of `scenario`, as the main task.
pub async fn run(scenario: Scenario) -> Outcome {
    let ms = Duration::from_millis;
    let checksum = match scenario {
        Scenario::Spawn { tasks } => spawn_sum(tasks, |i| async move { i }).await,
        Scenario::Sleep { tasks, delay_ms } => {
            spawn_sum(tasks, move |i| async move {
                sleep(ms(delay_ms)).await;
                i
            })
            .await
        }
        Scenario::Timer { step_us, total_ms } => {
            let count = Scenario::timer_count(step_us, total_ms);
            return timer(Duration::from_micros(step_us), count).await;
        }
        Scenario::Doxbee { requests, io_ms } => {
            spawn_sum(requests, move |i| {
                kit::doxbee::upload(i, move |step, tx| fake_io(step, tx, ms(io_ms)))
            })
            .await
        }
        Scenario::Parallel {
            requests,
            fanout,
            io_ms,
        } => spawn_sum(requests, move |i| fan_out(i, fanout, ms(io_ms))).await,
        Scenario::Skynet { size } => skynet(0, size).await,
        Scenario::Pingpong { pairs, rounds } => spawn_sum(pairs, move |_| pinger(rounds)).await,
        Scenario::Chain { length } => chain(length).await,
        Scenario::Yield { tasks, yields } => spawn_sum(tasks, move |_| yielder(yields)).await,
        Scenario::Echo {
            connections,
            rounds,
            bytes,
        } => sockets::echo(connections, rounds, bytes).await,
        Scenario::Connections { connections } => sockets::connections(connections).await,
    };
    checksum.into()
}

/// Spawns `count` tasks, task i running `task(i)`, then joins them all and sums what they
/// return.
async fn spawn_sum<F>(count: u64, task: impl Fn(u64) -> F) -> u64
where
    F: Future<Output = u64> + 'static,
{
    let handles: Vec<_> = (0..count).map(|i| spawn(task(i))).collect();
    let mut sum = 0;
    for handle in handles {
        sum += handle.await.expect("a joined task runs to its end");
    }
    sum
}

/// One fake I/O operation: its [`Query`], made for the call and let go at once
/// (docs/PROTOCOL.md §4), then a sleep on floor's timer, the op's completion. Returns the
/// number of operations done.
async fn fake_io(index: u64, tx: Rc<Transaction>, duration: Duration) -> u64 {
    Query::call(index, tx);
    sleep(duration).await;
    1
}

/// Sleeps `step` `count` times in sequence, measuring each sleep.
async fn timer(step: Duration, count: u64) -> Outcome {
    let mut slept = Vec::new();
    for _ in 0..count {
        let start = Instant::now();
        sleep(step).await;
        slept.push(start.elapsed());
    }
    oversleep_outcome(&slept, step)
}

/// One madeup-parallel request, in one transaction: `fanout` fake I/O tasks at once,
/// joined, then a commit.
async fn fan_out(request: u64, fanout: u64, io: Duration) -> u64 {
    let tx = Rc::new(Transaction::begin(request));
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
    spawn_sum(10, |k| skynet(num + k * child, child)).await
}

/// The pinger of one pair: spawns its ponger, plays `rounds` round trips over an `mpsc`
/// channel per direction and returns the replies it received.
async fn pinger(rounds: u64) -> u64 {
    let (ping, mut pings) = mpsc::channel();
    let (pong, mut pongs) = mpsc::channel();
    let ponger = spawn(async move {
        while let Some(ball) = pings.recv().await {
            pong.send(ball);
        }
    });
    let mut replies = 0;
    for ball in 0..rounds {
        ping.send(ball);
        pongs
            .recv()
            .await
            .expect("the ponger replies to every ball");
        replies += 1;
    }
    drop(ping); // ends the ponger's loop
    ponger.await.expect("the ponger runs to its end");
    replies
}

/// Starts the chain with the sum 0 and waits for the sum the last link signals.
async fn chain(length: u64) -> u64 {
    let (done, finished) = oneshot::channel();
    spawn(link(1, length, 0, done));
    finished.await.expect("the last link signals")
}

/// Link `n` of the chain: adds n to the sum it was handed, then spawns link n + 1 with the
/// new sum, or, being the last, signals it.
async fn link(n: u64, length: u64, sum: u64, done: oneshot::Sender<u64>) {
    let sum = sum + n;
    if n == length {
        done.send(sum);
    } else {
        spawn(link(n + 1, length, sum, done));
    }
}

/// Yields `yields` times; returns the count.
async fn yielder(yields: u64) -> u64 {
    let mut count = 0;
    for _ in 0..yields {
        yield_now().await;
        count += 1;
    }
    count
}

#[cfg(test)]
mod tests;
